import { assert } from '@ledger/core/posting';

/**
 * Readers a presenter builds its wire form with: each asserts the type the query promised
 * (a broken promise is a bug, not a value to pass on), timestamps become ISO-8601 strings and
 * decimals stay the strings Postgres gave.
 */
export type Row = Record<string, unknown>;

export function timestamp(value: unknown, field: string): string {
  if (value instanceof Date) return value.toISOString();
  assert(typeof value === 'string', `${field} is a timestamp`);
  return value;
}

export const timestampOrNull = (value: unknown, field: string) =>
  value === null || value === undefined ? null : timestamp(value, field);

export function text(value: unknown, field: string): string {
  assert(typeof value === 'string', `${field} is a string`);
  return value;
}

export function textOrNull(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : text(value, field);
}

export function count(value: unknown, field: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  assert(typeof n === 'number' && Number.isSafeInteger(n) && n >= 0, `${field} is a count`);
  return n;
}

export function object(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** A paged result of core with its rows presented. */
export function presentPage<T>(
  page: { items: Row[]; total: number; limit: number; offset: number },
  present: (row: Row) => T,
) {
  return { items: page.items.map(present), total: page.total, limit: page.limit, offset: page.offset };
}
