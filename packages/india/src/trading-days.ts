import { addDays } from './dates.js';

/**
 * The days the US exchanges (NYSE, Nasdaq) trade: weekdays, less their full-day holidays (NYSE
 * Rule 7.2: New Year's Day, Martin Luther King Jr. Day, Washington's Birthday, Good Friday,
 * Memorial Day, Juneteenth from 2022, Independence Day, Labor Day, Thanksgiving, Christmas; a
 * Saturday holiday is taken the Friday before, except New Year's Day; a Sunday one the Monday
 * after) and the unscheduled closures listed below. A closure missing from the list shows as a day
 * without a close: it can only make a peak read as a lower bound, never the other way round.
 */
const UNSCHEDULED_CLOSURES: readonly string[] = [
  '2012-10-29', // Hurricane Sandy
  '2012-10-30',
  '2018-12-05', // National day of mourning, President George H. W. Bush
  '2025-01-09', // National day of mourning, President Jimmy Carter
];

const day = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The `n`th (1-based; -1: the last) `dow` (0 Sunday) of month `m` of year `y`. */
function nth(y: number, m: number, dow: number, n: number): string {
  if (n < 0) {
    let date = addDays(day(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1), -1);
    while (weekday(date) !== dow) date = addDays(date, -1);
    return date;
  }
  let date = day(y, m, 1);
  while (weekday(date) !== dow) date = addDays(date, 1);
  return addDays(date, 7 * (n - 1));
}

/** A fixed-date holiday as observed: Saturday → the Friday before, Sunday → the Monday after. */
function observed(date: string): string {
  const dow = weekday(date);
  return dow === 6 ? addDays(date, -1) : dow === 0 ? addDays(date, 1) : date;
}

/** Easter Sunday (the Gregorian computus, Meeus/Jones/Butcher). */
function easter(y: number): string {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return day(y, month, ((h + l - 7 * m + 114) % 31) + 1);
}

/** The exchanges' full-day holidays of year `y`. */
function exchangeHolidays(y: number): Set<string> {
  const newYear = day(y, 1, 1);
  return new Set([
    // A Saturday New Year's Day is not taken on the Friday before (the year before's last day).
    ...(weekday(newYear) === 6 ? [] : [observed(newYear)]),
    nth(y, 1, 1, 3),
    nth(y, 2, 1, 3),
    addDays(easter(y), -2),
    nth(y, 5, 1, -1),
    ...(y >= 2022 ? [observed(day(y, 6, 19))] : []),
    observed(day(y, 7, 4)),
    nth(y, 9, 1, 1),
    nth(y, 11, 4, 4),
    observed(day(y, 12, 25)),
    ...UNSCHEDULED_CLOSURES.filter((d) => d.startsWith(`${y}-`)),
  ]);
}

/** The trading days from `from` to `to`, both included, in order. */
export function tradingDays(from: string, to: string): string[] {
  const days: string[] = [];
  const holidays = new Map<number, Set<string>>();
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const dow = weekday(date);
    if (dow === 0 || dow === 6) continue;
    const y = Number(date.slice(0, 4));
    if (!holidays.has(y)) holidays.set(y, exchangeHolidays(y));
    if (!holidays.get(y)!.has(date)) days.push(date);
  }
  return days;
}
