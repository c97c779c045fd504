import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { TransactionDraft } from '../src/entry-points/posting.js';
import { closePeriod, postTransactions, type BulkResult } from '../src/entry-points/store.js';
import { JOURNAL_LINES, linesOf } from '../src/store/columns/journal-lines.js';
import { copyFromStdin, copyRows } from '../src/store/columns/table.js';
import { TRANSACTIONS } from '../src/store/columns/transactions.js';
import { ledgerStore } from '../src/store/ledger-store.js';
import { COPY_FROM } from '../src/store/posting.js';
import type { TestDatabase } from '../src/testing/index.js';
import { booksSnapshot, caught, draft, expectLedgerError, rowCount, storeDatabase } from './helpers.js';

const counts = ({ outcomes: _outcomes, ...rest }: BulkResult) => rest;

/** Characters text COPY would escape; memo and metadata carry them to the character. */
const AWKWARD = 'tab\there\nnew line\r\\N back\\slash "quoted" \u00e9\u{1f600}';

/**
 * `n` records of every shape bulk posting takes, keys prefixed `prefix`: deposits, trades
 * pending recost, AED records with their AED lines, firm fees without a customer, awkward memos
 * and metadata, amounts with and without cents.
 */
function records(prefix: string, n: number): TransactionDraft[] {
  return Array.from({ length: n }, (_, i) => {
    const key = { source: 'usbroker' as const, source_txn_id: `${prefix}-${i}`, txn_date: `2026-02-${10 + (i % 5)}` };
    const amount = `${1 + (i % 97)}.${String(i % 100).padStart(2, '0')}`;
    switch (i % 4) {
      case 0:
        return draft({ ...key, amount_usd: amount, memo: i % 8 === 0 ? AWKWARD : null });
      case 1:
        return draft({ ...key, txn_type: 'buy_security', symbol: 'AAPL', quantity: `${i}.5`, amount_usd: amount });
      case 2:
        return draft({
          ...key,
          customer_id: 'C-2',
          original_currency: 'AED',
          original_amount: '367.25',
          amount_usd: '100.00',
        });
      default:
        return draft({
          ...key,
          txn_type: 'fx_spread',
          customer_id: null,
          amount_usd: amount,
          metadata: { n: i, s: AWKWARD },
        });
    }
  });
}

