import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createLogger, withActor } from '@ledger/core/runtime';
import { upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import {
  createJobProducer,
  JobEnqueueUnconfirmed,
  JobQueueUnavailable,
  type JobProducer,
  type JobStatus,
} from '../src/testing.js';
import { FAULT_CATALOG, type PostSlowly } from './fault/catalog.js';
import { OwnRedis } from './own-redis.js';

/**
 * Fault injection on the jobs platform: real worker processes (test/fault/worker-process.ts) on a
 * Redis of the suite's own that the tests kill, restart empty and freeze, with a job posting
 * deposits one at a time. After each fault: the worker is alive (or its job was taken over), the
 * job ends `done` or `error` in its record, nothing runs twice, nothing refused is queued later,
 * the ledger balances, and a re-run posts nothing.
 */

/** The takeover bound the workers run with (JOB_STALLED_INTERVAL_MS): short, so the suite is. */
const STALLED_INTERVAL_MS = 2_000;
const WORKER = fileURLToPath(new URL('./fault/worker-process.ts', import.meta.url));
const CUSTOMER = 'F-1';
const logger = createLogger({ level: 'error', service: 'fault-test', book: 'ENTITY_UAE', silent: true });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker process, and the runs of the job it started (by key). */
class WorkerProcess {
  readonly runs: string[] = [];
  /** Its log lines (JSON, level warn and above). */
  readonly logs: Array<{ level: string; message: string; [field: string]: unknown }> = [];
  private output = '';
  private constructor(readonly child: ChildProcess) {}

  static async start(env: Record<string, string>): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ledger/source', WORKER], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      worker.output += chunk.toString();
      const lines = worker.output.split('\n');
      worker.output = lines.pop() ?? '';
      for (const line of lines) {
        const event = line.startsWith('{"event"') ? (JSON.parse(line) as { event: string; key?: string }) : undefined;
        if (event?.event === 'run') worker.runs.push(event.key!);
        if (event?.event === 'ready') child.emit('ready');
        if (event === undefined && line.startsWith('{'))
          worker.logs.push(JSON.parse(line) as WorkerProcess['logs'][number]);
      }
    });
    const ready = await Promise.race([
      once(child, 'ready').then(() => true),
      once(child, 'exit').then(() => false),
      sleep(30_000).then(() => false),
    ]);
    expect(ready, `the worker process started: ${stderr}`).to.equal(true);
    return worker;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    this.child.kill(signal);
    await once(this.child, 'exit');
  }
}

