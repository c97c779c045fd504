import {
  CUSTOMER_FEE_BPS_DEFAULT,
  FeeSchedule,
  type Book,
  type Db,
  type Logger,
  type RecostPolicy,
} from '@ledger/core';
import type { UpstreamClients } from '@ledger/upstream-clients';
import type { z } from 'zod';
import type { JobFamily } from './queues.js';
import type { JobProgress } from './status.js';

/** How a job reports how far it is; cheap to call often (writes are coalesced). */
export type ProgressReporter = (progress: JobProgress) => void;

/**
 * The worker's settings jobs read (from its config module, never from process.env): the fee
 * schedule, and decimal strings (basis points of notional; the AED peg).
 */
export interface JobSettings {
  /**
   * The customer's fee, per source, on a trade that states none (`CUSTOMER_FEE_BPS`,
   * `CUSTOMER_FEE_BPS_<SOURCE>`), and the broker's cost of a trade without an itemised fee
   * (`BROKER_COST_BPS`): each trade a job posts is pinned to them.
   */
  feeSchedule: FeeSchedule;
  /** sync-remit's `fx_spread_bps` when its body gives none (`FX_SPREAD_BPS`; unset: 0, nothing accrues). */
  fxSpreadBps?: string;
  /** The customer registry provision-india reads when its body gives no `api_global_base_url` (`API_GLOBAL_BASE_URL`). */
  apiGlobalBaseUrl?: string;
  /** The AED peg, AED per USD, UAE syncs convert AED records at (`AED_PER_USD`, as the api's). */
  aedPerUsd: string;
}

/** The documented defaults (README): 22 bps customer fee from every source, 4 bps broker cost, 3.6725 AED per USD. */
export const DEFAULT_JOB_SETTINGS: JobSettings = {
  feeSchedule: new FeeSchedule(CUSTOMER_FEE_BPS_DEFAULT),
  aedPerUsd: '3.6725',
};

/** What recost runs with, whichever job runs it (for trades posted before pins). */
export const recostPolicyOf = (settings: JobSettings): RecostPolicy => ({ feeSchedule: settings.feeSchedule });

/** What a job's logic runs with: no BullMQ, no HTTP; testable by calling `run` directly. */
export interface JobDeps {
  book: Book;
  db: Db;
  logger: Logger;
  progress: ProgressReporter;
  settings: JobSettings;
  /** The book's upstream clients; null where an upstream is not configured. */
  upstreams: UpstreamClients;
}

/**
 * One kind of job, all of it in its own module: `mode` is how the api answers its endpoint
 * (`sync` waits for the result, up to a bound, then answers like a background job; `background`
 * answers at once with the job id), `family` its queue, `books` where it runs, `why` the reason
 * for its mode where the spec leaves it unmarked (docs/jobs.md's table is tested against them).
 */
export interface JobDefinition<Input = unknown, Result extends Record<string, unknown> = Record<string, unknown>> {
  kind: string;
  mode: 'sync' | 'background';
  family: JobFamily;
  books: readonly Book[];
  why: string;
  /** The payload's schema: the worker validates what Redis hands back (the api has validated the body). */
  input: z.ZodType<Input>;
  /** A business key makes enqueue idempotent while BullMQ keeps the job; null: every call is a new job. */
  businessKey(input: Input): string | null;
  run(input: Input, deps: JobDeps): Promise<Result>;
  /** Who its writes record (domain/actors.ts); absent: `job:<kind>:<job_id>`. */
  actor?(input: Input, jobId: string): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a catalog holds jobs of every input type
export type AnyJob = JobDefinition<any, Record<string, unknown>>;

/** The jobs a worker runs and an api enqueues, by kind. */
export type JobCatalog = Readonly<Record<string, AnyJob>>;

export function defineJob<Input, Result extends Record<string, unknown>>(
  kind: string,
  job: Omit<JobDefinition<Input, Result>, 'kind'>,
): JobDefinition<Input, Result> {
  return { kind, ...job };
}

/** A catalog of jobs, one line each; a kind named twice is a programming error, found at start. */
export function jobCatalog(jobs: readonly AnyJob[]): JobCatalog {
  const catalog: Record<string, AnyJob> = {};
  for (const job of jobs) {
    if (catalog[job.kind]) throw new Error(`job kind ${job.kind} is in the catalog twice`);
    catalog[job.kind] = job;
  }
  return Object.freeze(catalog);
}
