import { LedgerError, type Book, type Db, type Logger } from '@ledger/core';
import { NO_UPSTREAMS, type UpstreamClients } from '@ledger/upstream-clients';
import { UnrecoverableError, type Job } from 'bullmq';
import { ZodError } from 'zod';
import { DEFAULT_JOB_SETTINGS, type JobCatalog, type JobDeps, type JobSettings } from './catalog.js';
import type { JobStatusStore } from './status.js';
import type { JobProgress } from './status.js';

/** Progress is mirrored to the status record at most this often. */
const PROGRESS_WRITE_INTERVAL_MS = 500;

export interface RunnerContext {
  book: Book;
  db: Db;
  logger: Logger;
  status: JobStatusStore;
  /** Defaults to DEFAULT_JOB_SETTINGS. */
  settings?: JobSettings;
  /** Defaults to NO_UPSTREAMS. */
  upstreams?: UpstreamClients;
  now?: () => Date;
}

/** Whether retrying could help: a refusal of the ledger or of the payload never gets better. */
function isPermanent(error: unknown): boolean {
  return error instanceof UnrecoverableError || error instanceof LedgerError || error instanceof ZodError;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The BullMQ processor of a catalog: finds the job's definition, validates its payload, runs it
 * with a progress reporter, and keeps the job status record in step (started, progress, done,
 * error). A permanent failure is rethrown as UnrecoverableError (no retry); a transient one is
 * rethrown as is, and BullMQ retries it with backoff.
 */
export function createJobProcessor(catalog: JobCatalog, context: RunnerContext) {
  const now = context.now ?? (() => new Date());
  return async (job: Job<unknown, unknown, string>): Promise<Record<string, unknown>> => {
    const jobId = String(job.id);
    const definition = Object.hasOwn(catalog, job.name) ? catalog[job.name] : undefined;
    if (!definition) throw new UnrecoverableError(`unknown job name "${job.name}"; this worker runs ${Object.keys(catalog).sort().join(', ')}`);
    const startedAt = now();
    const attempt = job.attemptsMade + 1;
    await context.status.started(jobId, job.name, attempt, startedAt);
    const logger = context.logger.child({ job_id: jobId, job_kind: job.name, attempt });

    let lastWrite = 0;
    let pending: Promise<void> = Promise.resolve();
    const progress = (value: JobProgress) => {
      const at = now().getTime();
      if (at - lastWrite < PROGRESS_WRITE_INTERVAL_MS && value.done !== value.total) return;
      lastWrite = at;
      pending = pending.then(() => Promise.all([context.status.progressed(jobId, value), job.updateProgress({ ...value })]).then(() => undefined));
    };
    const deps: JobDeps = { book: context.book, db: context.db, logger, progress, settings: context.settings ?? DEFAULT_JOB_SETTINGS, upstreams: context.upstreams ?? NO_UPSTREAMS };
    try {
      if (!definition.books.includes(context.book)) {
        throw new UnrecoverableError(`job ${job.name} does not run on ${context.book} (it runs on ${definition.books.join(', ')})`);
      }
      const input: unknown = definition.input.parse(job.data);
      const result = await definition.run(input, deps);
      await pending;
      await context.status.finished(jobId, result, startedAt, now());
      logger.info('job done', { duration_ms: now().getTime() - startedAt.getTime() });
      return result;
    } catch (error) {
      await pending.catch(() => undefined);
      const permanent = isPermanent(error);
      const final = permanent || attempt >= (job.opts.attempts ?? 1);
      await context.status.failed(jobId, messageOf(error), final, startedAt, now());
      logger.warn('job attempt failed', { error: messageOf(error), permanent, final });
      if (permanent && !(error instanceof UnrecoverableError)) throw new UnrecoverableError(messageOf(error));
      throw error;
    }
  };
}
