import type { Knex } from 'knex';

/**
 * Statements the UAE upstreams sent, kept as received. One change: two tables, their checks,
 * their comments. Both are insert-only per content: the same statement fetched again stores
 * nothing new; a statement that changed (a month still open) is a new row beside the old one.
 *  - `cash_statements`: the custodian's monthly cash statement of a customer's account, as
 *    validated (decimals as strings inside the JSON), which sync-cash-statements compares with
 *    the ledger's own cash movements of that customer and month.
 *  - `uaefeed_statements`: uaefeed's monthly cash and holdings statements, the body exactly as
 *    received (sync-uaefeed-statements); nothing is posted from them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE cash_statements (
      customer_id text NOT NULL CHECK (length(customer_id) BETWEEN 1 AND 128),
      upstream text NOT NULL CONSTRAINT cash_statements_upstream CHECK (upstream = 'custodian'),
      account text NOT NULL CHECK (length(account) BETWEEN 1 AND 128),
      month text NOT NULL CONSTRAINT cash_statements_month CHECK (month ~ '^\\d{4}-(0[1-9]|1[0-2])$'),
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      statement jsonb NOT NULL CONSTRAINT cash_statements_statement_object CHECK (jsonb_typeof(statement) = 'object'),
      statement_sha256 text NOT NULL CHECK (statement_sha256 ~ '^[0-9a-f]{64}$'),
      fetched_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (customer_id, upstream, account, month, statement_sha256)
    );
    CREATE TABLE uaefeed_statements (
      customer_id text NOT NULL CHECK (length(customer_id) BETWEEN 1 AND 128),
      kind text NOT NULL CONSTRAINT uaefeed_statements_kind CHECK (kind IN ('cash', 'holdings')),
      month text NOT NULL CONSTRAINT uaefeed_statements_month CHECK (month ~ '^\\d{4}-(0[1-9]|1[0-2])$'),
      body text NOT NULL,
      body_sha256 text NOT NULL CHECK (body_sha256 ~ '^[0-9a-f]{64}$'),
      fetched_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (customer_id, kind, month, body_sha256)
    );
    COMMENT ON TABLE cash_statements IS ${literal(
      "The custodian's monthly cash statement of a customer's account (sync-cash-statements), as validated: decimals as strings. " +
        'Insert-only per content (statement_sha256): the same statement again stores nothing.',
    )};
    COMMENT ON TABLE uaefeed_statements IS ${literal(
      "uaefeed's monthly cash or holdings statement of a customer (sync-uaefeed-statements), the body exactly as received; " +
        'never posted. Insert-only per content (body_sha256).',
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS uaefeed_statements; DROP TABLE IF EXISTS cash_statements');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
