import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../store/db.js';

/*
 * The metrics of a book's processes, in one place (docs/adr/0012-metrics-on-an-operations-port.md):
 * each process gets its own registry from `startProcess` (the Node runtime's metrics and its
 * database pool's) and registers what is its own with the functions below: the api its requests,
 * the worker its jobs and queues, recon its checks and the book's totals. Every name starts with
 * `ledger_`; every series carries `service` and `book`. Labels are bounded sets (route templates,
 * job kinds, check names), never a raw path, an id or a customer.
 */

export type Metrics = Registry;

/** A registry for one process, every series labelled with the process and its book. */
export function createMetrics(labels: { service: string; book: string }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The slice of tarn's pool (knex's) read at scrape time. */
interface PoolGauges {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The database pool, read when scraped (nothing is counted per query). */
export function observePool(metrics: Metrics, db: Db): void {
  const pool = () => (db.client as { pool?: PoolGauges }).pool;
  new Gauge({
    name: 'ledger_db_pool_connections',
    help: 'Connections of the database pool, by state: used (lent to a query) or free (idle).',
    labelNames: ['state'],
    registers: [metrics],
    collect() {
      this.set({ state: 'used' }, pool()?.numUsed() ?? 0);
      this.set({ state: 'free' }, pool()?.numFree() ?? 0);
    },
  });
  new Gauge({
    name: 'ledger_db_pool_waiting',
    help: 'Queries waiting for a connection of the database pool.',
    registers: [metrics],
    collect() {
      this.set(pool()?.numPendingAcquires() ?? 0);
    },
  });
}

/** What the api observes of each request when it ends. */
export type HttpObserver = (method: string, route: string, status: string, seconds: number) => void;

/**
 * `ledger_http_request_duration_seconds{method, route, status}`. `route` is the OpenAPI route
 * template the request matched (`/v1/transactions/{txn_id}`), never the path a caller sent.
 */
export function observeHttpRequests(metrics: Metrics): HttpObserver {
  const duration = new Histogram({
    name: 'ledger_http_request_duration_seconds',
    help: 'HTTP requests by method, OpenAPI route template (unmatched: no operation) and status, with their duration.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metrics],
  });
  return (method, route, status, seconds) => duration.observe({ method, route, status }, seconds);
}

/** How an attempt of a job ended: `retried` (a transient failure, BullMQ tries again) or `failed` for good. */
export type JobOutcome = 'done' | 'retried' | 'failed';

export interface JobMetrics {
  attempt(kind: string, outcome: JobOutcome, seconds: number): void;
  /**
   * Customers a sync job failed (`customers_failed`), by their reason's code: an upstream down
   * shows here (`upstream_*`), the job still `done`.
   */
  customersFailed(kind: string, code: string, count: number): void;
}

export function observeJobs(metrics: Metrics): JobMetrics {
  const duration = new Histogram({
    name: 'ledger_job_duration_seconds',
    help: 'Job attempts by kind and outcome (done, retried, failed), with their duration.',
    labelNames: ['kind', 'outcome'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [metrics],
  });
  const failed = new Counter({
    name: 'ledger_job_customers_failed_total',
    help: "Customers a sync job's run failed (its customers_failed), by job kind and the failure's code.",
    labelNames: ['kind', 'code'],
    registers: [metrics],
  });
  return {
    attempt: (kind, outcome, seconds) => duration.observe({ kind, outcome }, seconds),
    customersFailed: (kind, code, count) => failed.inc({ kind, code }, count),
  };
}

/** One queue's state as read from Redis, at scrape time. */
export interface QueueState {
  queue: string;
  /** Jobs by BullMQ state (waiting, delayed, active, prioritized, failed). */
  counts: Record<string, number>;
  /** When the oldest waiting job was added (epoch ms); null when none waits. */
  oldestWaitingAt: number | null;
}

/**
 * Queue depth and the age of the oldest waiting job, read by `read` when scraped. A read that
 * fails (Redis down) sets `ledger_queue_up` to 0 and leaves the others as last read.
 */
export function observeQueues(metrics: Metrics, read: () => Promise<QueueState[]>, now: () => number = Date.now): void {
  const oldest = new Gauge({
    name: 'ledger_queue_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting to start (0: none waits).',
    labelNames: ['queue'],
    registers: [],
  });
  const up = new Gauge({
    name: 'ledger_queue_up',
    help: 'Whether the queues could be read from Redis at the last scrape (1) or not (0).',
    registers: [],
  });
  // One read per scrape, in the collect of the gauge serialised first; the other two are set from it.
  const jobs = new Gauge({
    name: 'ledger_queue_jobs',
    help: 'Jobs in the queue, by state.',
    labelNames: ['queue', 'state'],
    registers: [],
    async collect() {
      try {
        for (const state of await read()) {
          for (const [name, count] of Object.entries(state.counts))
            this.set({ queue: state.queue, state: name }, count);
          oldest.set(
            { queue: state.queue },
            state.oldestWaitingAt === null ? 0 : Math.max(0, (now() - state.oldestWaitingAt) / 1_000),
          );
        }
        up.set(1);
      } catch {
        up.set(0);
      }
    },
  });
  for (const gauge of [jobs, oldest, up]) metrics.registerMetric(gauge);
}

/** A check's status as the gauge gives it: ok 0, warn 1, fail 2. */
const STATUS_LEVEL: Record<string, number> = { ok: 0, warn: 1, fail: 2 };

export type ReconObserver = (results: ReadonlyArray<{ check_name: string; category: string; status: string }>) => void;

/** Results of the checks this process ran: a counter by check and status, and the last status of each. */
export function observeReconciliation(metrics: Metrics): ReconObserver {
  const results = new Counter({
    name: 'ledger_recon_check_results_total',
    help: 'Reconciliation check results by check, category and status (ok, warn, fail).',
    labelNames: ['check', 'category', 'status'],
    registers: [metrics],
  });
  const last = new Gauge({
    name: 'ledger_recon_check_status',
    help: 'The last status of each check this process ran: 0 ok, 1 warn, 2 fail.',
    labelNames: ['check'],
    registers: [metrics],
  });
  return (run) => {
    for (const { check_name: check, category, status } of run) {
      results.inc({ check, category, status });
      last.set({ check }, STATUS_LEVEL[status] ?? STATUS_LEVEL.fail!);
    }
  };
}

/** A scrape-time read: a database that does not answer leaves the gauge as last read, and the rest of the scrape stands. */
async function readQuietly(db: Db, sql: string): Promise<Array<Record<string, string | undefined>>> {
  try {
    return (await db.raw<{ rows: Array<Record<string, string | undefined>> }>(sql)).rows;
  } catch {
    return [];
  }
}

/**
 * What the book holds, read from the totals the posting statement keeps (never the journal
 * itself) when scraped: transactions by type and journal lines; and the reopenings of its books. They only grow, so
 * `increase()` over them is what was posted, whichever process posted it. Recon exports them.
 */
export function observeBookTotals(metrics: Metrics, db: Db): void {
  new Gauge({
    name: 'ledger_book_transactions',
    help: 'Transactions posted in the book, by txn_type (from transaction_daily_totals).',
    labelNames: ['txn_type'],
    registers: [metrics],
    async collect() {
      const rows = await readQuietly(
        db,
        'SELECT txn_type, sum(txn_count) AS n FROM transaction_daily_totals GROUP BY txn_type',
      );
      for (const row of rows) this.set({ txn_type: row.txn_type! }, Number(row.n));
    },
  });
  new Gauge({
    name: 'ledger_book_journal_lines',
    help: 'Journal lines posted in the book (from account_totals).',
    registers: [metrics],
    async collect() {
      const [row] = await readQuietly(db, 'SELECT coalesce(sum(line_count), 0) AS n FROM account_totals');
      if (row) this.set(Number(row.n));
    },
  });
  // Reopenings only accumulate (period_closes is append-only): increase() is every reopening
  // in the window, an alert's figure beside the period_reopens check.
  new Gauge({
    name: 'ledger_book_period_reopens',
    help: 'Reopenings of the books ever made (period_closes rows with action reopen).',
    registers: [metrics],
    async collect() {
      const [row] = await readQuietly(db, "SELECT count(*) AS n FROM period_closes WHERE action = 'reopen'");
      if (row) this.set(Number(row.n));
    },
  });
}
