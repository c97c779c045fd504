import type { Knex } from 'knex';

/**
 * The reconciliation engine's record (@ledger/reconciliation, docs/reconciliation.md):
 *  - `reconciliation_runs`: one row per run, written in one statement when the run ends (a run
 *    stopped part-way leaves nothing): its results (one per check: check_name, category, status,
 *    metrics, ran_at), the worst status, and `metadata.variances`, the rows that broke a check.
 *  - `reconciliation_variances`: the same variances one row each, when `ALERT_PERSIST_ENABLED`,
 *    queryable by check, run, customer and date.
 *  - `reconciliation_check_cycles`: the last scheduled cycle each check was claimed for, so that
 *    several recon processes run each check once per cycle (the check's advisory lock alone only
 *    keeps two from running it at the same moment).
 * Runs and variances are records: the runtime role may insert, never change or delete.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE reconciliation_runs (
      run_id uuid PRIMARY KEY,
      started_at timestamptz NOT NULL,
      finished_at timestamptz NOT NULL,
      category text CONSTRAINT reconciliation_runs_category CHECK (category IN ('A', 'B', 'C', 'D')),
      status text NOT NULL CONSTRAINT reconciliation_runs_status CHECK (status IN ('ok', 'warn', 'fail')),
      results jsonb NOT NULL CONSTRAINT reconciliation_runs_results_array CHECK (jsonb_typeof(results) = 'array'),
      metadata jsonb NOT NULL CONSTRAINT reconciliation_runs_metadata_object CHECK (jsonb_typeof(metadata) = 'object'),
      CONSTRAINT reconciliation_runs_finished_after_started CHECK (finished_at >= started_at)
    );
    CREATE INDEX reconciliation_runs_started_at_idx ON reconciliation_runs (started_at DESC, run_id);
    CREATE INDEX reconciliation_runs_results_idx ON reconciliation_runs USING gin (results jsonb_path_ops);

    CREATE TABLE reconciliation_variances (
      run_id uuid NOT NULL REFERENCES reconciliation_runs (run_id),
      ordinal integer NOT NULL CHECK (ordinal >= 0),
      check_name text NOT NULL,
      txn_id uuid,
      source_txn_id text,
      customer_id text,
      account_code text,
      symbol text,
      expected numeric CONSTRAINT reconciliation_variances_expected_finite CHECK (expected > '-Infinity' AND expected < 'Infinity'),
      actual numeric CONSTRAINT reconciliation_variances_actual_finite CHECK (actual > '-Infinity' AND actual < 'Infinity'),
      difference numeric CONSTRAINT reconciliation_variances_difference_finite CHECK (difference > '-Infinity' AND difference < 'Infinity'),
      detail jsonb NOT NULL DEFAULT '{}' CONSTRAINT reconciliation_variances_detail_object CHECK (jsonb_typeof(detail) = 'object'),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (run_id, ordinal)
    );
    CREATE INDEX reconciliation_variances_check_idx ON reconciliation_variances (check_name, created_at);
    CREATE INDEX reconciliation_variances_customer_idx ON reconciliation_variances (customer_id, created_at) WHERE customer_id IS NOT NULL;
    CREATE INDEX reconciliation_variances_created_at_idx ON reconciliation_variances (created_at);

    CREATE TABLE reconciliation_check_cycles (
      check_name text PRIMARY KEY,
      cycle bigint NOT NULL,
      claimed_at timestamptz NOT NULL DEFAULT now()
    );

    COMMENT ON TABLE reconciliation_check_cycles IS ${literal(
      "The last scheduled cycle each check was claimed for (cycle = floor(epoch seconds / its category's interval)): a recon process runs " +
        'a scheduled check only if it moves the cycle forward, so several processes of a book run each check once per cycle.',
    )};
    COMMENT ON TABLE reconciliation_runs IS ${literal(
      'One reconciliation run (docs/reconciliation.md): results holds one {check_name, category, status, metrics, ran_at} per check run, ' +
        'status the worst of them, metadata.variances the rows that broke a check (metadata.skipped: checks another instance held). ' +
        'category null: every category. Written whole when the run ends; never changed.',
    )};
    COMMENT ON TABLE reconciliation_variances IS ${literal(
      "Each variance of a run, one row each (written with the run when ALERT_PERSIST_ENABLED): what broke which check, with the ledger's " +
        "expected figure, the actual one and their difference. ordinal is its place in the run's metadata.variances. Never changed.",
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'DROP TABLE IF EXISTS reconciliation_check_cycles; DROP TABLE IF EXISTS reconciliation_variances; DROP TABLE IF EXISTS reconciliation_runs',
  );
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
