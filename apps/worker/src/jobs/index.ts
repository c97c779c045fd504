import type { Book, Db, Logger } from '@ledger/core';
import type { Job } from 'bullmq';
import type { JobName } from '../queues.js';

/** What a job handler may use; the handler owns nothing and closes nothing. */
export interface JobContext {
  book: Book;
  db: Db;
  /** Tagged with the job's id and name. */
  logger: Logger;
}

/**
 * Runs one job. The data comes back from Redis untyped: the handler validates it, and throws
 * UnrecoverableError for a payload no retry can fix. What it returns is the job's result.
 */
export type JobHandler = (job: Job<unknown, unknown, string>, context: JobContext) => Promise<unknown>;

export type JobRegistry = Readonly<Record<JobName, JobHandler>>;

/**
 * The job handlers of this worker, by job name. Empty until the first job kind lands
 * (`src/jobs/<job-name>.ts`, registered here under its name from `queues.ts`).
 */
export const JOB_HANDLERS: JobRegistry = {};
