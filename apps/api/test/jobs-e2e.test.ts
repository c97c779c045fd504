import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Decimal, draftFromEntry, FeeSchedule, type EntryRequest } from '@ledger/core/posting';
import { trialBalance } from '@ledger/core/reports';
import { postTransactions, upsertCustomer, type Db } from '@ledger/core/store';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { DEFAULT_JOB_SETTINGS, JOBS } from '@ledger/jobs';
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { startApi, type TestApi } from './support.js';

const WORKER_DIR = fileURLToPath(new URL('../../worker', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };
/**
 * Customers and trades each of the book whose recost a test interrupts: enough for every
 * customer to buy and sell both symbols. The run is held mid-way by a lock, not by its size.
 */
const INTERRUPTED_BOOK = [8, 30] as const;

/** Trades of `customers` customers: per customer and symbol, buys then a smaller sell (never an oversell). */
function trades(customers: number, perCustomer: number): EntryRequest[] {
  const entries: EntryRequest[] = [];
  for (let c = 0; c < customers; c += 1) {
    for (let i = 0; i < perCustomer; i += 1) {
      const sell = i % 3 === 2;
      entries.push({
        txn_type: sell ? 'sell_security' : 'buy_security',
        customer_id: `E2E-${c}`,
        source: 'manual',
        source_txn_id: `e2e-${c}-${i}`,
        txn_date: `2026-0${1 + (i % 9)}-1${i % 10}`.slice(0, 10),
        symbol: ['AAPL', 'MSFT'][i % 2] as string,
        quantity: sell ? '1' : '2',
        amount_usd: sell ? `${100 + (i % 7)}.25` : `${150 + (i % 11)}.50`,
      });
    }
  }
  // Dates ascend with i per customer only by month; order the book by date so sells follow their buys.
  return entries.sort(
    (a, b) => a.txn_date.localeCompare(b.txn_date) || a.source_txn_id!.localeCompare(b.source_txn_id!),
  );
}

async function seed(db: Db, customers: number, perCustomer: number): Promise<void> {
  for (let c = 0; c < customers; c += 1) await upsertCustomer(db, `E2E-${c}`, {});
  const result = await postTransactions(
    db,
    trades(customers, perCustomer).map((entry) => draftFromEntry(entry, uuidv7(), POLICY)),
  );
  expect(result.inserted).to.equal(customers * perCustomer);
}

/** The books as numbers a person would compare: every account's debit and credit totals, and the entry count. */
async function books(db: Db) {
  const balance = await trialBalance(db);
  const [{ count }] = (await db('transactions').count<Array<{ count: string }>>({ count: '*' })) as [{ count: string }];
  return { accounts: balance.accounts, total_debit: balance.total_debit, transactions: Number(count) };
}

describe('jobs end to end: the api queues a job, a real worker process runs it', function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let api: TestApi;
  let prefix: string;
  /** Lets go of the writes recostUnderWay holds, if a test holds them. */
  let release: (() => Promise<void>) | undefined;
  const workers: AppProcess[] = [];

  const startWorker = async () => {
    const worker = new AppProcess(WORKER_DIR, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.runtime!.url,
      LEDGER_MIGRATION_DB_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      JOB_STALLED_INTERVAL_MS: '2000',
      LOG_LEVEL: 'info',
    });
    workers.push(worker);
    await worker.waitForLog('ready', 60_000);
    return worker;
  };

  async function statusOf(jobId: string) {
    const reply = await api.get(`/v1/jobs/status/${jobId}`, { token: 'ledger' });
    expect(reply.status).to.equal(200);
    return reply.body;
  }

  async function until(
    jobId: string,
    done: (status: { status: string; attempts: number }) => boolean,
    timeoutMs = 120_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await statusOf(jobId);
      if (done(status)) return status;
      if (Date.now() > deadline) expect.fail(`job ${jobId} stuck: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  beforeEach(async () => {
    prefix = `e2e-${randomUUID().slice(0, 8)}`;
    database = await createTestDatabase({ runtimeRole: true, poolMax: 4 });
    api = await startApi({
      db: database.runtime!.db,
      dbUrl: database.runtime!.url,
      env: { QUEUE_PREFIX: prefix, JOB_SYNC_WAIT_MS: '60000' },
    });
  });
  afterEach(async () => {
    // A test that failed while holding the book's writes lets go of them (a second commit is refused, and ignored).
    await release?.().catch(() => undefined);
    release = undefined;
    for (const worker of workers.splice(0)) await worker.kill();
    await api.close();
    await database.drop();
  });

  it('POST /v1/jobs/recost is run by the worker and answered done with its result; the status endpoint keeps the record', async () => {
    await seed(database.runtime!.db, 2, 9);
    await startWorker();
    const reply = await api.post('/v1/jobs/recost', {});
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.body).to.include({ kind: 'recost', status: 'done', attempts: 1, error: null });
    expect(reply.body.result.recosted).to.equal(18);
    expect(await statusOf(reply.body.job_id)).to.deep.equal(reply.body);
    expect((await trialBalance(database.runtime!.db)).balanced).to.equal(true);
    // Run twice, same books.
    const before = await books(database.runtime!.db);
    const again = await api.post('/v1/jobs/recost', {});
    expect(again.body.result.recosted).to.equal(0);
    expect(await books(database.runtime!.db)).to.deep.equal(before);
  });

  it('a body the job refuses is 400 and queues nothing', async () => {
    const reply = await api.post('/v1/jobs/recost', { limit: 0 });
    expect(reply.status).to.equal(400);
    expect(reply.body.error.code).to.equal('validation_error');
  });

  /** The books of the interrupted tests' trades recosted in one uninterrupted run, in a database of their own. */
  let uninterrupted: Promise<Awaited<ReturnType<typeof books>>> | undefined;
  /** Made once, for the tests that interrupt a run (each compares its book with it). */
  const referenceBooks = () => (uninterrupted ??= uninterruptedBooks());
  async function uninterruptedBooks(): Promise<Awaited<ReturnType<typeof books>>> {
    const reference = await createTestDatabase({ poolMax: 4 });
    try {
      await seed(reference.db, ...INTERRUPTED_BOOK);
      const silent = {
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
        debug: () => undefined,
        child: () => silent,
      };
      await JOBS.recost!.run({}, {
        book: 'ENTITY_UAE',
        db: reference.db,
        logger: silent as never,
        progress: () => undefined,
        settings: DEFAULT_JOB_SETTINGS,
      } as never);
      return await books(reference.db);
    } finally {
      await reference.drop();
    }
  }

  /**
   * Seeds the trades, holds writes to the book, starts a worker and the recost job, and waits
   * until the run is held at its first write: mid-run (its trades read, its entries planned),
   * however fast or loaded the machine, until `release()`.
   */
  async function recostUnderWay(): Promise<{ worker: AppProcess; jobId: string }> {
    await seed(database.runtime!.db, ...INTERRUPTED_BOOK);
    const hold = await database.db.transaction();
    release = () => hold.commit().then(() => undefined);
    await hold.raw('LOCK TABLE transactions IN EXCLUSIVE MODE');
    const worker = await startWorker();
    api = await restartApiWithShortWait(api);
    const started = await api.post('/v1/jobs/recost', {});
    const jobId = started.body.job_id as string;
    await until(jobId, (s) => s.attempts > 0);
    for (let i = 0; !(await heldBackends()); i += 1) {
      if (i === 1_200) expect.fail('the recost never reached its first write');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return { worker, jobId };
  }

  /** Whether a session of the book waits on a lock (the hold is the only one taken). */
  async function heldBackends(): Promise<boolean> {
    const { rows } = await database.db.raw<{ rows: unknown[] }>(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    return rows.length > 0;
  }

  it('the worker SIGKILLed mid-job is replaced, and the job finishes with the books an uninterrupted run leaves', async () => {
    const reference = await referenceBooks();
    const { worker: first, jobId } = await recostUnderWay();
    const midway = await statusOf(jobId);
    first.child.kill('SIGKILL');
    await first.exited;
    await release!();
    // Killed mid-run, not after: the job had started and not finished.
    expect(midway.status, JSON.stringify(midway)).to.equal('running');
    expect(first.logs.some((line) => line.message === 'job done')).to.equal(false);
    const second = await startWorker();
    const done = await until(jobId, (s) => s.status !== 'running');
    expect(done.status, JSON.stringify(done)).to.equal('done');
    // The book has the run done before the worker's log line reaches this process: wait for it, bounded.
    const loggedDone = () => second.logs.some((line) => line.message === 'job done' && line.job_id === jobId);
    for (let i = 0; i < 100 && !loggedDone(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loggedDone(), 'the replacement worker ran the job to its end').to.equal(true);
    expect(await books(database.runtime!.db)).to.deep.equal(reference);
  });

  it('the worker SIGTERMed mid-job (a rollout) finishes the job in hand, then exits 0: done in one attempt, nothing lost or posted twice, and a later worker runs nothing again', async () => {
    const reference = await referenceBooks();
    const { worker, jobId } = await recostUnderWay();
    const midway = await statusOf(jobId);
    worker.child.kill('SIGTERM');
    await worker.waitForLog('shutting down');
    await release!();
    const exit = await worker.exited;
    expect(midway.status, 'signalled mid-run').to.equal('running');
    expect(exit.code, worker.stderr).to.equal(0);
    const messages = worker.logs.map((line) => line.message);
    // Finished before the worker stopped: the job's end comes between the signal and 'stopped'.
    expect(messages.indexOf('job done'), messages.join(' | ')).to.be.above(messages.indexOf('shutting down'));
    expect(messages.indexOf('stopped')).to.be.above(messages.indexOf('job done'));
    const done = await statusOf(jobId);
    expect(done).to.include({ status: 'done', attempts: 1, error: null });
    expect(await books(database.runtime!.db)).to.deep.equal(reference);
    // The next worker of the rollout runs nothing again: should the queue hand the job out once
    // more, its run in the book answers the stored outcome (ADR 0011).
    const next = await startWorker();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const nextRuns = next.logs.filter((line) => line.job_id === jobId).map((line) => line.message);
    expect(
      nextRuns.filter((message) => message !== 'job already finished; answering its stored outcome'),
      nextRuns.join(' | '),
    ).to.deep.equal([]);
    expect(await statusOf(jobId)).to.include({ status: 'done', attempts: 1 });
    expect(await books(database.runtime!.db)).to.deep.equal(reference);
  });

  /** The same api, answering a synchronous job at once (202) so the test can kill the worker mid-run. */
  async function restartApiWithShortWait(previous: TestApi): Promise<TestApi> {
    await previous.close().catch(() => undefined);
    return startApi({
      db: database.runtime!.db,
      dbUrl: database.runtime!.url,
      env: { QUEUE_PREFIX: prefix, JOB_SYNC_WAIT_MS: '0' },
    });
  }
});
