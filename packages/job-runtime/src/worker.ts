import type { Book, Logger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { UpstreamClients } from '@ledger/upstream-clients';
import type { JobCatalog } from './catalog.js';
import { closeWithin } from './bounded-close.js';
import { DEFAULT_JOB_OPTIONS, JOB_FAMILIES, JOB_RETENTION, queueName, type JobFamily } from './queues.js';
import { JobRunStore } from './runs.js';
import { createJobProcessor } from './runner.js';
import { JobStatusStore, statusKeyPrefix } from './status.js';

export interface JobWorkersOptions<Settings> {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  db: Db;
  logger: Logger;
  catalog: JobCatalog<Settings>;
  /** What the catalog's jobs are configured with (their `deps.settings`). */
  settings: Settings;
  /** The book's upstream clients; defaults to none configured. */
  upstreams?: UpstreamClients;
  /**
   * The bound on taking over the job of a worker that died (JOB_STALLED_INTERVAL_MS): its lock
   * and its lease on the run last half of it, and stalled jobs are looked for every quarter, so
   * a dead worker's job is running again within about this long. Defaults to 30 s.
   */
  stalledIntervalMs?: number;
}

const DEFAULT_STALLED_INTERVAL_MS = 30_000;

/** How many runs one look for lost jobs queues again, at most. */
const LOST_RUNS_PER_LOOK = 100;

/**
 * BullMQ's error when the job it moves on (finished, or delayed for a retry) is no longer in
 * Redis: Redis lost it (restarted empty, failed over) while it ran, and with it the job's lock.
 * The run's record in the book is the outcome (a lost run not finished is queued again from it),
 * so it is a warning, not an error; BullMQ reports it more than once per job.
 */
const LOST_JOB_KEY = /^Missing key for job (.+)\. (moveToFinished|moveToDelayed)$/;
/** How many jobs' lost keys are remembered to warn once each: a bound, not a window. */
const LOST_JOB_KEYS_REMEMBERED = 1_000;

/** Logs a job worker's error: a lost job key once per job at warn, anything else at error. */
function workerErrorLogger(logger: Logger) {
  const warned = new Set<string>();
  return (family: JobFamily, error: Error) => {
    const lost = LOST_JOB_KEY.exec(error.message);
    if (lost === null) return logger.error('job worker error', { family, error: error.message });
    const jobId = lost[1]!;
    if (warned.has(jobId)) return;
    warned.add(jobId);
    if (warned.size > LOST_JOB_KEYS_REMEMBERED) warned.delete(warned.values().next().value!);
    logger.warn('job lost by Redis while it ran (its lock with it): its run in the book decides the outcome', {
      family,
      job_id: jobId,
      error: error.message,
    });
  };
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
export function createJobWorkers<Settings>(options: JobWorkersOptions<Settings>): JobWorkers {
  const { book, logger } = options;
  // Every family, whether or not the catalog has a job in it yet: a job of a kind this worker
  // does not know is failed at once, wherever it was queued.
  const families = Object.keys(JOB_FAMILIES) as JobFamily[];
  // Blocking commands: ioredis must never give up on one (BullMQ requires null).
  const connection = new Redis(options.redisUrl, {
    maxRetriesPerRequest: null,
    connectionName: `ledger-worker-${book}`,
  });
  connection.on('error', (error: Error) => logger.warn('job queue connection error', { error: error.message }));
  const status = new JobStatusStore(connection, statusKeyPrefix(options.queuePrefix, book));
  const stalledIntervalMs = options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS;
  const lockDuration = Math.ceil(stalledIntervalMs / 2);
  const processor = jobsInHand(
    createJobProcessor(options.catalog, {
      book,
      db: options.db,
      logger,
      status,
      leaseMs: lockDuration,
      settings: options.settings,
      ...(options.upstreams && { upstreams: options.upstreams }),
    }),
  );

  const logWorkerError = workerErrorLogger(logger);
  const workers = families.map((family) => {
    const { concurrency, limiter } = JOB_FAMILIES[family];
    const worker = new Worker(queueName(book, family), processor.tracked, {
      connection,
      prefix: options.queuePrefix,
      concurrency,
      ...(limiter && { limiter }),
      lockDuration,
      stalledInterval: Math.ceil(stalledIntervalMs / 4),
      // Applies when the producer set nothing: finished jobs do not pile up in Redis.
      ...JOB_RETENTION,
    });
    // Without a listener an 'error' event would crash the process; Redis hiccups are retried.
    worker.on('error', (error) => logWorkerError(family, error));
    return worker;
  });

  const requeue = requeueLostRuns({ ...options, connection, status, graceMs: stalledIntervalMs });

  return {
    workers,
    waitUntilReady: async () => {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    close: async () => {
      await requeue.stop();
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

/**
 * Queues again, every `graceMs`, the runs the book's database has as running that no attempt
 * holds and whose lease ran out `graceMs` ago: a job Redis lost (restarted without persistence)
 * while it ran or between its attempts is retried. A run BullMQ still has is left to it (it
 * retries it, or takes it over), unless BullMQ failed it without an attempt: that run ends
 * `error` with BullMQ's reason.
 */
function requeueLostRuns(
  options: JobWorkersOptions<unknown> & { connection: Redis; status: JobStatusStore; graceMs: number },
) {
  const { book, catalog, logger, graceMs, status } = options;
  const runs = new JobRunStore(options.db);
  const queues = new Map<JobFamily, Queue>();
  const queueOf = (family: JobFamily) => {
    let queue = queues.get(family);
    if (!queue) {
      queue = new Queue(queueName(book, family), {
        connection: options.connection,
        prefix: options.queuePrefix,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      queue.on('error', (error: Error) => logger.warn('job queue error', { error: error.message }));
      queues.set(family, queue);
    }
    return queue;
  };
  const look = async () => {
    for (const run of await runs.unheld(graceMs, LOST_RUNS_PER_LOOK)) {
      const definition = Object.hasOwn(catalog, run.kind) ? catalog[run.kind] : undefined;
      if (!definition) continue;
      const queue = queueOf(definition.family);
      const job = await queue.getJob(run.job_id);
      if (job && (await job.isFailed())) {
        // Failed by BullMQ itself, not by an attempt (a job that stalled more often than allowed).
        const ended = await runs.abandon(run.job_id, job.failedReason || 'failed by the job queue');
        if (ended) await status.ofRun(ended, null);
        continue;
      }
      if (job) continue;
      // Added under its own id: should another worker add it at the same time, BullMQ keeps one.
      // Its first start stands for its lost queueing time (the latest it can have been): never after its start.
      await queue.add(run.kind, run.input, { jobId: run.job_id, timestamp: run.first_started_at.getTime() });
      logger.warn('queued again a running job Redis no longer had', { job_id: run.job_id, kind: run.kind });
    }
  };
  let looking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    looking = looking.then(look).catch((error: unknown) => {
      logger.warn('looking for lost job runs failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }, graceMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await looking;
      for (const queue of queues.values()) await queue.close().catch(() => undefined);
    },
  };
}
