import type { Book, Logger } from '@ledger/core/runtime';
import got from 'got';
import type { ReconciliationRun, RunVariance } from './run.js';

/** An alert target gets this long to answer; then the POST is dropped. Never retried. */
export const ALERT_TIMEOUT_MS = 2_000;
/** The variances an alert carries; the run's API path has them all. */
export const ALERT_VARIANCES_MAX = 5;

/** The drift alert's body (docs/reconciliation.md#drift-alert): one per `warn` or `fail` check of a run. */
export interface DriftAlert {
  book: Book;
  check_name: string;
  category: string;
  status: 'warn' | 'fail';
  run_id: string;
  ran_at: string;
  variance_count: number;
  variances: RunVariance[];
  /** The run in the api, with every variance: `GET` it with a ledger token. */
  run_path: string;
}

export function driftAlerts(run: ReconciliationRun, book: Book): DriftAlert[] {
  return run.results.flatMap((result) => {
    if (result.status === 'ok') return [];
    const variances = run.metadata.variances.filter((v) => v.check_name === result.check_name);
    return [
      {
        book,
        check_name: result.check_name,
        category: result.category,
        status: result.status,
        run_id: run.run_id,
        ran_at: result.ran_at,
        variance_count: variances.length,
        variances: variances.slice(0, ALERT_VARIANCES_MAX),
        run_path: `/v1/reconciliation/runs/${run.run_id}`,
      },
    ];
  });
}

/**
 * POSTs each drift alert of the run to `url`, once, with a short timeout and no retry. Never
 * rejects: a target that is down, slow or failing is logged and forgotten, so callers do not
 * await it (fire-and-forget); the promise settles when every POST has.
 */
export async function sendDriftAlerts(
  run: ReconciliationRun,
  { url, book, logger }: { url: string; book: Book; logger?: Logger },
): Promise<void> {
  await Promise.all(
    driftAlerts(run, book).map(async (alert) => {
      try {
        await got.post(url, { json: alert, timeout: { request: ALERT_TIMEOUT_MS }, retry: { limit: 0 } });
        logger?.info('drift alert sent', { run_id: run.run_id, check: alert.check_name, status: alert.status });
      } catch (error) {
        // The URL may carry a token: the log names the check, never the target.
        logger?.warn('drift alert not delivered', {
          run_id: run.run_id,
          check: alert.check_name,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }),
  );
}
