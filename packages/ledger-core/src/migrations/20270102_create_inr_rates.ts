import type { Knex } from 'knex';

const finite = (column: string) =>
  `CONSTRAINT inr_rates_${column}_finite CHECK (${column} > '-Infinity' AND ${column} < 'Infinity')`;

/**
 * `inr_rates`: the USD/INR rate of each day the India reports convert at (SBI's TT buying rate,
 * Rule 115, and a mid rate), loaded by the load-fx-rates job. One row per day: a day SBI revised
 * keeps its latest sheet (`published_at`). Reference data: the loader upserts, nothing deletes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE inr_rates (
      rate_date date PRIMARY KEY,
      tt_buy numeric NOT NULL CHECK (tt_buy > 0) ${finite('tt_buy')},
      mid numeric NOT NULL CHECK (mid > 0) ${finite('mid')},
      source text NOT NULL CHECK (length(source) BETWEEN 1 AND 200),
      published_at timestamp NOT NULL,
      loaded_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE inr_rates IS 'USD/INR per day for the India reports (INR per USD): SBI TT buying rate and a mid rate, loaded by POST /v1/jobs/load-fx-rates.';
    COMMENT ON COLUMN inr_rates.tt_buy IS 'SBI TT buying rate, INR per USD (Rule 115).';
    COMMENT ON COLUMN inr_rates.mid IS 'Mid rate, INR per USD: the mean of TT buying and TT selling.';
    COMMENT ON COLUMN inr_rates.source IS 'Where the row came from (the file loaded).';
    COMMENT ON COLUMN inr_rates.published_at IS 'The sheet''s own time (IST, as published): a later sheet of the same day replaces an earlier one.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE inr_rates');
}
