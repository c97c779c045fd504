import { withAdvisoryLock, type Book, type Db, type Logger } from '@ledger/core';
import { v4 as uuidv4 } from 'uuid';
import { worst, type Category, type Check, type CheckOutcome } from './check.js';
import { CHECKS } from './registry.js';
import type { CheckResult, ReconciliationRun, RunVariance, SkippedCheck } from './run.js';
import type { ReconSettings } from './settings.js';
import { saveRun } from './store.js';

export interface ReconDeps {
  db: Db;
  book: Book;
  settings: ReconSettings;
  logger?: Logger;
}

export interface RunOptions {
  /** One category; every category without. */
  category?: Category;
  /** Aborted (shutdown): no further check starts and nothing is written. */
  signal?: AbortSignal;
  /** The checks to choose from: the registry's unless a test gives its own. */
  checks?: readonly Check[];
}

/** The lock a check runs under, cluster-wide (spec §13). */
export const checkLockKey = (name: string) => `recon:${name}`;

/**
 * Runs the book's checks of a category (or all), each under its cluster-wide lock: a check that
 * another instance is running is skipped this cycle and named in `metadata.skipped`. A check that
 * throws is a `fail` with `metrics.error`; the others still run. The run is written whole at the
 * end, in one database transaction, so a run cut short leaves no row.
 */
export async function runReconciliation(deps: ReconDeps, options: RunOptions = {}): Promise<ReconciliationRun> {
  const startedAt = new Date();
  const checks = (options.checks ?? CHECKS).filter((c) => c.books.includes(deps.book) && (options.category === undefined || c.category === options.category));
  const results: CheckResult[] = [];
  const variances: RunVariance[] = [];
  const skipped: SkippedCheck[] = [];
  for (const check of checks) {
    options.signal?.throwIfAborted();
    const attempt = await withAdvisoryLock(deps.db, checkLockKey(check.name), () => runCheck(deps, check, startedAt), { wait: false });
    if (!attempt.acquired) {
      skipped.push({ check_name: check.name, category: check.category, reason: 'another instance holds its lock: it runs there this cycle' });
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
  deps.logger?.info('reconciliation run', { run_id: run.run_id, category: run.category, status: run.status, checks: results.length, skipped: skipped.length, variances: variances.length });
  return run;
}

async function runCheck(deps: ReconDeps, check: Check, now: Date): Promise<{ result: CheckResult; kept: CheckOutcome['variances'] }> {
  const ranAt = new Date().toISOString();
  try {
    const outcome = await deps.db.transaction((trx) => check.run({ db: trx, book: deps.book, settings: deps.settings, now }), {
      isolationLevel: 'repeatable read',
      readOnly: true,
    });
    const kept = outcome.variances.slice(0, deps.settings.variancesPerCheckMax);
    return { result: { check_name: check.name, category: check.category, status: outcome.status, metrics: outcome.metrics, ran_at: ranAt }, kept };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.logger?.error('reconciliation check failed', { check: check.name, error: message });
    return { result: { check_name: check.name, category: check.category, status: 'fail', metrics: { error: message }, ran_at: ranAt }, kept: [] };
  }
}

