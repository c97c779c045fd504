import type { Knex } from 'knex';

/**
 * The customer views (summary, trial balance, statement, equity curve, dividends) read one
 * customer's lines by account and date: without this index each request would scan the whole
 * journal. Firm-level lines (no customer) are left out of it; debit and credit ride along so
 * the balances are read from the index alone once the table is vacuumed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX journal_lines_customer_idx ON journal_lines (customer_id, account_code, txn_date)
      INCLUDE (debit, credit) WHERE customer_id IS NOT NULL
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS journal_lines_customer_idx');
}
