import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect } from 'chai';

/** A free TCP port on localhost. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * A Redis server of a test's own (never the shared one, which others are using), without
 * persistence: killed and started again on its port, it has lost everything, as a Redis with
 * no persistence does after a restart.
 */
export class OwnRedis {
  private process: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again) on its port, empty. */
  async restart(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let i = 0; i < 100 && !output.includes('Ready to accept connections'); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output, 'redis-server started').to.include('Ready to accept connections');
    this.process = child;
  }

  /** Kills it outright (SIGKILL): its data is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }

  /** Freezes it (SIGSTOP): connections stay open, nothing is answered, locks expire by the clock. */
  freeze(): void {
    this.process?.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.kill('SIGCONT');
  }
}
