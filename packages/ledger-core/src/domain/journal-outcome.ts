import { assert, LedgerError, type LedgerErrorCode } from './errors.js';

/**
 * What became of one draft sent to the journal (ADR 0015, docs/outcomes.md), whoever sent it:
 * manual entry, preview, reversal, cash requests, year close, recost, imports and syncs.
 */
export const JOURNAL_OUTCOMES = ['inserted', 'duplicate', 'conflict', 'rejected'] as const;
export type JournalOutcomeName = (typeof JOURNAL_OUTCOMES)[number];

/**
 * Why the ledger refused a draft (`rejected`): a closed set, each documented once in
 * docs/outcomes.md. The refusals the database makes at the write (store/errors.ts), and the one
 * the funds check under the customer's lock makes.
 */
export const REJECTION_CODES = [
  'period_closed',
  'unknown_customer',
  'unknown_account',
  'customer_required',
  'unbalanced_transaction',
  'insufficient_funds',
  'entry_refused',
] as const satisfies readonly LedgerErrorCode[];
export type RejectionCode = (typeof REJECTION_CODES)[number];

/** A refusal of a draft: a LedgerError whose code is a rejection code. */
export type Rejection = LedgerError & { readonly code: RejectionCode };

/**
 * - `inserted`: written now, as `txnId`;
 * - `duplicate`: its (source, source_txn_id) already holds the same record (`txnId` the stored
 *   one): nothing written, the stored one is the answer;
 * - `conflict`: its key already holds another record, differing in `fields` (column names,
 *   `journal_lines` for the lines); nothing written, the stored one stands;
 * - `rejected`: the ledger refused its data (`reason`); nothing of it was written.
 */
export type JournalOutcome =
  | { outcome: 'inserted'; txnId: string }
  | { outcome: 'duplicate'; txnId: string }
  | { outcome: 'conflict'; txnId: string; fields: string[] }
  | { outcome: 'rejected'; reason: Rejection };

export const isRejectionCode = (code: string): code is RejectionCode =>
  (REJECTION_CODES as readonly string[]).includes(code);

/** A refusal of a draft's data as its outcome; a code outside the closed set is a bug, not a refusal. */
export function rejectedBy(error: LedgerError): JournalOutcome {
  assert(isRejectionCode(error.code), `${error.code} is not a rejection code (domain/journal-outcome.ts)`);
  return { outcome: 'rejected', reason: error as Rejection };
}

/**
 * The one idempotency rule: a draft whose key is taken is the same record when it was made from
 * the same request as the stored one (both carry a request hash, and they are equal: whatever
 * the request derived then, fees in force or a rounding residue cleared, is the record), or else
 * when no fact differs (`differing`, from the stored facts); otherwise it conflicts.
 */
export function repeatOutcome(
  storedTxnId: string,
  hashes: { stored: string | null; draft: string | null },
  differing: string[],
): JournalOutcome {
  const sameRequest = hashes.stored !== null && hashes.stored === hashes.draft;
  if (sameRequest || differing.length === 0) return { outcome: 'duplicate', txnId: storedTxnId };
  return { outcome: 'conflict', txnId: storedTxnId, fields: differing };
}

/** The LedgerError an HTTP caller gets for a conflicting repeat of an entry's key (409 idempotency_conflict). */
export function idempotencyConflict(source: string, sourceTxnId: string, txnId: string): LedgerError {
  return new LedgerError(
    'idempotency_conflict',
    `source_txn_id ${sourceTxnId} of source ${source} was already posted with a different payload`,
    [{ txn_id: txnId }],
  );
}
