import type { Knex } from 'knex';

/** A numeric column refusing NaN and ±Infinity, as every numeric column of the ledger does (20261125). */
const finite = (column: string) =>
  `CONSTRAINT dividend_events_${column}_finite CHECK (${column} > '-Infinity' AND ${column} < 'Infinity')`;

/**
 * `dividend_events`: the US dividends of India customers as the broker's daily ledger states
 * them (sync-usbroker-ledger), one row per DIV row, with the withholding of its DIVNRA row
 * (linked by `ref_txn_no`) once seen. The postings (`dividend`, `wht_tax`) are the journal's;
 * this keeps what the reports need beside them (ex-date, shares, per-share amount, the rate).
 * Upserted: a re-run of a date changes nothing; a DIVNRA row arriving later fills the
 * withholding, and a known withholding is never blanked by a run that does not see it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE dividend_events (
      div_txn_no text PRIMARY KEY CHECK (length(div_txn_no) BETWEEN 1 AND 128),
      customer_id text NOT NULL REFERENCES customers (customer_id),
      account_no text NOT NULL CHECK (length(account_no) BETWEEN 1 AND 128),
      symbol text NOT NULL CHECK (length(symbol) BETWEEN 1 AND 32),
      cusip text CHECK (length(cusip) = 9),
      ex_date date NOT NULL,
      pay_date date NOT NULL,
      shares numeric NOT NULL CHECK (shares > 0) ${finite('shares')},
      per_share numeric NOT NULL CHECK (per_share > 0) ${finite('per_share')},
      gross_usd numeric NOT NULL CHECK (gross_usd > 0 AND gross_usd = round(gross_usd, 2)) ${finite('gross_usd')},
      wht_txn_no text CHECK (length(wht_txn_no) BETWEEN 1 AND 128),
      wht_rate numeric CHECK (wht_rate >= 0 AND wht_rate <= 1) ${finite('wht_rate')},
      wht_usd numeric CHECK (wht_usd >= 0 AND wht_usd = round(wht_usd, 2)) ${finite('wht_usd')},
      report_date date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT dividend_events_withholding_whole CHECK ((wht_txn_no IS NULL) = (wht_usd IS NULL) AND (wht_usd IS NULL) = (wht_rate IS NULL))
    );
    CREATE INDEX dividend_events_customer ON dividend_events (customer_id, pay_date);
    COMMENT ON TABLE dividend_events IS ${literal(
      "A US dividend of an India customer, per the broker's daily ledger (sync-usbroker-ledger): the DIV row " +
        '(div_txn_no; ex_date its trade_date, shares its quantity) and the withholding of its DIVNRA row (wht_txn_no, ' +
        "linked by ref_txn_no). USD; wht_rate a fraction (0.25 = 25 %). The postings are the journal's (source usbroker, " +
        "source_txn_id the row's txn_no).",
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS dividend_events');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
