import type { Page } from '@ledger/core';
import type { Request } from 'express';
import { PAGE_LIMIT_DEFAULT } from '../openapi/components.js';

/**
 * Readers of a query string the validator has already checked against the document (types,
 * enums, bounds); they only pick values and apply the documented defaults.
 */
type Query = Request['query'];

function integer(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number.parseInt(value, 10);
  return fallback;
}

export function pageOf(query: Query): Page {
  return { limit: integer(query.limit, PAGE_LIMIT_DEFAULT), offset: integer(query.offset, 0) };
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
