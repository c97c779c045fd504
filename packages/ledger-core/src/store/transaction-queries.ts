import type { Knex } from 'knex';
import type { AccountType } from '../domain/accounts.js';
import type { Page } from '../domain/limits.js';
import type { Source } from '../domain/sources.js';
import { JOURNAL_LINES, type JournalLineRow } from './columns/journal-lines.js';
import { columnRefs } from './columns/table.js';
import { TRANSACTIONS, type TransactionRow, type TransactionSummary } from './columns/transactions.js';
import { pagedGroups, pagedQuery, type Paged } from './paged.js';
import { customerLinesSql } from './read-model.js';

export interface TransactionFilter {
  customer_id?: string;
  txn_type?: string;
  source?: string;
  category?: string;
  symbol?: string;
  from?: string;
  to?: string;
  amount_min?: string;
  amount_max?: string;
  /** Who posted it (domain/actors.ts): this value, or, ending in `:`, every value under it (`job:recost:`). */
  posted_by?: string;
  /** Any of these types (the customer views: a customer's trades, its dividends and withholding). */
  txn_types?: readonly string[];
}

export const TRANSACTION_SORTS = ['txn_date', 'posted_at', 'amount_usd'] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];
/** The first is the default: newest first. */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Applies the list's filters to `transactions as t`; every one of them is served by an index on transactions. */
function whereTransactions(query: Knex.QueryBuilder, filter: TransactionFilter): Knex.QueryBuilder {
  for (const key of ['customer_id', 'txn_type', 'source', 'category', 'symbol'] as const) {
    const value = filter[key];
    if (value !== undefined) query.where(`t.${key}`, value);
  }
  if (filter.from !== undefined) query.where('t.txn_date', '>=', filter.from);
  if (filter.to !== undefined) query.where('t.txn_date', '<=', filter.to);
  if (filter.amount_min !== undefined) query.where('t.amount_usd', '>=', filter.amount_min);
  if (filter.amount_max !== undefined) query.where('t.amount_usd', '<=', filter.amount_max);
  if (filter.txn_types !== undefined) query.whereIn('t.txn_type', filter.txn_types);
  if (filter.posted_by !== undefined) {
    if (filter.posted_by.endsWith(':'))
      query.whereLike('t.posted_by', `${filter.posted_by.replace(/[\\%_]/g, '\\$&')}%`);
    else query.where('t.posted_by', filter.posted_by);
  }
  return query;
}

/** A transaction as lists show it: its columns (not the request hash) and who reversed it (`r`). */
const SUMMARY_COLUMNS = [...columnRefs(TRANSACTIONS, 't', ['request_hash']), 'r.txn_id AS reversed_by_txn_id'].join(
  ', ',
);

export function listTransactions(
  db: Knex,
  filter: TransactionFilter,
  page: Page,
  sort: TransactionSort,
  order: SortOrder,
): Promise<Paged<TransactionSummary>> {
  return pagedQuery<TransactionSummary>(
    () => whereTransactions(db('transactions as t'), filter),
    (query) =>
      query
        .leftJoin('transactions as r', 'r.reverses_txn_id', 't.txn_id')
        .select(db.raw(SUMMARY_COLUMNS))
        .orderBy([
          { column: `t.${sort}`, order },
          { column: 't.txn_id', order },
        ]),
    page,
  );
}

export const TRANSACTION_GROUP_BY = ['type', 'source', 'customer', 'day', 'symbol'] as const;
export type TransactionGroupBy = (typeof TRANSACTION_GROUP_BY)[number];

const GROUP_COLUMN: Record<TransactionGroupBy, string> = {
  type: 't.txn_type',
  source: 't.source',
  customer: 't.customer_id',
  day: `to_char(t.txn_date, 'YYYY-MM-DD')`,
  symbol: 't.symbol',
};

/** Transactions of one group: how many, and their total in USD (a decimal string). */
export type TransactionGroup = { key: string | null; count: number; total_usd: string };

/** Count and total per group over the filtered transactions, largest total first. */
export async function groupTransactions(
  db: Knex,
  filter: TransactionFilter,
  groupBy: TransactionGroupBy,
  page: Page,
): Promise<Paged<TransactionGroup> & { group_by: TransactionGroupBy }> {
  const key = GROUP_COLUMN[groupBy];
  const grouped = whereTransactions(db('transactions as t'), filter)
    .select(
      db.raw(`${key} AS key`),
      db.raw('count(*)::int AS count'),
      db.raw('sum(t.amount_usd)::text AS total_usd'),
      db.raw('sum(t.amount_usd) AS total'),
    )
    .groupByRaw(key);
  // `total` is the numeric sort key, not part of the answer.
  const result = await pagedGroups<TransactionGroup & { total?: string }>(
    db,
    grouped,
    groupBy === 'day' ? 'key DESC' : 'total DESC, key',
    page,
  );
  return {
    group_by: groupBy,
    items: result.items.map(({ total: _sortKey, ...row }) => row),
    total: result.total,
    ...page,
  };
}

export type CategoryFacet = { category: string; count: number; total_usd: string };

/** How many transactions fall in each category (under the list's filters). */
export async function categoryFacets(db: Knex, filter: TransactionFilter): Promise<{ items: CategoryFacet[] }> {
  const rows: CategoryFacet[] = await whereTransactions(db('transactions as t'), filter)
    .select('t.category', db.raw('count(*)::int AS count'), db.raw('sum(t.amount_usd)::text AS total_usd'))
    .groupBy('t.category')
    .orderBy([{ column: 'count', order: 'desc' }, { column: 't.category' }]);
  return { items: rows };
}

