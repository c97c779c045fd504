import type { Knex } from 'knex';

/**
 * Cash requests (docs/cash-requests.md): a customer's deposit or withdrawal, asked for and then
 * confirmed (posted), failed or cancelled. One change: the table, its checks, its comments.
 *
 * Money as in 20261125_refuse_non_finite_amounts: `numeric`, finite, whole cents, checked by
 * value. A request posts at most one transaction (txn_id unique), and it has one exactly when it
 * is completed. The transition table itself lives in code (domain/cash-requests.ts): the store
 * applies it to the row locked FOR UPDATE, in the database transaction that also posts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE cash_requests (
      cash_request_id uuid PRIMARY KEY,
      customer_id text NOT NULL CHECK (length(customer_id) BETWEEN 1 AND 128),
      direction text NOT NULL CONSTRAINT cash_requests_direction CHECK (direction IN ('deposit', 'withdrawal')),
      amount numeric NOT NULL,
      currency text NOT NULL CONSTRAINT cash_requests_currency CHECK (currency IN ('USD', 'AED')),
      amount_usd numeric NOT NULL,
      fx_rate numeric,
      status text NOT NULL DEFAULT 'pending'
        CONSTRAINT cash_requests_status CHECK (status IN ('pending', 'completed', 'failed', 'cancelled')),
      reference text CHECK (length(reference) BETWEEN 1 AND 256),
      memo text CHECK (length(memo) <= 1000),
      failure_reason text CHECK (length(failure_reason) <= 1000),
      txn_id uuid CONSTRAINT cash_requests_txn_unique UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT cash_requests_amount_finite CHECK (amount > '-Infinity' AND amount < 'Infinity'),
      CONSTRAINT cash_requests_amount_cents CHECK (amount = round(amount, 2)),
      CONSTRAINT cash_requests_amount_positive CHECK (amount > 0),
      CONSTRAINT cash_requests_amount_usd_finite CHECK (amount_usd > '-Infinity' AND amount_usd < 'Infinity'),
      CONSTRAINT cash_requests_amount_usd_cents CHECK (amount_usd = round(amount_usd, 2)),
      CONSTRAINT cash_requests_amount_usd_positive CHECK (amount_usd > 0),
      CONSTRAINT cash_requests_fx_rate_finite CHECK (fx_rate > '-Infinity' AND fx_rate < 'Infinity'),
      CONSTRAINT cash_requests_fx_rate_positive CHECK (fx_rate > 0),
      CONSTRAINT cash_requests_fx_rate_with_aed CHECK ((fx_rate IS NOT NULL) = (currency <> 'USD')),
      CONSTRAINT cash_requests_usd_is_usd CHECK (currency <> 'USD' OR amount_usd = amount),
      CONSTRAINT cash_requests_txn_when_completed CHECK ((txn_id IS NOT NULL) = (status = 'completed')),
      CONSTRAINT cash_requests_reason_when_failed CHECK (failure_reason IS NULL OR status = 'failed')
    );
    CREATE INDEX cash_requests_customer_idx ON cash_requests (customer_id, created_at);
    CREATE INDEX cash_requests_created_idx ON cash_requests (created_at, cash_request_id);
    CREATE INDEX cash_requests_pending_withdrawals_idx ON cash_requests (customer_id, currency)
      WHERE status = 'pending' AND direction = 'withdrawal';

    COMMENT ON TABLE cash_requests IS ${literal(
      "A customer's deposit or withdrawal, asked for (pending) and then confirmed (completed: posted, txn_id set), " +
        'failed or cancelled; final states never change (docs/cash-requests.md has the transition table). The ' +
        'runtime role inserts and may update only status, txn_id, failure_reason and updated_at: a request keeps ' +
        'what was asked for. Confirm locks the row (FOR UPDATE) and posts in the same database transaction, so a ' +
        'request posts once, whatever races it.',
    )};
    COMMENT ON COLUMN cash_requests.customer_id IS ${literal(
      "Checked to name a known customer when the request is made (and again by the posting's own check at confirm).",
    )};
    COMMENT ON COLUMN cash_requests.amount IS ${literal('What the customer asked for, in currency, whole cents (fils for AED).')};
    COMMENT ON COLUMN cash_requests.amount_usd IS ${literal(
      'The USD equivalent posted: amount for USD; amount / fx_rate rounded half-up to cents for AED.',
    )};
    COMMENT ON COLUMN cash_requests.fx_rate IS ${literal(
      'AED per USD used to convert (the configured peg, AED_PER_USD, when the request was made); NULL for USD.',
    )};
    COMMENT ON COLUMN cash_requests.txn_id IS ${literal(
      "The transaction a confirmation posted (source ledger, source_txn_id 'cash-request:<id>'): set exactly when " +
        'completed, unique, so no two requests claim one posting.',
    )};
    COMMENT ON COLUMN cash_requests.failure_reason IS ${literal('Why the request failed, as the operator said (fail only).')};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS cash_requests');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
