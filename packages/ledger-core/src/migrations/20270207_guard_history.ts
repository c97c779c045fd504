import type { Knex } from 'knex';

/**
 * What is history is guarded as the journal is (20261121): by triggers, which refuse every role,
 * the schema owner included, without a bypass of the triggers themselves.
 *  - `holdings_snapshots` (documented insert-only per customer, upstream and day): no UPDATE,
 *    DELETE or TRUNCATE, with the journal's own `ledger_refuse_change`.
 *  - `remittances`: the row follows the order (its status, payment, settlement move forward), but
 *    what it says happened stays: the order, its customer, when the ledger first saw it and when
 *    remit created it never change, and `status_history` only grows (the old array is a prefix
 *    of the new). No DELETE or TRUNCATE.
 *  - `exceptions`: a row is updated by every re-run that fails the record again, but its record
 *    (upstream, key) and its first sighting (`first_seen_at`, what `open_exceptions_age` ages
 *    from) never change. No DELETE or TRUNCATE.
 * A refused change is SQLSTATE 42501, constraint `ledger_append_only` (a whole row refused) or
 * `ledger_history` (a column of history changed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TRIGGER holdings_snapshots_append_only BEFORE UPDATE OR DELETE ON holdings_snapshots
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER holdings_snapshots_no_truncate BEFORE TRUNCATE ON holdings_snapshots
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    CREATE FUNCTION ledger_guard_remittance_history() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.order_id, NEW.customer_id, NEW.remit_customer_id, NEW.order_created_at, NEW.first_seen_at)
           IS DISTINCT FROM (OLD.order_id, OLD.customer_id, OLD.remit_customer_id, OLD.order_created_at, OLD.first_seen_at)
         OR jsonb_array_length(NEW.status_history) < jsonb_array_length(OLD.status_history)
         OR EXISTS (SELECT 1 FROM jsonb_array_elements(OLD.status_history) WITH ORDINALITY AS o(entry, i)
                     WHERE NEW.status_history -> (o.i::int - 1) IS DISTINCT FROM o.entry) THEN
        RAISE EXCEPTION 'UPDATE on remittances is refused for %: the order, its customer, its first sighting and the statuses seen are history (status_history only grows)', OLD.order_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_history';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER remittances_guard_history BEFORE UPDATE ON remittances
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_remittance_history();
    CREATE TRIGGER remittances_no_delete BEFORE DELETE ON remittances
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER remittances_no_truncate BEFORE TRUNCATE ON remittances
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    CREATE FUNCTION ledger_guard_exception_history() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.exception_id, NEW.upstream, NEW.record_key, NEW.first_seen_at)
           IS DISTINCT FROM (OLD.exception_id, OLD.upstream, OLD.record_key, OLD.first_seen_at) THEN
        RAISE EXCEPTION 'UPDATE on exceptions is refused for %: its record and first sighting are history', OLD.exception_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_history';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER exceptions_guard_history BEFORE UPDATE ON exceptions
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_exception_history();
    CREATE TRIGGER exceptions_no_delete BEFORE DELETE ON exceptions
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    CREATE TRIGGER exceptions_no_truncate BEFORE TRUNCATE ON exceptions
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

    COMMENT ON TRIGGER holdings_snapshots_append_only ON holdings_snapshots IS 'A stored snapshot is what the upstream said that day: never edited or deleted.';
    COMMENT ON TRIGGER holdings_snapshots_no_truncate ON holdings_snapshots IS 'TRUNCATE skips row triggers, so it is refused on its own.';
    COMMENT ON FUNCTION ledger_guard_remittance_history() IS 'Refuses an update that changes a remittance''s order, customer, creation or first sighting, or rewrites its status_history (it may only grow).';
    COMMENT ON TRIGGER remittances_guard_history ON remittances IS 'What a remittance says happened never changes; status_history only grows.';
    COMMENT ON TRIGGER remittances_no_delete ON remittances IS 'A remittance seen is never deleted.';
    COMMENT ON TRIGGER remittances_no_truncate ON remittances IS 'TRUNCATE skips row triggers, so it is refused on its own.';
    COMMENT ON FUNCTION ledger_guard_exception_history() IS 'Refuses an update that changes an exception''s record (upstream, key) or its first sighting.';
    COMMENT ON TRIGGER exceptions_guard_history ON exceptions IS 'An exception''s record and first sighting never change: its age is measured from it.';
    COMMENT ON TRIGGER exceptions_no_delete ON exceptions IS 'An exception is dismissed or resolved, never deleted: it records what the books were missing, and since when.';
    COMMENT ON TRIGGER exceptions_no_truncate ON exceptions IS 'TRUNCATE skips row triggers, so it is refused on its own.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER exceptions_no_truncate ON exceptions;
    DROP TRIGGER exceptions_no_delete ON exceptions;
    DROP TRIGGER exceptions_guard_history ON exceptions;
    DROP FUNCTION ledger_guard_exception_history();
    DROP TRIGGER remittances_no_truncate ON remittances;
    DROP TRIGGER remittances_no_delete ON remittances;
    DROP TRIGGER remittances_guard_history ON remittances;
    DROP FUNCTION ledger_guard_remittance_history();
    DROP TRIGGER holdings_snapshots_no_truncate ON holdings_snapshots;
    DROP TRIGGER holdings_snapshots_append_only ON holdings_snapshots;
  `);
}
