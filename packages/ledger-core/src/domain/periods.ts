import { LedgerError } from './errors.js';
import type { TransactionDraft } from './transaction.js';

/**
 * Closed periods (docs/period-close.md): once the books are closed through a day, nothing is
 * dated on or before it. The database refuses such a posting whoever makes it; what is here
 * decides what a correction becomes instead.
 */

/** The metadata key naming the date a restated posting would have had. */
export const ORIGINAL_TXN_DATE = 'original_txn_date';

/** The day after `date` (YYYY-MM-DD, UTC calendar). */
export function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** Whether `date` falls in the period closed through `closedThrough` (null: nothing is closed). */
export const isClosed = (date: string, closedThrough: string | null): boolean =>
  closedThrough !== null && date <= closedThrough;

/** The day a posting meant for `date` takes: `date` when it is open, else the first open day. */
export const openDayFor = (date: string, closedThrough: string | null): string =>
  isClosed(date, closedThrough) ? nextDay(closedThrough!) : date;

/**
 * A correction that arrives for a closed day (a late upstream record, a recost restatement) is
 * posted on the first open day instead, its own date kept in `metadata.original_txn_date`: the
 * books already reported never change. An open-dated draft is answered as it is.
 */
export function restateIntoOpenPeriod(draft: TransactionDraft, closedThrough: string | null): TransactionDraft {
  if (!isClosed(draft.txnDate, closedThrough)) return draft;
  return {
    ...draft,
    txnDate: openDayFor(draft.txnDate, closedThrough),
    metadata: { ...draft.metadata, [ORIGINAL_TXN_DATE]: draft.txnDate },
  };
}

/**
 * A posting as it was before any restatement: its own date back, the key restating added gone.
 * What a re-sent record is compared on, so that a record restated once is a duplicate when it
 * comes again, whichever day is first open by then.
 */
export function asOriginallyDated<T extends { txn_date?: string; metadata?: Record<string, unknown> }>(facts: T): T {
  const original = facts.metadata?.[ORIGINAL_TXN_DATE];
  if (typeof original !== 'string') return facts;
  const metadata = Object.fromEntries(Object.entries(facts.metadata!).filter(([key]) => key !== ORIGINAL_TXN_DATE));
  return { ...facts, txn_date: original, metadata };
}

/** A draft as it was before restateIntoOpenPeriod. */
export function draftAsOriginallyDated(draft: TransactionDraft): TransactionDraft {
  const { txn_date, metadata } = asOriginallyDated({ txn_date: draft.txnDate, metadata: draft.metadata });
  return { ...draft, txnDate: txn_date, metadata };
}

/**
 * A close must name a day already over (UTC): today's and later postings are still arriving.
 * Closing the same day again is a repeat; the store refuses a close earlier than the current one.
 */
export function assertClosable(through: string, today: string): void {
  if (through >= today) {
    throw new LedgerError(
      'validation_error',
      `through must be a day before today (${today}): the books of today are still open`,
      [{ path: '/through', message: `must be before ${today}` }],
    );
  }
}

/** The refusal of a posting dated in a closed period, naming the close (what the database raised). */
export function periodClosedError(close: { close_id: number; through: string; txn_date: string }): LedgerError {
  return new LedgerError(
    'period_closed',
    `txn_date ${close.txn_date} falls in the period closed through ${close.through} (close ${close.close_id}); post the correction on an open day`,
    [{ path: '/txn_date', close_id: close.close_id, through: close.through }],
  );
}