/** Polls until `check` answers something truthy, or fails naming `what` after `timeoutMs`. */
async function eventually<T>(what: string, check: () => Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function depositsPosted(db: Db, source: string): Promise<number> {
  const { rows } = await db.raw<{ rows: Array<{ n: string }> }>(
    `SELECT count(*) AS n FROM transactions WHERE source = 'manual' AND source_txn_id LIKE ? || '-%'`,
    [source],
  );
  return Number(rows[0]!.n);
}

/** Every transaction balances and every source key is posted once: what no fault may break. */
async function expectLedgerIntact(db: Db): Promise<void> {
  const { rows: unbalanced } = await db.raw<{ rows: unknown[] }>(
    'SELECT txn_id FROM journal_lines GROUP BY txn_id HAVING sum(debit) <> sum(credit)',
  );
  expect(unbalanced, 'unbalanced transactions').to.deep.equal([]);
  const { rows: twice } = await db.raw<{ rows: unknown[] }>(
    'SELECT source, source_txn_id FROM transactions WHERE source_txn_id IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1',
  );
  expect(twice, 'source keys posted twice').to.deep.equal([]);
}

describe('jobs under faults: worker killed, Redis restarted empty or frozen', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let redis: OwnRedis;
  let producer: JobProducer;
  let prefix: string;
  const workers: WorkerProcess[] = [];

  const startWorker = async () => {
    const worker = await WorkerProcess.start({
      LEDGER_DB_URL: database.runtime!.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      JOB_STALLED_INTERVAL_MS: String(STALLED_INTERVAL_MS),
    });
    workers.push(worker);
    return worker;
  };
  const job = (count: number, extra: Partial<PostSlowly> = {}): PostSlowly => {
    const key = `fault-${randomUUID().slice(0, 8)}`;
    return { key, source: key, customer_id: CUSTOMER, count, delay_ms: 100, ...extra };
  };
  const doneOrError = (jobId: string) =>
    eventually(`job ${jobId} to end`, async () => {
      const status = await producer.status(jobId);
      return status && status.status !== 'running' ? status : undefined;
    });
  /** A re-run of the same records (another job, the same source ids) posts nothing. */
  const expectRerunPostsNothing = async (worker: WorkerProcess, done: PostSlowly) => {
    const again = { ...done, key: `${done.key}-again`, delay_ms: 0 };
    const queued = await producer.enqueue('post-slowly', again);
    const status = await doneOrError(queued.job_id);
    expect(status.result).to.deep.equal({ inserted: 0, duplicate: done.count });
    expect(worker.runs.filter((key) => key === again.key)).to.have.length(1);
  };

  before(async () => {
    database = await createTestDatabase({ runtimeRole: true, poolMax: 4 });
    await upsertCustomer(database.db, CUSTOMER, {});
    redis = await OwnRedis.start();
  });
  beforeEach(() => {
    prefix = `fault-${randomUUID().slice(0, 8)}`;
    producer = createJobProducer({
      book: 'ENTITY_UAE',
      redisUrl: redis.url,
      queuePrefix: prefix,
      catalog: FAULT_CATALOG,
      syncWaitMs: 0,
      logger,
      db: database.db,
      backoffDelayMs: 200,
    });
  });
  afterEach(async () => {
    await producer.close();
    await Promise.all(workers.splice(0).map((worker) => worker.kill()));
    redis.thaw();
    await expectLedgerIntact(database.db);
  });
  after(async () => {
    await redis?.kill();
    await database?.drop();
  });

  it('a worker killed (kill -9) mid-job: another takes the job over within the stall bound, posts each deposit once, and the record shows both attempts and the whole time', async () => {
    const first = await startWorker();
    const input = job(30);
    const queued = await producer.enqueue('post-slowly', input);
    await eventually('the first deposits', async () => (await depositsPosted(database.db, input.source)) >= 5);
    await first.kill('SIGKILL');
    const killedAt = Date.now();
    const second = await startWorker();

    const status = await doneOrError(queued.job_id);
    expect(status).to.include({ status: 'done', attempts: 2, error: null });
    expect(await depositsPosted(database.db, input.source)).to.equal(30);
    const { inserted, duplicate } = status.result as { inserted: number; duplicate: number };
    expect(inserted + duplicate, 'the second attempt went through every deposit').to.equal(30);
    expect(second.runs).to.deep.equal([input.key]);
    expect(new Date(status.started_at!).getTime(), 'started_at is the first attempt’s').to.be.below(killedAt);
    expect(status.duration_ms).to.equal(
      new Date(status.finished_at!).getTime() - new Date(status.started_at!).getTime(),
    );
    await expectRerunPostsNothing(second, input);
  });

  it('Redis restarted empty mid-job: the worker lives on, the job ends done in its record with what it did, and runs once', async () => {
    const worker = await startWorker();
    const input = job(30);
    const queued = await producer.enqueue('post-slowly', input);
    await eventually('the first deposits', async () => (await depositsPosted(database.db, input.source)) >= 5);
    await redis.kill();
    await sleep(1_500);
    await redis.restart();

    const status = await doneOrError(queued.job_id);
    expect(status).to.include({ status: 'done', attempts: 1 });
    expect(status.result).to.deep.equal({ inserted: 30, duplicate: 0 });
    await sleep(STALLED_INTERVAL_MS * 2);
    expect(worker.alive, 'the worker survived the restart').to.equal(true);
    expect(worker.runs).to.deep.equal([input.key]);
    // BullMQ could not move the job it no longer had to finished: once, a warning naming the job,
    // never an error (the run succeeded; an operator's error alert must not fire).
    const lost = worker.logs.filter((line) => JSON.stringify(line).includes('Missing key'));
    expect(lost.map(({ level, job_id }) => ({ level, job_id }))).to.deep.equal([
      { level: 'warn', job_id: queued.job_id },
    ]);
    await expectRerunPostsNothing(worker, input);
  });

  it('Redis restarted empty while the attempt fails: the job Redis lost is queued again from the book and retried to done', async () => {
    const worker = await startWorker();
    const input = job(30, { fail_once_at: 15 });
    const queued = await withActor('api:ana@example.com', () => producer.enqueue('post-slowly', input));
    await eventually('the first deposits', async () => (await depositsPosted(database.db, input.source)) >= 3);
    await redis.kill();
    await eventually('the attempt to fail at the 16th deposit', async () => {
      const posted = await depositsPosted(database.db, input.source);
      await sleep(500);
      return posted === 15 && (await depositsPosted(database.db, input.source)) === 15;
    });
    await redis.restart();

    const status = await doneOrError(queued.job_id);
    // Queued again from the run's input, which does not say who: the run keeps who queued it.
    expect(status).to.include({ status: 'done', attempts: 2, error: null, started_by: 'api:ana@example.com' });
    expect(status.result).to.deep.equal({ inserted: 15, duplicate: 15 });
    expect(await depositsPosted(database.db, input.source)).to.equal(30);
    expect(worker.alive).to.equal(true);
    expect(worker.runs).to.deep.equal([input.key, input.key]);
  });

  it('Redis frozen past the job’s lock mid-job: BullMQ hands the job out again, and it still runs once, its record keeping what the run did', async () => {
    const worker = await startWorker();
    const input = job(40);
    const queued = await producer.enqueue('post-slowly', input);
    await eventually('the first deposits', async () => (await depositsPosted(database.db, input.source)) >= 5);
    redis.freeze();
    await sleep(STALLED_INTERVAL_MS * 1.5);
    redis.thaw();

    const status = await doneOrError(queued.job_id);
    expect(status).to.include({ status: 'done', attempts: 1 });
    expect(status.result).to.deep.equal({ inserted: 40, duplicate: 0 });
    // Long enough for a second delivery to have run, had it run.
    await sleep(STALLED_INTERVAL_MS * 2);
    expect(worker.runs).to.deep.equal([input.key]);
    expect((await producer.status(queued.job_id))?.result).to.deep.equal({ inserted: 40, duplicate: 0 });
    expect(worker.alive).to.equal(true);
  });

  it('enqueue while Redis is down: refused at once, and never queued when it is back', async () => {
    const worker = await startWorker();
    await redis.kill();
    await sleep(200);
    const input = job(3);
    const refused = await producer.enqueue('post-slowly', input).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(JobQueueUnavailable);
    await sleep(500);
    await redis.restart();
    await sleep(STALLED_INTERVAL_MS * 2);
    expect(await producer.status(input.key), 'the refused job is not in the queue').to.equal(null);
    expect(worker.runs).to.deep.equal([]);
    expect(await depositsPosted(database.db, input.source)).to.equal(0);
    // The producer serves again: the same job now runs, once.
    const queued = await eventually('the producer to reconnect', () => producer.enqueue('post-slowly', input));
    expect((await doneOrError(queued.job_id)).result).to.deep.equal({ inserted: 3, duplicate: 0 });
    expect(worker.runs).to.deep.equal([input.key]);
  });

  it('enqueue while Redis is frozen: unconfirmed, with the job id, and polling that id tells what happened; sending it again under its key runs nothing twice', async () => {
    const worker = await startWorker();
    // The queue has been used (its connection and scripts are set up): what is sent next is the job itself.
    const warm = job(1, { delay_ms: 0 });
    await doneOrError((await producer.enqueue('post-slowly', warm)).job_id);
    const input = job(3, { delay_ms: 0 });
    redis.freeze();
    const unconfirmed = await producer.enqueue('post-slowly', input).catch((error: unknown) => error);
    redis.thaw();
    expect(unconfirmed).to.be.instanceOf(JobEnqueueUnconfirmed);
    const jobId = (unconfirmed as JobEnqueueUnconfirmed).jobId;
    // It reached Redis before the freeze answered: it runs, and its id says so.
    const status: JobStatus = await doneOrError(jobId);
    expect(status.result).to.deep.equal({ inserted: 3, duplicate: 0 });
    const again = await eventually('the producer to answer', () => producer.enqueue('post-slowly', input));
    expect(again.job_id).to.equal(jobId);
    await sleep(500);
    expect(worker.runs).to.deep.equal([warm.key, input.key]);
  });
});
