import { assert, type Page } from '@ledger/core/posting';
import { pagedQuery, type Db, type Paged } from '@ledger/core/store';

/** A job run as the book's database keeps it (table job_runs, docs/adr/0011-job-runs-in-the-book.md). */
export interface JobRun {
  job_id: string;
  kind: string;
  input: unknown;
  /** Who queued the job (docs/actors.md); `legacy` for runs from before it was recorded. */
  started_by: string;
  status: 'running' | 'done' | 'error';
  attempts: number;
  first_started_at: Date;
  attempt_started_at: Date;
  finished_at: Date | null;
  result: Record<string, unknown> | null;
  error: string | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
}

/**
 * What claiming a run for an attempt found: `claimed`, the attempt holds the lease and runs the
 * job; `finished`, an earlier attempt finished it (a repeated delivery: nothing to run); `held`,
 * another attempt holds a live lease (a delivery after a stall while the first still runs).
 */
export type Claim =
  { state: 'claimed'; run: JobRun } | { state: 'finished'; run: JobRun } | { state: 'held'; run: JobRun };

/** Which runs a list shows: one kind, one status, a first start within `from`..`to` (UTC days, inclusive). */
export interface JobRunFilter {
  kind?: string;
  status?: JobRun['status'];
  from?: string;
  to?: string;
}

/** What an attempt knows of its run before claiming it: the job, its input and who queued it. */
export interface NewRun {
  jobId: string;
  kind: string;
  input: unknown;
  startedBy: string;
}

const COLUMNS =
  'job_id, kind, input, started_by, status, attempts, first_started_at, attempt_started_at, finished_at, result, error, lease_owner, lease_expires_at';

/** The job_runs table: claims, lease renewals and outcomes, each one statement, fenced by the lease owner. */
export class JobRunStore {
  constructor(private readonly db: Db) {}

  /**
   * Starts an attempt: creates the run, or takes it over when it is still running and nobody
   * holds a live lease (between retries, or its holder died). The database's clock decides. A
   * run taken over keeps its `started_by` (a job queued again from its stored input has none).
   */
  async claim({ jobId, kind, input, startedBy }: NewRun, owner: string, leaseMs: number): Promise<Claim> {
    const { rows } = await this.db.raw<{ rows: JobRun[] }>(
      `INSERT INTO job_runs AS r (job_id, kind, input, started_by, status, attempts, first_started_at, attempt_started_at, lease_owner, lease_expires_at)
       VALUES (:jobId, :kind, :input::jsonb, :startedBy, 'running', 1, now(), now(), :owner, now() + :leaseMs * interval '1 millisecond')
       ON CONFLICT (job_id) DO UPDATE
          SET attempts = r.attempts + 1, attempt_started_at = now(), lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at
        WHERE r.status = 'running' AND (r.lease_owner IS NULL OR r.lease_expires_at < now())
       RETURNING ${COLUMNS}`,
      { jobId, kind, input: JSON.stringify(input ?? null), startedBy, owner, leaseMs },
    );
    if (rows[0]) return { state: 'claimed', run: rows[0] };
    const run = await this.get(jobId);
    assert(run, `job run ${jobId} exists when its claim was refused`);
    return { state: run.status === 'running' ? 'held' : 'finished', run };
  }

  /** Extends the lease of a run this attempt holds; false when it no longer holds it. */
  async renew(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const count = await this.db('job_runs')
      .where({ job_id: jobId, lease_owner: owner, status: 'running' })
      .update({ lease_expires_at: this.db.raw(`now() + ? * interval '1 millisecond'`, [leaseMs]) });
    return count === 1;
  }

  /** Ends the attempt as the job's outcome (`done`, `error`) or as a failure to retry (`running`, lease released). */
  async end(
    jobId: string,
    owner: string,
    outcome: { status: 'done'; result: Record<string, unknown> } | { status: 'error' | 'running'; error: string },
  ): Promise<JobRun | null> {
    const finished = outcome.status !== 'running';
    const { rows } = await this.db.raw<{ rows: JobRun[] }>(
      `UPDATE job_runs SET status = :status, result = :result::jsonb, error = :error, lease_owner = NULL, lease_expires_at = NULL,
              finished_at = CASE WHEN :finished THEN now() END
        WHERE job_id = :jobId AND lease_owner = :owner AND status = 'running'
       RETURNING ${COLUMNS}`,
      {
        jobId,
        owner,
        finished,
        status: outcome.status,
        result: outcome.status === 'done' ? JSON.stringify(outcome.result) : null,
        error: outcome.status === 'done' ? null : outcome.error,
      },
    );
    return rows[0] ?? null;
  }

  /** Ends a run no attempt holds as `error`: BullMQ failed the job without running it (it stalled more often than allowed). */
  async abandon(jobId: string, error: string): Promise<JobRun | null> {
    const { rows } = await this.db.raw<{ rows: JobRun[] }>(
      `UPDATE job_runs SET status = 'error', error = :error, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = :jobId AND status = 'running' AND (lease_owner IS NULL OR lease_expires_at < now())
       RETURNING ${COLUMNS}`,
      { jobId, error },
    );
    return rows[0] ?? null;
  }

  /**
   * The database's clock: the one every time of a job's record is read from (its queueing here,
   * its start and end in the statements above), so a start is never before its queueing, whatever
   * the clocks of the api's and worker's hosts say.
   */
  async clock(): Promise<Date> {
    const { rows } = await this.db.raw<{ rows: Array<{ now: Date }> }>('SELECT clock_timestamp() AS now');
    return rows[0]!.now;
  }

  async get(jobId: string): Promise<JobRun | null> {
    const { rows } = await this.db.raw<{ rows: JobRun[] }>(`SELECT ${COLUMNS} FROM job_runs WHERE job_id = ?`, [jobId]);
    return rows[0] ?? null;
  }

  /** Runs under the filters, newest first start first: every job that started, finished or not. */
  list(filter: JobRunFilter, page: Page): Promise<Paged<JobRun>> {
    const filtered = () => {
      const query = this.db('job_runs');
      if (filter.kind !== undefined) query.where('kind', filter.kind);
      if (filter.status !== undefined) query.where('status', filter.status);
      if (filter.from !== undefined)
        query.where('first_started_at', '>=', this.db.raw("(?::date)::timestamp AT TIME ZONE 'UTC'", [filter.from]));
      if (filter.to !== undefined)
        query.where('first_started_at', '<', this.db.raw("((?::date) + 1)::timestamp AT TIME ZONE 'UTC'", [filter.to]));
      return query;
    };
    return pagedQuery<JobRun>(
      filtered,
      (query) =>
        query.select(this.db.raw(COLUMNS)).orderBy([
          { column: 'first_started_at', order: 'desc' },
          { column: 'job_id', order: 'desc' },
        ]),
      page,
    );
  }

  /** Runs still running whose holder's lease ran out `graceMs` ago or more, or that no attempt holds: each should be in the queue. */
  async unheld(
    graceMs: number,
    limit: number,
  ): Promise<Array<Pick<JobRun, 'job_id' | 'kind' | 'input' | 'first_started_at'>>> {
    const { rows } = await this.db.raw<{ rows: Array<Pick<JobRun, 'job_id' | 'kind' | 'input' | 'first_started_at'>> }>(
      `SELECT job_id, kind, input, first_started_at FROM job_runs
        WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < now() - :graceMs * interval '1 millisecond')
        ORDER BY attempt_started_at LIMIT :limit`,
      { graceMs, limit },
    );
    return rows;
  }
}
