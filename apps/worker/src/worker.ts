import type { Book, Db, Logger } from '@ledger/core';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobHandler } from './jobs/index.js';
import { createProcessor } from './processor.js';
import { JOB_RETENTION, jobsQueueName } from './queues.js';

export interface JobsWorkerOptions {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  db: Db;
  logger: Logger;
  handlers: Readonly<Record<string, JobHandler>>;
}

/**
 * A BullMQ worker on the book's queue. Concurrency is 1: recost must see a book's transactions
 * in order, and the sync jobs to come share upstream rate limits; scale by books, not threads.
 */
export function createJobsWorker(options: JobsWorkerOptions): { worker: Worker; close(): Promise<void> } {
  const { book, db, logger } = options;
  // Workers block on Redis: ioredis must never give up on a command (BullMQ requires null).
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, connectionName: `ledger-worker-${book}` });
  const worker = new Worker(jobsQueueName(book), createProcessor(options.handlers, { book, db, logger }), {
    connection,
    prefix: options.queuePrefix,
    concurrency: 1,
    // Applies when the producer set nothing: finished jobs do not pile up in Redis.
    ...JOB_RETENTION,
  });
  worker.on('failed', (job, error) => {
    logger.warn('job failed', {
      job_id: job?.id,
      job_name: job?.name,
      attempts_made: job?.attemptsMade,
      error: error.message,
    });
  });
  worker.on('completed', (job) => logger.info('job completed', { job_id: job.id, job_name: job.name }));
  // Without a listener an 'error' event would crash the process; Redis hiccups are retried.
  worker.on('error', (error) => logger.error('worker error', { error: error.message }));
  return {
    worker,
    close: async () => {
      // Waits for the job in hand to finish; the shared connection is ours to close after.
      await worker.close();
      await connection.quit();
    },
  };
}
