import { randomUUID } from 'node:crypto';
import { LedgerError } from '@ledger/core/posting';
import { createLogger, currentActor, withActor } from '@ledger/core/runtime';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { Queue, type Job } from 'bullmq';
import { z } from 'zod';
import {
  createJobProducer,
  createJobWorkers,
  JobQueueUnavailable,
  queueName,
  type JobCatalog,
  type JobDefinition,
  type JobProducer,
  type JobStatus,
  type JobWorkers,
} from '../src/testing.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_UAE', silent: true });

/** What the test jobs did, by run: every call of `run`, so a job run twice shows. */
const runs: Array<{ kind: string; input: unknown }> = [];
let transientFailuresLeft = 0;
/** The test database's handle, to show the job was given it. */
let sharedDb: unknown;

/** The settings the test catalog's jobs are configured with: the runtime hands them through, typed. */
interface TestSettings {
  label: string;
}
const SETTINGS: TestSettings = { label: 'configured by the catalog owner' };

function testJob<I>(
  kind: string,
  input: z.ZodType<I>,
  run: JobDefinition<I, Record<string, unknown>, TestSettings>['run'],
  extra: Partial<JobDefinition<I, Record<string, unknown>, TestSettings>> = {},
): JobDefinition<I, Record<string, unknown>, TestSettings> {
  return {
    kind,
    mode: 'sync',
    family: 'syncs',
    books: ['ENTITY_UAE', 'ENTITY_IND_IFSC'],
    why: 'a test job',
    input,
    // Any object: the runtime's check of a result against its schema has a test job of its own.
    result: z.record(z.string(), z.unknown()),
    businessKey: () => null,
    run: async (value, deps) => {
      runs.push({ kind, input: value });
      return run(value, deps);
    },
    ...extra,
  };
}

const CATALOG: JobCatalog<TestSettings> = {
  echo: testJob('echo', z.object({ n: z.number().int() }), async ({ n }, { progress }) => {
    progress({ done: n, total: n, unit: 'items' });
    return { echoed: n };
  }),
  later: testJob('later', z.object({}), async () => ({ ran: true }), { mode: 'background' }),
  keyed: testJob('keyed', z.object({ key: z.string() }), async ({ key }) => ({ key }), {
    businessKey: ({ key }: { key: string }) => key,
    mode: 'background',
  }),
  refused: testJob('refused', z.object({}), async () => {
    throw new LedgerError('conflict', 'the ledger refuses this');
  }),
  flaky: testJob('flaky', z.object({}), async () => {
    if (transientFailuresLeft > 0) {
      transientFailuresLeft -= 1;
      throw new Error('ETIMEDOUT: upstream did not answer');
    }
    return { ok: true };
  }),
  slow: testJob('slow', z.object({ ms: z.number() }), async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { slept: ms };
  }),
  context: testJob('context', z.object({}), async (_input, { book, db, settings }) => ({
    book,
    database: db === sharedDb,
    label: settings.label,
  })),
  indiaOnly: testJob('indiaOnly', z.object({}), async () => ({}), { books: ['ENTITY_IND_IFSC'] }),
  actor: testJob('actor', z.object({}), async () => ({ actor: currentActor() })),
  undeclared: testJob('undeclared', z.object({}), async () => ({ ok: true, stray: 1 }), {
    result: z.strictObject({ ok: z.boolean() }),
  }),
  triggered: testJob('triggered', z.object({ event: z.string() }), async () => ({ actor: currentActor() }), {
    actor: ({ event }: { event: string }, jobId: string) => `webhook:test:${event}:${jobId}`,
  }),
};

