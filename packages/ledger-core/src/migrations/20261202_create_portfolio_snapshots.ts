import type { Knex } from 'knex';

/**
 * What the upstreams said a customer holds, kept so the customer views can answer when an
 * upstream is down (and say so). One change: two tables, their checks, their comments.
 *  - `holdings_snapshots`: the custodian's (or broker's) holdings of a customer at the end of a
 *    day, as received (decimal strings kept as text inside the JSON, never floats). Insert-only
 *    per (customer, upstream, day): a re-run of the same day stores nothing new.
 *  - `portfolio_snapshots`: the cache the customer views fall back to: the latest portfolio
 *    read of each customer per upstream, replaced by every refresh.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE holdings_snapshots (
      customer_id text NOT NULL CHECK (length(customer_id) BETWEEN 1 AND 128),
      upstream text NOT NULL CONSTRAINT holdings_snapshots_upstream CHECK (upstream IN ('custodian', 'usbroker')),
      as_of date NOT NULL,
      account text NOT NULL CHECK (length(account) BETWEEN 1 AND 128),
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      positions jsonb NOT NULL CONSTRAINT holdings_snapshots_positions_array CHECK (jsonb_typeof(positions) = 'array'),
      cash jsonb CONSTRAINT holdings_snapshots_cash_object CHECK (jsonb_typeof(cash) = 'object'),
      fetched_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (customer_id, upstream, as_of)
    );
    CREATE TABLE portfolio_snapshots (
      customer_id text NOT NULL CHECK (length(customer_id) BETWEEN 1 AND 128),
      upstream text NOT NULL CONSTRAINT portfolio_snapshots_upstream CHECK (upstream IN ('custodian', 'usbroker')),
      as_of date NOT NULL,
      positions jsonb NOT NULL CONSTRAINT portfolio_snapshots_positions_array CHECK (jsonb_typeof(positions) = 'array'),
      cash jsonb CONSTRAINT portfolio_snapshots_cash_object CHECK (jsonb_typeof(cash) = 'object'),
      taken_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (customer_id, upstream)
    );
    COMMENT ON TABLE holdings_snapshots IS ${literal(
      "An upstream's holdings of a customer at the end of as_of, as received (sync-holdings): positions an array of " +
        '{symbol, quantity, cost, market_value, ...} with decimals as strings. Insert-only per (customer, upstream, day).',
    )};
    COMMENT ON TABLE portfolio_snapshots IS ${literal(
      "The customer views' fallback when an upstream is down: the latest portfolio read per customer and upstream " +
        '(refresh-snapshots, and every successful live read), replaced each time; taken_at says how old it is.',
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS portfolio_snapshots; DROP TABLE IF EXISTS holdings_snapshots');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
