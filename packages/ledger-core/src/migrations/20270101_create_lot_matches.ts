import type { Knex } from 'knex';

const finite = (column: string) =>
  `CONSTRAINT lot_matches_${column}_finite CHECK (${column} > '-Infinity' AND ${column} < 'Infinity')`;

/**
 * `lot_matches`: which lots each sale consumed (FIFO), so the tax reports read stored matches and
 * never re-run FIFO. Recost states a sale's matches in its derivation entry (`metadata.lots`); a
 * statement trigger on transactions copies them here in the same statement, hence the same
 * database transaction, as the entry. A superseded derivation is reversed, never edited: its
 * matches stay, and a reader keeps those whose derivation has no reversal. Only the trigger writes
 * (owner's rights, like the totals); the runtime role reads.
 *
 * Sales derived before lots were remembered are put back to pending recost, so the next recost
 * supersedes their derivations with ones that state their matches.
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]!.schema.replaceAll('"', '""');
  await knex.raw(`
    CREATE TABLE lot_matches (
      derivation_txn_id uuid NOT NULL REFERENCES transactions (txn_id),
      lot_txn_id uuid NOT NULL REFERENCES transactions (txn_id),
      sell_txn_id uuid NOT NULL REFERENCES transactions (txn_id),
      customer_id text NOT NULL,
      symbol text NOT NULL,
      acquired_on date NOT NULL,
      transferred_on date NOT NULL,
      quantity numeric NOT NULL CHECK (quantity > 0) ${finite('quantity')},
      cost_usd numeric NOT NULL CHECK (cost_usd >= 0 AND cost_usd = round(cost_usd, 2)) ${finite('cost_usd')},
      PRIMARY KEY (derivation_txn_id, lot_txn_id),
      CONSTRAINT lot_matches_dates_ordered CHECK (acquired_on <= transferred_on)
    );
    CREATE INDEX lot_matches_customer_idx ON lot_matches (customer_id, transferred_on);
    -- What a lot gave (open lots, Schedule FA) and what a sale took (sales without matches).
    CREATE INDEX lot_matches_lot_idx ON lot_matches (lot_txn_id);
    CREATE INDEX lot_matches_sell_idx ON lot_matches (sell_txn_id);

    CREATE FUNCTION ledger_copy_lot_matches() RETURNS trigger LANGUAGE plpgsql
      SECURITY DEFINER SET search_path = "${schema}", pg_temp AS $$
    BEGIN
      INSERT INTO lot_matches (derivation_txn_id, lot_txn_id, sell_txn_id, customer_id, symbol, acquired_on, transferred_on, quantity, cost_usd)
      SELECT n.txn_id, (m->>'lot_txn_id')::uuid, (n.metadata->>'recost_of')::uuid, n.customer_id, n.symbol,
             (m->>'acquired_on')::date, n.txn_date, (m->>'quantity')::numeric, (m->>'cost_usd')::numeric
        FROM new_txns n CROSS JOIN LATERAL jsonb_array_elements(n.metadata->'lots') AS m
       WHERE n.source = 'recost' AND n.reverses_txn_id IS NULL AND jsonb_typeof(n.metadata->'lots') = 'array';
      RETURN NULL;
    END $$;
    CREATE TRIGGER transactions_copy_lot_matches AFTER INSERT ON transactions
      REFERENCING NEW TABLE AS new_txns FOR EACH STATEMENT EXECUTE FUNCTION ledger_copy_lot_matches();

    INSERT INTO recost_states AS s (txn_id, txn_date, posted_at)
    SELECT t.txn_id, t.txn_date, t.posted_at
      FROM transactions t JOIN transactions d ON d.txn_type = 'recost' AND d.metadata->>'recost_of' = t.txn_id::text
     WHERE t.txn_type = 'sell_security' AND NOT jsonb_exists(d.metadata, 'lots')
       AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = d.txn_id)
    ON CONFLICT (txn_id) DO UPDATE SET recosted_at = NULL WHERE s.recosted_at IS NOT NULL;

    COMMENT ON TABLE lot_matches IS 'What a sale took from each FIFO lot, copied from its recost derivation''s metadata.lots by transactions_copy_lot_matches as the entry is inserted. In effect while the derivation has no reversal.';
    COMMENT ON COLUMN lot_matches.derivation_txn_id IS 'The recost entry stating the match (its reversal supersedes it).';
    COMMENT ON COLUMN lot_matches.lot_txn_id IS 'The buy whose lot the sale consumed.';
    COMMENT ON COLUMN lot_matches.sell_txn_id IS 'The sale (sell_security).';
    COMMENT ON COLUMN lot_matches.acquired_on IS 'The buy''s trade date: the acquisition date.';
    COMMENT ON COLUMN lot_matches.transferred_on IS 'The sale''s trade date: the transfer date.';
    COMMENT ON COLUMN lot_matches.quantity IS 'Shares taken from the lot.';
    COMMENT ON COLUMN lot_matches.cost_usd IS 'Their cost as the ledger relieves it (USD, fees excluded).';
    COMMENT ON TRIGGER transactions_copy_lot_matches ON transactions IS 'Copies a recost derivation''s metadata.lots into lot_matches in the same statement.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER transactions_copy_lot_matches ON transactions;
    DROP FUNCTION ledger_copy_lot_matches();
    DROP TABLE lot_matches;
  `);
}
