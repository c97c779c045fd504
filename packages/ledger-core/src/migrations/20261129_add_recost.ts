import type { Knex } from 'knex';

// Data as it stood when this migration was written: a migration is history, never re-derived.
const SOURCES_BEFORE = ['manual', 'ledger', 'uaefeed', 'custodian', 'usbroker', 'remit'];
const SOURCES_AFTER = [...SOURCES_BEFORE, 'recost'];
const list = (values: string[]) => values.map((s) => `'${s}'`).join(', ');

/**
 * What recost needs (docs/adr/0009):
 *  - source `recost`: recost posts its derived lines as entries of its own, keyed
 *    (`recost`, `<trade txn_id>:<version>`), so a derivation is posted at most once per version;
 *  - `broker_fees`: the broker's actual itemised fee of a trade, by the trade's business key,
 *    as a daily ledger states it (the India sync fills it); recost uses it over the default bps.
 *    Insert-only: a fee once recorded is a fact;
 *  - `recost_flags`: why recost left a trade pending (an oversell: more sold than the lots
 *    hold). `transactions` stays unchanged (only recosted_at may move): the flag lives beside it.
 *    `cleared_at` is set when a later recost could derive the trade.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE transactions DROP CONSTRAINT transactions_source_check;
    ALTER TABLE transactions ADD CONSTRAINT transactions_source_check CHECK (source IN (${list(SOURCES_AFTER)}));

    CREATE TABLE broker_fees (
      source text NOT NULL,
      source_txn_id text NOT NULL,
      amount_usd numeric NOT NULL CHECK (amount_usd >= 0)
        CONSTRAINT broker_fees_amount_usd_finite CHECK (amount_usd > '-Infinity' AND amount_usd < 'Infinity')
        CONSTRAINT broker_fees_amount_usd_cents CHECK (amount_usd = round(amount_usd, 2)),
      source_row jsonb NOT NULL DEFAULT '{}'::jsonb,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (source, source_txn_id)
    );
    CREATE TRIGGER broker_fees_no_change BEFORE UPDATE OR DELETE ON broker_fees
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER broker_fees_no_truncate BEFORE TRUNCATE ON broker_fees
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    CREATE TABLE recost_flags (
      txn_id uuid PRIMARY KEY,
      reason text NOT NULL,
      detail jsonb NOT NULL DEFAULT '{}'::jsonb,
      flagged_at timestamptz NOT NULL DEFAULT now(),
      cleared_at timestamptz
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS recost_flags, broker_fees;
    ALTER TABLE transactions DROP CONSTRAINT transactions_source_check;
    ALTER TABLE transactions ADD CONSTRAINT transactions_source_check CHECK (source IN (${list(SOURCES_BEFORE)}));
  `);
}
