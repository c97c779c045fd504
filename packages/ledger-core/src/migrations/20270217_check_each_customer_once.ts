import type { Knex } from 'knex';

/**
 * `ledger_after_transactions_inserted` looks up each distinct customer a statement names once,
 * not once per transaction: bulk posting's COPY chunks (ADR 0016) carry 10,000 transactions of
 * some 1,000 customers, and the per-row lookups were 10,000 index probes a chunk. What it
 * refuses is unchanged (a customer_id that names no customer of the book).
 *
 * The function is redefined whole, as 20261206 left it but for that check: CREATE OR REPLACE
 * resets what it is not told, so it repeats its planner pins (20261121) and the owner's rights
 * with a pinned search_path (20261122). Its comment (20261126) stays with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    transactionsCheck(
      await currentSchema(knex),
      `SELECT 1 FROM (SELECT DISTINCT customer_id FROM new_txns WHERE customer_id IS NOT NULL) n
                  WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = n.customer_id)`,
    ),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    transactionsCheck(
      await currentSchema(knex),
      `SELECT 1 FROM new_txns n WHERE n.customer_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = n.customer_id)`,
    ),
  );
}

/** `ledger_after_transactions_inserted` as 20261206 defined it, with `unknownCustomer` finding a customer_id no customer holds. */
function transactionsCheck(schema: string, unknownCustomer: string): string {
  return `
    CREATE OR REPLACE FUNCTION ledger_after_transactions_inserted() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
      SECURITY DEFINER SET search_path = "${schema.replaceAll('"', '""')}", pg_temp AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM new_txns WHERE created_xid <> pg_current_xact_id() OR posted_at <> now()) THEN
        RAISE EXCEPTION 'created_xid and posted_at are stamped by the database; they cannot be given'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_posting_stamp';
      END IF;
      IF EXISTS (${unknownCustomer}) THEN
        RAISE EXCEPTION 'customer_id names no customer of this book'
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_transaction_customer_known';
      END IF;
      IF EXISTS (SELECT 1 FROM new_txns n WHERE n.reverses_txn_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM transactions o WHERE o.txn_id = n.reverses_txn_id)) THEN
        RAISE EXCEPTION 'reverses_txn_id names no transaction'
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_reversed_transaction_known';
      END IF;
      INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
      -- Rows locked in key order, so concurrent posters never deadlock.
      INSERT INTO transaction_daily_totals AS d (day, txn_type, slot, txn_count, amount_usd_total)
        SELECT txn_date, txn_type, (pg_backend_pid() % 16)::smallint, count(*), sum(amount_usd)
          FROM new_txns GROUP BY txn_date, txn_type ORDER BY txn_date, txn_type
        ON CONFLICT (day, txn_type, slot) DO UPDATE
          SET txn_count = d.txn_count + excluded.txn_count,
              amount_usd_total = d.amount_usd_total + excluded.amount_usd_total;
      RETURN NULL;
    END $$;`;
}

async function currentSchema(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('no current schema to pin the ledger checks to');
  return schema;
}
