import type { Book } from '@ledger/core';
import type { DefaultJobOptions } from 'bullmq';

/**
 * The book's job queue. The name carries the book, so two books may share one Redis without
 * seeing each other's jobs. BullMQ refuses ':' in a queue name (it separates key parts), hence '-'.
 */
export function jobsQueueName(book: Book): string {
  return `ledger-${book}-jobs`;
}

/** BullMQ's own default key prefix; override with QUEUE_PREFIX (same value on api and worker). */
export const DEFAULT_QUEUE_PREFIX = 'bull';

/**
 * Payload of each job kind, by job name. Producers (the api) enqueue with these types; each
 * handler still validates what it reads back from Redis. No job kinds exist yet: sync and
 * recost jobs arrive with their issues, each adding its name and payload here and its handler
 * in `src/jobs/`.
 */
export type JobPayloads = Record<never, never>;
export type JobName = keyof JobPayloads & string;

const DAY_SECONDS = 86_400;

/**
 * How long finished jobs stay in Redis, so they do not pile up: producers add every job with it
 * (in DEFAULT_JOB_OPTIONS), and the worker applies it to jobs whose producer set none.
 */
export const JOB_RETENTION = {
  removeOnComplete: { age: 7 * DAY_SECONDS, count: 1_000 },
  removeOnFail: { age: 30 * DAY_SECONDS, count: 10_000 },
} as const satisfies DefaultJobOptions;

/**
 * Attempts, backoff and removal for every job a producer adds. A failure not worth retrying
 * (bad payload, unknown job) throws UnrecoverableError and is failed at once whatever
 * `attempts` says. Producers should pass the job's business key as `jobId` (idempotent enqueue).
 */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 10_000 },
  ...JOB_RETENTION,
} as const satisfies DefaultJobOptions;
