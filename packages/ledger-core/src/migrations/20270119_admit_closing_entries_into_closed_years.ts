import type { Knex } from 'knex';
import { advisoryLockId, LOCK_KEYS } from '../store/advisory-lock.js';

/**
 * A year is closed to 3000 only once its last day is closed (nothing else can move its balances
 * after), so its closing entry is dated in a closed period: the one posting the period trigger
 * admits there, and only when a `year_closes` row of that day names it (written first, in the
 * same database transaction, by the year close under the period lock). Anything else dated on
 * or before the close is refused as before (20261230).
 */
const LOCK = `${advisoryLockId(LOCK_KEYS.periodClose)}::bigint`;

const refuse = (admitted: string) => `
    CREATE OR REPLACE FUNCTION ledger_refuse_closed_period() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      latest record;
      refused date;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(${LOCK});
      SELECT close_id, through INTO latest FROM period_closes ORDER BY close_id DESC LIMIT 1;
      IF latest.through IS NULL THEN
        RETURN NULL;
      END IF;
      SELECT min(n.txn_date) INTO refused FROM new_txns n WHERE n.txn_date <= latest.through${admitted};
      IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'txn_date % falls in the period closed through % (close %)', refused, latest.through, latest.close_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_period_closed',
                DETAIL = json_build_object('close_id', latest.close_id, 'through', latest.through, 'txn_date', refused)::text;
      END IF;
      RETURN NULL;
    END $$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    refuse(`
        AND NOT (n.txn_type = 'year_close' AND EXISTS (
          SELECT 1 FROM year_closes y WHERE y.txn_id = n.txn_id AND y.action = 'close' AND y.fy_end = n.txn_date))`),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(refuse(''));
}
