import type { Knex } from 'knex';

/**
 * Who started a job (docs/actors.md): `job_runs.started_by`, the actor of the request that queued
 * it, as every other write records its actor. Runs from before this migration read `legacy`
 * (Postgres keeps that as the column's missing value: the table is not rewritten); the worker
 * states it on every new run, and a row written by hand in SQL reads `sql`. It never changes: a
 * later attempt of the run keeps it (the runtime role may not update it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE job_runs ADD COLUMN started_by text NOT NULL DEFAULT 'legacy'
      CONSTRAINT job_runs_started_by_length CHECK (length(started_by) BETWEEN 1 AND 300);
    ALTER TABLE job_runs ALTER COLUMN started_by SET DEFAULT 'sql';
    COMMENT ON COLUMN job_runs.started_by IS 'Who queued the job (as transactions.posted_by): api[:<operator>], system when unknown to the worker; legacy before 20270209; sql when written by hand.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE job_runs DROP COLUMN started_by');
}
