import type { Knex } from 'knex';

/**
 * Who did it (docs/actors.md): every transaction records who posted it (`posted_by`), and a cash
 * request and a customer who made and who last changed them. Columns on the rows themselves,
 * not a side table: a posting stays one INSERT. Rows from before this migration read `legacy`
 * (Postgres keeps that as the column's missing value: no table is rewritten); the ledger's code
 * states it on every write from now on, and a row written by hand in SQL reads `sql`. Like every
 * column of a posted transaction it never changes (the update guard fires on every UPDATE). One
 * index serves the list's `posted_by` filter (a value or a prefix).
 */

const ACTOR = `text NOT NULL DEFAULT 'legacy' CHECK (length(%I) BETWEEN 1 AND 300)`;
const addActor = (table: string, column: string) => `
  ALTER TABLE ${table} ADD COLUMN ${column} ${ACTOR.replace('%I', column)};
  ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT 'sql';`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ${addActor('transactions', 'posted_by')}
    ${addActor('cash_requests', 'created_by')}
    ${addActor('cash_requests', 'updated_by')}
    ${addActor('customers', 'created_by')}
    ${addActor('customers', 'updated_by')}
    -- The list's posted_by filter: a value, or every value under a prefix (LIKE 'job:recost:%').
    CREATE INDEX transactions_posted_by_idx ON transactions (posted_by text_pattern_ops);
    COMMENT ON COLUMN transactions.posted_by IS 'Who posted it: api[:<operator>], job:<kind>:<job_id>, webhook:<upstream>:<event>:<job_id>, system; legacy before 20261231; sql when written by hand.';
    COMMENT ON COLUMN cash_requests.created_by IS 'Who made the request (as transactions.posted_by).';
    COMMENT ON COLUMN cash_requests.updated_by IS 'Who made its last transition (its creator until one).';
    COMMENT ON COLUMN customers.created_by IS 'Who created the customer (as transactions.posted_by).';
    COMMENT ON COLUMN customers.updated_by IS 'Who last changed the customer.';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX transactions_posted_by_idx;
    ALTER TABLE transactions DROP COLUMN posted_by;
    ALTER TABLE cash_requests DROP COLUMN created_by, DROP COLUMN updated_by;
    ALTER TABLE customers DROP COLUMN created_by, DROP COLUMN updated_by;
  `);
}
