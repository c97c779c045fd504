import { createLogger, exitOnStartupError, onShutdown, openLedgerDatabase, Resources } from '@ledger/core';
import { loadConfig } from './config.js';
import { Scheduler } from './scheduler.js';

/**
 * The recon process: migrates the book's database to head, then runs the reconciliation
 * scheduler. The checks themselves arrive in a later issue; until then it schedules nothing.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, service: 'recon', book: config.ENTITY_ID });
  const resources = new Resources();
  onShutdown(logger, () => resources.closeAll());
  try {
    const { applied } = await openLedgerDatabase(
      { url: config.LEDGER_DB_URL, migrationUrl: config.LEDGER_MIGRATION_DB_URL, poolMax: config.DB_POOL_MAX, applicationName: 'ledger-recon' },
      logger,
      (opened) => resources.add(() => opened.destroy()),
    );
    logger.info('migrated', { applied });
    if (resources.closing) return;

    const scheduler = new Scheduler({ tasks: [], logger });
    scheduler.start();
    resources.add(() => scheduler.stop());
    logger.info('ready');
  } catch (error) {
    // A shutdown during start-up interrupts it; onShutdown reports and exits.
    if (resources.closing) return;
    throw error;
  }
}

main().catch(exitOnStartupError);
