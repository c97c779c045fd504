import { assert, type StoredJournalLine, type StoredTransaction } from '@ledger/core';

/**
 * Wire form of what core returns: explicit fields only (a column added to a query does not leak
 * out), timestamps as ISO-8601 strings, decimals as the strings Postgres gave.
 */
type Row = Record<string, unknown>;

function timestamp(value: unknown, field: string): string {
  if (value instanceof Date) return value.toISOString();
  assert(typeof value === 'string', `${field} is a timestamp`);
  return value;
}

const timestampOrNull = (value: unknown, field: string) => (value === null || value === undefined ? null : timestamp(value, field));

function text(value: unknown, field: string): string {
  assert(typeof value === 'string', `${field} is a string`);
  return value;
}

function textOrNull(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : text(value, field);
}

function count(value: unknown, field: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  assert(typeof n === 'number' && Number.isSafeInteger(n) && n >= 0, `${field} is a count`);
  return n;
}

function object(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function transactionFacts(t: Row) {
  return {
    txn_id: text(t.txn_id, 'txn_id'),
    customer_id: textOrNull(t.customer_id, 'customer_id'),
    txn_type: text(t.txn_type, 'txn_type'),
    source: text(t.source, 'source'),
    source_txn_id: text(t.source_txn_id, 'source_txn_id'),
    category: text(t.category, 'category'),
    symbol: textOrNull(t.symbol, 'symbol'),
    quantity: textOrNull(t.quantity, 'quantity'),
    txn_date: text(t.txn_date, 'txn_date'),
    posted_at: timestamp(t.posted_at, 'posted_at'),
    amount_usd: text(t.amount_usd, 'amount_usd'),
    original_currency: textOrNull(t.original_currency, 'original_currency'),
    original_amount: textOrNull(t.original_amount, 'original_amount'),
    fx_rate: textOrNull(t.fx_rate, 'fx_rate'),
    recosted_at: timestampOrNull(t.recosted_at, 'recosted_at'),
    reverses_txn_id: textOrNull(t.reverses_txn_id, 'reverses_txn_id'),
    reversed_by_txn_id: textOrNull(t.reversed_by_txn_id, 'reversed_by_txn_id'),
    memo: textOrNull(t.memo, 'memo'),
    metadata: object(t.metadata),
  };
}

function journalLine(l: Row) {
  return {
    line_id: String(l.line_id),
    txn_id: text(l.txn_id, 'txn_id'),
    account_code: text(l.account_code, 'account_code'),
    account_name: text(l.account_name, 'account_name'),
    debit: text(l.debit, 'debit'),
    credit: text(l.credit, 'credit'),
    customer_id: textOrNull(l.customer_id, 'customer_id'),
    posting_kind: textOrNull(l.posting_kind, 'posting_kind'),
    txn_date: text(l.txn_date, 'txn_date'),
    created_at: timestamp(l.created_at, 'created_at'),
  };
}

export const presentTransactionSummary = (row: Row) => transactionFacts(row);

/** A transaction with its journal lines. */
export function presentTransaction(t: StoredTransaction) {
  return {
    ...transactionFacts(t as unknown as Row),
    journal_lines: t.journal_lines.map((l: StoredJournalLine) => journalLine(l as unknown as Row)),
  };
}

export const presentJournalLine = (row: Row) => journalLine(row);

export function presentPosting(row: Row) {
  return {
    ...journalLine(row),
    account_type: text(row.account_type, 'account_type'),
    txn_type: text(row.txn_type, 'txn_type'),
    source: text(row.source, 'source'),
    source_txn_id: text(row.source_txn_id, 'source_txn_id'),
    category: text(row.category, 'category'),
    symbol: textOrNull(row.symbol, 'symbol'),
    posted_at: timestamp(row.posted_at, 'posted_at'),
    reverses_txn_id: textOrNull(row.reverses_txn_id, 'reverses_txn_id'),
  };
}

export function presentCustomer(row: Row) {
  return {
    customer_id: text(row.customer_id, 'customer_id'),
    name: textOrNull(row.name, 'name'),
    email: textOrNull(row.email, 'email'),
    metadata: object(row.metadata),
    created_at: timestamp(row.created_at, 'created_at'),
    updated_at: timestamp(row.updated_at, 'updated_at'),
  };
}

export function presentTransactionGroup(row: Row) {
  return { key: textOrNull(row.key, 'key'), count: count(row.count, 'count'), total_usd: text(row.total_usd, 'total_usd') };
}

export function presentCategoryFacet(row: Row) {
  return { category: text(row.category, 'category'), count: count(row.count, 'count'), total_usd: text(row.total_usd, 'total_usd') };
}

export function presentJournalGroup(row: Row) {
  return {
    key: textOrNull(row.key, 'key'),
    line_count: count(row.line_count, 'line_count'),
    debit: text(row.debit, 'debit'),
    credit: text(row.credit, 'credit'),
    net: text(row.net, 'net'),
  };
}

/** A paged result of core with its rows presented. */
export function presentPage<T>(page: { items: Row[]; total: number; limit: number; offset: number }, present: (row: Row) => T) {
  return { items: page.items.map(present), total: page.total, limit: page.limit, offset: page.offset };
}
