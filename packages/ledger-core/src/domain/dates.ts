/**
 * Calendar dates as they enter the ledger (`txn_date`, a sync's window, an import's
 * `valueDate`): `YYYY-MM-DD`, a day that exists, years 1900-2199 (a ledger date, and one
 * Postgres stores: it refuses year 0). One check, so every door refuses the same days.
 */
/** The last year a ledger date may fall in (the pattern below spells the same bound). */
export const LAST_CALENDAR_YEAR = 2199;

export const CALENDAR_DATE_PATTERN_SOURCE = '^(19|20|21)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
const CALENDAR_DATE_PATTERN = new RegExp(CALENDAR_DATE_PATTERN_SOURCE);

export const CALENDAR_DATE_RULE = 'a calendar date YYYY-MM-DD between 1900 and 2199 that exists, e.g. "2026-01-15"';

/** Whether `text` is a day on the calendar: the form, then the day of its month (2026-02-30 is not; 2024-02-29 is). */
export function isCalendarDate(text: string): boolean {
  if (!CALENDAR_DATE_PATTERN.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The UTC calendar day of `now`, YYYY-MM-DD: the day the API dates what it posts today. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);
