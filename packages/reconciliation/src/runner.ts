import { assert, withAdvisoryLock, type Book, type Db, type Logger } from '@ledger/core';
import type { UpstreamClients } from '@ledger/upstream-clients';
import { v4 as uuidv4 } from 'uuid';
import { worst, type Category, type Check, type CheckOutcome } from './check.js';
import { CHECKS } from './registry.js';
import type { CheckResult, ReconciliationRun, RunVariance, SkippedCheck } from './run.js';
import type { ReconSettings } from './settings.js';
import { claimCycle, saveRun } from './store.js';
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
 * Runs the book's checks of a category (or all), each under its cluster-wide lock: a check that
 * another instance is running is skipped this cycle and named in `metadata.skipped`. A check that
 * throws is a `fail` with `metrics.error`; the others still run. The run is written whole at the
 * end, in one database transaction, so a run cut short leaves no row. Each `warn` or `fail` check
 * then sends a drift alert when ALERT_WEBHOOK_URL is set.
 */
export async function runReconciliation(deps: ReconDeps, options: RunOptions = {}): Promise<ReconciliationRun> {
  const startedAt = new Date();
  const checks = (options.checks ?? CHECKS).filter((c) => c.books.includes(deps.book) && (options.category === undefined || c.category === options.category));
  const results: CheckResult[] = [];
  const variances: RunVariance[] = [];
  const skipped: SkippedCheck[] = [];
  const cycle = options.cycle && Math.floor(startedAt.getTime() / options.cycle.intervalMs);
  for (const check of checks) {
    options.signal?.throwIfAborted();
    const attempt = await withAdvisoryLock(
      deps.db,
      checkLockKey(check.name),
      async () => (cycle === undefined || (await claimCycle(deps.db, check.name, cycle)) ? runCheck(deps, check, startedAt) : null),
      { wait: false },
    );
    if (!attempt.acquired || attempt.value === null) {
      const reason = attempt.acquired ? 'already run this cycle by another instance' : 'another instance holds its lock: it runs there this cycle';
      skipped.push({ check_name: check.name, category: check.category, reason });
      continue;
    }
    const { result, kept } = attempt.value;
    results.push(result);
    variances.push(...kept.map((v) => ({ check_name: check.name, ...v })));
  }
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
  if (deps.settings.alertWebhookUrl !== undefined) void sendDriftAlerts(run, { url: deps.settings.alertWebhookUrl, book: deps.book, logger: deps.logger });
  deps.logger?.info('reconciliation run', { run_id: run.run_id, category: run.category, status: run.status, checks: results.length, skipped: skipped.length, variances: variances.length });
  return run;
}

async function runCheck(deps: ReconDeps, check: Check, now: Date): Promise<{ result: CheckResult; kept: CheckOutcome['variances'] }> {
  const ranAt = new Date().toISOString();
  try {
    const outcome = await deps.db.transaction(
      async (trx) => {
        // A check's plan runs once an hour over the whole book: compiling it (JIT) costs more than it saves.
        await trx.raw('SET LOCAL jit = off');
        return check.run({ db: trx, book: deps.book, settings: deps.settings, upstreams: deps.upstreams, now });
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
    // An `ok` that names broken rows is a bug in the check: recorded as its failure.
    assert(outcome.status !== 'ok' || outcome.variances.length === 0, `${check.name} answered ok with ${outcome.variances.length} variances`);
    const kept = outcome.variances.slice(0, deps.settings.variancesPerCheckMax);
    return { result: { check_name: check.name, category: check.category, status: outcome.status, metrics: outcome.metrics, ran_at: ranAt }, kept };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.logger?.error('reconciliation check failed', { check: check.name, error: message });
    return { result: { check_name: check.name, category: check.category, status: 'fail', metrics: { error: message }, ran_at: ranAt }, kept: [] };
  }
}

