import type { Knex } from 'knex';
import { advisoryLockId, LOCK_KEYS } from '../store/advisory-lock.js';

/**
 * Closed periods (docs/period-close.md), held by the database so that no code path can post into
 * one: `period_closes` is the append-only history of closes and reopenings, the latest row says
 * through which day the books are closed, and a statement-level trigger on `transactions`
 * refuses any insert whose txn_date falls on or before that day.
 *
 * A close and a posting never cross: the trigger takes the period lock shared (an advisory
 * lock of the transaction, in memory, no row written) before it reads the close, and a close or
 * reopening takes it exclusively before it decides its row. So a close waits for the postings
 * in flight to commit, and a posting that starts meanwhile waits for the close and then sees it.
 * The insert trigger also numbers the rows under that lock, so close_id order is the order in
 * which closes took effect, and refuses a close that would move backwards (only a reopening may).
 */
const LOCK = `${advisoryLockId(LOCK_KEYS.periodClose)}::bigint`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE period_closes (
      close_id bigint PRIMARY KEY,
      action text NOT NULL CONSTRAINT period_closes_action CHECK (action IN ('close', 'reopen')),
      through date,
      reason text CONSTRAINT period_closes_reason_length CHECK (length(reason) BETWEEN 1 AND 1000),
      actor text NOT NULL CONSTRAINT period_closes_actor_length CHECK (length(actor) BETWEEN 1 AND 300),
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT period_closes_close_names_a_day CHECK (action = 'reopen' OR through IS NOT NULL),
      CONSTRAINT period_closes_reopen_has_reason CHECK (action = 'close' OR reason IS NOT NULL)
    );

    CREATE FUNCTION ledger_closed_through() RETURNS date LANGUAGE sql STABLE AS $$
      SELECT through FROM period_closes ORDER BY close_id DESC LIMIT 1
    $$;

    CREATE FUNCTION ledger_number_period_close() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      current_through date;
    BEGIN
      PERFORM pg_advisory_xact_lock(${LOCK});
      SELECT coalesce(max(close_id), 0) + 1 INTO NEW.close_id FROM period_closes;
      current_through := ledger_closed_through();
      IF NEW.action = 'close' AND current_through IS NOT NULL AND NEW.through < current_through THEN
        RAISE EXCEPTION 'the books are closed through %: a close never moves backwards (reopen instead)', current_through
          USING ERRCODE = 'check_violation', CONSTRAINT = 'period_closes_forward_only';
      END IF;
      IF NEW.action = 'reopen' AND (current_through IS NULL OR NEW.through >= current_through) THEN
        RAISE EXCEPTION 'the books are closed through %: a reopening moves the close back', current_through
          USING ERRCODE = 'check_violation', CONSTRAINT = 'period_closes_reopen_moves_back';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER period_closes_number BEFORE INSERT ON period_closes
      FOR EACH ROW EXECUTE FUNCTION ledger_number_period_close();

    CREATE FUNCTION ledger_refuse_closed_period() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      latest record;
      refused date;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(${LOCK});
      SELECT close_id, through INTO latest FROM period_closes ORDER BY close_id DESC LIMIT 1;
      IF latest.through IS NULL THEN
        RETURN NULL;
      END IF;
      SELECT min(txn_date) INTO refused FROM new_txns WHERE txn_date <= latest.through;
      IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'txn_date % falls in the period closed through % (close %)', refused, latest.through, latest.close_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_period_closed',
                DETAIL = json_build_object('close_id', latest.close_id, 'through', latest.through, 'txn_date', refused)::text;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER transactions_refuse_closed_period AFTER INSERT ON transactions
      REFERENCING NEW TABLE AS new_txns FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_closed_period();

    COMMENT ON TABLE period_closes IS 'Closes and reopenings of the books, append-only: the latest row says through which day nothing may post.';
    COMMENT ON COLUMN period_closes.close_id IS 'Numbered under the period lock: the order in which closes took effect.';
    COMMENT ON COLUMN period_closes.action IS 'close (moves the close forward) or reopen (moves it back, with a reason).';
    COMMENT ON COLUMN period_closes.through IS 'The books are closed through this day after this row; null: nothing is closed.';
    COMMENT ON COLUMN period_closes.reason IS 'Why (required to reopen).';
    COMMENT ON COLUMN period_closes.actor IS 'Who: api, or api:<X-Ledger-Actor>.';
    COMMENT ON TRIGGER transactions_refuse_closed_period ON transactions IS 'No transaction may be dated on or before the day the books are closed through.';
    COMMENT ON TRIGGER period_closes_number ON period_closes IS 'Numbers a close under the period lock; a close moves forward only, a reopening back only.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER transactions_refuse_closed_period ON transactions;
    DROP FUNCTION ledger_refuse_closed_period();
    DROP TABLE period_closes;
    DROP FUNCTION ledger_number_period_close();
    DROP FUNCTION ledger_closed_through();
  `);
}
