import { assert, withLockSession, type Book, type Db, type Logger } from '@ledger/core';
import type { UpstreamClients } from '@ledger/upstream-clients';
import { v4 as uuidv4 } from 'uuid';
import { worst, type Category, type Check, type CheckOutcome } from './check.js';
import { CHECKS } from './registry.js';
import type { CheckResult, ReconciliationRun, RunVariance, SkippedCheck } from './run.js';
import type { ReconSettings } from './settings.js';
import { advanceMark, claimCycle, readMark, saveRun } from './store.js';
import { sendDriftAlerts } from './alert.js';

export interface ReconDeps {
  db: Db;
  book: Book;
  settings: ReconSettings;
  upstreams: UpstreamClients;
  logger?: Logger;
}

export interface RunOptions {
  /** One category; every category without. */
  category?: Category;
  /** Aborted (shutdown): no further check starts and nothing is written. */
  signal?: AbortSignal;
  /** The checks to choose from: the registry's unless a test gives its own. */
  checks?: readonly Check[];
  /**
   * A scheduled run: each check runs once per cycle of this length (the run's start, in epoch
   * time, divided by it) across every instance; one already run this cycle elsewhere is skipped.
   */
  cycle?: { intervalMs: number };
}

/** The lock a check runs under, cluster-wide (spec §13). */
export const checkLockKey = (name: string) => `recon:${name}`;

/**
 * Runs the book's checks of a category (or all), each under its cluster-wide lock: in a scheduled
 * run, a check that another instance is running is skipped this cycle and named in
 * `metadata.skipped`; a run asked for (`POST /v1/reconciliation/run`) waits for it instead. A check that
 * throws is a `fail` with `metrics.error`; the others still run. The run is written whole at the
 * end, in one database transaction, so a run cut short leaves no row. Each `warn` or `fail` check
 * then sends a drift alert when ALERT_WEBHOOK_URL is set.
 */
export async function runReconciliation(deps: ReconDeps, options: RunOptions = {}): Promise<ReconciliationRun> {
  const startedAt = new Date();
  const checks = (options.checks ?? CHECKS).filter(
    (c) => c.books.includes(deps.book) && (options.category === undefined || c.category === options.category),
  );
  const results: CheckResult[] = [];
  const variances: RunVariance[] = [];
  const skipped: SkippedCheck[] = [];
  const cycle = options.cycle && Math.floor(startedAt.getTime() / options.cycle.intervalMs);
  // Every check's lock on one session of the run's: a connection per check cost each one a backend's start.
  await withLockSession(deps.db, async (locks) => {
    for (const check of checks) {
      options.signal?.throwIfAborted();
      const key = checkLockKey(check.name);
      // A run asked for (no cycle) runs every check it names: one another instance is running is
      // waited for, not skipped, or the run would answer `ok` for a check it never ran.
      const attempt =
        cycle === undefined
          ? { acquired: true as const, value: await locks.withLock(key, () => runMarkedCheck(deps, check, startedAt)) }
          : await locks.withLock(
              key,
              async () =>
                (await claimCycle(deps.db, check.name, cycle)) ? runMarkedCheck(deps, check, startedAt) : null,
              { wait: false },
            );
      if (!attempt.acquired || attempt.value === null) {
        const reason = attempt.acquired
          ? 'already run this cycle by another instance'
          : 'another instance holds its lock: it runs there this cycle';
        skipped.push({ check_name: check.name, category: check.category, reason });
        continue;
      }
      const { result, kept } = attempt.value;
      results.push(result);
      variances.push(...kept.map((v) => ({ check_name: check.name, ...v })));
    }
  });
  options.signal?.throwIfAborted();
  const run: ReconciliationRun = {
    run_id: uuidv4(),
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    category: options.category ?? null,
    status: worst(results.map((r) => r.status)),
    results,
    metadata: { variances, skipped },
  };
  await saveRun(deps.db, run, { persistVariances: deps.settings.alertPersistEnabled });
  // Fire-and-forget: an alert target never delays nor fails the run.
  if (deps.settings.alertWebhookUrl !== undefined)
    void sendDriftAlerts(run, { url: deps.settings.alertWebhookUrl, book: deps.book, logger: deps.logger });
  deps.logger?.info('reconciliation run', {
    run_id: run.run_id,
    category: run.category,
    status: run.status,
    checks: results.length,
    skipped: skipped.length,
    variances: variances.length,
  });
  return run;
}

