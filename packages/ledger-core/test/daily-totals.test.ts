import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import * as addDailyTotals from '../src/migrations/20261206_add_daily_totals.js';
import type { EntryRequest } from '../src/entry-points/posting.js';
import { accountTotals, trialBalance } from '../src/entry-points/reports.js';
import { postEntry, reverseTransaction, postTransactions, upsertCustomer } from '../src/entry-points/store.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { asPgFailure, caught, draft, DEFAULT_POLICY } from './helpers.js';

/** The journal's own sums per (account, day, posting kind) and per (day, txn_type): what the aggregates must equal. */
async function journalByDay(db: Knex) {
  const { rows: lines } = await db.raw<{ rows: unknown[] }>(
    `SELECT account_code, to_char(txn_date, 'YYYY-MM-DD') AS day, coalesce(posting_kind, '') AS posting_kind,
            sum(debit)::text AS debit, sum(credit)::text AS credit, count(*)::text AS lines
       FROM journal_lines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  const { rows: txns } = await db.raw<{ rows: unknown[] }>(
    `SELECT to_char(txn_date, 'YYYY-MM-DD') AS day, txn_type, count(*)::text AS count, sum(amount_usd)::text AS amount
       FROM transactions GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return { lines, txns };
}

/** The aggregates summed over their slots, in the same shape. */
async function aggregatesByDay(db: Knex) {
  const { rows: lines } = await db.raw<{ rows: unknown[] }>(
    `SELECT account_code, to_char(day, 'YYYY-MM-DD') AS day, posting_kind,
            sum(debit_total)::text AS debit, sum(credit_total)::text AS credit, sum(line_count)::text AS lines
       FROM account_daily_totals GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  const { rows: txns } = await db.raw<{ rows: unknown[] }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, txn_type, sum(txn_count)::text AS count, sum(amount_usd_total)::text AS amount
       FROM transaction_daily_totals GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return { lines, txns };
}

/** Numeric text compared by value ('100.00' and '100' are the same sum). */
const normalised = (sums: { lines: unknown[]; txns: unknown[] }) =>
  JSON.stringify(sums, (_key, value: unknown) =>
    typeof value === 'string' && /^-?\d+\.\d+$/.test(value) ? value.replace(/\.?0+$/, '') : value,
  );

const ENTRIES: Array<Partial<EntryRequest>> = [
  { txn_type: 'deposit', txn_date: '2026-02-01', amount_usd: '500.00' },
  {
    txn_type: 'deposit',
    txn_date: '2026-02-01',
    amount_usd: '367.25',
    original_currency: 'AED',
    original_amount: '1348.73',
  },
  { txn_type: 'buy_security', txn_date: '2026-02-02', amount_usd: '200.00', symbol: 'AAPL', quantity: '1' },
  { txn_type: 'withdrawal', txn_date: '2026-02-03', amount_usd: '50.00', customer_id: 'C-2' },
  { txn_type: 'fx_spread', txn_date: '2026-02-03', amount_usd: '3.00' },
];

describe('the daily totals (account_daily_totals, transaction_daily_totals)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => {
    t = await createTestDatabase({ poolMax: 12, runtimeRole: true });
    db = t.runtime!.db;
    for (const id of ['C-1', 'C-2']) await upsertCustomer(db, id, {});
  });
  after(async () => t?.drop());

  it('equal the journal’s own sums per day after bulk posting, a reversal and concurrent posting from many connections', async () => {
    const bulk = Array.from({ length: 300 }, (_, i) =>
      draft({ ...ENTRIES[i % ENTRIES.length], customer_id: i % 2 ? 'C-1' : 'C-2' }),
    );
    expect((await postTransactions(db, bulk, { chunkSize: 40, concurrency: 3 })).inserted).to.equal(300);
    await reverseTransaction(db, bulk[0]!.txnId, { txnId: randomUUID(), txnDate: '2026-02-20', memo: null });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postTransactions(
          db,
          Array.from({ length: 30 }, (_, j) =>
            draft({ ...ENTRIES[(i + j) % ENTRIES.length], txn_date: `2026-03-0${1 + (j % 3)}` }),
          ),
          {
            chunkSize: 10,
            concurrency: 2,
          },
        ),
      ),
    );
    const journal = await journalByDay(t.db);
    expect(journal.txns).to.have.length.above(5);
    expect(normalised(await aggregatesByDay(t.db))).to.equal(normalised(journal));
  });

  it('give the balances as they stood at the end of a day: before a posting, and after it', async () => {
    const fresh = await createTestDatabase({ runtimeRole: true });
    try {
      const runtime = fresh.runtime!.db;
      await upsertCustomer(runtime, 'C-1', {});
      await postEntry(runtime, draft({ txn_date: '2026-04-10', amount_usd: '100.00' }));
      await postEntry(runtime, draft({ txn_date: '2026-04-12', amount_usd: '25.50' }));
      const balanceOf = async (asOf: string | undefined, code: string) =>
        (await accountTotals(runtime, { asOf })).find((a) => a.account_code === code)!;
      expect((await balanceOf('2026-04-09', '2010')).balance).to.equal('0.00');
      expect((await balanceOf('2026-04-10', '2010')).balance).to.equal('100.00');
      expect((await balanceOf('2026-04-11', '1100')).line_count).to.equal(1);
      expect((await balanceOf('2026-04-12', '2010')).balance).to.equal('125.50');
      expect((await balanceOf(undefined, '2010')).balance).to.equal('125.50');
      expect(await trialBalance(runtime, { asOf: '2026-04-11' })).to.include({
        total_debit: '100.00',
        total_credit: '100.00',
        balanced: true,
      });
    } finally {
      await fresh.drop();
    }
  });

  it('cannot be written, updated or deleted by anyone but the posting triggers', async () => {
    for (const table of ['account_daily_totals', 'transaction_daily_totals']) {
      const runtimeUpdate = asPgFailure(await caught(() => db.raw(`UPDATE ?? SET slot = slot`, [table])));
      expect(runtimeUpdate.code, table).to.equal('42501');
      const ownerUpdate = asPgFailure(await caught(() => t.db.raw(`UPDATE ?? SET slot = slot`, [table])));
      expect(ownerUpdate.constraint, table).to.equal('ledger_append_only');
      const ownerDelete = asPgFailure(await caught(() => t.db.raw(`DELETE FROM ??`, [table])));
      expect(ownerDelete.constraint, table).to.equal('ledger_append_only');
    }
  });

  it('are kept by checks that still run with the owner’s rights, a pinned search_path and their planner pins', async () => {
    const { rows } = await t.db.raw<{
      rows: Array<{ name: string; definer: boolean; settings: string[]; schema: string }>;
    }>(
      `SELECT proname AS name, prosecdef AS definer, proconfig AS settings, current_schema() AS schema FROM pg_proc
        WHERE pronamespace = current_schema()::regnamespace
          AND proname IN ('ledger_after_transactions_inserted', 'ledger_after_lines_inserted') ORDER BY proname`,
    );
    expect(rows).to.have.length(2);
    for (const fn of rows) {
      expect(fn.definer, fn.name).to.equal(true);
      expect([...fn.settings].sort(), fn.name).to.deep.equal(
        [
          'enable_hashjoin=off',
          'enable_mergejoin=off',
          'enable_seqscan=off',
          `search_path=${fn.schema}, pg_temp`,
        ].sort(),
      );
    }
  });

  it('migration 20261206 backfills a book posted before it, and goes down and up again', async () => {
    const fresh = await createTestDatabase();
    try {
      for (const id of ['C-1', 'C-2']) await upsertCustomer(fresh.db, id, {});
      await postEntry(fresh.db, draft({ txn_date: '2026-05-01', amount_usd: '10.00' }));
      await fresh.db.transaction((trx) => addDailyTotals.down(trx));
      // Posted while the book has no daily totals: only the backfill can count these.
      expect(
        (
          await postTransactions(
            fresh.db,
            ENTRIES.map((e) => draft({ ...e }, randomUUID(), DEFAULT_POLICY)),
          )
        ).inserted,
      ).to.equal(ENTRIES.length);
      await fresh.db.transaction((trx) => addDailyTotals.up(trx));
      await postEntry(fresh.db, draft({ txn_date: '2026-05-02', amount_usd: '7.00' }));
      const journal = await journalByDay(fresh.db);
      expect(journal.txns).to.have.length(6);
      expect(normalised(await aggregatesByDay(fresh.db))).to.equal(normalised(journal));
    } finally {
      await fresh.drop();
    }
  });
});
