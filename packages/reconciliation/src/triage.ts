import { LedgerError, type Page } from '@ledger/core/posting';
import { currentActor } from '@ledger/core/runtime';
import { advisoryLockId, pagedQuery, type Db, type Paged } from '@ledger/core/store';
import type { ReconciliationRun, RunVariance } from './run.js';
import { UNREACHABLE_SUFFIX } from './upstream.js';

/**
 * Variance triage (docs/reconciliation.md#variance-triage): each variance a run stores is one of
 * the book's variances, known across runs by its identity, and worked by operators from `open`
 * to `resolved`. Runs open, reopen and resolve them; operators acknowledge, assign, note and
 * resolve them. Every change is an event (insert-only), every run that saw one a sighting.
 */

export const TRIAGE_STATES = ['open', 'acknowledged', 'assigned', 'resolved'] as const;
export type TriageState = (typeof TRIAGE_STATES)[number];
/** What a variance list may filter on: a state, or every state but `resolved`. */
export const TRIAGE_STATE_FILTERS = [...TRIAGE_STATES, 'unresolved'] as const;
export type TriageStateFilter = (typeof TRIAGE_STATE_FILTERS)[number];

export const TRIAGE_EVENT_ACTIONS = ['opened', 'acknowledged', 'assigned', 'noted', 'resolved', 'reopened'] as const;
export type TriageEventAction = (typeof TRIAGE_EVENT_ACTIONS)[number];

/**
 * What makes two runs' variances the same one: the check, everything the variance names (the
 * transaction or upstream record, the customer, the account, the symbol) and its kind
 * (`detail.problem`). Read from the fields every check fills, so a new or rewritten check needs
 * nothing here. The figures are not part of it: an amount that moves is the same variance.
 */
export interface VarianceIdentity {
  check_name: string;
  txn_id: string | null;
  source_txn_id: string | null;
  customer_id: string | null;
  account_code: string | null;
  symbol: string | null;
  kind: string | null;
}

export function identityOf(variance: RunVariance): VarianceIdentity {
  const problem = variance.detail.problem;
  return {
    check_name: variance.check_name,
    txn_id: variance.txn_id,
    source_txn_id: variance.source_txn_id,
    customer_id: variance.customer_id,
    account_code: variance.account_code,
    symbol: variance.symbol,
    kind: typeof problem === 'string' ? problem : null,
  };
}

/** The identity as one unique text (variance_triage.identity_key). */
export const identityKey = (id: VarianceIdentity): string =>
  JSON.stringify([id.check_name, id.txn_id, id.source_txn_id, id.customer_id, id.account_code, id.symbol, id.kind]);

/**
 * A kind that says the check could not look at a customer (its upstream was down or refused:
 * `usbroker_unreachable`, `custodian_unreachable`, …): that customer's other variances of the
 * check are neither seen nor gone in this run, so they are left as they were.
 */
const couldNotLook = (kind: string | null): boolean => kind?.endsWith(UNREACHABLE_SUFFIX) === true;

/**
 * Whether a check's result lets this run say which of its variances are gone: it ran (no
 * `metrics.error`), it said what broke when it broke (a `warn` or `fail` with no variance is a
 * check that could not look, e.g. its upstream not configured), and it kept all it found (fewer
 * than the cap: beyond it, what is missing may only be cut off).
 */
function judgesAbsence(result: ReconciliationRun['results'][number], found: number, cap: number): boolean {
  if (result.metrics.error !== undefined) return false;
  if (result.status !== 'ok' && found === 0) return false;
  return found < cap;
}

/** One identity as a run found it: the first variance with it and every place it holds in the run. */
interface Seen {
  key: string;
  identity: VarianceIdentity;
  first: RunVariance;
  ordinals: number[];
  judgedAt: string;
}

/** What every write of a run's triage names: the run, when it saw its variances, and who. */
interface Sighting {
  run_id: string;
  seen_at: string;
  actor: string;
}

/** The triage row of an identity a run found again, locked for the run's update. */
interface KnownRow {
  variance_id: string;
  identity_key: string;
  state: TriageState;
  present: boolean;
  judged_at: Date;
}

