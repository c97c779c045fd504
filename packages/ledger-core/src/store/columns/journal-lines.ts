import { AED_ACCOUNTS, nativeCurrencyOf } from '../../domain/accounts.js';
import { formatDecimal } from '../../domain/money.js';
import type { JournalLineDraft } from '../../domain/posting-rules/types.js';
import type { TransactionDraft } from '../../domain/transaction.js';
import { columnsFrom, type JsonRowOf, type RowOf } from './table.js';

/** A line to store, with the draft it belongs to. */
export interface LineOfDraft {
  line: JournalLineDraft;
  draft: TransactionDraft;
}

const column = columnsFrom<LineOfDraft>();

/**
 * The `journal_lines` table. A line's customer and date are its transaction's (the database
 * checks they agree), so they are facts of the transaction, not of the line.
 */
export const JOURNAL_LINES = {
  line_id: column.required('bigint'),
  txn_id: column.required('uuid', { write: ({ draft }) => draft.txnId }),
  account_code: column.required('text', { write: ({ line }) => line.accountCode, fact: true }),
  debit: column.required('numeric', { write: ({ line }) => formatDecimal(line.debit), fact: true }),
  credit: column.required('numeric', { write: ({ line }) => formatDecimal(line.credit), fact: true }),
  customer_id: column.nullable('text', { write: ({ draft }) => draft.customerId }),
  posting_kind: column.nullable('text', { write: ({ line }) => line.postingKind, fact: true }),
  txn_date: column.required('date', { write: ({ draft }) => draft.txnDate }),
  created_at: column.required('timestamptz'),
  // The AED amount of a line of an AED account (null on a USD line). Not a fact: it follows from
  // the transaction's facts (original_amount, fx_rate), and a line posted before it was kept has
  // none, so a re-sent record is not another record for it.
  native_currency: column.nullable('text', {
    write: ({ line }) => (line.nativeAmount ? nativeCurrencyOf(line.accountCode) : null),
  }),
  native_amount: column.nullable('numeric', {
    write: ({ line }) => (line.nativeAmount ? formatDecimal(line.nativeAmount) : null),
  }),
} as const;

/** What a line shows beside its columns: its account's name (from `accounts`). */
type WithAccountName = { account_name: string };

/** A journal line as a SELECT gives it (lists). */
export type JournalLineRow = RowOf<typeof JOURNAL_LINES> & WithAccountName;

/** A journal line inside a stored transaction (read as JSON: timestamps as ISO-8601 strings). */
export type StoredJournalLine = JsonRowOf<typeof JOURNAL_LINES> & WithAccountName;

/** Every line of some drafts, in the drafts' order: the records of the lines' document. */
export function* linesOf(drafts: TransactionDraft[]): Iterable<LineOfDraft> {
  for (const draft of drafts) for (const line of draft.lines) yield { line, draft };
}

/**
 * The lines of the transaction `txnRef` names, as one key spelt as domain/lines-key.ts's linesKey
 * spells it (amounts by trim_scale, kinds length-prefixed, lines in "C" order): compared with a
 * draft's key, no line is read into the process. Only line facts are in it (a test holds
 * JOURNAL_LINES' facts to these four).
 */
export const linesKeySql = (txnRef: string) => `(SELECT coalesce(string_agg(line, ';' ORDER BY line COLLATE "C"), '')
   FROM (SELECT l.account_code || '|' || trim_scale(l.debit)::text || '|' || trim_scale(l.credit)::text || '|'
                || coalesce(length(l.posting_kind)::text || ':' || l.posting_kind, '') AS line
           FROM journal_lines l WHERE l.txn_id = ${txnRef}) keyed)`;

/**
 * What a line adds to what is owed on its account (credit − debit), in the account's own
 * currency: an AED line's AED amount, a USD line's USD. NULL on an AED line posted before lines
 * kept their AED amount (20270116): it has its USD figure only, which the reader converts.
 */
export const ownOwedSql = (alias: string) => `CASE
    WHEN ${alias}.native_amount IS NOT NULL THEN CASE WHEN ${alias}.credit > 0 THEN ${alias}.native_amount ELSE -${alias}.native_amount END
    WHEN ${alias}.account_code IN (${AED_ACCOUNTS.map((code) => `'${code}'`).join(', ')}) THEN NULL
    ELSE ${alias}.credit - ${alias}.debit
  END`;
