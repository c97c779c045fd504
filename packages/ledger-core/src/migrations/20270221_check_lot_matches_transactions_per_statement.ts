import type { Knex } from 'knex';

const FOREIGN_KEYS = ['derivation_txn_id', 'lot_txn_id', 'sell_txn_id'] as const;

/**
 * A lot match's three transactions (its derivation, the lot's buy, the sale) are checked to exist
 * once per inserting statement, set-based, as the journal's lines are (ledger_after_lines_inserted),
 * where three foreign keys checked them row by row. Each foreign-key check looked its transaction
 * up and locked it FOR KEY SHARE: on a first recost of 100,000 trades, 120,000 lookups, each
 * writing a lock into an old trade's tuple (a dirtied page and a WAL record), about 4% of
 * Postgres's time. What the keys also guarded, a referenced transaction deleted, cannot happen:
 * `transactions` refuses DELETE and TRUNCATE to every role (20261121). Rows of `lot_matches` are
 * written only by transactions_copy_lot_matches (the runtime role has no grant on it), and this
 * check holds for any other writer too; the error is the same SQLSTATE (23503).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION ledger_lot_matches_inserted() RETURNS trigger LANGUAGE plpgsql
      -- Each distinct id probes the primary key: hashing ids against a scan of the whole of
      -- transactions (the plan taken for NOT EXISTS subplans, 450 ms a statement on a book of
      -- 200,000) is never cheaper for a statement's few thousand matches.
      SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off AS $$
    DECLARE
      unknown uuid;
    BEGIN
      SELECT named.txn_id INTO unknown
        FROM (SELECT DISTINCT id AS txn_id
                FROM new_matches m CROSS JOIN LATERAL unnest(ARRAY[m.derivation_txn_id, m.lot_txn_id, m.sell_txn_id]) AS id) named
       WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.txn_id = named.txn_id)
       LIMIT 1;
      IF FOUND THEN
        RAISE EXCEPTION 'a lot match names transaction %, which does not exist', unknown
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'lot_matches_transactions_known';
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER lot_matches_transactions_known AFTER INSERT ON lot_matches
      REFERENCING NEW TABLE AS new_matches FOR EACH STATEMENT EXECUTE FUNCTION ledger_lot_matches_inserted();
    COMMENT ON TRIGGER lot_matches_transactions_known ON lot_matches IS 'A match''s derivation, lot and sale are transactions of the book: checked once per statement (transactions are never deleted).';
    ${FOREIGN_KEYS.map((column) => `ALTER TABLE lot_matches DROP CONSTRAINT lot_matches_${column}_fkey;`).join('\n    ')}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ${FOREIGN_KEYS.map(
      (column) =>
        `ALTER TABLE lot_matches ADD CONSTRAINT lot_matches_${column}_fkey FOREIGN KEY (${column}) REFERENCES transactions (txn_id);`,
    ).join('\n    ')}
    DROP TRIGGER lot_matches_transactions_known ON lot_matches;
    DROP FUNCTION ledger_lot_matches_inserted();
  `);
}
