import { startProcess } from '@ledger/core/runtime';
import { createJobWorkers } from '@ledger/job-runtime';
import { JOBS } from '@ledger/jobs';
import { loadConfig } from './config.js';
import { observeWorker } from './metrics.js';

/** The worker process: migrates the book's database to head, then runs the book's job queues. */
await startProcess({
  name: 'worker',
  loadConfig,
  start: async ({ config, db, logger, resources, metrics, readyChecks }) => {
    const { book, redisUrl, queuePrefix, jobStalledIntervalMs, jobSettings, upstreams } = config;
    const jobs = createJobWorkers({
      book,
      redisUrl,
      queuePrefix,
      db,
      logger,
      catalog: JOBS,
      stalledIntervalMs: jobStalledIntervalMs,
      settings: jobSettings,
      upstreams,
    });
    resources.add(() => jobs.close());
    const observed = observeWorker(jobs, { book, redisUrl, queuePrefix, metrics, logger });
    resources.add(observed.close);
    readyChecks.push(observed.redisReady);
    await jobs.waitUntilReady();
    logger.info('ready', {
      queues: jobs.workers.map((worker) => worker.name),
      prefix: queuePrefix,
      jobs: Object.keys(JOBS),
    });
  },
});
