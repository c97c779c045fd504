import type { Knex } from 'knex';

/**
 * `journal_lines_customer_idx` keeps the lines of the customer accounts only (2010, 2020, 2100:
 * the list of journal_lines_customer_account_has_customer, 20261220). Every line of a customer's
 * transaction carries the customer, so a fee's revenue, a broker cost, the omnibus cash of a trade
 * each had an entry too: about 88% of a recost derivation's entries, and a fifth of the Postgres
 * CPU of posting one (ADR 0009). The reads of a customer's lines on the firm's accounts go
 * through the customer's transactions (transactions_customer_idx, then journal_lines_txn_idx): a
 * line's customer is its transaction's, checked at insert (`customerLinesSql`,
 * store/read-model.ts).
 *
 * Built CONCURRENTLY, outside a transaction: posting goes on while the index builds. A build cut
 * short leaves an invalid index of the new name, dropped first by the next attempt.
 */
export const config = { transaction: false };

const CUSTOMER_ACCOUNTS = `('2010', '2020', '2100')`;

async function replaceIndex(knex: Knex, predicate: string): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS journal_lines_customer_idx_next');
  await knex.raw(`
    CREATE INDEX CONCURRENTLY journal_lines_customer_idx_next ON journal_lines (customer_id, account_code, txn_date)
      INCLUDE (debit, credit) WHERE ${predicate}`);
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS journal_lines_customer_idx');
  await knex.raw('ALTER INDEX journal_lines_customer_idx_next RENAME TO journal_lines_customer_idx');
}

export async function up(knex: Knex): Promise<void> {
  await replaceIndex(knex, `customer_id IS NOT NULL AND account_code IN ${CUSTOMER_ACCOUNTS}`);
  await knex.raw(
    `COMMENT ON INDEX journal_lines_customer_idx IS $comment$A customer's lines on the customer accounts (2010, 2020, 2100), by account and date, balances read from the index. Lines on the firm's accounts are reached through the customer's transactions (transactions_customer_idx).$comment$`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await replaceIndex(knex, 'customer_id IS NOT NULL');
}