/** Everything posting writes, as the database holds it, without the database's own stamps. */
async function written(db: Knex) {
  const rows = async (sql: string) => (await db.raw<{ rows: unknown[] }>(sql)).rows;
  return {
    transactions: await rows(
      `SELECT txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity::text, txn_date,
              amount_usd::text, original_currency, original_amount::text, fx_rate::text, reverses_txn_id, memo, metadata,
              request_hash, posted_by
         FROM transactions ORDER BY source_txn_id`,
    ),
    lines: await rows(
      `SELECT line_id, txn_id, account_code, debit::text, credit::text, customer_id, posting_kind, txn_date,
              native_currency, native_amount::text
         FROM journal_lines ORDER BY line_id`,
    ),
    // Stamped as its transaction was: posted_at the same.
    recostStates: await rows(
      `SELECT s.txn_id, s.txn_date, s.recosted_at, s.posted_at = t.posted_at AS posted_with_it
         FROM recost_states s JOIN transactions t USING (txn_id) ORDER BY txn_id`,
    ),
    accountTotals: await rows(
      `SELECT account_code, sum(debit_total)::text, sum(credit_total)::text, sum(line_count)::text
         FROM account_totals GROUP BY account_code ORDER BY account_code`,
    ),
    accountDailyTotals: await rows(
      `SELECT account_code, day, posting_kind, sum(debit_total)::text, sum(credit_total)::text, sum(line_count)::text
         FROM account_daily_totals GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
    transactionDailyTotals: await rows(
      `SELECT day, txn_type, sum(txn_count)::text, sum(amount_usd_total)::text
         FROM transaction_daily_totals GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  };
}

/** Which ways of writing the store took while `work` ran: COPY (its session setting seen), the INSERT statement. */
async function pathsTaken(db: Knex, work: () => Promise<unknown>): Promise<{ copy: boolean; insert: boolean }> {
  const sqls: string[] = [];
  const listener = ({ sql }: { sql: string }) => sqls.push(sql);
  db.on('query', listener);
  try {
    await work();
  } finally {
    db.off('query', listener);
  }
  return {
    copy: sqls.some((sql) => sql.includes('SET LOCAL work_mem')),
    insert: sqls.some((sql) => sql.includes('INSERT INTO transactions')),
  };
}

describe('bulk posting by COPY (a chunk of COPY_FROM records or more)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(() => t?.drop());

  it('writes what the INSERT statement writes: transactions, lines and their ids, recost states, totals and daily totals', async () => {
    const batch = records('same', COPY_FROM + 200);
    const byInsert = await storeDatabase();
    try {
      const copied = await pathsTaken(db, async () => {
        expect(counts(await postTransactions(db, batch))).to.deep.equal({
          inserted: batch.length,
          duplicate: 0,
          conflict: 0,
          rejected: 0,
        });
      });
      expect(copied).to.deep.equal({ copy: true, insert: false });
      const inserted = await pathsTaken(byInsert.db, () =>
        postTransactions(byInsert.db, batch, { chunkSize: COPY_FROM - 1, concurrency: 1 }),
      );
      expect(inserted).to.deep.equal({ copy: false, insert: true });
      const viaCopy = await written(db);
      expect(viaCopy.transactions).to.have.length(batch.length);
      expect(viaCopy.recostStates).to.have.length(batch.length / 4);
      expect(viaCopy).to.deep.equal(await written(byInsert.db));
    } finally {
      await byInsert.t.drop();
    }
  });

  it('answers a re-run duplicate for every record, the books unchanged', async () => {
    const batch = records('rerun', COPY_FROM);
    expect((await postTransactions(db, batch)).inserted).to.equal(batch.length);
    const before = await booksSnapshot(db);
    const again = await postTransactions(db, batch);
    expect(counts(again)).to.deep.equal({ inserted: 0, duplicate: batch.length, conflict: 0, rejected: 0 });
    expect(again.outcomes.map((o) => o.outcome === 'duplicate' && o.txnId)).to.deep.equal(batch.map((d) => d.txnId));
    expect(await booksSnapshot(db)).to.deep.equal(before);
  });

  it('falls back to the INSERT statement for a chunk holding posted keys, answering each record: inserted, duplicate, conflict', async () => {
    const batch = records('mixed', COPY_FROM);
    const posted = batch[10]!;
    // batch[20]'s key (a deposit of 21.20), posted before with another amount.
    const first = draft({ source: 'usbroker', source_txn_id: 'mixed-20', txn_date: '2026-02-10', amount_usd: '5.00' });
    expect((await postTransactions(db, [posted, first])).inserted).to.equal(2);
    const paths = await pathsTaken(db, async () => {
      const result = await postTransactions(db, batch);
      expect(counts(result)).to.deep.equal({ inserted: batch.length - 2, duplicate: 1, conflict: 1, rejected: 0 });
      expect(result.outcomes[10]).to.deep.equal({ outcome: 'duplicate', txnId: posted.txnId });
      expect(result.outcomes[20]).to.deep.equal({
        outcome: 'conflict',
        txnId: first.txnId,
        fields: ['amount_usd', 'journal_lines'],
      });
      expect(result.outcomes[0]).to.deep.equal({ outcome: 'inserted', txnId: batch[0]!.txnId });
    });
    expect(paths, 'COPY tried, then the INSERT statement').to.deep.equal({ copy: true, insert: true });
    expect(await rowCount(db, 'transactions', { txn_id: batch[20]!.txnId })).to.equal(0);
  });

  it('refuses, at the store, a chunk holding a record dated in a closed period (a close landing while a batch posts): nothing of it stored', async () => {
    const { t: closedT, db: closed } = await storeDatabase();
    try {
      await closePeriod(closed, { through: '2026-02-10', actor: 'api', today: '2026-03-01' });
      const batch = records('closed', COPY_FROM + 300);
      const chunk = [...batch.filter((d) => d.txnDate > '2026-02-10'), batch[0]!]; // batch[0] is dated 2026-02-10
      const before = await booksSnapshot(closed);
      const paths = await pathsTaken(closed, () =>
        expectLedgerError(() => ledgerStore(closed).write({ drafts: chunk }), 'period_closed'),
      );
      expect(paths).to.deep.equal({ copy: true, insert: false });
      expect(await booksSnapshot(closed)).to.deep.equal(before);
    } finally {
      await closedT.drop();
    }
  });

  it('refuses, at the store, a chunk with an unknown customer, nothing of it stored; bulk posting rejects that record alone', async () => {
    const batch = records('unknown', COPY_FROM + 24);
    batch[500] = { ...batch[500]!, customerId: 'C-404' }; // a deposit: its lines name the customer too
    const before = await booksSnapshot(db);
    await expectLedgerError(() => ledgerStore(db).write({ drafts: batch }), 'unknown_customer');
    expect(await booksSnapshot(db)).to.deep.equal(before);
    const result = await postTransactions(db, batch);
    expect(counts(result)).to.deep.equal({ inserted: batch.length - 1, duplicate: 0, conflict: 0, rejected: 1 });
    expect(result.outcomes[500]).to.deep.include({ outcome: 'rejected' });
  });
});