/**
 * Updates the triage with a run, in the run's database transaction (saveRun), as the work's actor:
 *  - a variance seen for the first time opens (`opened`, naming the run);
 *  - one seen again records the sighting and its figures; one resolved after it had gone (no
 *    longer found by a run) reopens (`reopened`, naming the run), while one an operator resolved
 *    and that never went stays resolved (the operator accepted it as it is);
 *  - one not found by a run whose check could judge it (judgesAbsence, couldNotLook) is gone: if
 *    not yet resolved it resolves itself (`resolved`, naming the run).
 * Runs update the triage one at a time (a transaction lock), and a check result older than what
 * a variance was last judged by (a run that finished after a later one) changes no state.
 */
export async function trackVariances(
  trx: Db,
  run: ReconciliationRun,
  { variancesPerCheckMax }: { variancesPerCheckMax: number },
): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId('recon:variance_triage')]);
  const sighting: Sighting = { run_id: run.run_id, seen_at: run.finished_at, actor: currentActor() };
  const seen = seenByIdentity(run);
  if (seen.size > 0) {
    const byKey = await lockKnown(trx, [...seen.keys()]);
    const all = [...seen.values()];
    await openFresh(
      trx,
      all.filter((s) => !byKey.has(s.key)),
      sighting,
    );
    await updateSeenAgain(trx, all, byKey, sighting);
    await recordSightings(trx, all, sighting);
  }
  await resolveGone(trx, run, seen, variancesPerCheckMax, sighting);
}

/**
 * The run's variances grouped by identity, in the run's order; each judged at its check's
 * `ran_at` (the run's end when its check has no result).
 */
function seenByIdentity(run: ReconciliationRun): Map<string, Seen> {
  const ranAt = new Map(run.results.map((r) => [r.check_name, r.ran_at]));
  const seen = new Map<string, Seen>();
  run.metadata.variances.forEach((variance, ordinal) => {
    const identity = identityOf(variance);
    const key = identityKey(identity);
    const known = seen.get(key);
    if (known) known.ordinals.push(ordinal);
    else
      seen.set(key, {
        key,
        identity,
        first: variance,
        ordinals: [ordinal],
        judgedAt: ranAt.get(variance.check_name) ?? run.finished_at,
      });
  });
  return seen;
}

/** The triage rows the run's identities already have, by identity key, locked for update. */
async function lockKnown(trx: Db, keys: string[]): Promise<Map<string, KnownRow>> {
  const existing = (
    await trx.raw<{ rows: KnownRow[] }>(
      `SELECT variance_id, identity_key, state, present, judged_at FROM variance_triage
        WHERE identity_key = ANY(?::text[]) FOR UPDATE`,
      [keys],
    )
  ).rows;
  return new Map(existing.map((row) => [row.identity_key, row]));
}

/** The figures a sighting records on its variance, and the check result that judged it. */
const figuresOf = (s: Seen) => ({
  expected: s.first.expected,
  actual: s.first.actual,
  difference: s.first.difference,
  detail: s.first.detail,
  judged_at: s.judgedAt,
});

/** Opens the identities the triage has never seen (`opened`, naming the run). */
async function openFresh(trx: Db, fresh: Seen[], sighting: Sighting): Promise<void> {
  if (fresh.length === 0) return;
  const opened = await trx.raw<{ rows: Array<{ variance_id: string }> }>(
    `INSERT INTO variance_triage (identity_key, check_name, txn_id, source_txn_id, customer_id, account_code, symbol, kind, state, present,
                                  judged_at, first_seen_run_id, first_seen_at, last_seen_run_id, last_seen_at, times_seen,
                                  expected, actual, difference, detail, state_changed_at, state_changed_by)
     SELECT v.identity_key, v.check_name, v.txn_id, v.source_txn_id, v.customer_id, v.account_code, v.symbol, v.kind, 'open', true,
            v.judged_at, :run_id::uuid, :seen_at::timestamptz, :run_id::uuid, :seen_at::timestamptz, 1, v.expected, v.actual,
            v.difference, v.detail, :seen_at::timestamptz, :actor::text
       FROM jsonb_to_recordset(:rows::jsonb) AS v(identity_key text, check_name text, txn_id uuid, source_txn_id text,
            customer_id text, account_code text, symbol text, kind text, expected numeric, actual numeric, difference numeric,
            detail jsonb, judged_at timestamptz)
     RETURNING variance_id`,
    { ...sighting, rows: JSON.stringify(fresh.map((s) => ({ identity_key: s.key, ...s.identity, ...figuresOf(s) }))) },
  );
  await recordEvents(
    trx,
    opened.rows.map((r) => r.variance_id),
    { action: 'opened', state: 'open', run_id: sighting.run_id, actor: sighting.actor },
  );
}

