import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_OFFSET_MAX, type Page } from '@ledger/core/posting';
import type { Request } from 'express';
import { ApiError } from './errors.js';

/**
 * Readers of a query string the validator has already checked against the document (types,
 * enums, bounds); they only pick values and apply the documented defaults.
 */
type Query = Request['query'];

/** An integer parameter within bounds, or its default; anything else is refused, never passed on. */
function integer(query: Query, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const message = `must be an integer from ${min} to ${max}`;
    throw new ApiError('validation_error', `${name} ${message}`, [{ path: `/query/${name}`, message }]);
  }
  return value;
}

export function pageOf(query: Query): Page {
  return {
    limit: integer(query, 'limit', PAGE_LIMIT_DEFAULT, 1, PAGE_LIMIT_MAX),
    offset: integer(query, 'offset', 0, 0, PAGE_OFFSET_MAX),
  };
}

/** The named string parameters that are present, and no others. */
export function pick<K extends string>(query: Query, keys: readonly K[]): Partial<Record<K, string>> {
  const picked: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = query[key];
    if (typeof value === 'string') picked[key] = value;
  }
  return picked;
}

/** A parameter constrained to `allowed` by the document, or its default. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}
