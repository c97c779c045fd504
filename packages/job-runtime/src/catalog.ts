import type { Book, Logger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import type { UpstreamClients } from '@ledger/upstream-clients';
import type { z } from 'zod';
import type { JobFamily } from './queues.js';
import type { JobProgress } from './status.js';

/** How a job reports how far it is; cheap to call often (writes are coalesced). */
export type ProgressReporter = (progress: JobProgress) => void;

/**
 * What a job's logic runs with: no BullMQ, no HTTP; testable by calling `run` directly.
 * `Settings` is what the catalog's owner configures its jobs with (the worker reads it from its
 * config module, never from process.env); the runtime hands it through and never reads it.
 */
export interface JobDeps<Settings = unknown> {
  book: Book;
  db: Db;
  logger: Logger;
  progress: ProgressReporter;
  settings: Settings;
  /** The book's upstream clients; null where an upstream is not configured. */
  upstreams: UpstreamClients;
}

/**
 * One kind of job, all of it in its own module: `mode` is how the api answers its endpoint
 * (`sync` waits for the result, up to a bound, then answers like a background job; `background`
 * answers at once with the job id), `family` its queue, `books` where it runs, `why` the reason
 * for its mode where the spec leaves it unmarked (docs/jobs.md's table is tested against them).
 */
export interface JobDefinition<
  Input = unknown,
  Result extends Record<string, unknown> = Record<string, unknown>,
  Settings = unknown,
> {
  kind: string;
  mode: 'sync' | 'background';
  family: JobFamily;
  books: readonly Book[];
  why: string;
  /** The payload's schema: the worker validates what Redis hands back (the api has validated the body). */
  input: z.ZodType<Input>;
  /**
   * The result's schema, the one declaration of what the job answers: its type is inferred from
   * it, the runner refuses a result it does not describe, the api documents it.
   */
  result: z.ZodType<Result>;
  /** A business key makes enqueue idempotent while BullMQ keeps the job; null: every call is a new job. */
  businessKey(input: Input): string | null;
  run(input: Input, deps: JobDeps<Settings>): Promise<Result>;
  /** Who its writes record (domain/actors.ts); absent: `job:<kind>:<job_id>`. */
  actor?(input: Input, jobId: string): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a catalog holds jobs of every input type
export type AnyJob<Settings = unknown> = JobDefinition<any, Record<string, unknown>, Settings>;

/** The jobs a worker runs and an api enqueues, by kind. */
export type JobCatalog<Settings = unknown> = Readonly<Record<string, AnyJob<Settings>>>;

/** `defineJob` with the settings fixed: a catalog's owner exports it typed so (`DefineJob<MySettings>`) for its jobs. */
export type DefineJob<Settings> = <Input, Result extends Record<string, unknown>>(
  kind: string,
  job: Omit<JobDefinition<Input, Result, Settings>, 'kind'>,
) => JobDefinition<Input, Result, Settings>;

export function defineJob<Input, Result extends Record<string, unknown>, Settings = unknown>(
  kind: string,
  job: Omit<JobDefinition<Input, Result, Settings>, 'kind'>,
): JobDefinition<Input, Result, Settings> {
  return { kind, ...job };
}

/** A catalog of jobs, one line each; a kind named twice is a programming error, found at start. */
export function jobCatalog<Settings>(jobs: readonly AnyJob<Settings>[]): JobCatalog<Settings> {
  const catalog: Record<string, AnyJob<Settings>> = {};
  for (const job of jobs) {
    if (catalog[job.kind]) throw new Error(`job kind ${job.kind} is in the catalog twice`);
    catalog[job.kind] = job;
  }
  return Object.freeze(catalog);
}
