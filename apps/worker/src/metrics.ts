import {
  observeJobs,
  observeQueues,
  settleWithin,
  type Book,
  type Logger,
  type Metrics,
  type ReadyCheck,
} from '@ledger/core/runtime';
import { JOB_FAMILIES, queueName, type JobFamily, type JobWorkers } from '@ledger/job-runtime';
import { CUSTOMER_FAILURE_CODES, JOBS, type CustomerFailureCode } from '@ledger/jobs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

/** How long a scrape or a readiness probe waits on Redis. */
const REDIS_READ_MS = 2_000;

/** A job's kind as a label: the catalog's names only (a stray name queued by hand is `unknown`), so the series stay few. */
const kindOf = (name: string) => (Object.hasOwn(JOBS, name) ? name : 'unknown');

/**
 * How many customers a sync job's result failed, by their reason's code (every sync job words
 * them so). A code outside the closed set, which the runtime's result check rules out, counts as
 * `uncoded`, so the series stay few whatever a result holds.
 */
function customersFailedByCode(result: unknown): Map<CustomerFailureCode, number> {
  const failed = (result as { customers_failed?: unknown } | null)?.customers_failed;
  const byCode = new Map<CustomerFailureCode, number>();
  for (const failure of Array.isArray(failed) ? failed : []) {
    const code = (failure as { reason?: { code?: unknown } } | null)?.reason?.code;
    const known = CUSTOMER_FAILURE_CODES.find((c) => c === code) ?? 'uncoded';
    byCode.set(known, (byCode.get(known) ?? 0) + 1);
  }
  return byCode;
}

export interface WorkerMetricsOptions {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  metrics: Metrics;
  logger: Logger;
}

/**
 * The worker's own metrics: each attempt of each job (by kind and outcome, from BullMQ's events,
 * so the job runner is untouched), the customers sync jobs failed, and each family queue's depth
 * and oldest waiting job, read from Redis when scraped on a connection of their own. Also the
 * worker's readiness: Redis answers. Returns what to close at shutdown.
 */
export function observeWorker(
  jobs: JobWorkers,
  { book, redisUrl, queuePrefix, metrics, logger }: WorkerMetricsOptions,
): { redisReady: ReadyCheck; close: () => Promise<void> } {
  const job = observeJobs(metrics);
  for (const worker of jobs.workers) {
    const seconds = (processedOn: number | undefined) => (Date.now() - (processedOn ?? Date.now())) / 1_000;
    worker.on('completed', (done, result: unknown) => {
      job.attempt(kindOf(done.name), 'done', seconds(done.processedOn));
      for (const [code, count] of customersFailedByCode(result)) job.customersFailed(kindOf(done.name), code, count);
    });
    // The runner rethrows a final failure (permanent, or the last attempt) as UnrecoverableError.
    worker.on('failed', (failed, error) => {
      if (failed)
        job.attempt(
          kindOf(failed.name),
          error.name === 'UnrecoverableError' ? 'failed' : 'retried',
          seconds(failed.processedOn),
        );
    });
  }

  // Reads only: fail fast while Redis is down rather than queue commands for later.
  const connection = new Redis(redisUrl, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectionName: `ledger-worker-metrics-${book}`,
  });
  connection.on('error', (error: Error) => logger.debug('metrics connection error', { error: error.message }));
  const queues = (Object.keys(JOB_FAMILIES) as JobFamily[]).map((family) => {
    const queue = new Queue(queueName(book, family), { connection, prefix: queuePrefix });
    queue.on('error', (error: Error) => logger.debug('metrics queue error', { error: error.message }));
    return queue;
  });
  const read = () =>
    Promise.all(
      queues.map(async (queue) => {
        const [counts, [oldest]] = await Promise.all([
          queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed'),
          queue.getJobs(['wait'], 0, 0, true),
        ]);
        return { queue: queue.name, counts, oldestWaitingAt: oldest?.timestamp ?? null };
      }),
    );
  const timedOut = Symbol('timed out');
  observeQueues(metrics, async () => {
    const states = await settleWithin(read(), REDIS_READ_MS, timedOut);
    if (states === timedOut) throw new Error(`Redis did not answer within ${REDIS_READ_MS} ms`);
    return states;
  });

  const redisReady: ReadyCheck = () =>
    settleWithin(
      connection.ping().then(
        () => null,
        (error: unknown) => `Redis: ${error instanceof Error ? error.message : String(error)}`,
      ),
      REDIS_READ_MS,
      `Redis did not answer within ${REDIS_READ_MS} ms`,
    );

  return {
    redisReady,
    close: async () => {
      for (const queue of queues) await queue.close().catch(() => undefined);
      connection.disconnect();
    },
  };
}
