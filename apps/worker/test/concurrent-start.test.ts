import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isAtHead } from '@ledger/core/store';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';

const WORKER_DIR = fileURLToPath(new URL('..', import.meta.url));
const RECON_DIR = fileURLToPath(new URL('../../recon', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The migrations ledger-core ships: one file each in its migrations folder (the workspace link). */
function migrationCount(): number {
  const folder = new URL('../node_modules/@ledger/core/src/migrations/', import.meta.url);
  return readdirSync(folder).filter((file) => /^\d{8}.*\.(ts|js)$/.test(file) && !file.endsWith('.d.ts')).length;
}

describe('processes starting at once on one fresh database', () => {
  let database: TestDatabase;
  let processes: AppProcess[] = [];
  const queuePrefix = `ledger-test-${process.pid}-${randomBytes(4).toString('hex')}`;

  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
  });

  afterEach(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    processes = [];
    await database.drop();
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${queuePrefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      await redis.quit();
    }
  });

  it('do not race: all come up, and each migration is applied exactly once', async () => {
    const env = { ENTITY_ID: 'ENTITY_UAE', LEDGER_DB_URL: database.url };
    processes = [
      new AppProcess(WORKER_DIR, { ...env, REDIS_URL, QUEUE_PREFIX: queuePrefix }),
      new AppProcess(RECON_DIR, env),
      new AppProcess(RECON_DIR, env),
    ];
    await Promise.all(processes.map((p) => p.waitForLog('ready', 30_000)));

    const expected = migrationCount();
    expect(expected).to.be.greaterThan(0);
    const rows: Array<{ name: string }> = await database.db('knex_migrations').select('name');
    expect(rows).to.have.length(expected);
    expect(new Set(rows.map((r) => r.name)).size).to.equal(expected);
    expect(await isAtHead(database.db)).to.equal(true);

    // Exactly one of them did the work; the others found the schema at head.
    const applied = processes.map((p) => (p.logs.find((l) => l.message === 'migrated')?.applied as string[]).length);
    expect(applied.reduce((a, b) => a + b, 0)).to.equal(expected);
    expect(applied.filter((n) => n > 0)).to.have.length(1);

    const exits = await Promise.all(processes.map((p) => p.stop('SIGTERM')));
    expect(exits.map((e) => e.code)).to.deep.equal([0, 0, 0]);
    for (const p of processes) expect(p.stderr).to.equal('');
  });
});
