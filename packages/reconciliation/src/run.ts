import type { Category, CheckStatus, Variance } from './check.js';

/** One check's result in a run (spec, Reconciliation check result). A check that threw has `metrics.error`. */
export interface CheckResult {
  check_name: string;
  category: Category;
  status: CheckStatus;
  metrics: Record<string, unknown>;
  ran_at: string;
}

export type RunVariance = { check_name: string } & Variance;

/** A check this run left alone because another instance held its lock. */
export interface SkippedCheck {
  check_name: string;
  category: Category;
  reason: string;
}

/** A reconciliation run (contract, Reconciliation run), as stored and answered. */
export interface ReconciliationRun {
  run_id: string;
  started_at: string;
  finished_at: string;
  /** null: every category. */
  category: Category | null;
  /** The worst result; ok when no check ran. */
  status: CheckStatus;
  results: CheckResult[];
  metadata: { variances: RunVariance[]; skipped: SkippedCheck[] };
}

/** A run in a list: without its variances, with their count. */
export type RunSummary = Omit<ReconciliationRun, 'metadata'> & { variance_count: number };