/**
 * Counts the sighting of each identity the triage knows and, unless the check result is older
 * than the one that last judged it (stale), takes its figures; reopens (`reopened`) one resolved
 * after it had gone.
 */
async function updateSeenAgain(trx: Db, all: Seen[], byKey: Map<string, KnownRow>, sighting: Sighting): Promise<void> {
  const again = all.flatMap((s) => {
    const row = byKey.get(s.key);
    if (!row) return [];
    const stale = row.judged_at.getTime() > Date.parse(s.judgedAt);
    return [
      {
        variance_id: row.variance_id,
        stale,
        reopen: !stale && row.state === 'resolved' && !row.present,
        ...figuresOf(s),
      },
    ];
  });
  if (again.length === 0) return;
  await trx.raw(
    `UPDATE variance_triage t
        SET times_seen = t.times_seen + 1,
            last_seen_run_id = CASE WHEN v.stale THEN t.last_seen_run_id ELSE :run_id::uuid END,
            last_seen_at = CASE WHEN v.stale THEN t.last_seen_at ELSE :seen_at::timestamptz END,
            expected = CASE WHEN v.stale THEN t.expected ELSE v.expected END,
            actual = CASE WHEN v.stale THEN t.actual ELSE v.actual END,
            difference = CASE WHEN v.stale THEN t.difference ELSE v.difference END,
            detail = CASE WHEN v.stale THEN t.detail ELSE v.detail END,
            present = CASE WHEN v.stale THEN t.present ELSE true END,
            judged_at = CASE WHEN v.stale THEN t.judged_at ELSE v.judged_at END,
            state = CASE WHEN v.reopen THEN 'open' ELSE t.state END,
            assignee = CASE WHEN v.reopen THEN NULL ELSE t.assignee END,
            state_changed_at = CASE WHEN v.reopen THEN :seen_at::timestamptz ELSE t.state_changed_at END,
            state_changed_by = CASE WHEN v.reopen THEN :actor::text ELSE t.state_changed_by END
       FROM jsonb_to_recordset(:rows::jsonb) AS v(variance_id bigint, stale boolean, reopen boolean, expected numeric, actual numeric,
            difference numeric, detail jsonb, judged_at timestamptz)
      WHERE t.variance_id = v.variance_id`,
    { ...sighting, rows: JSON.stringify(again) },
  );
  await recordEvents(
    trx,
    again.filter((a) => a.reopen).map((a) => a.variance_id),
    { action: 'reopened', state: 'open', run_id: sighting.run_id, actor: sighting.actor },
  );
}

/** Records each place a variance holds in the run (variance_sightings). */
async function recordSightings(trx: Db, all: Seen[], sighting: Sighting): Promise<void> {
  await trx.raw(
    `INSERT INTO variance_sightings (run_id, ordinal, variance_id, seen_at)
     SELECT :run_id::uuid, s.ordinal, t.variance_id, :seen_at::timestamptz
       FROM jsonb_to_recordset(:rows::jsonb) AS s(ordinal integer, identity_key text)
       JOIN variance_triage t USING (identity_key)`,
    {
      ...sighting,
      rows: JSON.stringify(all.flatMap((s) => s.ordinals.map((ordinal) => ({ ordinal, identity_key: s.key })))),
    },
  );
}

/**
 * The checks of the run that can say which of their variances are gone (judgesAbsence), each
 * with the customers it could not look at (couldNotLook), whose variances it leaves as they were.
 */
function judgingChecks(
  run: ReconciliationRun,
  seen: Map<string, Seen>,
  variancesPerCheckMax: number,
): Array<{ check_name: string; ran_at: string; blocked: string[] }> {
  const found = new Map<string, number>();
  const blocked = new Map<string, Set<string>>();
  for (const s of seen.values()) {
    found.set(s.identity.check_name, (found.get(s.identity.check_name) ?? 0) + s.ordinals.length);
    if (couldNotLook(s.identity.kind) && s.identity.customer_id !== null)
      blocked.set(s.identity.check_name, (blocked.get(s.identity.check_name) ?? new Set()).add(s.identity.customer_id));
  }
  return run.results
    .filter((r) => judgesAbsence(r, found.get(r.check_name) ?? 0, variancesPerCheckMax))
    .map((r) => ({ check_name: r.check_name, ran_at: r.ran_at, blocked: [...(blocked.get(r.check_name) ?? [])] }));
}

