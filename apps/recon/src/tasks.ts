import type { Logger, ReconObserver } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { CATEGORIES, CHECKS, runReconciliation, type Category } from '@ledger/reconciliation';
import type { ReconConfig } from './config.js';
import type { ScheduledTask } from './scheduler.js';

/** Category C calls upstreams: it runs at the longer, external cadence. */
const EXTERNAL: readonly Category[] = ['C'];

/**
 * The scheduler's tasks: one per category that has checks on this book, each a run of that
 * category (A, B and D at the interval, C at the external interval), each check once per cycle
 * across every recon process of the book. None when the schedule is switched off. Each run's
 * results go to `observe` (the process's metrics).
 */
export function reconTasks(
  config: ReconConfig,
  { db, logger, observe }: { db: Db; logger: Logger; observe?: ReconObserver },
): ScheduledTask[] {
  if (!config.schedule.enabled) return [];
  return CATEGORIES.filter((category) =>
    CHECKS.some((c) => c.category === category && c.books.includes(config.book)),
  ).map((category) => {
    const intervalMs =
      (EXTERNAL.includes(category) ? config.schedule.externalIntervalSeconds : config.schedule.intervalSeconds) * 1_000;
    return {
      name: `recon-${category}`,
      initialDelayMs: config.schedule.initialDelaySeconds * 1_000,
      intervalMs,
      run: async (signal) => {
        try {
          const run = await runReconciliation(
            { db, book: config.book, settings: config.recon, upstreams: config.upstreams, logger },
            { category, signal, cycle: { intervalMs } },
          );
          observe?.(run.results);
        } catch (error) {
          // Shutdown stops a run between checks; it writes nothing, and that is no failure.
          if (!signal.aborted) throw error;
          logger.info('reconciliation run stopped by shutdown: nothing written', { category });
        }
      },
    };
  });
}
