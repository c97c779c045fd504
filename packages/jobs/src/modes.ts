import type { Book } from '@ledger/core';
import type { JobFamily } from './queues.js';

const BOTH: readonly Book[] = ['ENTITY_UAE', 'ENTITY_IND_IFSC'];
const UAE: readonly Book[] = ['ENTITY_UAE'];
const INDIA: readonly Book[] = ['ENTITY_IND_IFSC'];

export interface JobMode {
  mode: 'sync' | 'background';
  family: JobFamily;
  books: readonly Book[];
  /** Why this mode, where the spec leaves it unmarked. */
  why: string;
}

/**
 * How every job of the spec runs: its mode (the spec marks some; the rest are decided here),
 * its queue family and its books. The one place this is said: each job's definition takes its
 * mode from here, the api documents the table from here, and docs/jobs.md is tested against it.
 */
export const JOB_MODES = {
  recost: {
    mode: 'sync',
    family: 'recost',
    books: BOTH,
    why: 'decided: bounded by `limit`, and the caller usually wants its counts',
  },
  'sync-uaefeed': { mode: 'sync', family: 'syncs', books: UAE, why: 'the spec' },
  'sync-holdings': { mode: 'background', family: 'syncs', books: UAE, why: 'the spec' },
  'sync-cash-statements': { mode: 'background', family: 'syncs', books: UAE, why: 'the spec' },
  'sync-uaefeed-statements': { mode: 'background', family: 'syncs', books: UAE, why: 'the spec' },
  'refresh-snapshots': { mode: 'background', family: 'syncs', books: UAE, why: 'the spec' },
  'sync-usbroker': {
    mode: 'background',
    family: 'syncs',
    books: INDIA,
    why: 'decided: every India customer, paged upstream calls: minutes',
  },
  'sync-usbroker-trades': { mode: 'background', family: 'syncs', books: INDIA, why: 'decided: as sync-usbroker' },
  'sync-usbroker-ledger': {
    mode: 'background',
    family: 'syncs',
    books: INDIA,
    why: 'decided: a date range of daily CSVs',
  },
  'sync-remit': {
    mode: 'background',
    family: 'syncs',
    books: INDIA,
    why: 'decided: every customer’s orders, payments and settlements',
  },
  'sync-remit-webhook': {
    mode: 'background',
    family: 'webhook-syncs',
    books: INDIA,
    why: 'the spec: the webhook acknowledges at once; one customer’s sync-remit on its own queue',
  },
  'provision-india': {
    mode: 'background',
    family: 'syncs',
    books: INDIA,
    why: 'decided: the whole customer registry, paged',
  },
  'provision-uae': {
    mode: 'background',
    family: 'syncs',
    books: UAE,
    why: 'decided: as provision-india, the UAE customers of the registry',
  },
  'refund-reversal-india': {
    mode: 'sync',
    family: 'syncs',
    books: INDIA,
    why: 'decided: one set-based sweep of the book, seconds',
  },
  'load-fx-rates': {
    mode: 'sync',
    family: 'syncs',
    books: INDIA,
    why: 'decided: one file of a few thousand rows, one statement: seconds',
  },
  'load-close-prices': { mode: 'sync', family: 'syncs', books: INDIA, why: 'decided: as load-fx-rates' },
} as const satisfies Record<string, JobMode>;
export type JobKind = keyof typeof JOB_MODES;