/**
 * Marks gone each present variance of a judging check the run did not find (unless a newer
 * result judged it), resolving (`resolved`, naming the run) those not yet resolved.
 */
async function resolveGone(
  trx: Db,
  run: ReconciliationRun,
  seen: Map<string, Seen>,
  variancesPerCheckMax: number,
  sighting: Sighting,
): Promise<void> {
  const judged = judgingChecks(run, seen, variancesPerCheckMax);
  if (judged.length === 0) return;
  const gone = await trx.raw<{ rows: Array<{ variance_id: string; was: TriageState }> }>(
    `WITH judged AS (SELECT * FROM jsonb_to_recordset(:judged::jsonb) AS j(check_name text, ran_at timestamptz, blocked text[])),
          gone AS (SELECT t.variance_id, t.state AS was, j.ran_at
                     FROM variance_triage t JOIN judged j USING (check_name)
                    WHERE t.present AND t.judged_at <= j.ran_at AND t.identity_key <> ALL(:keys::text[])
                      AND (t.customer_id IS NULL OR t.customer_id <> ALL(j.blocked))
                      FOR UPDATE OF t)
     UPDATE variance_triage t
        SET present = false, judged_at = g.ran_at,
            state = 'resolved',
            state_changed_at = CASE WHEN g.was = 'resolved' THEN t.state_changed_at ELSE :seen_at::timestamptz END,
            state_changed_by = CASE WHEN g.was = 'resolved' THEN t.state_changed_by ELSE :actor END
       FROM gone g WHERE t.variance_id = g.variance_id
     RETURNING t.variance_id, g.was`,
    { ...sighting, judged: JSON.stringify(judged), keys: [...seen.keys()] },
  );
  await recordEvents(
    trx,
    gone.rows.filter((r) => r.was !== 'resolved').map((r) => r.variance_id),
    {
      action: 'resolved',
      state: 'resolved',
      run_id: sighting.run_id,
      actor: sighting.actor,
      note: `no longer found by run ${run.run_id}`,
    },
  );
}

interface EventFields {
  action: TriageEventAction;
  state: TriageState;
  actor: string;
  run_id?: string | null;
  assignee?: string | null;
  note?: string | null;
}

async function recordEvents(trx: Db, varianceIds: readonly string[], event: EventFields): Promise<void> {
  if (varianceIds.length === 0) return;
  await trx.raw(
    `INSERT INTO variance_triage_events (variance_id, action, state, assignee, note, run_id, actor)
     SELECT id, :action::text, :state::text, :assignee::text, :note::text, :run_id::uuid, :actor::text FROM unnest(:ids::bigint[]) AS id ORDER BY id`,
    {
      ids: varianceIds,
      action: event.action,
      state: event.state,
      assignee: event.assignee ?? null,
      note: event.note ?? null,
      run_id: event.run_id ?? null,
      actor: event.actor,
    },
  );
}

/** A variance as the API shows it: its identity, state, sightings and last-seen figures. */
export interface TrackedVariance extends VarianceIdentity {
  variance_id: number;
  state: TriageState;
  assignee: string | null;
  /** The latest run of its check that could judge it found it. */
  present: boolean;
  first_seen_run_id: string;
  first_seen_at: string;
  last_seen_run_id: string;
  last_seen_at: string;
  times_seen: number;
  expected: string | null;
  actual: string | null;
  difference: string | null;
  detail: Record<string, unknown>;
  state_changed_at: string;
  state_changed_by: string;
}

export interface TriageEvent {
  event_id: number;
  action: TriageEventAction;
  state: TriageState;
  assignee: string | null;
  note: string | null;
  run_id: string | null;
  actor: string;
  at: string;
}

/** A run that saw a variance, with what it found. */
export interface VarianceSighting {
  run_id: string;
  started_at: string;
  status: ReconciliationRun['status'];
  seen_at: string;
  expected: string | null;
  actual: string | null;
  difference: string | null;
}

/** How many of a variance's sightings its detail lists, newest first (`times_seen` counts them all). */
export const SIGHTINGS_SHOWN = 50;

export interface VarianceDetail extends TrackedVariance {
  history: TriageEvent[];
  runs: VarianceSighting[];
}

