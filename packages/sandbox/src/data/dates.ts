/** Calendar dates as `YYYY-MM-DD` text, computed in UTC. */

const DAY_MS = 86_400_000;

export function toDayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

export function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = toDayNumber(text);
  return Number.isFinite(day) && fromDayNumber(day) === text;
}

export function isIsoMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

/** `2026-01` + 2 → `2026-03`. */
export function addMonths(month: string, count: number): string {
  const [year = 0, mon = 1] = month.split('-').map(Number);
  const index = year * 12 + (mon - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function firstDayOf(month: string): string {
  return `${month}-01`;
}

export function lastDayOf(month: string): string {
  return fromDayNumber(toDayNumber(firstDayOf(addMonths(month, 1))) - 1);
}

/** `2026-01-05` → `2026/01/05`: uaefeed statements' form. */
export function slashDate(date: string): string {
  return date.replaceAll('-', '/');
}

/** `(2026, 1)` → `2026-01`. */
export function monthOf(year: number, month: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}
