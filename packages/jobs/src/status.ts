import { assert } from '@ledger/core';
import type { Redis } from 'ioredis';
import { JOB_STATUS_RETENTION_SECONDS } from './queues.js';

/** Where a job is: `running` until it is `done` or failed for good (`error`). */
export type JobState = 'running' | 'done' | 'error';

export interface JobProgress {
  done: number;
  total: number | null;
  unit: string;
}

/**
 * The spec's job status record, plus progress and attempts. A job queued and not yet started is
 * `running` with `started_at` null (`queued_at` says since when); a job between attempts is
 * `running` with `error` holding the last attempt's failure.
 */
export interface JobStatus {
  job_id: string;
  kind: string;
  status: JobState;
  queued_at: string | null;
  started_at: string | null;
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
 * (started, progress, done, error); read by the api. Each write sets only its own fields, so a
 * late `queued` never hides a `started` (HSETNX) and progress never undoes `done`.
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
  queued(jobId: string, kind: string, at: Date): Promise<void> {
    return this.write(jobId, { job_id: jobId, kind, status: 'running', queued_at: at.toISOString(), attempts: 0 }, true);
  }

  /** An attempt starts (the first, a retry, or a stalled job picked up again). */
  started(jobId: string, kind: string, attempt: number, at: Date): Promise<void> {
    return this.write(jobId, { job_id: jobId, kind, status: 'running', started_at: at.toISOString(), attempts: attempt, finished_at: null, duration_ms: null });
  }

  progressed(jobId: string, progress: JobProgress): Promise<void> {
    return this.write(jobId, { progress });
  }

  finished(jobId: string, result: Record<string, unknown>, startedAt: Date, at: Date): Promise<void> {
    return this.write(jobId, {
      status: 'done',
      result,
      error: null,
      finished_at: at.toISOString(),
      duration_ms: at.getTime() - startedAt.getTime(),
    });
  }

  /** An attempt failed: for good (`final`: the job is `error`), or to be retried (still running). */
  failed(jobId: string, message: string, final: boolean, startedAt: Date, at: Date): Promise<void> {
    if (!final) return this.write(jobId, { error: message });
    return this.write(jobId, { status: 'error', error: message, finished_at: at.toISOString(), duration_ms: at.getTime() - startedAt.getTime() });
  }

  async get(jobId: string): Promise<JobStatus | null> {
    const hash = await this.redis.hgetall(this.key(jobId));
    if (hash.kind === undefined) return null;
    const field = (name: Field): unknown => (hash[name] === undefined ? null : JSON.parse(hash[name]));
    return {
      job_id: jobId,
      kind: field('kind') as string,
      status: field('status') as JobState,
      queued_at: field('queued_at') as string | null,
      started_at: field('started_at') as string | null,
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
