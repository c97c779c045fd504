import { observeBookTotals, observeReconciliation, startProcess } from '@ledger/core/runtime';
import { loadConfig } from './config.js';
import { Scheduler } from './scheduler.js';
import { reconTasks } from './tasks.js';

/**
 * The recon process: migrates the book's database to head, then runs the reconciliation
 * scheduler: each category of checks on its cadence (src/tasks.ts), every check under its
 * cluster-wide lock, so any number of recon processes run each check once per cycle.
 */
await startProcess({
  name: 'recon',
  loadConfig,
  start: async ({ config, db, logger, resources, metrics }) => {
    if (!config.schedule.enabled)
      logger.info('reconciliation schedule is off (RECON_SCHEDULE_ENABLED; INDIA_RECON_ENABLED on the India book)');
    // The book's totals are read here, once per book's recon, not by every process (ADR 0012).
    observeBookTotals(metrics, db);
    const scheduler = new Scheduler({
      tasks: reconTasks(config, { db, logger, observe: observeReconciliation(metrics) }),
      logger,
    });
    scheduler.start();
    resources.add(() => scheduler.stop());
    logger.info('ready');
  },
});
