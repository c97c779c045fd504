import type { Knex } from 'knex';
import { LedgerError } from '../domain/errors.js';
import type { JournalOutcomeName } from '../domain/journal-outcome.js';
import type { Page } from '../domain/limits.js';
import { withoutSecrets } from '../domain/secrets.js';
import { currentActor } from '../runtime/actor.js';
import { pagedQuery, type Paged } from './paged.js';

/**
 * What a sync run did with one upstream record (docs/exceptions.md), in the journal's outcomes
 * (docs/outcomes.md): posted (`inserted`, `duplicate`), or not (`conflict`, `rejected`), with why.
 * Only the records a run decided on: a record of a customer whose fetch failed is not among
 * them, nor one skipped by design.
 */
export type RecordOutcome =
  | { recordKey: string; customerId: string | null; outcome: Extract<JournalOutcomeName, 'inserted' | 'duplicate'> }
  | {
      recordKey: string;
      customerId: string | null;
      outcome: Extract<JournalOutcomeName, 'conflict' | 'rejected'>;
      reasonCode: string;
      reason: string;
      record?: Record<string, unknown>;
    };

/** Whether the record is in the journal: its open exception, if any, is resolved. */
const isPosted = (o: RecordOutcome): o is Extract<RecordOutcome, { outcome: 'inserted' | 'duplicate' }> =>
  o.outcome === 'inserted' || o.outcome === 'duplicate';

export const EXCEPTION_STATES = ['open', 'resolved', 'dismissed'] as const;
export type ExceptionState = (typeof EXCEPTION_STATES)[number];

export interface ExceptionRow {
  exception_id: number;
  upstream: string;
  record_key: string;
  customer_id: string | null;
  reason_code: string;
  reason: string;
  record: Record<string, unknown>;
  job: string;
  first_seen_at: string;
  last_seen_at: string;
  times_seen: number;
  state: ExceptionState;
  state_reason: string | null;
  state_changed_at: string | null;
  state_changed_by: string | null;
}

/** The list's filters (`from`, `to`: the first-seen date, UTC, inclusive). */
export interface ExceptionFilter {
  state?: ExceptionState;
  upstream?: string;
  reason_code?: string;
  customer_id?: string;
  from?: string;
  to?: string;
}

const COLUMNS = [
  'exception_id',
  'upstream',
  'record_key',
  'customer_id',
  'reason_code',
  'reason',
  'record',
  'job',
  'first_seen_at',
  'last_seen_at',
  'times_seen',
  'state',
  'state_reason',
  'state_changed_at',
  'state_changed_by',
] as const;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null));
const present = (row: Record<string, unknown>): ExceptionRow =>
  ({
    ...row,
    exception_id: Number(row.exception_id),
    first_seen_at: iso(row.first_seen_at),
    last_seen_at: iso(row.last_seen_at),
    state_changed_at: iso(row.state_changed_at),
  }) as ExceptionRow;

/**
 * Records a run's outcomes for `upstream`, as the work's actor (the job): each record it could
 * not post is opened, or, seen before, has its last sighting, reason and job updated (one row per
 * record, whatever the reruns; a resolved one that fails again opens again, a dismissed one stays
 * dismissed); each record it posted resolves its open exception. Two statements at most.
 */
export async function recordExceptions(
  db: Knex,
  { upstream }: { upstream: string },
  outcomes: readonly RecordOutcome[],
): Promise<void> {
  const job = currentActor();
  const failed = [...new Map(outcomes.flatMap((o) => (isPosted(o) ? [] : [[o.recordKey, o] as const]))).values()];
  const posted = outcomes.flatMap((o) => (isPosted(o) ? [o.recordKey] : []));
  if (failed.length > 0) {
    const rows = failed.map((o) => ({
      upstream,
      record_key: o.recordKey,
      customer_id: o.customerId,
      reason_code: o.reasonCode,
      reason: o.reason,
      record: JSON.stringify(withoutSecrets(o.record ?? {})),
      job,
    }));
    await db('exceptions')
      .insert(rows)
      .onConflict(['upstream', 'record_key'])
      .merge({
        customer_id: db.raw('excluded.customer_id'),
        reason_code: db.raw('excluded.reason_code'),
        reason: db.raw('excluded.reason'),
        record: db.raw('excluded.record'),
        job: db.raw('excluded.job'),
        last_seen_at: db.fn.now(),
        times_seen: db.raw('exceptions.times_seen + 1'),
        state: db.raw(`CASE WHEN exceptions.state = 'resolved' THEN 'open' ELSE exceptions.state END`),
        state_reason: db.raw(`CASE WHEN exceptions.state = 'resolved' THEN NULL ELSE exceptions.state_reason END`),
        state_changed_at: db.raw(
          `CASE WHEN exceptions.state = 'resolved' THEN NULL ELSE exceptions.state_changed_at END`,
        ),
        state_changed_by: db.raw(
          `CASE WHEN exceptions.state = 'resolved' THEN NULL ELSE exceptions.state_changed_by END`,
        ),
      });
  }
  if (posted.length > 0) {
    await db('exceptions').where({ upstream, state: 'open' }).whereIn('record_key', posted).update({
      state: 'resolved',
      state_reason: 'posted by a later run',
      state_changed_at: db.fn.now(),
      state_changed_by: job,
    });
  }
}

export function listExceptions(db: Knex, filter: ExceptionFilter, page: Page): Promise<Paged<ExceptionRow>> {
  const filtered = () => {
    const query = db('exceptions');
    for (const key of ['state', 'upstream', 'reason_code', 'customer_id'] as const)
      if (filter[key] !== undefined) query.where(key, filter[key]);
    if (filter.from !== undefined)
      query.where('first_seen_at', '>=', db.raw("?::date AT TIME ZONE 'UTC'", [filter.from]));
    if (filter.to !== undefined)
      query.where('first_seen_at', '<', db.raw("(?::date + 1) AT TIME ZONE 'UTC'", [filter.to]));
    return query;
  };
  return pagedQuery<Record<string, unknown>>(
    filtered,
    (query) => query.select(COLUMNS).orderBy('exception_id', 'desc'),
    page,
  ).then((paged) => ({
    ...paged,
    items: paged.items.map(present),
  }));
}

export async function getException(db: Knex, exceptionId: number): Promise<ExceptionRow | null> {
  const row = await db('exceptions').where('exception_id', exceptionId).first(COLUMNS);
  return row ? present(row) : null;
}

/**
 * Dismisses an exception, as the work's actor, with the reason. Dismissing it again answers it
 * unchanged; a resolved one is a conflict (it was posted); unknown: not_found.
 */
export async function dismissException(db: Knex, exceptionId: number, reason: string): Promise<ExceptionRow> {
  const [updated] = await db('exceptions')
    .where({ exception_id: exceptionId, state: 'open' })
    .update({
      state: 'dismissed',
      state_reason: reason,
      state_changed_at: db.fn.now(),
      state_changed_by: currentActor(),
    })
    .returning(COLUMNS);
  if (updated) return present(updated);
  const current = await getException(db, exceptionId);
  if (current === null) throw new LedgerError('not_found', `exception ${exceptionId} does not exist`);
  if (current.state === 'resolved')
    throw new LedgerError(
      'invalid_state_transition',
      `exception ${exceptionId} is resolved: a later run posted the record`,
    );
  return current;
}
