import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isAtHead } from '@ledger/core';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { jobsQueueName } from '../src/queues.js';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';

const WORKER_DIR = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Removes every Redis key under a test's queue prefix (a worker leaves its queue's meta keys). */
async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** Polls until `check` holds or `timeoutMs` passes. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('worker process', () => {
  let database: TestDatabase;
  let queuePrefix: string;
  let worker: AppProcess | undefined;

  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false, runtimeRole: true });
    // A Redis namespace of this run's own: no other test or developer sees its jobs.
    queuePrefix = `ledger-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  });

  afterEach(async () => {
    await worker?.kill();
    worker = undefined;
    await database.drop();
    await deleteKeys(queuePrefix);
  });

  function startWorker(env: Record<string, string | undefined> = {}): AppProcess {
    worker = new AppProcess(WORKER_DIR, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      ...env,
    });
    return worker;
  }

  describe('when started on a fresh database', () => {
    it('migrates it to head, then reports ready on the book queue', async () => {
      const proc = startWorker();
      const migrated = await proc.waitForLog('migrated');
      expect(migrated.applied).to.be.an('array').with.length.greaterThan(0);
      const ready = await proc.waitForLog('ready');
      expect(ready.queue).to.equal('ledger-ENTITY_UAE-jobs');
      expect(await isAtHead(database.db)).to.equal(true);
      // One role migrating and running (a developer's setup) can switch the checks off: it says so.
      expect(proc.logs.find((l) => l.level === 'warn')?.message).to.match(/can bypass the ledger checks/);
    });

    it('on SIGTERM closes everything and exits 0 within a few seconds', async () => {
      const proc = startWorker();
      await proc.waitForLog('ready');
      const exit = await proc.stop('SIGTERM');
      expect(exit.code, proc.stderr).to.equal(0);
      expect(exit.tookMs).to.be.below(5_000);
      expect(proc.logs.map((l) => l.message)).to.include('stopped');
    });

    it('on SIGINT exits 0 as well', async () => {
      const proc = startWorker();
      await proc.waitForLog('ready');
      expect((await proc.stop('SIGINT')).code).to.equal(0);
    });
  });

  describe('as production runs it: LEDGER_MIGRATION_DB_URL the owner, LEDGER_DB_URL a role that owns nothing', () => {
    it('migrates as the owner, then runs as the other role, without a warning', async () => {
      const proc = startWorker({ LEDGER_DB_URL: database.runtime!.url, LEDGER_MIGRATION_DB_URL: database.url });
      await proc.waitForLog('ready');
      expect(await isAtHead(database.db)).to.equal(true);
      expect(proc.logs.filter((l) => l.level === 'warn')).to.deep.equal([]);
    });

    it('refuses to start when LEDGER_DB_URL is the owner too: one line on stderr', async () => {
      const proc = startWorker({ LEDGER_MIGRATION_DB_URL: database.url });
      const exit = await proc.exited;
      expect(exit.code).to.not.equal(0);
      const lines = proc.stderr.split('\n').filter((l) => l.length > 0);
      expect(lines, proc.stderr).to.have.length(1);
      expect(lines[0]).to.match(/^configuration error: LEDGER_DB_URL's role \S+ is a superuser and owns .* could bypass the ledger checks/);
    });
  });

  describe('when its configuration is bad', () => {
    const cases: Array<[string, Record<string, string | undefined>, string]> = [
      ['ENTITY_ID names no book', { ENTITY_ID: 'ENTITY_MARS' }, 'ENTITY_ID'],
      ['ENTITY_ID is unset', { ENTITY_ID: undefined }, 'ENTITY_ID'],
      ['LEDGER_DB_URL is missing', { LEDGER_DB_URL: undefined }, 'LEDGER_DB_URL'],
      ['LEDGER_MIGRATION_DB_URL is not a postgres URL', { LEDGER_MIGRATION_DB_URL: 'mysql://root@localhost/x' }, 'LEDGER_MIGRATION_DB_URL'],
      ['REDIS_URL is not a redis URL', { REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
      ['QUEUE_PREFIX has a colon', { QUEUE_PREFIX: 'a:b' }, 'QUEUE_PREFIX'],
    ];
    for (const [when, env, variable] of cases) {
      it(`when ${when} › exits non-zero with one line on stderr naming ${variable}`, async () => {
        const proc = startWorker(env);
        const exit = await proc.exited;
        expect(exit.code).to.not.equal(0);
        const lines = proc.stderr.split('\n').filter((l) => l.length > 0);
        expect(lines, proc.stderr).to.have.length(1);
        expect(lines[0]).to.include(variable);
        expect(await isAtHead(database.db)).to.equal(false);
      });
    }
  });

  describe('when a job of an unknown name is queued', () => {
    it('fails it at once instead of retrying it', async () => {
      const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
      const queue = new Queue(jobsQueueName('ENTITY_UAE'), { connection, prefix: queuePrefix });
      try {
        const proc = startWorker();
        await proc.waitForLog('ready');
        const job = await queue.add('no-such-job', { hello: 'world' }, { attempts: 5, backoff: { type: 'fixed', delay: 10 } });
        await eventually(async () => (await job.getState()) === 'failed');
        // Well past the backoff: a retried job would have left 'failed' by now.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const failed = await queue.getJob(job.id!);
        expect(await failed!.getState()).to.equal('failed');
        expect(failed!.attemptsMade).to.equal(1);
        expect(failed!.failedReason).to.include('unknown job name "no-such-job"');
      } finally {
        await queue.obliterate({ force: true });
        await queue.close();
        await connection.quit();
      }
    });
  });
});
