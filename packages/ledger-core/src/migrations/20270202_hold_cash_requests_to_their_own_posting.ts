import type { Knex } from 'knex';

/**
 * A cash request names only its own posting (issue 32): the runtime role may insert requests and
 * set `status` and `txn_id`, so without this it could insert a request already `completed`, or
 * complete a pending one by hand, naming another customer's transaction. The database refuses:
 *  - a request inserted in any state but `pending` (every request is asked for first; only its
 *    confirmation completes it);
 *  - a `txn_id` set to anything but the request's own posting: a transaction of the request's
 *    customer, its direction's type and USD amount, posted under the key the confirmation posts
 *    (source `ledger`, `cash-request:<id>`), which manual entry cannot name.
 * Confirm inserts the posting and then sets `txn_id` in one database transaction, so the row
 * trigger sees the posting. Existing rows are not re-read: both rules hold for every write from now.
 */
const COMMENTS = `
  COMMENT ON FUNCTION ledger_guard_cash_request_posting() IS
    'Refuses a cash request inserted other than pending, and a txn_id that is not the request''s own posting (its customer, type, USD amount, key cash-request:<id> of source ledger).';
  COMMENT ON TRIGGER cash_requests_guard_posting ON cash_requests IS
    'A cash request is made pending, and completes only with its own posting: never another customer''s transaction.';
`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION ledger_guard_cash_request_posting() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' AND NEW.status <> 'pending' THEN
        RAISE EXCEPTION 'cash request % is made %: a request is made pending, and only its confirmation completes it',
            NEW.cash_request_id, NEW.status
          USING ERRCODE = 'check_violation', CONSTRAINT = 'cash_request_made_pending';
      END IF;
      IF NEW.txn_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.txn_id IS DISTINCT FROM OLD.txn_id)
         AND NOT EXISTS (
           SELECT 1 FROM transactions t
            WHERE t.txn_id = NEW.txn_id
              AND t.customer_id = NEW.customer_id
              AND t.txn_type = NEW.direction
              AND t.amount_usd = NEW.amount_usd
              AND t.source = 'ledger'
              AND t.source_txn_id = 'cash-request:' || NEW.cash_request_id::text) THEN
        RAISE EXCEPTION 'cash request % of customer % names transaction %, which is not its own posting',
            NEW.cash_request_id, NEW.customer_id, NEW.txn_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'cash_request_own_posting';
      END IF;
      RETURN NEW;
    END $$;
    -- After the row's own checks (status, txn_id with completed), so those keep their names.
    CREATE CONSTRAINT TRIGGER cash_requests_guard_posting AFTER INSERT OR UPDATE OF status, txn_id ON cash_requests
      FOR EACH ROW EXECUTE FUNCTION ledger_guard_cash_request_posting();
    ${COMMENTS}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER cash_requests_guard_posting ON cash_requests;
    DROP FUNCTION ledger_guard_cash_request_posting();
  `);
}
