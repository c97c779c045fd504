import type { Knex } from 'knex';

/**
 * A home for every record a sync could not post (docs/exceptions.md): one row per upstream
 * record (upstream, record_key), kept until an operator dismisses it or a later run posts it. A
 * re-run that fails the record again updates the row (last seen, the job, the reason), never adds
 * one. No role deletes a row: it is the record of what the books were missing, and since when.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE exceptions (
      exception_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      upstream text NOT NULL CONSTRAINT exceptions_upstream_length CHECK (length(upstream) BETWEEN 1 AND 64),
      record_key text NOT NULL CONSTRAINT exceptions_record_key_length CHECK (length(record_key) BETWEEN 1 AND 300),
      customer_id text,
      reason_code text NOT NULL CONSTRAINT exceptions_reason_code_form CHECK (reason_code ~ '^[a-z][a-z0-9_]{0,63}$'),
      reason text NOT NULL,
      record jsonb NOT NULL DEFAULT '{}',
      job text NOT NULL,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      times_seen integer NOT NULL DEFAULT 1 CONSTRAINT exceptions_times_seen_positive CHECK (times_seen >= 1),
      state text NOT NULL DEFAULT 'open' CONSTRAINT exceptions_state CHECK (state IN ('open', 'resolved', 'dismissed')),
      state_reason text,
      state_changed_at timestamptz,
      state_changed_by text,
      CONSTRAINT exceptions_one_per_record UNIQUE (upstream, record_key),
      CONSTRAINT exceptions_dismissed_with_reason CHECK (state <> 'dismissed' OR state_reason IS NOT NULL),
      CONSTRAINT exceptions_state_changed_when_closed CHECK (state = 'open' OR state_changed_at IS NOT NULL)
    );
    CREATE INDEX exceptions_open_idx ON exceptions (first_seen_at) WHERE state = 'open';

    COMMENT ON TABLE exceptions IS 'Upstream records a sync could not post (refused, conflicting), one row per record, until posted (resolved) or dismissed.';
    COMMENT ON COLUMN exceptions.upstream IS 'usbroker, remit, uaefeed, ...';
    COMMENT ON COLUMN exceptions.record_key IS 'The record''s key upstream: the source_txn_id it posts under.';
    COMMENT ON COLUMN exceptions.customer_id IS 'The ledger customer the record belongs to, when known.';
    COMMENT ON COLUMN exceptions.reason_code IS 'Why, as a code: refused, conflict, unknown_customer, ...';
    COMMENT ON COLUMN exceptions.reason IS 'Why, in words, as the last run saw it.';
    COMMENT ON COLUMN exceptions.record IS 'The record''s fields as the run saw them (never a credential).';
    COMMENT ON COLUMN exceptions.job IS 'The run that last saw it (job:<kind>:<job_id>).';
    COMMENT ON COLUMN exceptions.times_seen IS 'How many runs found it.';
    COMMENT ON COLUMN exceptions.state IS 'open; resolved (a later run posted it); dismissed (an operator, with a reason).';
    COMMENT ON COLUMN exceptions.state_reason IS 'Why it was dismissed, or what resolved it.';
    COMMENT ON COLUMN exceptions.state_changed_by IS 'Who resolved or dismissed it (as transactions.posted_by).';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE exceptions');
}
