import type { Knex } from 'knex';

/**
 * The state machine of a cash request, held by the database as the journal is (ADR 0001): a
 * pending request may move to completed, failed or cancelled (the table's checks say which
 * columns go with each); a final one never changes again, so its posting's txn_id, once set,
 * stays. The runtime role may update only status, txn_id, failure_reason and updated_at, so the
 * trigger watches those; transitionCashRequest never asks more (a repeat changes nothing).
 */
const TRIGGER_COMMENT = `COMMENT ON TRIGGER cash_requests_guard_state ON cash_requests IS
  'A cash request moves only from pending (to completed, failed or cancelled); a final state, and the posting it names, never change.'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION ledger_guard_cash_request_state() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status <> 'pending'
         AND (NEW.status, NEW.txn_id, NEW.failure_reason) IS DISTINCT FROM (OLD.status, OLD.txn_id, OLD.failure_reason) THEN
        RAISE EXCEPTION 'cash request % is %: a final state never changes', OLD.cash_request_id, OLD.status
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'cash_request_final_state';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER cash_requests_guard_state BEFORE UPDATE OF status, txn_id, failure_reason ON cash_requests
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_cash_request_state();
    ${TRIGGER_COMMENT};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER cash_requests_guard_state ON cash_requests;
    DROP FUNCTION ledger_guard_cash_request_state();
  `);
}
