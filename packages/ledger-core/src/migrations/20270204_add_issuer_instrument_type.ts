import type { Knex } from 'knex';

/**
 * `issuers.instrument_type`: what a symbol is, for the holding period of capital gains: a share
 * (`share`) or units of an ETF or other fund (`fund_unit`), which before 2024-07-23 needed more
 * than 36 months to be long-term and may fall under section 50AA. Rows loaded before this column
 * have none (null) until the issuers file is loaded again: the report says so.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE issuers ADD COLUMN instrument_type text CHECK (instrument_type IN ('share', 'fund_unit'));
    COMMENT ON COLUMN issuers.instrument_type IS 'share, or fund_unit (ETF and other fund units): decides the holding period for capital gains. Null: loaded before the column.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE issuers DROP COLUMN instrument_type');
}
