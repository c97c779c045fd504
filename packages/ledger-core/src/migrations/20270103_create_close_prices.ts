import type { Knex } from 'knex';

/**
 * `close_prices`: a symbol's closing price per day (USD), recorded by the usbroker sync from the
 * quotes it reads and loadable from CSV: the Schedule FA peak and closing values read these. A
 * later reading of the same day replaces the earlier one. Reference data: nothing deletes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE close_prices (
      symbol text NOT NULL CHECK (length(symbol) BETWEEN 1 AND 32),
      price_date date NOT NULL,
      close_usd numeric NOT NULL CHECK (close_usd > 0)
        CONSTRAINT close_prices_close_usd_finite CHECK (close_usd > '-Infinity' AND close_usd < 'Infinity'),
      source text NOT NULL CHECK (length(source) BETWEEN 1 AND 200),
      recorded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (symbol, price_date)
    );
    COMMENT ON TABLE close_prices IS 'Closing price per symbol and day (USD), from the usbroker sync''s quotes or a CSV load.';
    COMMENT ON COLUMN close_prices.source IS 'usbroker (the sync''s quote) or the file loaded.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE close_prices');
}
