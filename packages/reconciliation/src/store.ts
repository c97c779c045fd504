import type { Page } from '@ledger/core/posting';
import { pagedQuery, type Db, type Paged } from '@ledger/core/store';
import type { Category, CheckStatus, Since } from './check.js';
import type { ReconciliationRun, RunSummary } from './run.js';
import { trackVariances } from './triage.js';

interface RunRow {
  run_id: string;
  started_at: Date;
  finished_at: Date;
  category: Category | null;
  status: CheckStatus;
  results: ReconciliationRun['results'];
  metadata: ReconciliationRun['metadata'];
}

/**
 * Writes a run whole, in one database transaction: the run row, with `persistVariances`
 * (alert_persist_enabled) each variance as a row of reconciliation_variances, and the variance
 * triage the run moves (trackVariances: always, whatever `persistVariances`).
 */
export async function saveRun(
  db: Db,
  run: ReconciliationRun,
  { persistVariances, variancesPerCheckMax }: { persistVariances: boolean; variancesPerCheckMax: number },
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('reconciliation_runs').insert({
      run_id: run.run_id,
      started_at: run.started_at,
      finished_at: run.finished_at,
      category: run.category,
      status: run.status,
      results: JSON.stringify(run.results),
      metadata: JSON.stringify(run.metadata),
    });
    await trackVariances(trx, run, { variancesPerCheckMax });
    if (!persistVariances || run.metadata.variances.length === 0) return;
    // One statement: the variances travel as one jsonb document.
    await trx.raw(
      `INSERT INTO reconciliation_variances (run_id, ordinal, check_name, txn_id, source_txn_id, customer_id, account_code, symbol, expected, actual, difference, detail, created_at)
       SELECT ?::uuid, v.ordinality - 1, v.value->>'check_name', (v.value->>'txn_id')::uuid, v.value->>'source_txn_id', v.value->>'customer_id',
              v.value->>'account_code', v.value->>'symbol', (v.value->>'expected')::numeric, (v.value->>'actual')::numeric,
              (v.value->>'difference')::numeric, v.value->'detail', ?::timestamptz
         FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS v(value, ordinality)`,
      [run.run_id, run.finished_at, JSON.stringify(run.metadata.variances)],
    );
  });
}

const runOf = (row: RunRow): ReconciliationRun => ({
  run_id: row.run_id,
  started_at: row.started_at.toISOString(),
  finished_at: row.finished_at.toISOString(),
  category: row.category,
  status: row.status,
  results: row.results,
  metadata: row.metadata,
});

export async function findRun(db: Db, runId: string): Promise<ReconciliationRun | undefined> {
  const row: RunRow | undefined = await db('reconciliation_runs').where({ run_id: runId }).first();
  return row && runOf(row);
}

export interface RunFilter {
  status?: CheckStatus;
  category?: Category;
  /** Runs that ran this check. */
  check_name?: string;
  /** Started on or after this day (UTC, YYYY-MM-DD). */
  from?: string;
  /** Started on or before this day (UTC, YYYY-MM-DD). */
  to?: string;
}

/** Runs, newest first. */
export async function listRuns(db: Db, filter: RunFilter, page: Page): Promise<Paged<RunSummary>> {
  const filtered = () =>
    db('reconciliation_runs').modify((q) => {
      if (filter.status !== undefined) q.where('status', filter.status);
      if (filter.category !== undefined) q.where('category', filter.category);
      if (filter.check_name !== undefined)
        q.whereRaw('results @> ?::jsonb', [JSON.stringify([{ check_name: filter.check_name }])]);
      if (filter.from !== undefined) q.whereRaw(`started_at >= (?::date)::timestamp AT TIME ZONE 'UTC'`, [filter.from]);
      if (filter.to !== undefined) q.whereRaw(`started_at < (?::date + 1)::timestamp AT TIME ZONE 'UTC'`, [filter.to]);
    });
  const paged = await pagedQuery<Omit<RunRow, 'metadata'> & { variance_count: number }>(
    filtered,
    (q) =>
      q
        .orderBy([{ column: 'started_at', order: 'desc' }, { column: 'run_id' }])
        .select(
          'run_id',
          'started_at',
          'finished_at',
          'category',
          'status',
          'results',
          db.raw(`jsonb_array_length(metadata->'variances') AS variance_count`),
        ),
    page,
  );
  return {
    ...paged,
    items: paged.items.map((row) => ({
      run_id: row.run_id,
      started_at: row.started_at.toISOString(),
      finished_at: row.finished_at.toISOString(),
      category: row.category,
      status: row.status,
      results: row.results,
      variance_count: row.variance_count,
    })),
  };
}

/**
 * Claims scheduled cycle `cycle` of a check: true if it moved the check's cycle forward (this
 * instance runs it), false if this cycle (or a later one) was already claimed by another.
 */
export async function claimCycle(db: Db, checkName: string, cycle: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `INSERT INTO reconciliation_check_cycles AS c (check_name, cycle) VALUES (?, ?)
     ON CONFLICT (check_name) DO UPDATE SET cycle = excluded.cycle, claimed_at = now() WHERE c.cycle IS NULL OR c.cycle < excluded.cycle
     RETURNING check_name`,
    [checkName, cycle],
  );
  return rows.length === 1;
}

/** How far a check's clean runs have verified the book (migration 20270203). */
export interface HighWaterMark {
  /** The snapshot of its last clean run: every transaction it saw was verified. */
  swept: Since;
  /** When its last full sweep ran clean; null: never. */
  fullSweptAt: Date | null;
}

export async function readMark(db: Db, checkName: string): Promise<HighWaterMark | null> {
  const { rows } = await db.raw<{
    rows: Array<{ snapshot: string | null; xmax: string | null; xip: string[]; full_swept_at: Date | null }>;
  }>(
    `SELECT swept_snapshot::text AS snapshot, pg_snapshot_xmax(swept_snapshot)::text AS xmax,
            ARRAY(SELECT pg_snapshot_xip(swept_snapshot)::text) AS xip, full_swept_at
       FROM reconciliation_check_cycles WHERE check_name = ?`,
    [checkName],
  );
  const row = rows[0];
  return row?.snapshot && row.xmax
    ? { swept: { snapshot: row.snapshot, xmax: row.xmax, xip: row.xip }, fullSweptAt: row.full_swept_at }
    : null;
}

/**
 * Moves a check's mark forward after a clean run: never back (a later snapshot, by its xmax, sees
 * all an earlier one saw), so an older run finishing late changes nothing.
 */
export async function advanceMark(db: Db, checkName: string, snapshot: string, full: boolean): Promise<void> {
  await db.raw(
    `INSERT INTO reconciliation_check_cycles AS c (check_name, cycle, swept_snapshot, full_swept_at) VALUES (?, NULL, ?::pg_snapshot, CASE WHEN ? THEN now() END)
     ON CONFLICT (check_name) DO UPDATE
        SET swept_snapshot = CASE WHEN c.swept_snapshot IS NULL OR pg_snapshot_xmax(excluded.swept_snapshot) >= pg_snapshot_xmax(c.swept_snapshot)
                                  THEN excluded.swept_snapshot ELSE c.swept_snapshot END,
            full_swept_at = coalesce(excluded.full_swept_at, c.full_swept_at)`,
    [checkName, snapshot, full],
  );
}
