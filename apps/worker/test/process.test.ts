import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { queueName } from '@ledger/job-runtime';
import { AppProcess, createTestDatabase, describeProcessStartup, type TestDatabase } from '@ledger/core/testing';

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

/** A Redis namespace of this run's own: no other test or developer sees its jobs. */
function uniqueQueuePrefix(): string {
  return `ledger-test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

const startupQueuePrefix = uniqueQueuePrefix();
describeProcessStartup({
  name: 'worker',
  metrics: [
    'ledger_job_duration_seconds',
    'ledger_job_customers_failed_total',
    'ledger_queue_jobs',
    'ledger_queue_oldest_waiting_seconds',
    'ledger_queue_up',
  ],
  appDir: WORKER_DIR,
  env: { REDIS_URL, QUEUE_PREFIX: startupQueuePrefix },
  whenReady: (_proc, ready) =>
    expect(ready.queues).to.deep.equal([
      'ledger-ENTITY_UAE-syncs',
      'ledger-ENTITY_UAE-recost',
      'ledger-ENTITY_UAE-webhook-syncs',
    ]),
  badSettings: [
    ['REDIS_URL is not a redis URL', { REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
    ['QUEUE_PREFIX has a colon', { QUEUE_PREFIX: 'a:b' }, 'QUEUE_PREFIX'],
    ['a source’s customer fee names no source', { CUSTOMER_FEE_BPS_BROKER: '30' }, 'CUSTOMER_FEE_BPS_BROKER'],
  ],
  afterEach: () => deleteKeys(startupQueuePrefix),
});

describe('worker process', () => {
  let database: TestDatabase;
  let queuePrefix: string;
  let worker: AppProcess | undefined;

  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
    queuePrefix = uniqueQueuePrefix();
  });

  afterEach(async () => {
    await worker?.kill();
    worker = undefined;
    await database.drop();
    await deleteKeys(queuePrefix);
  });

  function startWorker(): AppProcess {
    worker = new AppProcess(WORKER_DIR, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
    });
    return worker;
  }

  describe('when a job of an unknown name is queued', () => {
    it('fails it at once instead of retrying it', async () => {
      const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
      const queue = new Queue(queueName('ENTITY_UAE', 'syncs'), { connection, prefix: queuePrefix });
      try {
        const proc = startWorker();
        await proc.waitForLog('ready');
        const job = await queue.add(
          'no-such-job',
          { hello: 'world' },
          { attempts: 5, backoff: { type: 'fixed', delay: 10 } },
        );
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