/**
 * Where the check's snapshot leaves off: `now()` (its transaction's start), or the start of the
 * oldest transaction still open, if earlier: a posting not yet committed when the snapshot was
 * taken is dated (posted_at, its own transaction's start) at or after this, so the next
 * incremental run sees it. Read first in the check's transaction: it takes the snapshot.
 */
const SNAPSHOT_MARK_SQL = `
  SELECT least(now(), (SELECT min(xact_start) FROM pg_stat_activity
                        WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL))::text AS mark`;

/**
 * Runs a check, incrementally where it can (settings.incremental): since its high-water mark,
 * unless it has none, incremental runs are off, or its last full sweep is older than the
 * setting. A clean run moves its mark to where its snapshot left off; a run with variances
 * leaves it, so the next run looks at the same transactions again.
 */
async function runMarkedCheck(
  deps: ReconDeps,
  check: Check,
  now: Date,
): Promise<{ result: CheckResult; kept: CheckOutcome['variances'] }> {
  if (!check.incremental) return runCheck(deps, check, now, null);
  const { enabled, fullSweepEveryHours } = deps.settings.incremental;
  const mark = enabled ? await readMark(deps.db, check.name) : null;
  const fullDue =
    mark?.fullSweptAt == null || now.getTime() - mark.fullSweptAt.getTime() >= fullSweepEveryHours * 3_600_000;
  const since = mark === null || fullDue ? null : mark.sweptThrough;
  const ran = await runCheck(deps, check, now, since);
  if (ran.result.status === 'ok' && ran.snapshotMark !== null)
    await advanceMark(deps.db, check.name, ran.snapshotMark, since === null);
  return ran;
}

async function runCheck(
  deps: ReconDeps,
  check: Check,
  now: Date,
  since: string | null,
): Promise<{ result: CheckResult; kept: CheckOutcome['variances']; snapshotMark: string | null }> {
  const ranAt = new Date().toISOString();
  try {
    const { outcome, snapshotMark } = await deps.db.transaction(
      async (trx) => {
        const mark = check.incremental
          ? (await trx.raw<{ rows: Array<{ mark: string }> }>(SNAPSHOT_MARK_SQL)).rows[0]!.mark
          : null;
        // A check's plan runs once an hour over the whole book: compiling it (JIT) costs more than it saves.
        await trx.raw('SET LOCAL jit = off');
        const ran = await check.run({
          db: trx,
          book: deps.book,
          settings: deps.settings,
          upstreams: deps.upstreams,
          now,
          since,
        });
        return {
          outcome: check.incremental
            ? {
                ...ran,
                metrics: {
                  ...ran.metrics,
                  sweep: since === null ? 'full' : 'incremental',
                  ...(since !== null && { since }),
                },
              }
            : ran,
          snapshotMark: mark,
        };
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
    // An `ok` that names broken rows is a bug in the check: recorded as its failure.
    assert(
      outcome.status !== 'ok' || outcome.variances.length === 0,
      `${check.name} answered ok with ${outcome.variances.length} variances`,
    );
    const kept = outcome.variances.slice(0, deps.settings.variancesPerCheckMax);
    return {
      result: {
        check_name: check.name,
        category: check.category,
        status: outcome.status,
        metrics: outcome.metrics,
        ran_at: ranAt,
      },
      kept,
      snapshotMark,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.logger?.error('reconciliation check failed', { check: check.name, error: message });
    return {
      result: {
        check_name: check.name,
        category: check.category,
        status: 'fail',
        metrics: { error: message },
        ran_at: ranAt,
      },
      kept: [],
      snapshotMark: null,
    };
  }
}
