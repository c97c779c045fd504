import { once } from 'node:events';
import { assert } from '@ledger/core/posting';
import { currentActor, type Book, type Logger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis, ReplyError } from 'ioredis';
import { v7 as uuidv7 } from 'uuid';
import type { JobCatalog } from './catalog.js';
import { DEFAULT_JOB_OPTIONS, jobIdOf, queueName, withStartedBy, type JobFamily } from './queues.js';
import { closeWithin } from './bounded-close.js';
import { JobRunStore } from './runs.js';
import { JobStatusStore, statusKeyPrefix, statusOf, type JobStatus } from './status.js';

/**
 * How long a caller waits on Redis: for the first connection after start, and for an answer to
 * a command (a Redis that accepts connections but does not answer, frozen or overloaded).
 */
const REDIS_WAIT_MS = 2_000;

/** ioredis's refusal of a command it did not send: the connection is not writable and there is no offline queue. */
const NOT_SENT = /^Stream isn't writeable and enableOfflineQueue options is false/;

/** The job queue (Redis) could not take the job, and nothing was queued: the caller is answered 503. */
export class JobQueueUnavailable extends Error {
  override name = 'JobQueueUnavailable';
}

/**
 * The job was sent to Redis but no answer came (the connection dropped, or Redis did not answer
 * within REDIS_WAIT_MS): it may have been queued, and will run if it was. The caller is told so,
 * with the job's id to poll; queueing it again under another id could run it twice.
 */
export class JobEnqueueUnconfirmed extends Error {
  override name = 'JobEnqueueUnconfirmed';
  constructor(
    readonly jobId: string,
    readonly kind: string,
    cause: string,
  ) {
    super(
      `job ${jobId} (${kind}) was sent to the job queue but not confirmed (${cause}); it may have been queued: poll its status`,
    );
  }
}

/** Resolves with `work`, or rejects with `error()` once `ms` have passed (work goes on, unobserved). */
async function within<T>(work: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once the connection is ready, or rejects with JobQueueUnavailable: at once when it
 * was ready before and is not now (Redis went away: ioredis is reconnecting), within
 * REDIS_WAIT_MS while it makes its first connection. Nothing is sent before it resolves.
 */
async function ready(connection: Redis, wasReady: boolean): Promise<void> {
  if (connection.status === 'ready') return;
  if (wasReady) throw new JobQueueUnavailable(`the job queue (Redis) is unreachable (connection ${connection.status})`);
  const signal = AbortSignal.timeout(REDIS_WAIT_MS);
  try {
    await once(connection, 'ready', { signal });
  } catch {
    throw new JobQueueUnavailable(`the job queue (Redis) did not answer within ${REDIS_WAIT_MS} ms`);
  }
}

export interface JobProducerOptions {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  catalog: JobCatalog;
  /** How long a synchronous job's caller waits for the result before being answered like a background job's. */
  syncWaitMs: number;
  logger: Logger;
  /** The book's database: a job's run there decides its status, whatever Redis still has. */
  db: Db;
  /** First retry's delay (doubling after); tests shorten it. */
  backoffDelayMs?: number;
}

export interface JobProducer {
  /** Adds a job (its definition's business key makes it idempotent); for a `sync` job, waits for it, bounded. */
  enqueue(kind: string, input: unknown): Promise<JobStatus>;
  status(jobId: string): Promise<JobStatus | null>;
  close(): Promise<void>;
}

/**
 * The api's side of the jobs: adds jobs to the book's family queues and reads their status.
 * Redis is used with no offline queue and no command resent after a reconnect: while it is down,
 * enqueue fails at once and nothing is queued later (JobQueueUnavailable); a command sent that
 * gets no answer is JobEnqueueUnconfirmed. ioredis reconnects by itself, so later jobs go through
 * once Redis is back. A status is read from the run in the book's database and from Redis.
 */
export function createJobProducer(options: JobProducerOptions): JobProducer {
  const { book, logger } = options;
  const connection = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails with it, never resent after: a job the
    // caller was told about is not queued behind its back.
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_WAIT_MS,
    connectionName: `ledger-api-${book}`,
  });
  let wasReady = false;
  connection.on('ready', () => (wasReady = true));
  // An 'error' event without a listener would crash the process; ioredis keeps reconnecting.
  connection.on('error', (error: Error) => logger.debug('job queue connection error', { error: error.message }));
  const producer: ProducerParts = {
    options,
    connection,
    connected: () => ready(connection, wasReady),
    status: new JobStatusStore(connection, statusKeyPrefix(options.queuePrefix, book)),
    runs: new JobRunStore(options.db),
    families: new FamilyQueues(options, connection),
  };
  return {
    enqueue: (kind, input) => enqueueJob(producer, kind, input),
    status: (jobId) => statusOfJob(producer, jobId),
    close: () => closeProducer(producer),
  };
}