const COLUMNS = [
  'variance_id',
  'check_name',
  'txn_id',
  'source_txn_id',
  'customer_id',
  'account_code',
  'symbol',
  'kind',
  'state',
  'assignee',
  'present',
  'first_seen_run_id',
  'first_seen_at',
  'last_seen_run_id',
  'last_seen_at',
  'times_seen',
  'expected',
  'actual',
  'difference',
  'detail',
  'state_changed_at',
  'state_changed_by',
] as const;

const iso = (value: Date | string): string => (value instanceof Date ? value.toISOString() : value);

const present = (row: Record<string, unknown>): TrackedVariance =>
  ({
    ...row,
    variance_id: Number(row.variance_id),
    first_seen_at: iso(row.first_seen_at as Date),
    last_seen_at: iso(row.last_seen_at as Date),
    state_changed_at: iso(row.state_changed_at as Date),
  }) as TrackedVariance;

export interface VarianceFilter {
  state?: TriageStateFilter;
  check_name?: string;
  customer_id?: string;
  /** Only the variances this run saw. */
  run_id?: string;
}

/** Variances, the most recently seen first. */
export async function listVariances(db: Db, filter: VarianceFilter, page: Page): Promise<Paged<TrackedVariance>> {
  const filtered = () =>
    db('variance_triage').modify((q) => {
      if (filter.state === 'unresolved') q.whereNot('state', 'resolved');
      else if (filter.state !== undefined) q.where('state', filter.state);
      if (filter.check_name !== undefined) q.where('check_name', filter.check_name);
      if (filter.customer_id !== undefined) q.where('customer_id', filter.customer_id);
      if (filter.run_id !== undefined)
        q.whereIn('variance_id', db('variance_sightings').select('variance_id').where('run_id', filter.run_id));
    });
  const paged = await pagedQuery<Record<string, unknown>>(
    filtered,
    (q) =>
      q.select(COLUMNS).orderBy([
        { column: 'last_seen_at', order: 'desc' },
        { column: 'variance_id', order: 'desc' },
      ]),
    page,
  );
  return { ...paged, items: paged.items.map(present) };
}

/** One variance with its history (oldest first) and the latest runs that saw it; null: unknown. */
export async function getVariance(db: Db, varianceId: number): Promise<VarianceDetail | null> {
  const row = await db('variance_triage').where('variance_id', varianceId).first(COLUMNS);
  if (!row) return null;
  const [events, runs] = await Promise.all([
    db('variance_triage_events')
      .where('variance_id', varianceId)
      .orderBy('event_id')
      .select('event_id', 'action', 'state', 'assignee', 'note', 'run_id', 'actor', 'at'),
    db.raw<{ rows: Array<Record<string, unknown>> }>(
      `SELECT DISTINCT ON (s.seen_at, s.run_id) s.run_id, r.started_at, r.status, s.seen_at,
              r.metadata->'variances'->s.ordinal->>'expected' AS expected,
              r.metadata->'variances'->s.ordinal->>'actual' AS actual,
              r.metadata->'variances'->s.ordinal->>'difference' AS difference
         FROM variance_sightings s JOIN reconciliation_runs r USING (run_id)
        WHERE s.variance_id = ?
        ORDER BY s.seen_at DESC, s.run_id, s.ordinal
        LIMIT ?`,
      [varianceId, SIGHTINGS_SHOWN],
    ),
  ]);
  return {
    ...present(row),
    history: (events as Array<Record<string, unknown>>).map(
      (e) => ({ ...e, event_id: Number(e.event_id), at: iso(e.at as Date) }) as TriageEvent,
    ),
    runs: runs.rows.map(
      (r) => ({ ...r, started_at: iso(r.started_at as Date), seen_at: iso(r.seen_at as Date) }) as VarianceSighting,
    ),
  };
}

/** How many variances stand in each state, and the unresolved per check (most first). */
export interface VarianceCounts {
  unresolved: number;
  by_state: Record<TriageState, number>;
  by_check: Array<{ check_name: string; unresolved: number }>;
}

