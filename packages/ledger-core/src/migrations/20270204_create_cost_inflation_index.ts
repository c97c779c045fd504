import type { Knex } from 'knex';

/**
 * `cost_inflation_index`: the Cost Inflation Index of each financial year (section 48, notified
 * by CBDT), by which the capital-gains report indexes the cost of a long-term transfer made
 * before 2024-07-23. Reference data loaded from CSV by the load-cost-inflation-index job (the
 * file shipped with the service, or the operator's): a later load replaces a year's row; nothing
 * deletes. A year missing here is a warning in the report, never a guess.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE cost_inflation_index (
      fy text PRIMARY KEY CHECK (fy ~ '^[0-9]{4}-[0-9]{2}$'),
      cii integer NOT NULL CHECK (cii > 0),
      source text NOT NULL CHECK (length(source) BETWEEN 1 AND 200),
      recorded_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE cost_inflation_index IS 'Cost Inflation Index per financial year (s. 48; 2001-02 = 100), loaded by POST /v1/jobs/load-cost-inflation-index.';
    COMMENT ON COLUMN cost_inflation_index.fy IS 'The financial year, YYYY-YY.';
    COMMENT ON COLUMN cost_inflation_index.cii IS 'The index notified for the year.';
    COMMENT ON COLUMN cost_inflation_index.source IS 'The file loaded.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE cost_inflation_index');
}
