import type { Knex } from 'knex';

/**
 * A line on a customer account (2010, 2020 wallets; 2100 securities owed) names its customer:
 * without one, the firm's wallets move while no customer's does (an adjustment could do it). The
 * domain refuses such an entry first (422 `customer_required`); this is the database's own check,
 * for every writer. The list is `CUSTOMER_ACCOUNTS` (domain/accounts.ts).
 *
 * NOT VALID: it holds for every line written from now on, and leaves lines already posted
 * unchecked. The journal is append-only, so such a line cannot be corrected in place; validating
 * would keep a book holding one from ever migrating (and starting). A correcting adjustment with
 * the customer is the fix; the wallet-derivation reconciliation finds the lines.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_customer_account_has_customer
      CHECK (account_code NOT IN ('2010', '2020', '2100') OR customer_id IS NOT NULL) NOT VALID;
    COMMENT ON CONSTRAINT journal_lines_customer_account_has_customer ON journal_lines IS ${literal(
      'A line on a customer account (2010, 2020, 2100) names its customer. NOT VALID: lines posted before 20261220 are not checked (the journal cannot be corrected in place).',
    )};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_customer_account_has_customer');
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
