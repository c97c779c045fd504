import type { Knex } from 'knex';

/**
 * LRS remittances of the India book (sync-remit; docs/posting-rules.md#india-remittances): one
 * row per remit order, with its quote, payment and settlement as last seen. One change: the
 * table, its checks, its comments.
 *
 * Amounts are `numeric` in major units (remit's integer minor units converted exactly), finite,
 * whole paise or cents. The order's status only moves forward (domain/remittances.ts): the
 * upsert leaves a row alone when a stale snapshot arrives; `status_history` keeps each status
 * the ledger saw, in the order it saw them.
 */
export async function up(knex: Knex): Promise<void> {
  await createRemittancesTable(knex);
  await commentRemittances(knex);
}

/** The table, its checks and its indexes. */
async function createRemittancesTable(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE remittances (
      order_id text PRIMARY KEY CHECK (order_id ~ '^order_[A-Za-z0-9_-]+$'),
      customer_id text NOT NULL REFERENCES customers (customer_id),
      remit_customer_id text NOT NULL CHECK (remit_customer_id ~ '^cust_[A-Za-z0-9_-]+$'),
      pan text CONSTRAINT remittances_pan_format CHECK (pan ~ '^[A-Z]{5}[0-9]{4}[A-Z]$'),
      status text NOT NULL CONSTRAINT remittances_status
        CHECK (status IN ('active', 'action_required', 'under_review', 'paid', 'failed', 'cancelled', 'expired')),
      purpose_code text CHECK (purpose_code ~ '^[A-Z][0-9]{4}$'),
      reference_number text,
      amount_inr numeric NOT NULL,
      amount_usd numeric,
      quote_id text,
      quoted_at timestamptz,
      quote_expires_at timestamptz,
      fx_rate numeric,
      mid_rate numeric,
      mid_rate_source text,
      mid_rate_at timestamptz,
      tcs_inr numeric,
      payment_id text,
      payment_status text,
      funds_available boolean,
      payment_error_code text,
      paid_at timestamptz,
      settlement_id text,
      settlement_status text,
      settlement_amount_usd numeric,
      utr text,
      settled_at timestamptz,
      remitted_on date NOT NULL,
      order_created_at timestamptz NOT NULL,
      order_updated_at timestamptz NOT NULL,
      status_history jsonb NOT NULL CONSTRAINT remittances_history_array CHECK (jsonb_typeof(status_history) = 'array'),
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT remittances_amount_inr_paise CHECK (amount_inr > 0 AND amount_inr < 'Infinity' AND amount_inr = round(amount_inr, 2)),
      CONSTRAINT remittances_amount_usd_cents CHECK (amount_usd > 0 AND amount_usd < 'Infinity' AND amount_usd = round(amount_usd, 2)),
      CONSTRAINT remittances_tcs_paise CHECK (tcs_inr >= 0 AND tcs_inr < 'Infinity' AND tcs_inr = round(tcs_inr, 2)),
      CONSTRAINT remittances_settlement_cents CHECK (settlement_amount_usd >= 0 AND settlement_amount_usd < 'Infinity' AND settlement_amount_usd = round(settlement_amount_usd, 2)),
      CONSTRAINT remittances_rates_positive CHECK (fx_rate > 0 AND fx_rate < 'Infinity' AND mid_rate > 0 AND mid_rate < 'Infinity'),
      -- Named as every money column's is (20261125), so one test finds them all.
      CONSTRAINT remittances_amount_inr_finite CHECK (amount_inr > '-Infinity' AND amount_inr < 'Infinity'),
      CONSTRAINT remittances_amount_usd_finite CHECK (amount_usd > '-Infinity' AND amount_usd < 'Infinity'),
      CONSTRAINT remittances_fx_rate_finite CHECK (fx_rate > '-Infinity' AND fx_rate < 'Infinity'),
      CONSTRAINT remittances_mid_rate_finite CHECK (mid_rate > '-Infinity' AND mid_rate < 'Infinity'),
      CONSTRAINT remittances_settlement_amount_usd_finite CHECK (settlement_amount_usd > '-Infinity' AND settlement_amount_usd < 'Infinity'),
      CONSTRAINT remittances_tcs_inr_finite CHECK (tcs_inr > '-Infinity' AND tcs_inr < 'Infinity'),
      CONSTRAINT remittances_mid_rate_sourced CHECK ((mid_rate IS NULL) = (mid_rate_source IS NULL) AND (mid_rate IS NULL) = (mid_rate_at IS NULL)),
      CONSTRAINT remittances_quote_priced CHECK ((quote_id IS NULL) = (amount_usd IS NULL) AND (quote_id IS NULL) = (fx_rate IS NULL))
    );
    CREATE INDEX remittances_customer_idx ON remittances (customer_id, remitted_on);
    CREATE INDEX remittances_pan_idx ON remittances (pan, remitted_on) WHERE pan IS NOT NULL;
    CREATE INDEX remittances_swept_idx ON remittances (status) WHERE status IN ('failed', 'cancelled', 'expired');
  `);
}

/** What the table and its less obvious columns hold, for whoever reads the schema. */
async function commentRemittances(knex: Knex): Promise<void> {
  await knex.raw(`
    COMMENT ON TABLE remittances IS ${literal(
      'LRS remittance orders of remit (sync-remit): the order, its quote, its payment and its settlement as last seen. ' +
        'The USD is not posted from here (the broker wire posts it); fx_spread and fx_spread_settle are posted with ' +
        'source remit and keys fx_spread:<order_id>, fx_spread_settle:<order_id>. A stale snapshot (lower status rank: ' +
        'on the way < paid < failed/cancelled/expired) never overwrites a later status.',
    )};
    COMMENT ON COLUMN remittances.pan IS ${literal("The customer's PAN when the order was synced (LRS and TCS are per PAN).")};
    COMMENT ON COLUMN remittances.amount_inr IS ${literal("The order's INR (remit's paise as rupees): the quote's from.amount.")};
    COMMENT ON COLUMN remittances.amount_usd IS ${literal("The order's USD (the quote's to.amount); null without a quote.")};
    COMMENT ON COLUMN remittances.fx_rate IS ${literal("The customer's rate, USD per INR, as quoted.")};
    COMMENT ON COLUMN remittances.mid_rate IS ${literal(
      "remit's mid-market rate, USD per INR, when known: read while the quote was still live (mid_rate_at), never overwritten.",
    )};
    COMMENT ON COLUMN remittances.tcs_inr IS ${literal("TCS collected by remit (the quote's total_tax), INR.")};
    COMMENT ON COLUMN remittances.remitted_on IS ${literal(
      "The remittance's date (FY, LRS, TCS): its paying payment's created_at date in IST, else the order's.",
    )};
    COMMENT ON COLUMN remittances.status_history IS ${literal("[{status, at}]: each status the ledger saw, at the order's updated_at.")};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS remittances');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
