import { LedgerError } from '../domain/errors.js';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/**
 * Turns the database's refusals that callers can cause into domain errors; anything else is
 * rethrown as the fault it is.
 */
export function translateDbError(error: unknown): never {
  const pgError = error as PgError;
  if (pgError.code === '23503' && pgError.constraint === 'ledger_transaction_customer_known') {
    throw new LedgerError('unknown_customer', 'customer_id names no customer of this book');
  }
  if (pgError.code === '23503' && pgError.constraint === 'ledger_line_account_known') {
    throw new LedgerError('unknown_account', 'account_code names no account of the chart');
  }
  if (pgError.code === '23514' && pgError.constraint?.startsWith('ledger_transaction_')) {
    throw new LedgerError('unbalanced_transaction', 'the transaction does not balance');
  }
  throw error;
}
