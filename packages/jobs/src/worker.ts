import type { Book, Db, Logger } from '@ledger/core';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { UpstreamClients } from '@ledger/upstream-clients';
import type { JobCatalog, JobSettings } from './catalog.js';
import { closeWithin } from './bounded-close.js';
import { JOB_FAMILIES, JOB_RETENTION, queueName, type JobFamily } from './queues.js';
import { createJobProcessor } from './runner.js';
import { JobStatusStore, statusKeyPrefix } from './status.js';

export interface JobWorkersOptions {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  db: Db;
  logger: Logger;
  catalog: JobCatalog;
  /** Settings the jobs read (fee schedule); defaults to DEFAULT_JOB_SETTINGS. */
  settings?: JobSettings;
  /** The book's upstream clients; defaults to none configured. */
  upstreams?: UpstreamClients;
  /** How long a job may go without its lock being renewed before another worker takes it over. */
  stalledIntervalMs?: number;
}

/** Counts the jobs a processor has in hand, and tells when there are none. */
function jobsInHand<A extends unknown[], R>(processor: (...args: A) => Promise<R>) {
  let inHand = 0;
  const waiting: Array<() => void> = [];
  const tracked = async (...args: A): Promise<R> => {
    inHand += 1;
    try {
      return await processor(...args);
    } finally {
      inHand -= 1;
      if (inHand === 0) for (const resolve of waiting.splice(0)) resolve();
    }
  };
  const idle = () => (inHand === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  return { tracked, idle };
}

export interface JobWorkers {
  workers: Worker[];
  waitUntilReady(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One BullMQ worker per job family, each with the family's concurrency and rate
 * limit. Several worker processes may run on one book: BullMQ hands each job to one of them,
 * and a job whose worker died (its lock not renewed) is taken over after the stall interval.
 */
export function createJobWorkers(options: JobWorkersOptions): JobWorkers {
  const { book, logger } = options;
  // Every family, whether or not the catalog has a job in it yet: a job of a kind this worker
  // does not know is failed at once, wherever it was queued.
  const families = Object.keys(JOB_FAMILIES) as JobFamily[];
  // Blocking commands: ioredis must never give up on one (BullMQ requires null).
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, connectionName: `ledger-worker-${book}` });
  connection.on('error', (error: Error) => logger.warn('job queue connection error', { error: error.message }));
  const status = new JobStatusStore(connection, statusKeyPrefix(options.queuePrefix, book));
  const processor = jobsInHand(createJobProcessor(options.catalog, { book, db: options.db, logger, status, ...(options.settings && { settings: options.settings }), ...(options.upstreams && { upstreams: options.upstreams }) }));

  const workers = families.map((family) => {
    const { concurrency, limiter } = JOB_FAMILIES[family];
    const worker = new Worker(queueName(book, family), processor.tracked, {
      connection,
      prefix: options.queuePrefix,
      concurrency,
      ...(limiter && { limiter }),
      ...(options.stalledIntervalMs !== undefined && { stalledInterval: options.stalledIntervalMs, lockDuration: options.stalledIntervalMs }),
      // Applies when the producer set nothing: finished jobs do not pile up in Redis.
      ...JOB_RETENTION,
    });
    // Without a listener an 'error' event would crash the process; Redis hiccups are retried.
    worker.on('error', (error) => logger.error('job worker error', { family, error: error.message }));
    return worker;
  });

  return {
    workers,
    waitUntilReady: async () => {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    close: async () => {
      // Each waits for the jobs in hand to finish (however long they take); past that, bounded.
      await closeWithin(
        'job workers',
        Promise.all(workers.map((worker) => worker.close())),
        () => Promise.all(workers.map((worker) => worker.disconnect())),
        logger,
        processor.idle(),
      );
      await connection.quit().catch(() => undefined);
    },
  };
}