export async function varianceCounts(db: Db, filter: { customer_id?: string }): Promise<VarianceCounts> {
  const scoped = () =>
    db('variance_triage').modify((q) => {
      if (filter.customer_id !== undefined) q.where('customer_id', filter.customer_id);
    });
  const [states, checks] = await Promise.all([
    scoped().select('state').count<Array<{ state: TriageState; n: string }>>({ n: '*' }).groupBy('state'),
    scoped()
      .whereNot('state', 'resolved')
      .select('check_name')
      .count<Array<{ check_name: string; n: string }>>({ n: '*' })
      .groupBy('check_name')
      .orderBy([{ column: 'n', order: 'desc' }, { column: 'check_name' }]),
  ]);
  const byState = Object.fromEntries(TRIAGE_STATES.map((s) => [s, 0])) as Record<TriageState, number>;
  for (const row of states) byState[row.state] = Number(row.n);
  return {
    unresolved: byState.open + byState.acknowledged + byState.assigned,
    by_state: byState,
    by_check: checks.map((c) => ({ check_name: c.check_name, unresolved: Number(c.n) })),
  };
}

/** Each variance of a run, by its place in `metadata.variances`: its identity's id and state now. */
export async function triageOfRun(
  db: Db,
  runId: string,
): Promise<Map<number, { variance_id: number; state: TriageState }>> {
  const rows: Array<{ ordinal: number; variance_id: string; state: TriageState }> = await db('variance_sightings as s')
    .join('variance_triage as t', 't.variance_id', 's.variance_id')
    .where('s.run_id', runId)
    .select('s.ordinal', 's.variance_id', 't.state');
  return new Map(rows.map((r) => [r.ordinal, { variance_id: Number(r.variance_id), state: r.state }]));
}

/** What an operator does to a variance. */
export type TriageAction =
  | { action: 'acknowledge'; note?: string }
  | { action: 'assign'; assignee: string; note?: string }
  | { action: 'note'; note: string }
  | { action: 'resolve'; note: string };

/**
 * An operator's action on a variance, as the work's actor, recorded as an event:
 *  - acknowledge: `open` → `acknowledged`; already acknowledged or assigned: unchanged;
 *  - assign: to someone (`assigned`); again to the same one: unchanged;
 *  - note: a note on the history, the state unchanged (on a resolved one too);
 *  - resolve: → `resolved`, with the note saying why; already resolved: unchanged.
 * Acknowledging or assigning a resolved variance is `invalid_state_transition` (a run reopens it
 * if it comes back). Unknown: `not_found`. Answers the variance with its history.
 */
export async function triageVariance(db: Db, varianceId: number, act: TriageAction): Promise<VarianceDetail> {
  const actor = currentActor();
  await db.transaction(async (trx) => {
    const row: { state: TriageState; assignee: string | null } | undefined = await trx('variance_triage')
      .where('variance_id', varianceId)
      .forUpdate()
      .first('state', 'assignee');
    if (!row) throw new LedgerError('not_found', `variance ${varianceId} does not exist`);
    const next = transition(varianceId, row, act);
    if (next === null) return;
    if (next.state !== row.state || next.assignee !== row.assignee)
      await trx('variance_triage').where('variance_id', varianceId).update({
        state: next.state,
        assignee: next.assignee,
        state_changed_at: trx.fn.now(),
        state_changed_by: actor,
      });
    await recordEvents(trx, [String(varianceId)], {
      action: next.event,
      state: next.state,
      assignee: next.assignee,
      note: act.note ?? null,
      actor,
    });
  });
  const detail = await getVariance(db, varianceId);
  if (detail === null) throw new LedgerError('not_found', `variance ${varianceId} does not exist`);
  return detail;
}

/** The state an action leads to and the event it records; null: nothing changes (a repeat). */
function transition(
  varianceId: number,
  { state, assignee }: { state: TriageState; assignee: string | null },
  act: TriageAction,
): { state: TriageState; assignee: string | null; event: TriageEventAction } | null {
  const refuse = (what: string) =>
    new LedgerError(
      'invalid_state_transition',
      `variance ${varianceId} is resolved: it cannot be ${what} (a run that finds it again reopens it)`,
    );
  switch (act.action) {
    case 'acknowledge':
      if (state === 'resolved') throw refuse('acknowledged');
      return state === 'open' ? { state: 'acknowledged', assignee, event: 'acknowledged' } : null;
    case 'assign':
      if (state === 'resolved') throw refuse('assigned');
      return state === 'assigned' && assignee === act.assignee
        ? null
        : { state: 'assigned', assignee: act.assignee, event: 'assigned' };
    case 'note':
      return { state, assignee, event: 'noted' };
    case 'resolve':
      return state === 'resolved' ? null : { state: 'resolved', assignee, event: 'resolved' };
  }
}
