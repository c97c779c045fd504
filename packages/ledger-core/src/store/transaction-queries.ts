import { assertPage, type Page } from '../domain/limits.js';
import type { Knex } from 'knex';

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
}


export const TRANSACTION_SORTS = ['txn_date', 'posted_at', 'amount_usd'] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];
/** The first is the default: newest first. */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Applies the list's filters; every one of them is served by an index on transactions. */
export function whereTransactions(query: Knex.QueryBuilder, filter: TransactionFilter, alias = 't'): Knex.QueryBuilder {
  const col = (name: string) => `${alias}.${name}`;
  for (const key of ['customer_id', 'txn_type', 'source', 'category', 'symbol'] as const) {
    const value = filter[key];
    if (value !== undefined) query.where(col(key), value);
  }
  if (filter.from !== undefined) query.where(col('txn_date'), '>=', filter.from);
  if (filter.to !== undefined) query.where(col('txn_date'), '<=', filter.to);
  if (filter.amount_min !== undefined) query.where(col('amount_usd'), '>=', filter.amount_min);
  if (filter.amount_max !== undefined) query.where(col('amount_usd'), '<=', filter.amount_max);
  return query;
}

const LIST_COLUMNS = [
  't.txn_id',
  't.customer_id',
  't.txn_type',
  't.source',
  't.source_txn_id',
  't.category',
  't.symbol',
  't.quantity',
  't.txn_date',
  't.posted_at',
  't.amount_usd',
  't.original_currency',
  't.original_amount',
  't.fx_rate',
  't.recosted_at',
  't.reverses_txn_id',
  'r.txn_id as reversed_by_txn_id',
  't.memo',
  't.metadata',
];

