import { assert } from '../domain/errors.js';
import { formatDecimal, type Decimal } from '../domain/money.js';
import { isBalanced } from '../domain/posting-rules/index.js';
import type { TransactionDraft } from '../domain/transaction.js';

/**
 * How drafts travel to Postgres: as one jsonb document for transactions and one for lines
 * (cheaper to write in Node and to read in Postgres than two dozen array parameters).
 * Transactions go into an INSERT that skips a (source, source_txn_id) already taken: that skip
 * is what makes ingest and reversal idempotent. `returning` is the statement's RETURNING list;
 * `document` the placeholder of the document's parameter (knex's `?`, or pg's `$1`).
 */
export const insertTransactionsSql = (returning: string, document = '?') => `
  INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity,
    txn_date, amount_usd, original_currency, original_amount, fx_rate, recosted_at, reverses_txn_id, memo,
    metadata, request_hash)
  SELECT (t->>0)::uuid, t->>1, t->>2, t->>3, t->>4, t->>5, t->>6, (t->>7)::numeric,
    (t->>8)::date, (t->>9)::numeric, t->>10, (t->>11)::numeric, (t->>12)::numeric,
    CASE WHEN (t->>13)::boolean THEN NULL ELSE now() END, (t->>14)::uuid, t->>15, t->16, t->>17
  FROM jsonb_array_elements(${document}::jsonb) AS t
  ON CONFLICT (source, source_txn_id) DO NOTHING
  RETURNING ${returning}`;

/**
 * The lines of the transactions a `new_txns` CTE (of insertTransactionsSql) inserted, in the
 * drafts' order, so line ids follow it; lines of skipped transactions are not written.
 */
export const insertLinesSql = (returning: string, document = '?') => `
  INSERT INTO journal_lines (txn_id, account_code, debit, credit, posting_kind, customer_id, txn_date)
  SELECT (l->>0)::uuid, l->>1, (l->>2)::numeric, (l->>3)::numeric, l->>4, l->>5, (l->>6)::date
  FROM jsonb_array_elements(${document}::jsonb) WITH ORDINALITY AS e(l, position)
  WHERE (l->>0)::uuid IN (SELECT txn_id FROM new_txns)
  ORDER BY position
  RETURNING ${returning}`;

const optional = (value: Decimal | null) => (value === null ? null : formatDecimal(value));

/**
 * The drafts to write: each once (the same draft twice would join its lines to its one row
 * twice), each asserted balanced — balanced three times: by the rule, here, and by the
 * database at commit.
 */
export function draftsToWrite(batch: TransactionDraft[]): TransactionDraft[] {
  const drafts = [...new Map(batch.map((d) => [d.txnId, d])).values()];
  for (const d of drafts) assert(isBalanced(d.lines), `transaction ${d.txnId} reached the store unbalanced`);
  return drafts;
}

export function transactionsDocument(drafts: TransactionDraft[]): string {
  return JSON.stringify(
    drafts.map((d) => [
      d.txnId,
      d.customerId,
      d.txnType,
      d.source,
      d.sourceTxnId,
      d.category,
      d.symbol,
      d.quantity?.toString() ?? null,
      d.txnDate,
      formatDecimal(d.amountUsd),
      d.originalCurrency,
      optional(d.originalAmount),
      optional(d.fxRate),
      d.pendingRecost,
      d.reversesTxnId,
      d.memo,
      d.metadata,
      d.requestHash,
    ]),
  );
}

function lineRows(drafts: TransactionDraft[]): Array<Array<string | null>> {
  return drafts.flatMap((d) =>
    d.lines.map((l) => [d.txnId, l.accountCode, formatDecimal(l.debit), formatDecimal(l.credit), l.postingKind, d.customerId, d.txnDate]),
  );
}

/** Journal lines as a jsonb document, in the column order insertLinesSql reads. */
export function linesDocument(drafts: TransactionDraft[]): string {
  return JSON.stringify(lineRows(drafts));
}
