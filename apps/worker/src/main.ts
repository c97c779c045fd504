import { createLogger, exitOnStartupError, onShutdown, openLedgerDatabase, Resources } from '@ledger/core';
import { loadConfig } from './config.js';
import { JOB_HANDLERS } from './jobs/index.js';
import { jobsQueueName } from './queues.js';
import { createJobsWorker } from './worker.js';

/** The worker process: migrates the book's database to head, then runs the book's job queue. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, service: 'worker', book: config.ENTITY_ID });
  const resources = new Resources();
  onShutdown(logger, () => resources.closeAll());
  try {
    const { db, applied } = await openLedgerDatabase(
      { url: config.LEDGER_DB_URL, migrationUrl: config.LEDGER_MIGRATION_DB_URL, poolMax: config.DB_POOL_MAX, applicationName: 'ledger-worker' },
      logger,
      (opened) => resources.add(() => opened.destroy()),
    );
    logger.info('migrated', { applied });
    if (resources.closing) return;

    const jobs = createJobsWorker({
      book: config.ENTITY_ID,
      redisUrl: config.REDIS_URL,
      queuePrefix: config.QUEUE_PREFIX,
      db,
      logger,
      handlers: JOB_HANDLERS,
    });
    resources.add(() => jobs.close());
    await jobs.worker.waitUntilReady();
    logger.info('ready', { queue: jobsQueueName(config.ENTITY_ID), prefix: config.QUEUE_PREFIX });
  } catch (error) {
    // A shutdown during start-up interrupts it; onShutdown reports and exits.
    if (resources.closing) return;
    throw error;
  }
}

main().catch(exitOnStartupError);
