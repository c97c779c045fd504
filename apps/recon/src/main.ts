import { startProcess } from '@ledger/core';
import { loadConfig } from './config.js';
import { Scheduler } from './scheduler.js';

/**
 * The recon process: migrates the book's database to head, then runs the reconciliation
 * scheduler. The checks themselves arrive in a later issue; until then it schedules nothing.
 */
await startProcess({
  name: 'recon',
  loadConfig,
  start: async ({ logger, resources }) => {
    const scheduler = new Scheduler({ tasks: [], logger });
    scheduler.start();
    resources.add(() => scheduler.stop());
    logger.info('ready');
  },
});
