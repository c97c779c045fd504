import type { Knex } from 'knex';

const amount = (column: string) =>
  `${column} numeric NOT NULL CHECK (${column} >= 0 AND ${column} = round(${column}, 2))
     CONSTRAINT lrs_prior_usage_${column}_finite CHECK (${column} > '-Infinity' AND ${column} < 'Infinity')`;

/**
 * `lrs_prior_usage`: what a PAN declares it remitted under LRS in a financial year through other
 * banks. The USD 250,000 limit and the TCS threshold are per PAN per FY across every remitter,
 * and the book sees only its own remittances: the LRS and compliance reports add the
 * declaration. One row per PAN and FY; a new declaration replaces the last (an operator's
 * write, recorded with its actor).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE lrs_prior_usage (
      pan text NOT NULL CONSTRAINT lrs_prior_usage_pan_format CHECK (pan ~ '^[A-Z]{5}[0-9]{4}[A-Z]$'),
      fy text NOT NULL CONSTRAINT lrs_prior_usage_fy_format CHECK (fy ~ '^[0-9]{4}-[0-9]{2}$'),
      ${amount('amount_usd')},
      ${amount('amount_inr')},
      note text CHECK (length(note) <= 1000),
      declared_at timestamptz NOT NULL DEFAULT now(),
      declared_by text NOT NULL CHECK (length(declared_by) BETWEEN 1 AND 200),
      PRIMARY KEY (pan, fy)
    );
    COMMENT ON TABLE lrs_prior_usage IS 'LRS remitted by a PAN in a FY through other banks, as declared: counted by the LRS limit and the TCS threshold before the book''s own remittances.';
    COMMENT ON COLUMN lrs_prior_usage.fy IS 'The financial year, YYYY-YY.';
    COMMENT ON COLUMN lrs_prior_usage.amount_usd IS 'USD counted against the LRS limit.';
    COMMENT ON COLUMN lrs_prior_usage.amount_inr IS 'INR counted against the TCS threshold.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE lrs_prior_usage');
}
