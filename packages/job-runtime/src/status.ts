import { assert } from '@ledger/core/posting';
import type { Redis } from 'ioredis';
import { JOB_STATUS_RETENTION_SECONDS } from './queues.js';
import type { JobRun } from './runs.js';

/** Where a job is: `running` until it is `done` or failed for good (`error`). */
export type JobState = 'running' | 'done' | 'error';

export interface JobProgress {
  done: number;
  total: number | null;
  unit: string;
}

/**
 * The spec's job status record, plus progress and attempts. `started_at` is never null and never
 * before `queued_at` (both from the book's database clock): a job queued and not yet started is
 * `running` with `attempts` 0 and `started_at` its `queued_at` (the spec's job runs from the moment
 * it is accepted); once an attempt starts, the first attempt's start. A job between attempts is
 * `running` with `error` holding the last attempt's failure.
 */
export interface JobStatus {
  job_id: string;
  kind: string;
  /** Who queued it (docs/actors.md); null in a record Redis kept from before it was recorded. */
  started_by: string | null;
  status: JobState;
  queued_at: string | null;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  attempts: number;
  progress: JobProgress | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

type Field = keyof JobStatus;

/**
 * Job status records in Redis, one hash per job, kept JOB_STATUS_RETENTION_SECONDS after their
 * last change: longer than BullMQ keeps the job. Written by the producer (queued) and the worker
 * (the run as the book's database has it, progress); read by the api beside that row
 * (`statusOf`). Each write sets only its own fields, so a late `queued` never hides a start
 * (HSETNX) and progress never undoes `done`.
 */
export class JobStatusStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    assert(/^[A-Za-z0-9_:-]+$/.test(keyPrefix), 'a job status key prefix is plain');
  }

  private key(jobId: string): string {
    return `${this.keyPrefix}:job-status:${jobId}`;
  }

  private async write(jobId: string, fields: Partial<Record<Field, unknown>>, onlyIfAbsent = false): Promise<void> {
    const key = this.key(jobId);
    const encoded = Object.entries(fields).map(([name, value]) => [name, JSON.stringify(value)] as const);
    const multi = this.redis.multi();
    if (onlyIfAbsent) for (const [name, value] of encoded) multi.hsetnx(key, name, value);
    else multi.hset(key, Object.fromEntries(encoded));
    multi.expire(key, JOB_STATUS_RETENTION_SECONDS);
    const results = await multi.exec();
    for (const [error] of results ?? []) if (error) throw error;
  }

  /** The producer has added the job: running, not started. */
  queued(jobId: string, kind: string, at: Date, startedBy: string): Promise<void> {
    return this.write(
      jobId,
      { job_id: jobId, kind, started_by: startedBy, status: 'running', queued_at: at.toISOString(), attempts: 0 },
      true,
    );
  }

  /**
   * The record as the book's database has the run: every field the run decides, written whole,
   * so a record Redis lost while the job ran is complete again (`queued_at` is written only if
   * absent: the producer's, else BullMQ's timestamp of the job). A new attempt clears the
   * progress of the one before.
   */
  async ofRun(run: JobRun, queuedAt: Date | null): Promise<void> {
    const attemptStarts = run.status === 'running' && run.lease_owner !== null;
    await this.write(run.job_id, { ...fieldsOfRun(run), ...(attemptStarts && { progress: null }) });
    if (queuedAt) await this.write(run.job_id, { queued_at: queuedAt.toISOString() }, true);
  }

  progressed(jobId: string, progress: JobProgress): Promise<void> {
    return this.write(jobId, { progress });
  }

  async get(jobId: string): Promise<JobStatus | null> {
    const hash = await this.redis.hgetall(this.key(jobId));
    if (hash.kind === undefined) return null;
    const field = (name: Field): unknown => (hash[name] === undefined ? null : JSON.parse(hash[name]));
    return {
      job_id: jobId,
      kind: field('kind') as string,
      started_by: field('started_by') as string | null,
      status: field('status') as JobState,
      queued_at: field('queued_at') as string | null,
      // Queued, not started: the record holds queued_at alone (the producer writes it whole).
      started_at: (field('started_at') ?? field('queued_at')) as string,
      finished_at: field('finished_at') as string | null,
      duration_ms: field('duration_ms') as number | null,
      attempts: (field('attempts') as number | null) ?? 0,
      progress: field('progress') as JobProgress | null,
      result: field('result') as Record<string, unknown> | null,
      error: field('error') as string | null,
    };
  }
}

/** The status keys of a book, under the queue prefix: `<prefix>:ledger-<book>`. */
export const statusKeyPrefix = (queuePrefix: string, book: string) => `${queuePrefix}:ledger-${book}`;

/** The fields of the status record the run decides: outcome, attempts, and the whole time from the first attempt's start. */
export function fieldsOfRun(run: JobRun): Omit<JobStatus, 'queued_at' | 'progress'> {
  const startedAt = new Date(run.first_started_at);
  const finishedAt = run.finished_at ? new Date(run.finished_at) : null;
  return {
    job_id: run.job_id,
    kind: run.kind,
    started_by: run.started_by,
    status: run.status,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt?.toISOString() ?? null,
    duration_ms: finishedAt ? finishedAt.getTime() - startedAt.getTime() : null,
    attempts: run.attempts,
    result: run.result,
    error: run.error,
  };
}

/**
 * The status record the api answers: where the book's database has the run, it decides the
 * outcome (Redis may have lost the record, or not yet heard of the end); Redis adds when the
 * job was queued and how far it is, and alone knows a job queued and not yet started.
 */
export function statusOf(record: JobStatus | null, run: JobRun | null): JobStatus | null {
  if (!run) return record;
  return { ...fieldsOfRun(run), queued_at: record?.queued_at ?? null, progress: record?.progress ?? null };
}
