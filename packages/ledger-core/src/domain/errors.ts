/**
 * Expected failures of the ledger, each with a stable code. Only the API's error mapper knows
 * which HTTP status a code becomes.
 */
export type LedgerErrorCode =
  | 'validation_error'
  | 'not_found'
  | 'conflict'
  | 'idempotency_conflict'
  | 'invalid_state_transition'
  | 'unbalanced_transaction'
  | 'unknown_account'
  | 'unknown_customer'
  | 'insufficient_funds'
  | 'source_reserved'
  | 'aed_off_peg'
  | 'operating_bank_credit_unconfirmed'
  | 'entry_refused'
  | 'derived_entry'
  | 'customer_required'
  | 'overloaded'
  | 'period_closed';

export class LedgerError extends Error {
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** A state that must never happen: fail loudly instead of limping on. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`invariant violated: ${message}`);
}
