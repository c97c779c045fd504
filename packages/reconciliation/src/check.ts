import type { Book } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import type { UpstreamClients } from '@ledger/upstream-clients';
import type { ReconSettings } from './settings.js';

/** Spec, Reconciliation categories: A internal integrity, B derivation, C external, D lifecycle. */
export const CATEGORIES = ['A', 'B', 'C', 'D'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Worst last: a run's status is the worst of its results. */
export const STATUSES = ['ok', 'warn', 'fail'] as const;
export type CheckStatus = (typeof STATUSES)[number];

export const BOTH_BOOKS: readonly Book[] = ['ENTITY_UAE', 'ENTITY_IND_IFSC'];

/**
 * One row that broke a check: what it names (a transaction by id or source id, a customer, an
 * account, a symbol, as they apply), the figure the ledger implies, the figure found, and the
 * difference (actual − expected). Decimals are strings.
 */
export interface Variance {
  txn_id: string | null;
  source_txn_id: string | null;
  customer_id: string | null;
  account_code: string | null;
  symbol: string | null;
  expected: string | null;
  actual: string | null;
  difference: string | null;
  detail: Record<string, unknown>;
}

export interface CheckOutcome {
  status: CheckStatus;
  metrics: Record<string, unknown>;
  variances: Variance[];
}

export interface CheckContext {
  /** A read-only, repeatable-read transaction: the check sees one state of the book. */
  db: Db;
  book: Book;
  settings: ReconSettings;
  /** The book's upstream clients (category C reads them live); null where not configured. */
  upstreams: UpstreamClients;
  /** When the run started: ages are measured from it. */
  now: Date;
  /**
   * An incremental run of an `incremental` check: the snapshot of its last clean run, which
   * verified every transaction that snapshot saw, so only those it did not see need looking at
   * (`postedSince`). Null: a full sweep.
   */
  since: Since | null;
}

/**
 * A clean run's snapshot (pg_current_snapshot()): what it did not see are the transactions whose
 * `created_xid` is at or after its `xmax` or one of `xip`, those in progress when it was taken
 * (their rows commit later, with their own xid). Read-only transactions have no xid, so no read,
 * however long, narrows what a later run sees as new.
 */
export interface Since {
  /** The snapshot's text (`xmin:xmax:xip,…`), as metrics show it. */
  snapshot: string;
  xmax: string;
  xip: string[];
}

/**
 * SQL: transaction `alias` was posted after the mark (its snapshot did not see it), read by the
 * `created_xid` index (a range and an `= ANY`). With `sinceBindings(null)` it is never true, so
 * `(:since_xmax::xid8 IS NULL OR …)` keeps a query both full and incremental.
 */
export const postedSince = (alias: string) =>
  `(${alias}.created_xid >= :since_xmax::xid8 OR ${alias}.created_xid = ANY(:since_xip::xid8[]))`;

/** The named bindings `postedSince` reads. */
export const sinceBindings = (since: Since | null) => ({
  since_xmax: since?.xmax ?? null,
  since_xip: since?.xip ?? [],
});

/** A reconciliation check (docs/reconciliation.md). Register it in `registry.ts`. */
export interface Check {
  name: string;
  category: Category;
  books: readonly Book[];
  /** The check honours `since` (it sweeps the journal and can look at what is new alone); the runner keeps its high-water mark. */
  incremental?: boolean;
  run(ctx: CheckContext): Promise<CheckOutcome>;
}

export function worst(statuses: readonly CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((a, b) => (STATUSES.indexOf(b) > STATUSES.indexOf(a) ? b : a), 'ok');
}

/** A variance, every field it does not name null. */
export function variance(fields: Partial<Variance>): Variance {
  return {
    txn_id: null,
    source_txn_id: null,
    customer_id: null,
    account_code: null,
    symbol: null,
    expected: null,
    actual: null,
    difference: null,
    detail: {},
    ...fields,
  };
}

/** The outcome of a check whose every variance is a `broken` status: ok when there are none. */
export function outcomeOf(
  variances: Variance[],
  metrics: Record<string, unknown>,
  broken: Exclude<CheckStatus, 'ok'>,
): CheckOutcome {
  return {
    status: variances.length === 0 ? 'ok' : broken,
    metrics: { ...metrics, variances: variances.length },
    variances,
  };
}
