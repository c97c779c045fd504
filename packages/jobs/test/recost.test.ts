import { randomUUID } from 'node:crypto';
import { draftFromEntry, Decimal, FeeSchedule, type EntryRequest } from '@ledger/core/posting';
import { createLogger } from '@ledger/core/runtime';
import { postTransactions, upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { createJobProducer, createJobWorkers, type JobProgress } from '@ledger/job-runtime';
import { DEFAULT_JOB_SETTINGS, type JobDeps, JOBS, recostJob } from '../src/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_UAE', silent: true });

function trade(
  txnType: 'buy_security' | 'sell_security',
  customerId: string,
  quantity: string,
  amountUsd: string,
  txnDate: string,
) {
  const entry: EntryRequest = {
    txn_type: txnType,
    customer_id: customerId,
    source: 'usbroker',
    source_txn_id: randomUUID(),
    txn_date: txnDate,
    symbol: 'AAPL',
    quantity,
    amount_usd: amountUsd,
  };
  return draftFromEntry(entry, randomUUID(), { feeSchedule: new FeeSchedule(new Decimal(22)) });
}

async function seed(db: Db, customerId: string) {
  await upsertCustomer(db, customerId, {});
  const drafts = [
    trade('buy_security', customerId, '10', '1000.00', '2026-01-05'),
    trade('buy_security', customerId, '5', '600.00', '2026-01-06'),
    trade('sell_security', customerId, '12', '1500.00', '2026-01-10'),
    trade('sell_security', customerId, '9', '900.00', '2026-01-11'),
  ];
  const result = await postTransactions(db, drafts);
  expect(result.inserted).to.equal(drafts.length);
  return drafts.map((d) => d.txnId);
}

describe('the recost job', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Db;

  before(async () => {
    database = await createTestDatabase({ runtimeRole: true });
    db = database.runtime!.db;
  });
  after(async () => {
    await database?.drop();
  });

  it('is in the catalog: sync, family recost, both books, every call a job of its own', () => {
    expect(JOBS.recost).to.equal(recostJob);
    expect(recostJob).to.include({ mode: 'sync', family: 'recost' });
    expect(recostJob.books).to.deep.equal(['ENTITY_UAE', 'ENTITY_IND_IFSC']);
    expect(recostJob.businessKey({})).to.equal(null);
  });

  it('takes an optional limit of 1 to 1,000,000, and nothing else', () => {
    expect(recostJob.input.parse({})).to.deep.equal({});
    expect(recostJob.input.parse({ limit: 1_000_000 })).to.deep.equal({ limit: 1_000_000 });
    for (const bad of [{ limit: 0 }, { limit: 1.5 }, { limit: 1_000_001 }, { limit: '5' }, { other: 1 }]) {
      expect(() => recostJob.input.parse(bad), JSON.stringify(bad)).to.throw();
    }
  });

  it('run directly: recosts, flags the oversell, reports progress and its result; a second run posts nothing', async () => {
    const [, , , oversell] = await seed(db, 'J-1');
    const progress: JobProgress[] = [];
    const deps: JobDeps = {
      book: 'ENTITY_UAE',
      db,
      logger,
      progress: (p) => progress.push(p),
      settings: DEFAULT_JOB_SETTINGS,
      upstreams: NO_UPSTREAMS,
    };
    const result = await recostJob.run({}, deps);
    // Buys: 4 bps broker cost; first sell: fee, broker cost, relief 1240.00; second sell (9 of 3 held): flagged.
    expect(result).to.deep.include({ recosted: 3, derivations_posted: 3, superseded: 0, remaining: 1 });
    expect(result.flagged).to.deep.equal([
      { txn_id: oversell, reason: 'insufficient_lots', detail: { quantity: '9', held: '3' } },
    ]);
    expect(progress.at(-1)).to.deep.equal({ done: 4, total: 4, unit: 'transactions' });
    const again = await recostJob.run({ limit: 10 }, deps);
    expect(again).to.deep.include({ recosted: 0, derivations_posted: 0, superseded: 0, remaining: 1 });
  });

  it('through the jobs platform: enqueued, run by a real worker, answered done with its result', async () => {
    await seed(db, 'J-2');
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const workers = createJobWorkers({
      book: 'ENTITY_UAE',
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      db,
      logger,
      catalog: JOBS,
      settings: { ...DEFAULT_JOB_SETTINGS, feeSchedule: new FeeSchedule(new Decimal(22), {}, new Decimal(5)) },
    });
    const producer = createJobProducer({
      book: 'ENTITY_UAE',
      redisUrl: REDIS_URL,
      queuePrefix: prefix,
      catalog: JOBS,
      syncWaitMs: 20_000,
      logger,
      db,
    });
    try {
      await workers.waitUntilReady();
      const status = await producer.enqueue('recost', {});
      expect(status).to.include({ kind: 'recost', status: 'done', error: null });
      // J-2's three derivations; J-1's pair, still pending (its oversell), is re-derived, and its
      // trades keep the 4 bps they were posted at: the worker's 5 bps supersedes nothing.
      expect(status.result).to.deep.include({ recosted: 3, derivations_posted: 3, superseded: 0 });
      // Each trade is costed at the bps it was pinned to when posted: 4 bps of 1000.00 is 0.40.
      const { rows } = await db.raw<{ rows: Array<{ debit: string }> }>(
        `SELECT l.debit::text AS debit FROM transactions d JOIN journal_lines l USING (txn_id)
          WHERE d.txn_type = 'recost' AND d.customer_id = 'J-2' AND l.account_code = '5010' ORDER BY d.txn_date LIMIT 1`,
      );
      expect(rows[0]!.debit).to.equal('0.40');
    } finally {
      await workers.close();
      await producer.close();
    }
  });
});
