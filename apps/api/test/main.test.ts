import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs `src/main.ts` as the deployment would, with exactly this environment. */
function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ledger/source', 'src/main.ts'], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(...chunk.split('\n').filter(Boolean)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, stdout, stderr: () => stderr, exited };
}

async function waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('main: the process', () => {
  it('a bad configuration prints one line naming the variable and exits 1', async () => {
    const main = startMain({ ENTITY_ID: 'ENTITY_MARS' });
    const [code] = await main.exited;
    expect(code).to.equal(1);
    const lines = main.stderr().trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^configuration error: ENTITY_ID must be one of ENTITY_UAE, ENTITY_IND_IFSC; LEDGER_DB_URL is required/);
  });

  describe('with a database', () => {
    let testDb: TestDatabase;
    before(async () => {
      testDb = await createTestDatabase({ migrate: false, runtimeRole: true });
    });
    after(async () => {
      await testDb.drop();
    });

    it('migrates to head as the owner, serves as the runtime role, and on SIGTERM stops cleanly with exit 0', async () => {
      const main = startMain({
        ENTITY_ID: 'ENTITY_UAE',
        LEDGER_DB_URL: testDb.runtime!.url,
        LEDGER_MIGRATION_DB_URL: testDb.url,
        PORT: '0',
        DB_POOL_MAX: '2',
      });
      try {
        const listening = await waitFor(
          () => main.stdout.map((l) => JSON.parse(l) as { message: string; port: number }).find((l) => l.message.includes(' listening on http://localhost:')),
          15_000,
        );
        const ready = await fetch(`http://127.0.0.1:${listening.port}/health/ready`);
        expect(ready.status).to.equal(200);
        // No tokens configured: fail closed.
        const read = await fetch(`http://127.0.0.1:${listening.port}/v1/transactions`, { headers: { 'X-Ledger-Token': 'x'.repeat(20) } });
        expect(read.status).to.equal(503);
        main.child.kill('SIGTERM');
        const [code] = await main.exited;
        expect(code).to.equal(0);
        expect(main.stdout.some((l) => l.includes('"message":"stopped"'))).to.equal(true);
        expect(main.stdout.filter((l) => l.includes('"level":"warn"')), 'no warning: the runtime role cannot bypass the checks').to.deep.equal([]);
      } finally {
        if (main.child.exitCode === null) main.child.kill('SIGKILL');
      }
    });
  });
});
