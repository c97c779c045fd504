import { startProcess } from '@ledger/core';
import { createJobWorkers, JOBS } from '@ledger/jobs';
import { loadConfig } from './config.js';

/** The worker process: migrates the book's database to head, then runs the book's job queues. */
await startProcess({
  name: 'worker',
  loadConfig,
  start: async ({ config, db, logger, resources }) => {
    const { book, redisUrl, queuePrefix, jobStalledIntervalMs, jobSettings, upstreams } = config;
    const jobs = createJobWorkers({ book, redisUrl, queuePrefix, db, logger, catalog: JOBS, stalledIntervalMs: jobStalledIntervalMs, settings: jobSettings, upstreams });
    resources.add(() => jobs.close());
    await jobs.waitUntilReady();
    logger.info('ready', { queues: jobs.workers.map((worker) => worker.name), prefix: queuePrefix, jobs: Object.keys(JOBS) });
  },
});
