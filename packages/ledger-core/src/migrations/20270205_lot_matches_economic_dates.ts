import type { Knex } from 'knex';

/**
 * A sale's transfer date is its trade's own date, also when the ledger posted it later: a record
 * restated into an open period (or a recost derivation restated there) keeps its date in
 * `metadata.original_txn_date`, and the holding period, the Rule 115 month and the FY of a gain
 * follow that date, never the posting date (docs/india-reports.md). The copy of a derivation's
 * matches takes it from there when present.
 *
 * Trades restated before this (late records posted on the first open day) were costed at their
 * posting date: they are put back to pending recost, so the next recost re-derives their pairs
 * in trade-date order and supersedes the derivations whose lots or dates change.
 */
/** The copy function, its transfer date spelled by `transferredOn` (SQL over the new derivation `n`). */
async function replaceCopy(knex: Knex, transferredOn: string): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]!.schema.replaceAll('"', '""');
  await knex.raw(`
    CREATE OR REPLACE FUNCTION ledger_copy_lot_matches() RETURNS trigger LANGUAGE plpgsql
      SECURITY DEFINER SET search_path = "${schema}", pg_temp AS $$
    BEGIN
      INSERT INTO lot_matches (derivation_txn_id, lot_txn_id, sell_txn_id, customer_id, symbol, acquired_on, transferred_on, quantity, cost_usd)
      SELECT n.txn_id, (m->>'lot_txn_id')::uuid, (n.metadata->>'recost_of')::uuid, n.customer_id, n.symbol,
             (m->>'acquired_on')::date, ${transferredOn}, (m->>'quantity')::numeric, (m->>'cost_usd')::numeric
        FROM new_txns n CROSS JOIN LATERAL jsonb_array_elements(n.metadata->'lots') AS m
       WHERE n.source = 'recost' AND n.reverses_txn_id IS NULL AND jsonb_typeof(n.metadata->'lots') = 'array';
      RETURN NULL;
    END $$;
  `);
}

export async function up(knex: Knex): Promise<void> {
  await replaceCopy(
    knex,
    `CASE WHEN n.metadata->>'original_txn_date' ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN (n.metadata->>'original_txn_date')::date ELSE n.txn_date END`,
  );
  await knex.raw(`
    COMMENT ON COLUMN lot_matches.transferred_on IS 'The sale''s trade date: the transfer date (the derivation''s metadata.original_txn_date when it was restated into an open period, else its txn_date).';

    INSERT INTO recost_states AS s (txn_id, txn_date, posted_at)
    SELECT t.txn_id, t.txn_date, t.posted_at FROM transactions t
     WHERE t.txn_type IN ('buy_security', 'sell_security') AND jsonb_exists(t.metadata, 'original_txn_date')
    ON CONFLICT (txn_id) DO UPDATE SET recosted_at = NULL WHERE s.recosted_at IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await replaceCopy(knex, 'n.txn_date');
  await knex.raw(`COMMENT ON COLUMN lot_matches.transferred_on IS 'The sale''s trade date: the transfer date.';`);
}
