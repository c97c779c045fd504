import { LedgerError } from '../domain/errors.js';
import { periodClosedError } from '../domain/periods.js';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** The close a posting ran into, from the DETAIL ledger_refuse_closed_period raises with (migrations/20261230). */
function closeOf(pgError: PgError): { close_id: number; through: string; txn_date: string } {
  return JSON.parse(pgError.detail ?? '{}') as { close_id: number; through: string; txn_date: string };
}

/**
 * Whether the database refused the data itself (SQLSTATE class 22, data exception, or 23,
 * integrity constraint violation) rather than failing as a service (connection lost, timeout):
 * a refusal is about one entry of a batch, and posting that entry alone tells which.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = (error as PgError | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/** Whether `error` is a unique violation of `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pgError = error as PgError | null;
  return pgError?.code === '23505' && pgError.constraint === constraint;
}

/**
 * A refusal of one entry that no earlier check caught, as the entry's own 422: the entry fails
 * alone, and the constraint it broke is named (a rule the domain should learn to check first).
 */
export function refusalOfEntry(error: unknown): LedgerError {
  const pgError = error as PgError;
  return new LedgerError('entry_refused', 'the ledger database refused this entry; nothing was stored', [
    { constraint: pgError.constraint ?? null, sqlstate: pgError.code ?? null },
  ]);
}

/**
 * Turns the database's refusals that callers can cause into domain errors; anything else is
 * rethrown as the fault it is (including a refusal of data no rule names: see refusalOf).
 */
export function translateDbError(error: unknown): never {
  const pgError = error as PgError;
  if (pgError.code === '23514' && pgError.constraint === 'ledger_period_closed')
    throw periodClosedError(closeOf(pgError));
  if (pgError.code === '23503' && pgError.constraint === 'ledger_transaction_customer_known') {
    throw new LedgerError('unknown_customer', 'customer_id names no customer of this book');
  }
  if (pgError.code === '23503' && pgError.constraint === 'ledger_line_account_known') {
    throw new LedgerError('unknown_account', 'account_code names no account of the chart');
  }
  if (pgError.code === '23514' && pgError.constraint === 'journal_lines_customer_account_has_customer') {
    throw new LedgerError(
      'customer_required',
      'a line on a customer account (2010, 2020, 2100) needs the transaction’s customer_id',
    );
  }
  if (pgError.code === '23514' && pgError.constraint?.startsWith('ledger_transaction_')) {
    throw new LedgerError('unbalanced_transaction', 'the transaction does not balance');
  }
  throw error;
}

/**
 * Turns every refusal of the data of a posting into a domain error: the ones a rule names
 * (translateDbError), and any other (SQLSTATE class 22 or 23) as `entry_refused` naming the
 * constraint. A failure of the service (connection lost, timeout) is rethrown as it is. This is
 * what the use cases see: a LedgerError is about the records posted; anything else is not.
 */
export function refusalOf(error: unknown): never {
  try {
    translateDbError(error);
  } catch (translated) {
    if (!(translated instanceof LedgerError) && isDataRefusal(translated)) throw refusalOfEntry(translated);
    throw translated;
  }
}
