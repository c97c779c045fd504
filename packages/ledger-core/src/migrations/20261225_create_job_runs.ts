import type { Knex } from 'knex';

/**
 * What each job run did, kept in the book's database beside what it posted (docs/adr/0011).
 * Redis keeps the queue and the status record, and a Redis that restarts without persistence, or
 * stalls past a lock, loses or repeats what it held; this row does not. A worker claims the row
 * for an attempt by a lease it renews, so a job BullMQ hands out twice (after a stall) is run by
 * one holder while the other waits, and a finished job is never run again: a second delivery
 * answers the stored outcome. `input` lets a worker queue again a job Redis lost while running.
 * Once `done` or `error` the row is final (guarded below); no role may delete it: it is the
 * record of which job posted what.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE job_runs (
      job_id text PRIMARY KEY CONSTRAINT job_runs_job_id_length CHECK (length(job_id) BETWEEN 1 AND 200),
      kind text NOT NULL,
      input jsonb NOT NULL,
      status text NOT NULL CONSTRAINT job_runs_status CHECK (status IN ('running', 'done', 'error')),
      attempts integer NOT NULL CONSTRAINT job_runs_attempts_positive CHECK (attempts >= 1),
      first_started_at timestamptz NOT NULL,
      attempt_started_at timestamptz NOT NULL,
      finished_at timestamptz,
      result jsonb,
      error text,
      lease_owner uuid,
      lease_expires_at timestamptz,
      CONSTRAINT job_runs_finished_when_final CHECK ((status = 'running') = (finished_at IS NULL)),
      CONSTRAINT job_runs_result_when_done CHECK ((status = 'done') = (result IS NOT NULL)),
      CONSTRAINT job_runs_lease_while_running CHECK (status = 'running' OR lease_owner IS NULL),
      CONSTRAINT job_runs_lease_has_expiry CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL))
    );
    CREATE INDEX job_runs_running_idx ON job_runs (lease_expires_at) WHERE status = 'running';

    CREATE FUNCTION ledger_guard_job_run_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status <> 'running' THEN
        RAISE EXCEPTION 'job run % is %: a finished run is final', OLD.job_id, OLD.status
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'job_runs_final';
      END IF;
      IF (NEW.job_id, NEW.kind, NEW.input, NEW.first_started_at) IS DISTINCT FROM (OLD.job_id, OLD.kind, OLD.input, OLD.first_started_at)
         OR NEW.attempts < OLD.attempts THEN
        RAISE EXCEPTION 'job run %: its job, input, first start and attempts made are fixed', OLD.job_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'job_runs_final';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER job_runs_guard_update BEFORE UPDATE ON job_runs
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_job_run_update();

    COMMENT ON TABLE job_runs IS 'One row per job that started: its attempts, the lease of the attempt running it, and its outcome (final once done or error).';
    COMMENT ON COLUMN job_runs.job_id IS 'The BullMQ job id, as the job endpoint answered it.';
    COMMENT ON COLUMN job_runs.kind IS 'The job''s name, e.g. sync-usbroker.';
    COMMENT ON COLUMN job_runs.input IS 'The job''s validated payload: a job Redis lost while it ran is queued again with it.';
    COMMENT ON COLUMN job_runs.status IS 'running until done or error (final).';
    COMMENT ON COLUMN job_runs.attempts IS 'Attempts started, whichever worker or delivery started them.';
    COMMENT ON COLUMN job_runs.first_started_at IS 'When the first attempt started.';
    COMMENT ON COLUMN job_runs.attempt_started_at IS 'When the current (or last) attempt started.';
    COMMENT ON COLUMN job_runs.finished_at IS 'When it became done or error.';
    COMMENT ON COLUMN job_runs.result IS 'What the job reported, when done.';
    COMMENT ON COLUMN job_runs.error IS 'Why it failed (error), or why the last attempt failed while it is retried.';
    COMMENT ON COLUMN job_runs.lease_owner IS 'The attempt holding the run; null between attempts and once finished.';
    COMMENT ON COLUMN job_runs.lease_expires_at IS 'Until when the holder''s lease stands; renewed while it runs; past it another attempt may take over.';
    COMMENT ON TRIGGER job_runs_guard_update ON job_runs IS 'A finished run is final; the job, its input, its first start never change and attempts only grow.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE job_runs;
    DROP FUNCTION ledger_guard_job_run_update();
  `);
}
