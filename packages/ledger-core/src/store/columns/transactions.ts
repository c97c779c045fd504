import { configure } from 'safe-stable-stringify';
import { linesKey } from '../../domain/lines-key.js';
import { Decimal, formatDecimal } from '../../domain/money.js';
import type { TxnType } from '../../domain/posting-rules/types.js';
import type { TransactionDraft } from '../../domain/transaction.js';
import { currentActor } from '../../runtime/actor.js';
import { type StoredJournalLine } from './journal-lines.js';
import { columnsFrom, type Column, type RowOf, type SqlType } from './table.js';

const column = columnsFrom<TransactionDraft>();

/**
 * The recosted_at of the transaction aliased `alias`: its recost state's (null while pending),
 * else its posted_at (a transaction never pending was stamped when posted).
 */
export const recostedAtSql = (alias: string) =>
  `(SELECT CASE WHEN count(*) = 0 THEN ${alias}.posted_at ELSE max(s.recosted_at) END FROM recost_states s WHERE s.txn_id = ${alias}.txn_id)`;
const optional = (value: Decimal | null) => (value === null ? null : formatDecimal(value));

/**
 * The `transactions` table as the code writes and reads it (created_xid, the database's own
 * bookkeeping, is never read). Order is the table's.
 */
export const TRANSACTIONS = {
  txn_id: column.required('uuid', { write: (d) => d.txnId }),
  customer_id: column.nullable('text', { write: (d) => d.customerId, fact: true }),
  txn_type: column.required<'text', TxnType>('text', { write: (d) => d.txnType, fact: true }),
  source: column.required('text', { write: (d) => d.source }),
  source_txn_id: column.required('text', { write: (d) => d.sourceTxnId }),
  category: column.required('text', { write: (d) => d.category, fact: true }),
  symbol: column.nullable('text', { write: (d) => d.symbol, fact: true }),
  quantity: column.nullable('numeric', { write: (d) => d.quantity?.toString() ?? null, fact: true }),
  txn_date: column.required('date', { write: (d) => d.txnDate, fact: true }),
  posted_at: column.required('timestamptz'),
  amount_usd: column.required('numeric', { write: (d) => formatDecimal(d.amountUsd), fact: true }),
  original_currency: column.nullable('text', { write: (d) => d.originalCurrency, fact: true }),
  original_amount: column.nullable('numeric', { write: (d) => optional(d.originalAmount), fact: true }),
  fx_rate: column.nullable('numeric', { write: (d) => optional(d.fxRate), fact: true }),
  // Recost's state, kept beside the row in recost_states (ADR 0009): null while pending; a
  // transaction never pending has none, and was stamped when posted. Not a fact of the record.
  recosted_at: column.nullable('timestamptz', { readVia: recostedAtSql }),
  reverses_txn_id: column.nullable('uuid', { write: (d) => d.reversesTxnId, fact: true }),
  memo: column.nullable('text', { write: (d) => d.memo, fact: true }),
  metadata: column.required('jsonb', { write: (d) => d.metadata, fact: true }),
  // The fingerprint of the request (manual entry's idempotency), not a fact of the transaction.
  request_hash: column.nullable('text', { write: (d) => d.requestHash }),
  // Who posted it: the draft's, else the work's (runtime/actor.ts); not a fact (a re-sent record by another job is the same record).
  posted_by: column.required('text', { write: (d) => d.postedBy ?? currentActor() }),
} as const;

/** A `transactions` row as read, request hash included. */
export type TransactionRow = RowOf<typeof TRANSACTIONS>;

/** A transaction without its lines, as lists show it: the row, and the reversal that reversed it, if any. */
export type TransactionSummary = Omit<TransactionRow, 'request_hash'> & { reversed_by_txn_id: string | null };

/** A transaction as stored, with its journal lines, in wire form (decimal strings). */
export type StoredTransaction = TransactionSummary & { journal_lines: StoredJournalLine[] };

/** A stored transaction with the fingerprint of the request that posted it. */
export interface TransactionRecord {
  transaction: StoredTransaction;
  requestHash: string | null;
}

/** Canonical JSON (keys sorted): jsonb gives keys back in its own order. */
const canonicalJson = configure({ deterministic: true, bigint: false }) as (value: unknown) => string;

/** Whether a stored value and a draft's written value are the same fact: decimals by value, JSON by content. */
function sameValue(column: Column, stored: unknown, written: unknown): boolean {
  if (stored === written) return true;
  if (stored === null || stored === undefined || written === null || written === undefined)
    return (stored ?? null) === (written ?? null);
  if (column.sqlType === 'numeric') return new Decimal(stored as string).isEqualTo(written as string);
  if (column.sqlType === 'jsonb') return canonicalJson(stored) === canonicalJson(written);
  return String(stored) === String(written);
}

const FACTS = (
  Object.entries(TRANSACTIONS) as Array<[keyof typeof TRANSACTIONS, Column<SqlType, unknown, TransactionDraft>]>
).filter(([, c]) => c.fact);
/** The facts of the transactions table, by name (what a re-sent record is compared on, with its lines). */
export const FACT_COLUMNS: ReadonlyArray<keyof typeof TRANSACTIONS> = FACTS.map(([name]) => name);

/**
 * A stored transaction as a re-sent record is compared with it: its id and key, its facts, and
 * its lines as one key (domain/lines-key.ts; read by linesKeySql, never line by line).
 */
export type StoredFacts = Pick<TransactionRow, 'txn_id' | 'source' | 'source_txn_id'> &
  Partial<TransactionRow> & { lines_key: string };

/**
 * The facts in which a stored transaction differs from a draft posted under its key: column
 * names of the transaction (`amount_usd`), and `journal_lines` when its lines differ (compared
 * as a set: account, debit, credit, kind, amounts by value). Empty when the draft is the same
 * transaction.
 */
export function factsThatDiffer(draft: TransactionDraft, stored: StoredFacts): string[] {
  const fields: string[] = FACTS.filter(([name, c]) => !sameValue(c, stored[name], c.write!(draft))).map(
    ([name]) => name,
  );
  if (stored.lines_key !== linesKey(draft.lines)) fields.push('journal_lines');
  return fields;
}
