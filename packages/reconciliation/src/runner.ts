import { assert } from '@ledger/core/posting';
import type { Book, Logger } from '@ledger/core/runtime';
import { withPooledLockSession, type Db, type PooledLockSession } from '@ledger/core/store';
import type { UpstreamClients } from '@ledger/upstream-clients';
import { v4 as uuidv4 } from 'uuid';
import {
  postedSince,
  sinceBindings,
  worst,
  type Category,
  type Check,
  type CheckOutcome,
  type Since,
} from './check.js';
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
  /** Aborted (shutdown): the statement in flight is cancelled, no further check starts and nothing is written. */
  signal?: AbortSignal;
  /** Every incremental check sweeps the whole book, whatever its mark (a clean one still moves it). */
  full?: boolean;
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
  // One connection of the pool for the whole run: every check's lock, its transaction and its
  // mark (none outside DB_POOL_MAX); an abort cancels its statement in flight.
  await withPooledLockSession(
    deps.db,
    async (session) => {
      for (const check of checks) {
        options.signal?.throwIfAborted();
        const key = checkLockKey(check.name);
        const work = () =>
          runMarkedCheck({ deps, session, now: startedAt, full: options.full === true, signal: options.signal }, check);
        // A run asked for (no cycle) runs every check it names: one another instance is running is
        // waited for, not skipped, or the run would answer `ok` for a check it never ran.
        const attempt =
          cycle === undefined
            ? { acquired: true as const, value: await session.withLock(key, work) }
            : await session.withLock(
                key,
                async () => ((await session.transaction((trx) => claimCycle(trx, check.name, cycle))) ? work() : null),
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
    },
    { signal: options.signal },
  ).catch((error: unknown) => {
    // Stopped by its signal (a cancelled statement, a refused lock wait): the abort is the reason.
    options.signal?.throwIfAborted();
    throw error;
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
  await saveRun(deps.db, run, {
    persistVariances: deps.settings.alertPersistEnabled,
    variancesPerCheckMax: deps.settings.variancesPerCheckMax,
  });
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

/** What one check's run works with: the run's session (its lock, transactions and mark on one pooled connection). */
interface CheckRun {
  deps: ReconDeps;
  session: PooledLockSession;
  /** When the run started. */
  now: Date;
  /** RunOptions.full. */
  full: boolean;
  signal: AbortSignal | undefined;
}

/**
 * The check's snapshot: it names what the check did not see (the transactions in progress then
 * or begun after), so the next incremental run looks at exactly those. Read first in the check's
 * transaction: it takes the snapshot.
 */
const SNAPSHOT_SQL = 'SELECT pg_current_snapshot()::text AS snapshot';

/** How many transactions an incremental run looked at: the ones its mark's snapshot did not see. */
const NEW_TRANSACTIONS_SQL = `SELECT count(*)::int AS n FROM transactions nt WHERE ${postedSince('nt')}`;

/**
 * Runs a check, incrementally where it can (settings.incremental): since its high-water mark,
 * unless it has none, incremental runs are off, the run asks for a full sweep, or its last full
 * sweep is older than the setting. A clean run moves its mark to its own snapshot; a run with
 * variances leaves it, so the next run looks at the same transactions again.
 */
async function runMarkedCheck(
  ctx: CheckRun,
  check: Check,
): Promise<{ result: CheckResult; kept: CheckOutcome['variances'] }> {
  if (!check.incremental) return runCheck(ctx, check, null);
  const { enabled, fullSweepEveryHours } = ctx.deps.settings.incremental;
  const mark = enabled && !ctx.full ? await ctx.session.transaction((trx) => readMark(trx, check.name)) : null;
  const fullDue =
    mark?.fullSweptAt == null || ctx.now.getTime() - mark.fullSweptAt.getTime() >= fullSweepEveryHours * 3_600_000;
  const since = mark === null || fullDue ? null : mark.swept;
  const ran = await runCheck(ctx, check, since);
  if (ran.result.status === 'ok' && ran.snapshot !== null) {
    const snapshot = ran.snapshot;
    await ctx.session.transaction((trx) => advanceMark(trx, check.name, snapshot, since === null));
  }
  return ran;
}

/** What an incremental check's run looked at: the whole book, or the transactions its mark's snapshot did not see. */
async function sweepOf(trx: Db, since: Since | null): Promise<Record<string, unknown>> {
  if (since === null) return { sweep: 'full' };
  const { rows } = await trx.raw<{ rows: Array<{ n: number }> }>(NEW_TRANSACTIONS_SQL, sinceBindings(since));
  return { sweep: 'incremental', since: since.snapshot, new_transactions: rows[0]!.n };
}

async function runCheck(
  { deps, session, now, signal }: CheckRun,
  check: Check,
  since: Since | null,
): Promise<{ result: CheckResult; kept: CheckOutcome['variances']; snapshot: string | null }> {
  const ranAt = new Date().toISOString();
  try {
    const { outcome, snapshot } = await session.transaction(
      async (trx) => {
        const taken = check.incremental
          ? (await trx.raw<{ rows: Array<{ snapshot: string }> }>(SNAPSHOT_SQL)).rows[0]!.snapshot
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
        if (!check.incremental) return { outcome: ran, snapshot: taken };
        return { outcome: { ...ran, metrics: { ...ran.metrics, ...(await sweepOf(trx, since)) } }, snapshot: taken };
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
      snapshot,
    };
  } catch (error) {
    // A shutdown cancelled it: the run stops and writes nothing, no check failed.
    if (signal?.aborted) throw error;
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
      snapshot: null,
    };
  }
}
