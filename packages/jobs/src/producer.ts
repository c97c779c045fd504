import { once } from 'node:events';
import { assert, type Book, type Logger } from '@ledger/core';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { v7 as uuidv7 } from 'uuid';
import type { JobCatalog } from './catalog.js';
import { DEFAULT_JOB_OPTIONS, jobIdOf, queueName, type JobFamily } from './queues.js';
import { closeWithin } from './bounded-close.js';
import { JobStatusStore, statusKeyPrefix, type JobStatus } from './status.js';

/** How long a caller waits for Redis to answer before being told the queue is unavailable. */
const REDIS_WAIT_MS = 2_000;

/** Resolves with `work`, or rejects with JobQueueUnavailable if Redis is not ready or `work` takes too long. */
async function withinRedisWait<T>(connection: Redis, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JobQueueUnavailable(`the job queue (Redis) did not answer within ${REDIS_WAIT_MS} ms`)), REDIS_WAIT_MS);
  });
  const ready = async () => {
    if (connection.status !== 'ready') await once(connection, 'ready');
    return work();
  };
  try {
    return await Promise.race([ready(), timeout]);
  } catch (error) {
    if (error instanceof JobQueueUnavailable) throw error;
    throw new JobQueueUnavailable(`the job queue is unavailable: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The job queue (Redis) could not take the job: the caller is answered 503 at once, never left hanging. */
export class JobQueueUnavailable extends Error {
  override name = 'JobQueueUnavailable';
}

export interface JobProducerOptions {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  catalog: JobCatalog;
  /** How long a synchronous job's caller waits for the result before being answered like a background job's. */
  syncWaitMs: number;
  logger: Logger;
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
 * Redis is used with no offline queue: while it is down, enqueue fails at once (503), and
 * ioredis reconnects by itself, so later jobs go through once Redis is back.
 */
export function createJobProducer(options: JobProducerOptions): JobProducer {
  const { book, catalog, logger } = options;
  const connection = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectionName: `ledger-api-${book}`,
  });
  // An 'error' event without a listener would crash the process; ioredis keeps reconnecting.
  connection.on('error', (error: Error) => logger.debug('job queue connection error', { error: error.message }));
  const status = new JobStatusStore(connection, statusKeyPrefix(options.queuePrefix, book));
  const queues = new Map<JobFamily, Queue>();
  const events = new Map<JobFamily, { events: QueueEvents; connection: Redis }>();

  const queueOf = (family: JobFamily): Queue => {
    let queue = queues.get(family);
    if (!queue) {
      queue = new Queue(queueName(book, family), { connection, prefix: options.queuePrefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      queue.on('error', (error: Error) => logger.debug('job queue error', { error: error.message }));
      // BullMQ listens once per add in flight: many concurrent enqueues are normal, not a leak.
      queue.setMaxListeners(0);
      queues.set(family, queue);
    }
    return queue;
  };

  // Waiting for results reads a stream with a blocking command: a connection of its own per family.
  const eventsOf = (family: JobFamily): QueueEvents => {
    let entry = events.get(family);
    if (!entry) {
      const blocking = new Redis(options.redisUrl, { maxRetriesPerRequest: null, connectionName: `ledger-api-${book}-events` });
      blocking.on('error', (error: Error) => logger.debug('job events connection error', { error: error.message }));
      entry = { events: new QueueEvents(queueName(book, family), { connection: blocking, prefix: options.queuePrefix }), connection: blocking };
      entry.events.on('error', (error: Error) => logger.debug('job events error', { error: error.message }));
      events.set(family, entry);
    }
    return entry.events;
  };

  return {
    async enqueue(kind, input) {
      const definition = catalog[kind];
      assert(definition, `job kind ${kind} is in the catalog`);
      const key = definition.businessKey(input);
      const jobId = key === null ? uuidv7() : jobIdOf(key);
      const waitFor = definition.mode === 'sync' ? eventsOf(definition.family) : undefined;
      const job = await withinRedisWait(connection, async () => {
        if (waitFor) await waitFor.waitUntilReady();
        const backoff = { ...DEFAULT_JOB_OPTIONS.backoff, delay: options.backoffDelayMs ?? DEFAULT_JOB_OPTIONS.backoff.delay };
        const added = await queueOf(definition.family).add(kind, input, { jobId, backoff });
        await status.queued(jobId, kind, new Date());
        return added;
      });
      // Bounded: past the wait the caller is answered like a background job's, and polls.
      // (BullMQ reads a wait of 0 as no limit: 0 here means answer at once.)
      if (waitFor && options.syncWaitMs > 0) await job.waitUntilFinished(waitFor, options.syncWaitMs).catch(() => undefined);
      const record = await withinRedisWait(connection, () => status.get(jobId));
      assert(record, `job ${jobId} has a status record once queued`);
      return record;
    },
    status: (jobId) => withinRedisWait(connection, () => status.get(jobId)),
    async close() {
      const closing = (async () => {
        for (const entry of events.values()) {
          await entry.events.close();
          await entry.connection.quit().catch(() => undefined);
        }
        for (const queue of queues.values()) await queue.close();
        await connection.quit().catch(() => undefined);
      })();
      // Our own connections, dropped without waiting on the server: BullMQ's closes can hang.
      const disconnect = async () => {
        for (const entry of events.values()) entry.connection.disconnect();
        connection.disconnect();
      };
      await closeWithin('job producer', closing, disconnect, logger);
    },
  };
}