describe('the journal’s checks hold for COPY as for INSERT (the COPY path’s own statements)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(() => t?.drop());

  /** COPYs the drafts and their lines as the store's COPY path does, in one database transaction, and commits. */
  async function copyAndCommit(drafts: TransactionDraft[]): Promise<void> {
    await db.transaction(async (trx) => {
      const connection = (await trx.client.acquireConnection()) as pg.PoolClient;
      const copy = (sql: string, rows: Buffer) => pipeline(Readable.from([rows]), connection.query(copyFrom(sql)));
      await copy(copyFromStdin('transactions', TRANSACTIONS), copyRows(TRANSACTIONS, drafts));
      await copy(copyFromStdin('journal_lines', JOURNAL_LINES), copyRows(JOURNAL_LINES, linesOf(drafts)));
    });
  }

  it('refuses at commit a chunk with one unbalanced transaction, storing nothing of the chunk; the same chunk balanced commits', async () => {
    const chunk = records('unbalanced', 50);
    const d = chunk[25]!;
    const unbalanced = { ...d, lines: [d.lines[0]!, { ...d.lines[1]!, credit: d.lines[1]!.credit.minus('0.01') }] };
    const before = await booksSnapshot(db);
    const error = (await caught(() => copyAndCommit([...chunk.slice(0, 25), unbalanced, ...chunk.slice(26)]))) as {
      constraint?: string;
    };
    expect(error.constraint).to.equal('ledger_transaction_balanced');
    expect(await booksSnapshot(db)).to.deep.equal(before);
    await copyAndCommit(chunk);
    expect(await rowCount(db, 'transactions')).to.equal(Number(before.counts!.transactions) + chunk.length);
  });

  it('refuses lines whose transaction is not in the same database transaction, and an unknown customer', async () => {
    const [posted, other] = records('lines', 2);
    await copyAndCommit([posted!]);
    const before = await booksSnapshot(db);
    const orphan = await caught(() =>
      db.transaction(async (trx) => {
        const connection = (await trx.client.acquireConnection()) as pg.PoolClient;
        await pipeline(
          Readable.from([copyRows(JOURNAL_LINES, linesOf([posted!]))]),
          connection.query(copyFrom(copyFromStdin('journal_lines', JOURNAL_LINES))),
        );
      }),
    );
    expect((orphan as { constraint?: string }).constraint).to.equal('ledger_lines_posted_with_transaction');
    const unknown = await caught(() => copyAndCommit([{ ...other!, customerId: 'C-404' }]));
    expect((unknown as { constraint?: string }).constraint).to.equal('ledger_transaction_customer_known');
    expect(await booksSnapshot(db)).to.deep.equal(before);
  });
});
