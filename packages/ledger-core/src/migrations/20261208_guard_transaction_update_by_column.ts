import type { Knex } from 'knex';

/**
 * The append-only guard of `transactions` fires only on an UPDATE that names a column other
 * than recosted_at, and then refuses it: the recost stamp (`SET recosted_at = ...`, 100,000 rows
 * at a time) no longer runs a plpgsql function per row that turned both row versions into jsonb
 * to compare them (a sixth of the stamp's time). Stricter than before: naming a fact is refused
 * even when its value would not change. The column list is every column but recosted_at when
 * this runs; test/journal-invariants.test.ts fails when a later column is not in it. The
 * comments of 20261126 still hold; the recreated trigger is given its comment again.
 */
const GUARDED_COLUMNS = `(SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
  WHERE attrelid = 'transactions'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'recosted_at')`;

const TRIGGER_COMMENT = `COMMENT ON TRIGGER transactions_guard_update ON transactions IS
  'Only recosted_at may change: the recost job stamps it; every other fact of a posted transaction is fixed.'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION ledger_guard_transaction_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'transaction % is posted; only recosted_at may change', OLD.txn_id
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;
    DROP TRIGGER transactions_guard_update ON transactions;
    DO $$ BEGIN
      EXECUTE format('CREATE TRIGGER transactions_guard_update BEFORE UPDATE OF %s ON transactions
        FOR EACH ROW EXECUTE FUNCTION ledger_guard_transaction_update()', ${GUARDED_COLUMNS});
    END $$;
    ${TRIGGER_COMMENT};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION ledger_guard_transaction_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (to_jsonb(NEW) - 'recosted_at') IS DISTINCT FROM (to_jsonb(OLD) - 'recosted_at') THEN
        RAISE EXCEPTION 'transaction % is posted; only recosted_at may change', OLD.txn_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
      END IF;
      RETURN NEW;
    END $$;
    DROP TRIGGER transactions_guard_update ON transactions;
    CREATE TRIGGER transactions_guard_update BEFORE UPDATE ON transactions
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_transaction_update();
    ${TRIGGER_COMMENT};
  `);
}