export interface JournalFilter {
  txn_id?: string;
  account_code?: string;
  customer_id?: string;
  posting_kind?: string;
  from?: string;
  to?: string;
}

/** Applies the journal's filters to `journal_lines as l`. */
function whereLines(query: Knex.QueryBuilder, filter: JournalFilter): Knex.QueryBuilder {
  for (const key of ['txn_id', 'account_code', 'posting_kind'] as const) {
    const value = filter[key];
    if (value !== undefined) query.where(`l.${key}`, value);
  }
  if (filter.customer_id !== undefined)
    query.whereRaw(customerLinesSql('l', '?', filter.account_code), [filter.customer_id]);
  if (filter.from !== undefined) query.where('l.txn_date', '>=', filter.from);
  if (filter.to !== undefined) query.where('l.txn_date', '<=', filter.to);
  return query;
}

/** A line as lists show it: its columns and its account's name (`a`). */
const LINE_COLUMNS = [...columnRefs(JOURNAL_LINES, 'l'), 'a.name as account_name'];

/** The journal, newest line first. */
export function listJournalLines(db: Knex, filter: JournalFilter, page: Page): Promise<Paged<JournalLineRow>> {
  return pagedQuery<JournalLineRow>(
    () => whereLines(db('journal_lines as l'), filter),
    (query) =>
      query.join('accounts as a', 'a.account_code', 'l.account_code').select(LINE_COLUMNS).orderBy('l.line_id', 'desc'),
    page,
  );
}

/** What a posting shows of its transaction. */
const POSTING_TRANSACTION_COLUMNS = [
  'txn_type',
  'source',
  'source_txn_id',
  'category',
  'symbol',
  'posted_at',
  'reverses_txn_id',
] as const;

/** A posting: a journal line flattened with its account's type and its transaction's facts. */
export type PostingRow = JournalLineRow & { account_type: AccountType } & Pick<
    TransactionRow,
    (typeof POSTING_TRANSACTION_COLUMNS)[number]
  >;

export type PostingFilter = JournalFilter & { txn_type?: string; source?: string };

/** Postings: journal lines flattened with their transaction's facts. */
export function listPostings(db: Knex, filter: PostingFilter, page: Page): Promise<Paged<PostingRow>> {
  const filtered = () => {
    const query = whereLines(db('journal_lines as l'), filter);
    if (filter.txn_type !== undefined) query.where('t.txn_type', filter.txn_type);
    if (filter.source !== undefined) query.where('t.source', filter.source);
    return query.join('transactions as t', 't.txn_id', 'l.txn_id');
  };
  return pagedQuery<PostingRow>(
    filtered,
    (query) =>
      query
        .join('accounts as a', 'a.account_code', 'l.account_code')
        .select([...LINE_COLUMNS, 'a.account_type', ...POSTING_TRANSACTION_COLUMNS.map((c) => `t.${c}`)])
        .orderBy('l.line_id', 'desc'),
    page,
  );
}

export const JOURNAL_GROUP_BY = ['account', 'posting_kind', 'customer', 'day'] as const;
export type JournalGroupBy = (typeof JOURNAL_GROUP_BY)[number];

const LINE_GROUP_COLUMN: Record<JournalGroupBy, string> = {
  account: 'l.account_code',
  posting_kind: 'l.posting_kind',
  customer: 'l.customer_id',
  day: `to_char(l.txn_date, 'YYYY-MM-DD')`,
};

/** Lines of one group: how many, their debits, credits and net (debit − credit), as decimal strings. */
export type JournalGroup = { key: string | null; line_count: number; debit: string; credit: string; net: string };

/** Debit, credit and net (debit − credit) per group of journal lines. */
export async function groupJournal(
  db: Knex,
  filter: JournalFilter,
  groupBy: JournalGroupBy,
  page: Page,
): Promise<Paged<JournalGroup> & { group_by: JournalGroupBy }> {
  const key = LINE_GROUP_COLUMN[groupBy];
  const grouped = whereLines(db('journal_lines as l'), filter)
    .select(
      db.raw(`${key} AS key`),
      db.raw('count(*)::int AS line_count'),
      db.raw('sum(l.debit)::text AS debit'),
      db.raw('sum(l.credit)::text AS credit'),
      db.raw('(sum(l.debit) - sum(l.credit))::text AS net'),
    )
    .groupByRaw(key);
  return {
    group_by: groupBy,
    ...(await pagedGroups<JournalGroup>(db, grouped, groupBy === 'day' ? 'key DESC' : 'key', page)),
  };
}

/** A trade as posted: its key, type, quantity and metadata. */
export interface PostedTrade {
  source_txn_id: string;
  txn_type: 'buy_security' | 'sell_security';
  quantity: string | null;
  metadata: Record<string, unknown>;
}

/** A customer's trades from one source, as posted: what a feed's later fills of an order are derived against. */
export async function postedTradesOf(db: Knex, source: Source, customerId: string): Promise<PostedTrade[]> {
  const { rows } = await db.raw<{ rows: PostedTrade[] }>(
    `SELECT source_txn_id, txn_type, quantity::text AS quantity, metadata FROM transactions
      WHERE source = ? AND customer_id = ? AND txn_type IN ('buy_security', 'sell_security') ORDER BY posted_at, txn_id`,
    [source, customerId],
  );
  return rows;
}
