import type { TestDatabase } from '@ledger/core/testing';
import { CHECKS, DEFAULT_RECON_SETTINGS, runReconciliation } from '@ledger/reconciliation';
import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { loadBook } from './reports.js';

export interface ReconBenchResult {
  transactions: number;
  loadSeconds: number;
  /** The A, B and D checks in one run each (as recon runs them), seconds. */
  sweepSeconds: number;
  /** Each check alone, seconds, with its status. */
  checks: Array<{ name: string; seconds: number; status: string }>;
}

const SWEPT = ['A', 'B', 'D'] as const;

/**
 * A book of `count` transactions of the bench mix posted in bulk (as the firm reports' bench),
 * then the A, B and D checks run as the recon process runs them (runtime role, each in its
 * snapshot, the run stored): a full sweep, then each check alone. Category C calls upstreams and
 * is not timed here.
 */
export async function benchRecon(database: TestDatabase, count: number): Promise<ReconBenchResult> {
  const loadSeconds = await loadBook(database, count, 1_000);
  const deps = { db: database.runtime!.db, book: 'ENTITY_UAE' as const, settings: DEFAULT_RECON_SETTINGS, upstreams: NO_UPSTREAMS };
  const seconds = async (work: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await work();
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  // Warm the caches once, as a book in service is.
  for (const category of SWEPT) await runReconciliation(deps, { category });
  let sweepSeconds = 0;
  for (const category of SWEPT) sweepSeconds += await seconds(() => runReconciliation(deps, { category }));
  const checks = [];
  for (const check of CHECKS.filter((c) => (SWEPT as readonly string[]).includes(c.category))) {
    let status = '';
    const took = await seconds(async () => {
      status = (await runReconciliation(deps, { checks: [check] })).status;
    });
    checks.push({ name: check.name, seconds: took, status });
  }
  return { transactions: count, loadSeconds, sweepSeconds, checks };
}
