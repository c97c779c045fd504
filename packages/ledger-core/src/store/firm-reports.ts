import type { Knex } from 'knex';
import { assert } from '../domain/errors.js';
import {
  aedAtPeg,
  assertWindow,
  CUSTOMER_WALLETS,
  debitBalance,
  EARNINGS_ACCOUNTS,
  earningsBySource,
  earningsTotal,
  FLOW_DAYS_MAX,
  flowsByDay,
  FUNDING_KINDS,
  RECENT_TXNS_MAX,
  SUMMARY_BALANCES,
  type Earnings,
  type Flow,
  type FundingMovement,
  type Movement,
  type ReportWindow,
  type SummaryBalance,
} from '../domain/firm-reports.js';
import { Decimal, formatDecimal, ZERO } from '../domain/money.js';
import { YEAR_CLOSE_POSTING_KIND } from '../domain/year-close.js';
import type { Source } from '../domain/sources.js';
import { accountTotals } from './accounts.js';

/**
 * The firm reports, read from the maintained aggregates (account_totals, account_daily_totals,
 * transaction_daily_totals; migration 20261206, docs/adr/0010), never from a scan of the journal,
 * each in one read-only snapshot so its figures agree with each other.
 */

export interface RecentTxn {
  txn_id: string;
  txn_date: string;
  posted_at: string;
  txn_type: string;
  source: string;
  customer_id: string | null;
  symbol: string | null;
  amount_usd: string;
  reverses_txn_id: string | null;
}

export interface TypeTotal {
  txn_type: string;
  count: number;
  total_usd: string;
}

export type FirmSummary = { from: string | null; to: string | null } & Record<SummaryBalance, string> & {
    total_deposits_usd: string;
    total_withdrawals_usd: string;
    fees_revenue_usd: string;
    cash_aed: string;
    aed_per_usd: string;
    transaction_count: number;
    customer_count: number;
    by_type: TypeTotal[];
    flows: Flow[];
    recent: RecentTxn[];
  };

export interface FirmEarnings {
  from: string | null;
  to: string | null;
  sources: Earnings[];
  revenue_usd: string;
  cost_usd: string;
  margin_usd: string;
  months: Array<{ month: string; sources: Earnings[]; revenue_usd: string; cost_usd: string; margin_usd: string }>;
}

/** The window's bounds on a date column. */
const inWindow =
  (column: string, { from, to }: ReportWindow) =>
  (query: Knex.QueryBuilder) => {
    if (from !== undefined) query.where(column, '>=', from);
    if (to !== undefined) query.where(column, '<=', to);
  };

const sums = (db: Knex) => [db.raw('sum(debit_total)::text AS debit'), db.raw('sum(credit_total)::text AS credit')];

function readSnapshot<T>(db: Knex, read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: 'repeatable read', readOnly: true });
}

/** Every revenue and expense account of the chart belongs to an earnings source: a new one needs a decision. */
async function assertEarningsAccounts(trx: Knex.Transaction): Promise<void> {
  const rows: Array<{ account_code: string }> = await trx('accounts')
    .whereIn('account_type', ['revenue', 'expense'])
    .select('account_code');
  const unmapped = rows.map((r) => r.account_code).filter((code) => !EARNINGS_ACCOUNTS.includes(code));
  assert(unmapped.length === 0, `revenue and expense accounts ${unmapped.join(', ')} belong to an earnings source`);
}

/**
 * Debits and credits of the earnings accounts in the window, per account (and per month when
 * asked): the year's activity, so a closing entry (and its reversal), which only moves the
 * balance to 3000, is not in it: net income reads the same before and after a year close.
 */
async function earningsMovements(
  trx: Knex.Transaction,
  window: ReportWindow,
  byMonth: boolean,
): Promise<Array<Movement & { month: string }>> {
  await assertEarningsAccounts(trx);
  const month = byMonth ? `to_char(day, 'YYYY-MM')` : `''`;
  return trx('account_daily_totals')
    .whereIn('account_code', EARNINGS_ACCOUNTS)
    .whereNot('posting_kind', YEAR_CLOSE_POSTING_KIND)
    .modify(inWindow('day', window))
    .groupByRaw('1, 2')
    .orderByRaw('1, 2')
    .select(trx.raw(`${month} AS month`), 'account_code', ...sums(trx));
}

/**
 * The firm summary (docs/firm-reports.md). Flows (deposits, withdrawals, fees revenue, counts,
 * `by_type`, `flows`, `recent`) are over the window's txn_dates; balances (AUM, cash) stand at
 * the end of its `to` (now without one); `customer_count` is every customer the book knows.
 */