/** What the producer's operations share: its Redis connection, its stores, its family queues. */
interface ProducerParts {
  options: JobProducerOptions;
  connection: Redis;
  /** Resolves once the connection is ready, or rejects with JobQueueUnavailable (see ready()). */
  connected(): Promise<void>;
  status: JobStatusStore;
  runs: JobRunStore;
  families: FamilyQueues;
}

/** The book's family queues, and their events, each opened the first time it is used. */
class FamilyQueues {
  readonly queues = new Map<JobFamily, Queue>();
  readonly events = new Map<JobFamily, { events: QueueEvents; connection: Redis }>();

  constructor(
    private readonly options: JobProducerOptions,
    private readonly connection: Redis,
  ) {}

  queue(family: JobFamily): Queue {
    const { book, logger } = this.options;
    let queue = this.queues.get(family);
    if (!queue) {
      queue = new Queue(queueName(book, family), {
        connection: this.connection,
        prefix: this.options.queuePrefix,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      queue.on('error', (error: Error) => logger.debug('job queue error', { error: error.message }));
      // BullMQ listens once per add in flight: many concurrent enqueues are normal, not a leak.
      queue.setMaxListeners(0);
      this.queues.set(family, queue);
    }
    return queue;
  }

  // Waiting for results reads a stream with a blocking command: a connection of its own per family.
  eventsOf(family: JobFamily): QueueEvents {
    const { book, logger } = this.options;
    let entry = this.events.get(family);
    if (!entry) {
      const blocking = new Redis(this.options.redisUrl, {
        maxRetriesPerRequest: null,
        connectionName: `ledger-api-${book}-events`,
      });
      blocking.on('error', (error: Error) => logger.debug('job events connection error', { error: error.message }));
      entry = {
        events: new QueueEvents(queueName(book, family), { connection: blocking, prefix: this.options.queuePrefix }),
        connection: blocking,
      };
      entry.events.on('error', (error: Error) => logger.debug('job events error', { error: error.message }));
      this.events.set(family, entry);
    }
    return entry.events;
  }
}

/**
 * The status: the run in the book's database decides it, Redis adds the rest; either alone
 * answers when the other is unreachable; neither (Redis down, no run read) is JobQueueUnavailable.
 */
async function statusOfJob(
  { options, connected, status, runs }: ProducerParts,
  jobId: string,
): Promise<JobStatus | null> {
  const [record, run] = await Promise.allSettled([connected().then(() => status.get(jobId)), runs.get(jobId)]);
  if (run.status === 'rejected')
    options.logger.warn('job run not read from the database', { job_id: jobId, error: messageOf(run.reason) });
  const runValue = run.status === 'fulfilled' ? run.value : null;
  if (record.status === 'rejected' && !runValue) {
    if (record.reason instanceof JobQueueUnavailable) throw record.reason;
    throw new JobQueueUnavailable(`the job queue is unavailable: ${messageOf(record.reason)}`);
  }
  return statusOf(record.status === 'fulfilled' ? record.value : null, runValue);
}

/** Adds a job (its definition's business key makes it idempotent); for a `sync` job, waits for it, bounded. */
async function enqueueJob(producer: ProducerParts, kind: string, input: unknown): Promise<JobStatus> {
  const { options, connected, status, runs, families } = producer;
  const definition = options.catalog[kind];
  assert(definition, `job kind ${kind} is in the catalog`);
  const key = definition.businessKey(input);
  const jobId = key === null ? uuidv7() : jobIdOf(key);
  const waitFor = definition.mode === 'sync' ? families.eventsOf(definition.family) : undefined;
  await connected();
  if (waitFor)
    await within(
      waitFor.waitUntilReady(),
      REDIS_WAIT_MS,
      () => new JobQueueUnavailable(`the job queue's events did not answer within ${REDIS_WAIT_MS} ms`),
    );
  const backoff = {
    ...DEFAULT_JOB_OPTIONS.backoff,
    delay: options.backoffDelayMs ?? DEFAULT_JOB_OPTIONS.backoff.delay,
  };
  // The database's clock, the one its start will be read from (and BullMQ's timestamp of the job, which a worker falls back to).
  const queuedAt = await runs.clock().catch((error: unknown) => {
    throw new JobQueueUnavailable(
      `the book's database did not answer (a job is timed by its clock): ${messageOf(error)}`,
    );
  });
  // Who asked for it (the request's actor) rides with the job to the worker, which records it on the run.
  const startedBy = currentActor();
  const job = await addToQueue(jobId, kind, () =>
    families.queue(definition.family).add(kind, withStartedBy(input, startedBy), {
      jobId,
      backoff,
      timestamp: queuedAt.getTime(),
    }),
  );
  // Queued: from here the caller is answered the job, whatever Redis does next.
  await status
    .queued(jobId, kind, queuedAt, startedBy)
    .catch((error: unknown) =>
      options.logger.warn('job status record not written', { job_id: jobId, error: messageOf(error) }),
    );
  // Bounded: past the wait the caller is answered like a background job's, and polls.
  // (BullMQ reads a wait of 0 as no limit: 0 here means answer at once.)
  if (waitFor && options.syncWaitMs > 0)
    await job.waitUntilFinished(waitFor, options.syncWaitMs).catch(() => undefined);
  const record = await statusOfJob(producer, jobId).catch(() => null);
  return record ?? queuedRecord(jobId, kind, queuedAt, startedBy);
}

/**
 * Sends the job with `add`. Never sent (ioredis refuses a command while its stream is down: no
 * offline queue), or Redis answered with an error (the script did not run): nothing queued,
 * JobQueueUnavailable. Anything else: sent, no answer, JobEnqueueUnconfirmed.
 */
async function addToQueue(jobId: string, kind: string, add: () => Promise<Job>): Promise<Job> {
  try {
    return await add();
  } catch (error) {
    if (NOT_SENT.test(messageOf(error)))
      throw new JobQueueUnavailable(`the job queue (Redis) is unreachable: ${messageOf(error)}`);
    if (error instanceof ReplyError)
      throw new JobQueueUnavailable(`the job queue refused the job: ${messageOf(error)}`);
    throw new JobEnqueueUnconfirmed(jobId, kind, messageOf(error));
  }
}

/** Closes the family queues and every connection; our own connections are dropped if BullMQ's closes hang. */
async function closeProducer({ options, connection, families }: ProducerParts): Promise<void> {
  const closing = (async () => {
    for (const entry of families.events.values()) {
      await entry.events.close();
      await entry.connection.quit().catch(() => undefined);
    }
    for (const queue of families.queues.values()) await queue.close();
    await connection.quit().catch(() => undefined);
  })();
  // Our own connections, dropped without waiting on the server: BullMQ's closes can hang.
  const disconnect = async () => {
    for (const entry of families.events.values()) entry.connection.disconnect();
    connection.disconnect();
  };
  await closeWithin('job producer', closing, disconnect, options.logger);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The record of a job just queued, when Redis cannot be read back: running, `started_at` its queueing (no attempt yet). */
function queuedRecord(jobId: string, kind: string, queuedAt: Date, startedBy: string): JobStatus {
  return {
    job_id: jobId,
    kind,
    started_by: startedBy,
    status: 'running',
    queued_at: queuedAt.toISOString(),
    started_at: queuedAt.toISOString(),
    finished_at: null,
    duration_ms: null,
    attempts: 0,
    progress: null,
    result: null,
    error: null,
  };
}