export async function listTransactions(
  db: Knex,
  filter: TransactionFilter,
  page: Page,
  sort: TransactionSort,
  order: SortOrder,
) {
  const items = whereTransactions(db('transactions as t'), filter)
    .leftJoin('transactions as r', 'r.reverses_txn_id', 't.txn_id')
    .select(LIST_COLUMNS)
    .orderBy([
      { column: `t.${sort}`, order },
      { column: 't.txn_id', order },
    ])
    .limit(assertPage(page).limit)
    .offset(page.offset);
  const count = whereTransactions(db('transactions as t'), filter).count<Array<{ count: string }>>({ count: '*' });
  const [rows, [total]] = await Promise.all([items, count]);
  return { items: rows, total: Number(total?.count ?? 0), ...page };
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

/**
 * One page of a grouped query (`key` and aggregates per row) and how many groups there are, in
 * one statement; a second only when the page is past the last group.
 */
async function pageOfGroups<Group>(db: Knex, grouped: Knex.QueryBuilder, orderBy: string, page: Page) {
  const rows: Array<Group & { groups: number }> = await db
    .with('g', grouped)
    .select('*', db.raw('count(*) OVER ()::int AS groups'))
    .from('g')
    .orderByRaw(orderBy)
    .limit(assertPage(page).limit)
    .offset(page.offset);
  const total = rows[0]?.groups ?? (await db.with('g', grouped).count({ n: '*' }).from('g').first())?.n;
  return { items: rows.map(({ groups: _groups, ...row }) => row as Group), total: Number(total ?? 0) };
}

/** Count and total per group over the filtered transactions, largest total first. */
export async function groupTransactions(db: Knex, filter: TransactionFilter, groupBy: TransactionGroupBy, page: Page) {
  const key = GROUP_COLUMN[groupBy];
  const grouped = whereTransactions(db('transactions as t'), filter)
    .select(db.raw(`${key} AS key`), db.raw('count(*)::int AS count'), db.raw('sum(t.amount_usd)::text AS total_usd'), db.raw('sum(t.amount_usd) AS total'))
    .groupByRaw(key);
  type Group = { key: string | null; count: number; total_usd: string; total?: string };
  const result = await pageOfGroups<Group>(db, grouped, groupBy === 'day' ? 'key DESC' : 'total DESC, key', page);
  return {
    group_by: groupBy,
    items: result.items.map(({ total: _sortKey, ...row }) => row),
    total: result.total,
    ...page,
  };
}

/** How many transactions fall in each category (under the list's filters). */
export async function categoryFacets(db: Knex, filter: TransactionFilter) {
  const rows = await whereTransactions(db('transactions as t'), filter)
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

function whereLines(query: Knex.QueryBuilder, filter: JournalFilter): Knex.QueryBuilder {
  for (const key of ['txn_id', 'account_code', 'customer_id', 'posting_kind'] as const) {
    const value = filter[key];
    if (value !== undefined) query.where(`l.${key}`, value);
  }
  if (filter.from !== undefined) query.where('l.txn_date', '>=', filter.from);
  if (filter.to !== undefined) query.where('l.txn_date', '<=', filter.to);
  return query;
}

const LINE_COLUMNS = [
  'l.line_id',
  'l.txn_id',
  'l.account_code',
  'a.name as account_name',
  'l.debit',
  'l.credit',
  'l.customer_id',
  'l.posting_kind',
  'l.txn_date',
  'l.created_at',
];

/** The journal, newest line first. */
export async function listJournalLines(db: Knex, filter: JournalFilter, page: Page) {
  const items = whereLines(db('journal_lines as l'), filter)
    .join('accounts as a', 'a.account_code', 'l.account_code')
    .select(LINE_COLUMNS)
    .orderBy('l.line_id', 'desc')
    .limit(assertPage(page).limit)
    .offset(page.offset);
  const count = whereLines(db('journal_lines as l'), filter).count<Array<{ count: string }>>({ count: '*' });
  const [rows, [total]] = await Promise.all([items, count]);
  return { items: rows, total: Number(total?.count ?? 0), ...page };
}

/** Postings: journal lines flattened with their transaction's facts. */
export async function listPostings(db: Knex, filter: JournalFilter & { txn_type?: string; source?: string }, page: Page) {
  const scoped = (query: Knex.QueryBuilder) => {
    whereLines(query, filter);
    if (filter.txn_type !== undefined) query.where('t.txn_type', filter.txn_type);
    if (filter.source !== undefined) query.where('t.source', filter.source);
    return query.join('transactions as t', 't.txn_id', 'l.txn_id');
  };
  const items = scoped(db('journal_lines as l'))
    .join('accounts as a', 'a.account_code', 'l.account_code')
    .select([
      ...LINE_COLUMNS,
      'a.account_type',
      't.txn_type',
      't.source',
      't.source_txn_id',
      't.category',
      't.symbol',
      't.posted_at',
      't.reverses_txn_id',
    ])
    .orderBy('l.line_id', 'desc')
    .limit(assertPage(page).limit)
    .offset(page.offset);
  const count = scoped(db('journal_lines as l')).count<Array<{ count: string }>>({ count: '*' });
  const [rows, [total]] = await Promise.all([items, count]);
  return { items: rows, total: Number(total?.count ?? 0), ...page };
}

export const JOURNAL_GROUP_BY = ['account', 'posting_kind', 'customer', 'day'] as const;
export type JournalGroupBy = (typeof JOURNAL_GROUP_BY)[number];

const LINE_GROUP_COLUMN: Record<JournalGroupBy, string> = {
  account: 'l.account_code',
  posting_kind: 'l.posting_kind',
  customer: 'l.customer_id',
  day: `to_char(l.txn_date, 'YYYY-MM-DD')`,
};

/** Debit, credit and net (debit − credit) per group of journal lines. */
export async function groupJournal(db: Knex, filter: JournalFilter, groupBy: JournalGroupBy, page: Page) {
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
  return { group_by: groupBy, ...(await pageOfGroups<Record<string, unknown>>(db, grouped, groupBy === 'day' ? 'key DESC' : 'key', page)), ...page };
}
