import { SYSTEM_ACTOR } from '@ledger/core/posting';
import type { Book } from '@ledger/core/runtime';
import type { DefaultJobOptions } from 'bullmq';

/**
 * Jobs run on one queue per family, each with its own concurrency and rate limit, so a long
 * upstream sync never delays a webhook-triggered one, and recost runs one at a time (it must see
 * a book's trades in order). See docs/adr/0008-job-queues-per-family.md.
 */
export const JOB_FAMILIES = {
  /** Upstream syncs started by operators or schedules: long, rate-limited by the upstreams. */
  syncs: { concurrency: 2, limiter: { max: 10, duration: 1_000 } },
  /** Recost: one at a time per worker process (and serialised per book by an advisory lock). */
  recost: { concurrency: 1, limiter: undefined },
  /** Per-customer syncs a webhook asked for: short, many, never behind a long sync. */
  'webhook-syncs': { concurrency: 4, limiter: { max: 50, duration: 1_000 } },
} as const satisfies Record<string, { concurrency: number; limiter: { max: number; duration: number } | undefined }>;
export type JobFamily = keyof typeof JOB_FAMILIES;

/**
 * The queue of a family of a book. The name carries the book, so two books may share one Redis
 * without seeing each other's jobs. BullMQ refuses ':' in a queue name (it separates key parts).
 */
export function queueName(book: Book, family: JobFamily): string {
  return `ledger-${book}-${family}`;
}

const DAY_SECONDS = 86_400;

/**
 * How long finished jobs stay in BullMQ's own keys. The job status record (status.ts) is kept
 * longer, JOB_STATUS_RETENTION_SECONDS, so a status can be read after BullMQ removed the job.
 */
export const JOB_RETENTION = {
  removeOnComplete: { age: 7 * DAY_SECONDS, count: 1_000 },
  removeOnFail: { age: 30 * DAY_SECONDS, count: 10_000 },
} as const satisfies DefaultJobOptions;

/** How long `GET /v1/jobs/status/{job_id}` can answer for a job, from its last change. */
export const JOB_STATUS_RETENTION_SECONDS = 30 * DAY_SECONDS;

/**
 * Attempts, backoff and removal of every job. A failure not worth retrying (bad payload, a
 * LedgerError, a 4xx from an upstream) is UnrecoverableError and fails at once whatever
 * `attempts` says; transient ones (timeouts, 5xx, connection refused) are retried with backoff.
 */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  ...JOB_RETENTION,
} as const satisfies DefaultJobOptions;

/**
 * A BullMQ job id from a business key. BullMQ refuses ':' in custom ids, and business keys carry
 * them (`sync-remit:cust_1`): '%' and ':' are percent-encoded, which keeps distinct keys distinct.
 */
export function jobIdOf(businessKey: string): string {
  return businessKey.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/**
 * The key of a job's data that carries who queued it (docs/actors.md): the producer adds the
 * actor of the request, the worker takes it out before the job's input is parsed and records it
 * on the run (`job_runs.started_by`). Only an object input carries it (every job's input is one).
 */
export const STARTED_BY_KEY = '__started_by';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The job data the producer queues: the input, and who queued it. */
export function withStartedBy(input: unknown, actor: string): unknown {
  return isPlainObject(input) ? { ...input, [STARTED_BY_KEY]: actor } : input;
}

/**
 * The job's input and who queued it, from its data. Data without the key (queued by an older
 * producer, or queued again from the run's stored input, whose run keeps its own) reads `system`.
 */
export function splitStartedBy(data: unknown): { input: unknown; startedBy: string } {
  if (!isPlainObject(data) || !Object.hasOwn(data, STARTED_BY_KEY)) return { input: data, startedBy: SYSTEM_ACTOR };
  const { [STARTED_BY_KEY]: startedBy, ...input } = data;
  return { input, startedBy: typeof startedBy === 'string' ? startedBy : SYSTEM_ACTOR };
}
