import type { Knex } from 'knex';

/**
 * Recost's state leaves `transactions`, which becomes wholly append-only (ADR 0009, amended
 * 2026-11-26). Stamping `transactions.recosted_at` made every stamped row a new version of a wide
 * row and an entry in each of the table's ten indexes (never a HOT update: the pending index's
 * predicate names the column, and posted pages are full): 44% of a full re-cost. Now:
 *  - `recost_states`: one narrow row per transaction that has ever been pending recost (a trade
 *    is given one when posted, a re-pend gives one to any other), `recosted_at` null while
 *    pending; its date and posting time copied (immutable in `transactions`) so that pending
 *    rows are read in recost's order from their own index. A stamp writes one small row version
 *    and one primary-key entry. A transaction without a row was never pending: its recosted_at
 *    is its posted_at, as the column was stamped at posting.
 *  - No foreign key (its per-row check would cost every posting a lookup): rows are written only
 *    from `transactions` rows, by the posting statement or a re-pend selecting them. Rows are
 *    never deleted; only `recosted_at` may change.
 *  - `transactions`: recosted_at and its pending index dropped; the guard refuses every UPDATE.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE recost_states (
      txn_id uuid PRIMARY KEY,
      txn_date date NOT NULL,
      posted_at timestamptz NOT NULL,
      recosted_at timestamptz
    );
    CREATE INDEX recost_states_pending_idx ON recost_states (txn_date, posted_at, txn_id) WHERE recosted_at IS NULL;
    CREATE TRIGGER recost_states_guard BEFORE DELETE OR UPDATE OF txn_id, txn_date, posted_at ON recost_states
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER recost_states_no_truncate BEFORE TRUNCATE ON recost_states
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
    COMMENT ON TABLE recost_states IS 'Recost''s state of each transaction that has ever been pending recost: recosted_at null while pending (recost takes them in txn_date, posted_at, txn_id order), else when recost last derived it. A transaction without a row was never pending (its recosted_at is its posted_at). Only recosted_at may change.';

    INSERT INTO recost_states (txn_id, txn_date, posted_at, recosted_at)
      SELECT txn_id, txn_date, posted_at, recosted_at FROM transactions WHERE recosted_at IS DISTINCT FROM posted_at;

    DROP TRIGGER transactions_guard_update ON transactions;
    ALTER TABLE transactions DROP COLUMN recosted_at;
    CREATE OR REPLACE FUNCTION ledger_guard_transaction_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'transaction % is posted: a posted transaction never changes (recost''s state is in recost_states)', OLD.txn_id
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;
    CREATE TRIGGER transactions_guard_update BEFORE UPDATE ON transactions
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_transaction_update();
    COMMENT ON TRIGGER transactions_guard_update ON transactions IS 'A posted transaction never changes: corrections are reversing entries, recost''s state is in recost_states.';
    COMMENT ON FUNCTION ledger_guard_transaction_update() IS 'Refuses every UPDATE of a posted transaction.';
    COMMENT ON TABLE transactions IS 'One row per posted ledger transaction; its journal lines balance (checked at COMMIT by ledger_commit_checks_balanced). Append-only: never updated nor deleted (transactions_guard_update); corrections are reversing transactions, recost''s state is in recost_states. (source, source_txn_id) is the idempotency key. See docs/adr/0001.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE transactions ADD COLUMN recosted_at timestamptz;
    DROP TRIGGER transactions_guard_update ON transactions;
    UPDATE transactions t SET recosted_at = coalesce((SELECT s.recosted_at FROM recost_states s WHERE s.txn_id = t.txn_id), t.posted_at)
      WHERE NOT EXISTS (SELECT 1 FROM recost_states s WHERE s.txn_id = t.txn_id AND s.recosted_at IS NULL);
    CREATE INDEX transactions_pending_recost_idx ON transactions (txn_date, posted_at) WHERE recosted_at IS NULL;
    COMMENT ON COLUMN transactions.recosted_at IS 'Null while pending recost (transactions_pending_recost_idx). The only column that may change after posting.';
    COMMENT ON INDEX transactions_pending_recost_idx IS 'The transactions pending recost (recosted_at IS NULL), in the order recost takes them.';
    CREATE OR REPLACE FUNCTION ledger_guard_transaction_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'transaction % is posted; only recosted_at may change', OLD.txn_id
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;
    DO $$ BEGIN
      EXECUTE format('CREATE TRIGGER transactions_guard_update BEFORE UPDATE OF %s ON transactions
        FOR EACH ROW EXECUTE FUNCTION ledger_guard_transaction_update()',
        (SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
          WHERE attrelid = 'transactions'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'recosted_at'));
    END $$;
    COMMENT ON TRIGGER transactions_guard_update ON transactions IS 'Only recosted_at may change: the recost job stamps it; every other fact of a posted transaction is fixed.';
    COMMENT ON FUNCTION ledger_guard_transaction_update() IS 'Refuses an UPDATE of a transaction that changes anything but recosted_at: a posted transaction''s facts are fixed.';
    COMMENT ON TABLE transactions IS 'One row per posted ledger transaction; its journal lines balance (checked at COMMIT by ledger_commit_checks_balanced). Append-only: never deleted, and only recosted_at may change (transactions_guard_update); corrections are reversing transactions. (source, source_txn_id) is the idempotency key. See docs/adr/0001.';
    DROP TABLE recost_states;
  `);
}
