import type { Knex } from 'knex';

/** The trigger functions that write the tables the ledger maintains for itself. */
const CHECKS = [
  'ledger_after_transactions_inserted',
  'ledger_after_lines_inserted',
  'ledger_assert_balanced_at_commit',
];

/**
 * The ledger's insert checks run with the schema owner's rights (SECURITY DEFINER), so the
 * role the service runs as needs no rights at all on what they maintain (`account_totals`,
 * `ledger_commit_checks`): it reaches those only by posting lines. As every SECURITY DEFINER
 * function must, each pins its search_path (the ledger's schema, then pg_temp last), so a
 * caller's objects cannot stand in for the ledger's. They remain trigger functions: nobody can
 * call them directly.
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('no current schema to pin the ledger checks to');
  for (const check of CHECKS) {
    await knex.raw('ALTER FUNCTION ??() SECURITY DEFINER SET search_path = ??, pg_temp', [check, schema]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const check of CHECKS) await knex.raw('ALTER FUNCTION ??() SECURITY INVOKER RESET search_path', [check]);
}
