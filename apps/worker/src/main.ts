import { startProcess } from '@ledger/core';
import { loadConfig } from './config.js';
import { JOB_HANDLERS } from './jobs/index.js';
import { jobsQueueName } from './queues.js';
import { createJobsWorker } from './worker.js';

/** The worker process: migrates the book's database to head, then runs the book's job queue. */
await startProcess({
  name: 'worker',
  loadConfig,
  start: async ({ config, db, logger, resources }) => {
    const { book, redisUrl, queuePrefix } = config;
    const jobs = createJobsWorker({ book, redisUrl, queuePrefix, db, logger, handlers: JOB_HANDLERS });
    resources.add(() => jobs.close());
    await jobs.worker.waitUntilReady();
    logger.info('ready', { queue: jobsQueueName(book), prefix: queuePrefix });
  },
});