export async function firmSummary(
  db: Knex,
  window: ReportWindow,
  { aedPerUsd }: { aedPerUsd: Decimal },
): Promise<FirmSummary> {
  assertWindow(window);
  return readSnapshot(db, async (trx) => {
    const accounts = await accountTotals(trx, { asOf: window.to });
    const nets = new Map(accounts.map((a) => [a.account_code, new Decimal(a.net)]));
    const balance = (name: SummaryBalance) => formatDecimal(debitBalance(nets, SUMMARY_BALANCES[name]));

    const funding: FundingMovement[] = await trx('account_daily_totals')
      .whereIn('account_code', CUSTOMER_WALLETS)
      .whereIn('posting_kind', [...FUNDING_KINDS.deposits, ...FUNDING_KINDS.withdrawals])
      .modify(inWindow('day', window))
      .groupBy('day', 'posting_kind')
      .select(trx.raw(`to_char(day, 'YYYY-MM-DD') AS day`), 'posting_kind', ...sums(trx));
    const flows = flowsByDay(funding);

    const revenue = earningsTotal(earningsBySource(await earningsMovements(trx, window, false))).revenue_usd;

    const types: Array<{ txn_type: string; count: string; total_usd: string }> = await trx('transaction_daily_totals')
      .modify(inWindow('day', window))
      .groupBy('txn_type')
      .orderBy('txn_type')
      .select(
        'txn_type',
        trx.raw('sum(txn_count)::text AS count'),
        trx.raw('sum(amount_usd_total)::text AS total_usd'),
      );
    const byType = types.map((t) => ({
      txn_type: t.txn_type,
      count: Number(t.count),
      total_usd: formatDecimal(new Decimal(t.total_usd)),
    }));

    const [customers] = await trx('customers').count<Array<{ count: string }>>({ count: '*' });
    const cashAedUsd = debitBalance(nets, SUMMARY_BALANCES.cash_aed_usd);
    return {
      from: window.from ?? null,
      to: window.to ?? null,
      total_deposits_usd: formatDecimal(flows.reduce((t, f) => t.plus(f.deposits_usd), ZERO)),
      total_withdrawals_usd: formatDecimal(flows.reduce((t, f) => t.plus(f.withdrawals_usd), ZERO)),
      fees_revenue_usd: revenue,
      aum_custody_usd: balance('aum_custody_usd'),
      cash_usd: balance('cash_usd'),
      cash_aed_usd: balance('cash_aed_usd'),
      cash_aed: formatDecimal(aedAtPeg(cashAedUsd, aedPerUsd)),
      aed_per_usd: aedPerUsd.toString(),
      transaction_count: byType.reduce((n, t) => n + t.count, 0),
      customer_count: Number(customers?.count ?? 0),
      by_type: byType,
      flows: flows.slice(-FLOW_DAYS_MAX),
      recent: await recentTransactions(trx, window),
    };
  });
}

/**
 * The newest transactions of the window: latest txn_date first, then txn_id descending (UUIDv7
 * ids, as the api makes them, are in posting order). Exactly the order of the (txn_date, txn_id)
 * index, so it reads RECENT_TXNS_MAX entries however many transactions a day has; ordering a
 * day by posted_at would read and sort the whole day (measured: the summary's one cost that
 * grew with the book). With `source`, only that source's (the India broker overview's).
 */
export async function recentTransactions(trx: Knex, window: ReportWindow, source?: Source): Promise<RecentTxn[]> {
  const rows: Array<Omit<RecentTxn, 'posted_at'> & { posted_at: Date }> = await trx('transactions')
    .modify(inWindow('txn_date', window))
    .modify((query) => (source === undefined ? query : query.where({ source })))
    .orderBy([
      { column: 'txn_date', order: 'desc' },
      { column: 'txn_id', order: 'desc' },
    ])
    .limit(RECENT_TXNS_MAX)
    .select(
      'txn_id',
      'txn_date',
      'posted_at',
      'txn_type',
      'source',
      'customer_id',
      'symbol',
      'amount_usd',
      'reverses_txn_id',
    );
  return rows.map((r) => ({
    ...r,
    posted_at: r.posted_at.toISOString(),
    amount_usd: formatDecimal(new Decimal(r.amount_usd)),
  }));
}

/** Revenue, cost and margin by source over the window, and per month of it (docs/firm-reports.md). */
export async function firmEarnings(db: Knex, window: ReportWindow): Promise<FirmEarnings> {
  assertWindow(window);
  return readSnapshot(db, async (trx) => {
    const movements = await earningsMovements(trx, window, true);
    const months = [...new Set(movements.map((m) => m.month))].map((month) => {
      const sources = earningsBySource(movements.filter((m) => m.month === month));
      return { month, sources, ...earningsTotal(sources) };
    });
    const sources = earningsBySource(movements);
    return { from: window.from ?? null, to: window.to ?? null, sources, ...earningsTotal(sources), months };
  });
}
