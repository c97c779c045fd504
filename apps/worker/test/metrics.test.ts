import { randomBytes } from 'node:crypto';
import { createLogger, createMetrics, type Metrics } from '@ledger/core/runtime';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { createJobWorkers, queueName, type JobWorkers } from '@ledger/job-runtime';
import { DEFAULT_JOB_SETTINGS, JOBS } from '@ledger/jobs';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { observeWorker } from '../src/metrics.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BOOK = 'ENTITY_UAE';
const logger = createLogger({ level: 'error', service: 'worker-test', book: BOOK, silent: true });

/** The value of the one sample of `name` whose labels include each of `labels`; undefined when none. */
async function sample(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = await metrics.metrics();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('worker metrics', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let prefix: string;
  let connection: Redis;
  let metrics: Metrics;
  const queue = (family: 'syncs' | 'recost') => new Queue(queueName(BOOK, family), { connection, prefix });

  beforeEach(async () => {
    database = await createTestDatabase({ runtimeRole: true });
    prefix = `worker-metrics-${randomBytes(4).toString('hex')}`;
    connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    metrics = createMetrics({ service: 'worker', book: BOOK });
  });
  afterEach(async () => {
    for (const family of ['syncs', 'recost'] as const) await queue(family).obliterate({ force: true });
    await connection.quit();
    await database.drop();
  });

  /** The catalog's workers on this test's queues, observed, for the time of `run`. */
  async function withWorkers(run: () => Promise<void>): Promise<void> {
    const jobs = createJobWorkers({
      book: BOOK,
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      db: database.runtime!.db,
      logger,
      catalog: JOBS,
      settings: DEFAULT_JOB_SETTINGS,
    });
    const observed = observeWorker(jobs, { book: BOOK, redisUrl: REDIS_URL, queuePrefix: prefix, metrics, logger });
    try {
      await jobs.waitUntilReady();
      await run();
    } finally {
      await observed.close();
      await jobs.close();
    }
  }

  it('shows each queue’s waiting and delayed jobs and how long the oldest has waited, read from Redis at scrape time', async () => {
    // No worker runs: what is queued stays there.
    const observed = observeWorker({ workers: [] } as unknown as JobWorkers, {
      book: BOOK,
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      metrics,
      logger,
    });
    try {
      const syncs = queue('syncs');
      await syncs.add('sync-holdings', {}, { timestamp: Date.now() - 90_000 });
      await syncs.add('sync-holdings', {});
      await syncs.add('sync-holdings', {}, { delay: 3_600_000 });
      const labels = { queue: queueName(BOOK, 'syncs') };
      expect(await sample(metrics, 'ledger_queue_jobs', { ...labels, state: 'waiting' })).to.equal(2);
      expect(await sample(metrics, 'ledger_queue_jobs', { ...labels, state: 'delayed' })).to.equal(1);
      expect(await sample(metrics, 'ledger_queue_oldest_waiting_seconds', labels)).to.be.within(90, 3_600);
      expect(
        await sample(metrics, 'ledger_queue_oldest_waiting_seconds', { queue: queueName(BOOK, 'recost') }),
        'none waits',
      ).to.equal(0);
      expect(await sample(metrics, 'ledger_queue_up', {})).to.equal(1);
      expect(await observed.redisReady()).to.equal(null);
    } finally {
      await observed.close();
    }
  });

  it('when Redis cannot be reached: the scrape still answers, with ledger_queue_up 0, and the worker is not ready', async () => {
    const observed = observeWorker({ workers: [] } as unknown as JobWorkers, {
      book: BOOK,
      redisUrl: 'redis://127.0.0.1:1',
      queuePrefix: prefix,
      metrics,
      logger,
    });
    try {
      expect(await sample(metrics, 'ledger_queue_up', {})).to.equal(0);
      expect(await observed.redisReady()).to.match(/^Redis/);
    } finally {
      await observed.close();
    }
  });

  it('counts each job attempt by kind and outcome with its duration: done, and failed for good (a name not in the catalog is `unknown`)', async () => {
    await withWorkers(async () => {
      await queue('recost').add('recost', {});
      await queue('syncs').add('no-such-job', {}, { attempts: 3 });
      await eventually('both attempts to be counted', async () => {
        const done = await sample(metrics, 'ledger_job_duration_seconds_count', { kind: 'recost', outcome: 'done' });
        const failed = await sample(metrics, 'ledger_job_duration_seconds_count', {
          kind: 'unknown',
          outcome: 'failed',
        });
        return done === 1 && failed === 1;
      });
      expect(
        await sample(metrics, 'ledger_job_duration_seconds_count', { kind: 'unknown', outcome: 'retried' }),
        'an unknown name is never retried',
      ).to.equal(undefined);
      expect(await metrics.metrics()).not.to.include('no-such-job');
    });
  });

  it('counts the customers a sync job failed by their reason’s code: a customer the book does not hold is not_linked, not an upstream down', async () => {
    await withWorkers(async () => {
      await queue('syncs').add('sync-holdings', { customer_ids: ['UAE-000001', 'UAE-000002'] });
      const failed = () =>
        sample(metrics, 'ledger_job_customers_failed_total', { kind: 'sync-holdings', code: 'not_linked' });
      await eventually('the failed customers to be counted', async () => (await failed()) === 2);
      expect(await metrics.metrics()).not.to.match(/ledger_job_customers_failed_total\{[^}]*code="upstream_/);
    });
  });
});
