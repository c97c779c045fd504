import type { Knex } from 'knex';

/**
 * A reopening of the books goes through one database function, `ledger_reopen_period(through,
 * reason, actor)`, and nothing else: an INSERT of a `reopen` row into `period_closes` by SQL is
 * refused, whoever sends it. Before, the runtime role (which may insert closes) could insert a
 * reopen row by hand and open a closed month unseen by the api's checks.
 *
 * The function runs with the owner's rights (SECURITY DEFINER, search_path pinned), demands an
 * actor and a reason (neither blank), and inserts the row marked, for that one statement, as its
 * own: the numbering trigger refuses a `reopen` row unless it is inserted by the table's owner
 * with that mark (a transaction-local setting the function sets and clears). The runtime role
 * cannot pass as the owner, so setting the mark itself gets it nothing. EXECUTE is revoked from
 * PUBLIC and granted to the runtime role at start (store/runtime-role.ts). The row's other rules
 * (the period lock, the numbering, a reopening moves the close back) are the trigger's, as before.
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]!.schema.replaceAll('"', '""');
  await knex.raw(`
    CREATE FUNCTION ledger_refuse_raw_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.action = 'reopen' AND NOT (
           coalesce(current_setting('ledger.reopening', true), '') = 'on'
           AND pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')) THEN
        RAISE EXCEPTION 'a reopening is made by ledger_reopen_period(through, reason, actor), never inserted into period_closes'
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'period_closes_reopen_by_function';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER period_closes_reopen_by_function BEFORE INSERT ON period_closes
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_raw_reopen();

    CREATE FUNCTION ledger_reopen_period(p_through date, p_reason text, p_actor text) RETURNS SETOF period_closes
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = "${schema}", pg_temp AS $$
    BEGIN
      IF coalesce(btrim(p_actor), '') = '' OR coalesce(btrim(p_reason), '') = '' THEN
        RAISE EXCEPTION 'a reopening names its actor and its reason'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'period_closes_reopen_has_reason';
      END IF;
      PERFORM set_config('ledger.reopening', 'on', true);
      RETURN QUERY INSERT INTO period_closes (action, through, reason, actor)
        VALUES ('reopen', p_through, p_reason, p_actor) RETURNING *;
      PERFORM set_config('ledger.reopening', 'off', true);
    END $$;
    REVOKE EXECUTE ON FUNCTION ledger_reopen_period(date, text, text) FROM PUBLIC;

    COMMENT ON FUNCTION ledger_refuse_raw_reopen() IS 'Refuses a reopen row not inserted by ledger_reopen_period.';
    COMMENT ON TRIGGER period_closes_reopen_by_function ON period_closes IS 'A reopening goes through ledger_reopen_period (actor and reason demanded); a raw INSERT of one is refused.';
    COMMENT ON FUNCTION ledger_reopen_period(date, text, text) IS 'The one way to reopen the books: through (null: nothing stays closed), reason and actor, neither blank; returns the row.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP FUNCTION ledger_reopen_period(date, text, text);
    DROP TRIGGER period_closes_reopen_by_function ON period_closes;
    DROP FUNCTION ledger_refuse_raw_reopen();
  `);
}
