import type { ReconObserver } from '@ledger/core/runtime';
import type { Category } from './check.js';
import type { ReconciliationRun } from './run.js';
import { runReconciliation, type ReconDeps } from './runner.js';

/** What an operator asks to run (`POST /v1/reconciliation/run`). */
export interface RunRequest {
  /** One category; every category without. */
  category?: Category;
  /** A full sweep of every incremental check, whatever its mark. */
  full?: boolean;
}

/**
 * The runs one process is asked for on demand. A request for what a run in flight (or waiting its
 * turn) already runs joins it and answers that run, so repeated requests never pile up runs; the
 * others run one at a time, waiting their turn in memory (no connection, no lock held). Each run's
 * results go to `observe`, as the scheduler's do, so a `fail` asked for counts in the metrics the
 * alert reads. `close()` (shutdown) aborts the run in flight, cancelling its statement, and the
 * ones waiting; it resolves once none is left running.
 */
export class OnDemandRuns {
  private readonly inFlight = new Map<string, Promise<ReconciliationRun>>();
  private turn: Promise<unknown> = Promise.resolve();
  private readonly shutdown = new AbortController();

  constructor(
    private readonly deps: ReconDeps,
    private readonly observe?: ReconObserver,
  ) {}

  run(request: RunRequest = {}): Promise<ReconciliationRun> {
    const key = `${request.category ?? 'all'}:${request.full === true ? 'full' : 'marked'}`;
    const joined = this.inFlight.get(key);
    if (joined !== undefined) {
      this.deps.logger?.info('reconciliation run asked for joins the same run in flight', {
        category: request.category ?? null,
        full: request.full === true,
      });
      return joined;
    }
    const run = this.turn
      .then(() =>
        runReconciliation(this.deps, {
          category: request.category,
          full: request.full,
          signal: this.shutdown.signal,
        }),
      )
      .then((done) => {
        this.observe?.(done.results);
        return done;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** Whether close() was called: a run it stopped rejects with the signal's reason. */
  get closed(): boolean {
    return this.shutdown.signal.aborted;
  }

  async close(): Promise<void> {
    this.shutdown.abort();
    await this.turn;
  }
}