describe('jobs platform (real Redis and Postgres)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let prefix: string;
  let producer: JobProducer;
  let workers: JobWorkers | undefined;

  const startWorkers = async () => {
    const started = createJobWorkers({
      book: 'ENTITY_UAE',
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      db: database.db,
      logger,
      catalog: CATALOG,
      settings: SETTINGS,
    });
    await started.waitUntilReady();
    return started;
  };

  before(async () => {
    database = await createTestDatabase({ poolMax: 4 });
    sharedDb = database.db;
  });
  after(async () => {
    await database.drop();
  });
  beforeEach(() => {
    prefix = `test-${randomUUID().slice(0, 8)}`;
    runs.length = 0;
    producer = createJobProducer({
      book: 'ENTITY_UAE',
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      catalog: CATALOG,
      syncWaitMs: 10_000,
      logger,
      db: database.db,
      backoffDelayMs: 50,
    });
  });
  afterEach(async () => {
    await workers?.close();
    workers = undefined;
    await producer.close();
  });

  /** Polls BullMQ's own state of a job (one the producer did not add has no status record). */
  async function untilFailed(queue: Queue, jobId: string) {
    for (let i = 0; i < 200; i += 1) {
      const job = await queue.getJob(jobId);
      // Read again once failed: the job read before it failed has no failedReason.
      if (job && (await job.getState()) === 'failed') return (await queue.getJob(jobId)) as Job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect.fail(`job ${jobId} never failed`);
  }

  async function until(jobId: string, state: JobStatus['status']): Promise<JobStatus> {
    for (let i = 0; i < 200; i += 1) {
      const status = await producer.status(jobId);
      if (status?.status === state) return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect.fail(`job ${jobId} never reached ${state}`);
  }

  it('a synchronous job is run by a worker and answered with its status record: done, result, duration, progress', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('echo', { n: 3 });
    expect(status).to.include({ kind: 'echo', status: 'done', attempts: 1, error: null });
    expect(status.result).to.deep.equal({ echoed: 3 });
    expect(status.progress).to.deep.equal({ done: 3, total: 3, unit: 'items' });
    expect(Date.parse(status.finished_at!) - Date.parse(status.started_at!)).to.equal(status.duration_ms);
    expect(await producer.status(status.job_id)).to.deep.equal(status);
  });

  it('a job not yet started is running with started_at its queued_at (never null), then runs when a worker comes, started no earlier', async () => {
    const queued = await producer.enqueue('later', {});
    expect(queued).to.include({ status: 'running', attempts: 0, result: null });
    expect(queued.queued_at).to.be.a('string');
    expect(queued.started_at).to.equal(queued.queued_at);
    expect(await producer.status(queued.job_id)).to.include({ started_at: queued.queued_at });
    workers = await startWorkers();
    const done = await until(queued.job_id, 'done');
    expect(done.result).to.deep.equal({ ran: true });
    expect(done.queued_at).to.equal(queued.queued_at);
    expect(Date.parse(done.started_at)).to.be.at.least(Date.parse(done.queued_at!));
  });

  it('queued_at is read from the book’s database clock, the one the start is read from, and is BullMQ’s timestamp of the job', async () => {
    const [{ now: before }] = (await database.db.raw<{ rows: Array<{ now: Date }> }>('SELECT clock_timestamp() AS now'))
      .rows as [{ now: Date }];
    const queued = await producer.enqueue('later', {});
    expect(Date.parse(queued.queued_at!)).to.be.at.least(before.getTime());
    const queue = new Queue(queueName('ENTITY_UAE', 'syncs'), { connection: { url: REDIS_URL }, prefix });
    const job = await queue.getJob(queued.job_id);
    await queue.close();
    expect(job?.timestamp).to.equal(Date.parse(queued.queued_at!));
  });

  it('a synchronous job that outlasts the wait is answered running, and can be polled to done', async () => {
    producer = createJobProducer({
      book: 'ENTITY_UAE',
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      catalog: CATALOG,
      syncWaitMs: 100,
      logger,
      db: database.db,
    });
    workers = await startWorkers();
    const status = await producer.enqueue('slow', { ms: 600 });
    expect(status.status).to.equal('running');
    expect((await until(status.job_id, 'done')).result).to.deep.equal({ slept: 600 });
  });

  it('a LedgerError fails the job at once: error with its message, one attempt, no retry', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('refused', {});
    expect(status).to.include({ status: 'error', error: 'the ledger refuses this', attempts: 1 });
    expect(runs.filter((r) => r.kind === 'refused')).to.have.length(1);
  });

  it('a result its schema does not declare fails the job for good, and is not stored', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('undeclared', {});
    expect(status).to.include({ status: 'error', attempts: 1, result: null });
    expect(status.error).to.match(/^job undeclared answered a result its schema does not declare: .*stray/s);
    expect(runs.filter((r) => r.kind === 'undeclared')).to.have.length(1);
  });

  it('a payload its schema refuses fails at once, never reaching the job', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('echo', { n: 'three' });
    expect(status.status).to.equal('error');
    expect(status.attempts).to.equal(1);
    expect(runs).to.have.length(0);
  });

  it('a transient failure is retried with backoff, and the job then succeeds', async () => {
    transientFailuresLeft = 2;
    workers = await startWorkers();
    const status = await producer.enqueue('flaky', {});
    const done = status.status === 'done' ? status : await until(status.job_id, 'done');
    expect(done).to.include({ attempts: 3, error: null });
    expect(runs.filter((r) => r.kind === 'flaky')).to.have.length(3);
  });

  it('a job of the other book fails at once, saying which books it runs on', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('indiaOnly', {});
    expect(status).to.include({ status: 'error' });
    expect(status.error).to.contain('does not run on ENTITY_UAE');
    expect(runs).to.have.length(0);
  });

  it('enqueue with a business key is idempotent while the job is kept, and keys with ":" work', async () => {
    const first = await producer.enqueue('keyed', { key: 'sync-remit:cust_1' });
    const second = await producer.enqueue('keyed', { key: 'sync-remit:cust_1' });
    const other = await producer.enqueue('keyed', { key: 'sync-remit%3Acust_1' });
    expect(second.job_id).to.equal(first.job_id);
    expect(other.job_id).not.to.equal(first.job_id);
    workers = await startWorkers();
    await until(first.job_id, 'done');
    await until(other.job_id, 'done');
    expect(runs.map((r) => r.input)).to.have.deep.members([
      { key: 'sync-remit:cust_1' },
      { key: 'sync-remit%3Acust_1' },
    ]);
  });

  it('the status outlives the job’s removal from the queue', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('echo', { n: 1 });
    const queue = new Queue(queueName('ENTITY_UAE', 'syncs'), { connection: { url: REDIS_URL }, prefix });
    await (await queue.getJob(status.job_id))?.remove();
    expect(await queue.getJob(status.job_id)).to.equal(undefined);
    await queue.close();
    expect(await producer.status(status.job_id)).to.deep.equal(status);
  });

  it('hands each job its book, database and the settings its catalog was configured with', async () => {
    workers = await startWorkers();
    const status = await producer.enqueue('context', {});
    expect(status.result).to.deep.equal({ book: 'ENTITY_UAE', database: true, label: SETTINGS.label });
  });

  it('runs each job as its actor (job:<kind>:<job_id>, or the one its definition names), which is what its writes record', async () => {
    workers = await startWorkers();
    const plain = await producer.enqueue('actor', {});
    expect(plain.result).to.deep.equal({ actor: `job:actor:${plain.job_id}` });
    const triggered = await producer.enqueue('triggered', { event: 'orders.paid' });
    expect(triggered.result).to.deep.equal({ actor: `webhook:test:orders.paid:${triggered.job_id}` });
  });

  it('records who queued a job (the actor of the request) on its run and status record, never in its input', async () => {
    workers = await startWorkers();
    const status = await withActor('api:ana@example.com', () => producer.enqueue('echo', { n: 2 }));
    expect(status).to.include({ status: 'done', started_by: 'api:ana@example.com' });
    expect(await producer.status(status.job_id)).to.include({ started_by: 'api:ana@example.com' });
    const row = await database.db('job_runs').where({ job_id: status.job_id }).first('started_by', 'input');
    expect(row).to.deep.equal({ started_by: 'api:ana@example.com', input: { n: 2 } });
    // A job queued without saying who (an older producer) reads system.
    const queue = new Queue(queueName('ENTITY_UAE', 'syncs'), { connection: { url: REDIS_URL }, prefix });
    const unsaid = await queue.add('echo', { n: 1 });
    await queue.close();
    expect(await until(String(unsaid.id), 'done')).to.include({ started_by: 'system' });
  });

  it('fails a job of a kind it does not know at once (UnrecoverableError), naming it, whatever queue it is on', async () => {
    workers = await startWorkers();
    for (const family of ['syncs', 'recost', 'webhook-syncs'] as const) {
      const queue = new Queue(queueName('ENTITY_UAE', family), { connection: { url: REDIS_URL }, prefix });
      const job = await queue.add('sync-everything', {}, { attempts: 3 });
      const failed = await untilFailed(queue, String(job.id));
      expect(failed.attemptsStarted, family).to.equal(1);
      expect(failed.failedReason).to.include('unknown job name "sync-everything"');
      await queue.close();
    }
  });

  it('does not take an inherited property of the catalog for a job', async () => {
    workers = await startWorkers();
    const queue = new Queue(queueName('ENTITY_UAE', 'syncs'), { connection: { url: REDIS_URL }, prefix });
    const job = await queue.add('toString', {}, { attempts: 3 });
    const failed = await untilFailed(queue, String(job.id));
    expect([failed.failedReason, failed.attemptsStarted]).to.deep.equal([
      'unknown job name "toString"; this worker runs ' + Object.keys(CATALOG).sort().join(', '),
      1,
    ]);
    await queue.close();
  });

  it('an unknown job id has no status', async () => {
    expect(await producer.status(randomUUID())).to.equal(null);
  });

  it('two sets of workers on one book share the queues: each of 30 jobs runs exactly once', async () => {
    workers = await startWorkers();
    const second = await startWorkers();
    try {
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, n) => producer.enqueue('echo', { n })));
      for (const s of statuses) if (s.status !== 'done') await until(s.job_id, 'done');
      expect(runs.map((r) => (r.input as { n: number }).n).sort((a, b) => a - b)).to.deep.equal(
        Array.from({ length: 30 }, (_, n) => n),
      );
    } finally {
      await second.close();
    }
  });

  it('with Redis unreachable, enqueue fails at once with JobQueueUnavailable instead of hanging', async () => {
    const down = createJobProducer({
      book: 'ENTITY_UAE',
      redisUrl: 'redis://127.0.0.1:1',
      queuePrefix: prefix,
      catalog: CATALOG,
      syncWaitMs: 10_000,
      logger,
      db: database.db,
    });
    const started = Date.now();
    try {
      const error = await down.enqueue('later', {}).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(JobQueueUnavailable);
      expect(Date.now() - started).to.be.below(3_000);
    } finally {
      await down.close();
    }
  });
});
