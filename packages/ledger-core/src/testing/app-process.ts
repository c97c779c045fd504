import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** One JSON log line the process wrote to stdout. */
export type LogLine = Record<string, unknown> & { message?: string };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * An app's process started from its TypeScript source, as `node --conditions=@ledger/source
 * --import tsx src/main.ts`, with only the environment the test gives it (plus PATH and HOME).
 */
export class AppProcess {
  readonly child: ChildProcess;
  readonly logs: LogLine[] = [];
  stderr = '';
  readonly exited: Promise<Exit>;
  readonly #waiters = new Set<() => void>();

  constructor(appDir: string, env: Record<string, string | undefined>) {
    this.child = spawn(process.execPath, ['--conditions=@ledger/source', '--import', 'tsx', 'src/main.ts'], {
      cwd: appDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = once(this.child, 'exit').then(([code, signal]) => ({ code, signal }) as Exit);
    this.exited.then(() => this.#notify());
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      try {
        this.logs.push(JSON.parse(line) as LogLine);
      } catch {
        this.logs.push({ message: line, unparsed: true });
      }
      this.#notify();
    });
  }

  #notify(): void {
    for (const wake of this.#waiters) wake();
  }

  /**
   * Resolves with the first log line whose message is `message` (or matches it, a pattern);
   * rejects if the process exits first.
   */
  async waitForLog(message: string | RegExp, timeoutMs = 20_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    const matches = (line: LogLine) =>
      typeof message === 'string' ? line.message === message : message.test(line.message ?? '');
    for (;;) {
      const found = this.logs.find(matches);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `process exited (${this.child.exitCode ?? this.child.signalCode}) before "${message}"; stderr: ${this.stderr}`,
        );
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(`no "${message}" log within ${timeoutMs} ms; logs: ${JSON.stringify(this.logs)}`);
      await this.#nextEvent(remaining);
    }
  }

  /** Resolves on the next log line or exit, or after `timeoutMs`. */
  #nextEvent(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  /** Sends `signal` and waits for the exit, measuring how long it took. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit & { tookMs: number }> {
    const sentAt = Date.now();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    const exit = await this.exited;
    return { ...exit, tookMs: Date.now() - sentAt };
  }

  /** Test cleanup: whatever state it is in, the process is gone afterwards. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
