/** Calendar arithmetic on `YYYY-MM-DD` strings, in UTC (dates, not instants). */

const parse = (date: string) => new Date(`${date}T00:00:00Z`);
const format = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = parse(date);
  d.setUTCDate(d.getUTCDate() + days);
  return format(d);
}

/** `date` plus `months` calendar months, the day clamped to the month's last (2024-01-31 + 1 → 2024-02-29). */
export function addMonths(date: string, months: number): string {
  const [y, m, day] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}

/** The last day of the month before `date`'s month (Rule 115's "specified date"). */
export function lastDayOfPreviousMonth(date: string): string {
  return addDays(`${date.slice(0, 7)}-01`, -1);
}

/** Whole calendar months from `from` to `to`: the most n with from + n months ≤ to. */
export function wholeMonthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  let months = (ty - fy) * 12 + (tm - fm);
  while (months > 0 && addMonths(from, months) > to) months -= 1;
  return Math.max(months, 0);
}

/** Days from `from` to `to` (to − from). */
export const daysBetween = (from: string, to: string) =>
  Math.round((parse(to).getTime() - parse(from).getTime()) / 86_400_000);

/** Saturday? (`YYYY-MM-DD`) */
export const isSaturday = (date: string) => parse(date).getUTCDay() === 6;
