import type { Knex } from 'knex';

/**
 * Variance triage (docs/reconciliation.md#variance-triage): a variance keeps one identity across
 * runs, and operators work it to resolved.
 *  - `variance_triage`: one row per identity (`identity_key`: the check and what the variance
 *    names: transaction, source record, customer, account, symbol, and its kind), with its state
 *    (`open`, `acknowledged`, `assigned` to someone, `resolved`), its first and last sighting and
 *    the figures last seen. Runs and operators update it; its identity and first sighting never
 *    change, and no row is deleted.
 *  - `variance_triage_events`: every change of it, who made it (the actor) and when, the run that
 *    opened, reopened or resolved it, the operator's note: history, insert-only.
 *  - `variance_sightings`: each run that saw it (the run and the variance's place in the run's
 *    `metadata.variances`): history, insert-only.
 */
export async function up(knex: Knex): Promise<void> {
  await createVarianceTriage(knex);
  await createTriageEvents(knex);
  await createSightings(knex);
  await guardHistory(knex);
  await commentTables(knex);
}

/** The variances, one row per identity, and the indexes the triage lists and runs read by. */
async function createVarianceTriage(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE variance_triage (
      variance_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      identity_key text NOT NULL CONSTRAINT variance_triage_identity UNIQUE,
      check_name text NOT NULL,
      txn_id uuid,
      source_txn_id text,
      customer_id text,
      account_code text,
      symbol text,
      kind text,
      state text NOT NULL CONSTRAINT variance_triage_state CHECK (state IN ('open', 'acknowledged', 'assigned', 'resolved')),
      assignee text,
      present boolean NOT NULL,
      judged_at timestamptz NOT NULL,
      first_seen_run_id uuid NOT NULL REFERENCES reconciliation_runs (run_id),
      first_seen_at timestamptz NOT NULL,
      last_seen_run_id uuid NOT NULL REFERENCES reconciliation_runs (run_id),
      last_seen_at timestamptz NOT NULL,
      times_seen integer NOT NULL CONSTRAINT variance_triage_times_seen CHECK (times_seen >= 1),
      expected numeric CONSTRAINT variance_triage_expected_finite CHECK (expected > '-Infinity' AND expected < 'Infinity'),
      actual numeric CONSTRAINT variance_triage_actual_finite CHECK (actual > '-Infinity' AND actual < 'Infinity'),
      difference numeric CONSTRAINT variance_triage_difference_finite CHECK (difference > '-Infinity' AND difference < 'Infinity'),
      detail jsonb NOT NULL CONSTRAINT variance_triage_detail_object CHECK (jsonb_typeof(detail) = 'object'),
      state_changed_at timestamptz NOT NULL,
      state_changed_by text NOT NULL,
      CONSTRAINT variance_triage_assigned_to_someone CHECK (state <> 'assigned' OR assignee IS NOT NULL)
    );
    CREATE INDEX variance_triage_last_seen_idx ON variance_triage (last_seen_at DESC, variance_id DESC);
    CREATE INDEX variance_triage_unresolved_idx ON variance_triage (check_name, customer_id) WHERE state <> 'resolved';
    CREATE INDEX variance_triage_present_idx ON variance_triage (check_name) WHERE present;
    CREATE INDEX variance_triage_customer_idx ON variance_triage (customer_id, last_seen_at DESC) WHERE customer_id IS NOT NULL;
  `);
}

/** Every change of a variance's triage: history, insert-only. */
async function createTriageEvents(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE variance_triage_events (
      event_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      variance_id bigint NOT NULL REFERENCES variance_triage (variance_id),
      action text NOT NULL CONSTRAINT variance_triage_events_action CHECK (action IN ('opened', 'acknowledged', 'assigned', 'noted', 'resolved', 'reopened')),
      state text NOT NULL CONSTRAINT variance_triage_events_state CHECK (state IN ('open', 'acknowledged', 'assigned', 'resolved')),
      assignee text,
      note text,
      run_id uuid REFERENCES reconciliation_runs (run_id),
      actor text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX variance_triage_events_variance_idx ON variance_triage_events (variance_id, event_id);
  `);
}

/** Each run that saw a variance: history, insert-only. */
async function createSightings(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE variance_sightings (
      run_id uuid NOT NULL REFERENCES reconciliation_runs (run_id),
      ordinal integer NOT NULL CONSTRAINT variance_sightings_ordinal CHECK (ordinal >= 0),
      variance_id bigint NOT NULL REFERENCES variance_triage (variance_id),
      seen_at timestamptz NOT NULL,
      PRIMARY KEY (run_id, ordinal)
    );
    CREATE INDEX variance_sightings_variance_idx ON variance_sightings (variance_id, seen_at DESC);
  `);
}

/** Identity and first sighting never change, no variance is deleted, events and sightings are insert-only. */
async function guardHistory(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION ledger_guard_variance_identity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.variance_id, NEW.identity_key, NEW.check_name, NEW.txn_id, NEW.source_txn_id, NEW.customer_id, NEW.account_code,
          NEW.symbol, NEW.kind, NEW.first_seen_run_id, NEW.first_seen_at)
           IS DISTINCT FROM (OLD.variance_id, OLD.identity_key, OLD.check_name, OLD.txn_id, OLD.source_txn_id, OLD.customer_id,
          OLD.account_code, OLD.symbol, OLD.kind, OLD.first_seen_run_id, OLD.first_seen_at) THEN
        RAISE EXCEPTION 'UPDATE on variance_triage is refused for %: its identity and first sighting are history', OLD.variance_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_history';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER variance_triage_guard_history BEFORE UPDATE ON variance_triage
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_variance_identity();
    CREATE TRIGGER variance_triage_no_delete BEFORE DELETE ON variance_triage
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER variance_triage_no_truncate BEFORE TRUNCATE ON variance_triage
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER variance_triage_events_append_only BEFORE UPDATE OR DELETE ON variance_triage_events
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER variance_triage_events_no_truncate BEFORE TRUNCATE ON variance_triage_events
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER variance_sightings_append_only BEFORE UPDATE OR DELETE ON variance_sightings
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER variance_sightings_no_truncate BEFORE TRUNCATE ON variance_sightings
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
  `);
}

/** What each table holds, for whoever reads the database without the docs. */
async function commentTables(knex: Knex): Promise<void> {
  await knex.raw(`
    COMMENT ON TABLE variance_triage IS ${literal(
      'One reconciliation variance across runs (docs/reconciliation.md#variance-triage): identity_key is the check and what the variance names ' +
        '(txn_id, source_txn_id, customer_id, account_code, symbol) with its kind (detail.problem). state: open, acknowledged, assigned (assignee), ' +
        "resolved. present: the latest run of its check that could judge it saw it (judged_at: that check result's ran_at). The figures and detail " +
        'are the last seen. Identity and first sighting never change; never deleted.',
    )};
    COMMENT ON TABLE variance_triage_events IS ${literal(
      "Every change of a variance's triage: opened, reopened or resolved by a run (run_id), or acknowledged, assigned, noted or resolved by an operator, " +
        'with the actor (docs/actors.md), the state after, the assignee and the note. Insert-only.',
    )};
    COMMENT ON TABLE variance_sightings IS ${literal(
      "Each run that saw a variance: ordinal is its place in the run's metadata.variances. Insert-only.",
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE variance_sightings;
    DROP TABLE variance_triage_events;
    DROP TABLE variance_triage;
    DROP FUNCTION ledger_guard_variance_identity();
  `);
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
