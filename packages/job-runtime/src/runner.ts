import { jobActor, LedgerError } from '@ledger/core/posting';
import { withActor, type Book, type Logger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { NO_UPSTREAMS, type UpstreamClients } from '@ledger/upstream-clients';
import { UnrecoverableError, type Job } from 'bullmq';
import { ZodError } from 'zod';
import { randomUUID } from 'node:crypto';
import { sleep } from './bounded-close.js';
import type { AnyJob, JobCatalog, JobDeps } from './catalog.js';
import { DEFAULT_JOB_OPTIONS, splitStartedBy } from './queues.js';
import { JobRunStore, type Claim, type JobRun, type NewRun } from './runs.js';
import type { JobProgress, JobStatusStore } from './status.js';

/** Progress is mirrored to the status record at most this often. */
const PROGRESS_WRITE_INTERVAL_MS = 500;

/** How long an attempt waits on Redis to mirror the run's record before going on without it (the row is the truth). */
const MIRROR_WAIT_MS = 2_000;

/** The lease of an attempt on its run when the worker gives none: BullMQ's default lock. */
export const DEFAULT_LEASE_MS = 30_000;

export interface RunnerContext<Settings> {
  book: Book;
  db: Db;
  logger: Logger;
  status: JobStatusStore;
  /** What the catalog's jobs are configured with (their `deps.settings`). */
  settings: Settings;
  /** Defaults to NO_UPSTREAMS. */
  upstreams?: UpstreamClients;
  /** How long an attempt's lease on its run stands unrenewed (renewed every third of it); defaults to DEFAULT_LEASE_MS. */
  leaseMs?: number;
  now?: () => Date;
}

/** Whether retrying could help: a refusal of the ledger or of the payload never gets better. */
function isPermanent(error: unknown): boolean {
  return error instanceof UnrecoverableError || error instanceof LedgerError || error instanceof ZodError;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The BullMQ processor of a catalog. Each attempt claims the job's run in the book's database
 * (runs.ts) before it runs anything: a delivery of a job that already finished answers the
 * stored outcome and runs nothing; a delivery while another attempt holds the run (BullMQ handed
 * the job out again after a Redis stall) waits for that attempt. The attempt renews its lease
 * while the job runs, records the outcome there first, then mirrors it to the status record in
 * Redis, best effort: a Redis that is down or lost the record never fails the job, and neither
 * does a progress write. A permanent failure, or the last attempt by the run's own count, is
 * rethrown as UnrecoverableError (no retry); a transient one as is, and BullMQ retries it.
 */
export function createJobProcessor<Settings>(catalog: JobCatalog<Settings>, context: RunnerContext<Settings>) {
  const now = context.now ?? (() => new Date());
  const leaseMs = context.leaseMs ?? DEFAULT_LEASE_MS;
  const runs = new JobRunStore(context.db);

  return async (job: Job<unknown, unknown, string>): Promise<Record<string, unknown>> => {
    const jobId = String(job.id);
    const definition = Object.hasOwn(catalog, job.name) ? catalog[job.name] : undefined;
    if (!definition)
      throw new UnrecoverableError(
        `unknown job name "${job.name}"; this worker runs ${Object.keys(catalog).sort().join(', ')}`,
      );
    const queuedAt = new Date(job.timestamp);
    let logger = context.logger.child({ job_id: jobId, job_kind: job.name });
    /** Writes the run's record to Redis; never throws, never waits on Redis longer than MIRROR_WAIT_MS. */
    const mirror = async (run: JobRun) => {
      const written = context.status
        .ofRun(run, queuedAt)
        .catch((error: unknown) => logger.warn('job status record not written', { error: messageOf(error) }));
      await Promise.race([written, sleep(MIRROR_WAIT_MS)]);
    };

    const owner = randomUUID();
    const { input: data, startedBy } = splitStartedBy(job.data);
    const claim = await claimRun(runs, { jobId, kind: job.name, input: data, startedBy }, owner, leaseMs, logger);
    if (claim.state === 'finished') return storedOutcome(claim.run, mirror, logger);
    const run = claim.run;
    logger = logger.child({ attempt: run.attempts });
    await mirror(run);

    const renewal = renewingLease(runs, jobId, owner, leaseMs, logger);
    const progress = new ProgressMirror(context.status, jobId, now, logger);
    const deps: JobDeps<Settings> = {
      book: context.book,
      db: context.db,
      logger,
      progress: (value) => progress.report(value),
      settings: context.settings,
      upstreams: context.upstreams ?? NO_UPSTREAMS,
    };
    try {
      let result: Record<string, unknown>;
      try {
        result = await runJob(definition, job.name, jobId, data, deps);
      } catch (error) {
        const permanent = isPermanent(error);
        const final = permanent || run.attempts >= (job.opts.attempts ?? DEFAULT_JOB_OPTIONS.attempts);
        const ended = await runs.end(jobId, owner, { status: final ? 'error' : 'running', error: messageOf(error) });
        if (ended) await mirror(ended);
        logger.warn('job attempt failed', { error: messageOf(error), permanent, final });
        if (final && !(error instanceof UnrecoverableError)) throw new UnrecoverableError(messageOf(error));
        throw error;
      }
      const ended = await runs.end(jobId, owner, { status: 'done', result });
      if (!ended) {
        // Another attempt took the run over while this one ran: its record stands.
        const current = await runs.get(jobId);
        logger.error('job finished after losing its lease; the run’s record stands', { status: current?.status });
        return current?.result ?? result;
      }
      logger.info('job done', { duration_ms: now().getTime() - new Date(ended.first_started_at).getTime() });
      await mirror(ended);
      return result;
    } finally {
      clearInterval(renewal);
      progress.stop();
    }
  };
}

/** Delivered again after it finished (a lock lost to a Redis stall or restart): nothing runs twice. */
async function storedOutcome(
  run: JobRun,
  mirror: (run: JobRun) => Promise<void>,
  logger: Logger,
): Promise<Record<string, unknown>> {
  logger.warn('job already finished; answering its stored outcome', { status: run.status, attempts: run.attempts });
  await mirror(run);
  if (run.status === 'done') return run.result!;
  throw new UnrecoverableError(run.error ?? 'failed');
}

/** Runs the job on its input, as its actor; refused (for good) on a book it does not run on. */
async function runJob<Settings>(
  definition: AnyJob<Settings>,
  kind: string,
  jobId: string,
  data: unknown,
  deps: JobDeps<Settings>,
): Promise<Record<string, unknown>> {
  if (!definition.books.includes(deps.book)) {
    throw new UnrecoverableError(
      `job ${kind} does not run on ${deps.book} (it runs on ${definition.books.join(', ')})`,
    );
  }
  const input: unknown = definition.input.parse(data);
  // Everything the job writes records it: job:<kind>:<job_id>, or the webhook that triggered it.
  const result = await withActor(definition.actor?.(input, jobId) ?? jobActor(kind, jobId), () =>
    definition.run(input, deps),
  );
  // What is stored is what the api documents: a result its schema does not describe is a bug of
  // the job, failed for good rather than stored for a reader to trip on.
  const checked = definition.result.safeParse(result);
  if (!checked.success)
    throw new UnrecoverableError(`job ${kind} answered a result its schema does not declare: ${checked.error.message}`);
  return result;
}

/** Renews the attempt's lease on its run every third of it, until the timer it answers is cleared. */
function renewingLease(
  runs: JobRunStore,
  jobId: string,
  owner: string,
  leaseMs: number,
  logger: Logger,
): NodeJS.Timeout {
  const renewal = setInterval(() => {
    runs.renew(jobId, owner, leaseMs).then(
      (held) =>
        held ||
        logger.error('job attempt lost its lease on the run: another attempt may run it', { lease_ms: leaseMs }),
      (error: unknown) => logger.warn('job lease not renewed', { error: messageOf(error) }),
    );
  }, leaseMs / 3);
  renewal.unref();
  return renewal;
}

/**
 * Mirrors a job's progress to its status record, at most every PROGRESS_WRITE_INTERVAL_MS. A
 * report inside the interval is written when the interval ends (the latest one), not dropped:
 * else a run whose customers finish close together shows 0/n until its last.
 */
class ProgressMirror {
  private at = 0;
  private latest: JobProgress | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly status: JobStatusStore,
    private readonly jobId: string,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  report(value: JobProgress): void {
    this.latest = value;
    const wait = this.at + PROGRESS_WRITE_INTERVAL_MS - this.now().getTime();
    if (wait <= 0 || value.done === value.total) this.write();
    else if (this.timer === null) {
      this.timer = setTimeout(() => this.write(), wait);
      this.timer.unref();
    }
  }

  /** Drops a write still waiting: the attempt is over. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private write(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.at = this.now().getTime();
    this.status
      .progressed(this.jobId, this.latest!)
      .catch((error: unknown) => this.logger.debug('job progress not written', { error: messageOf(error) }));
  }
}

/** Claims the run, waiting while another attempt holds a live lease on it (polled, at most a second apart). */
async function claimRun(
  runs: JobRunStore,
  job: NewRun,
  owner: string,
  leaseMs: number,
  logger: Logger,
): Promise<Claim> {
  for (let waited = false; ; waited = true) {
    const claim = await runs.claim(job, owner, leaseMs);
    if (claim.state !== 'held') return claim;
    if (!waited)
      logger.warn('job delivered while another attempt holds its run; waiting for it', {
        lease_expires_at: claim.run.lease_expires_at,
      });
    await sleep(Math.min(1_000, leaseMs / 4));
  }
}
