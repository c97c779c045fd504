import type { Knex } from 'knex';

/**
 * Recost reads a customer's trades and derivations in one symbol (a pair) at a time, for groups
 * of pairs. With only `(symbol)` and `(customer_id, txn_date)` to go by, the planner scanned the
 * whole table once per group (a run's reads grew with the book, not with the pairs it touched).
 * `(symbol, customer_id, txn_date)` serves those reads and still every filter by symbol alone,
 * so it replaces `transactions_symbol_idx`: no index more to write on posting.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transactions_pair_idx ON transactions (symbol, customer_id, txn_date) WHERE symbol IS NOT NULL;
    DROP INDEX transactions_symbol_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transactions_symbol_idx ON transactions (symbol) WHERE symbol IS NOT NULL;
    DROP INDEX transactions_pair_idx;
  `);
}
