import { postTransactions, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { customerId, drafts } from './fixtures.js';

/** Transactions of the bench mix posted through the bulk path, then copied in SQL to make the book. */
const TEMPLATE = 1_000;
/** Copies of the template per database transaction: each its own posted_at, as a day of syncs would be. */
const COPIES_PER_COMMIT = 50;
/** Who posted the copies, in turn: mostly jobs (one value per job run), some operators through the api. */
const ACTORS = `ARRAY['job:sync-uaefeed:' || (c.k / 5), 'job:sync-usbroker:' || (c.k / 5), 'job:recost:' || (c.k / 10), 'api', 'api:ops@example.com']`;

/**
 * Copies of the template's transactions and lines, `first` to `last` (exclusive), each copy
 * with new ids and keys, its own day (the template's shifted by `k` days) and actor. txn_ids are
 * UUIDv7-shaped and older than any the api makes now, so the book reads as history. One
 * statement per table, in one database transaction: the triggers and the commit check run as
 * for any posting.
 */
const copySql = (template: string[], since: number, first: number, last: number) => [
  `CREATE TEMP TABLE copy_ids ON COMMIT DROP AS
    SELECT t.txn_id AS template_id, k,
           encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(${since}::bigint + k * ${TEMPLATE} + t.n) FROM 3)
                  FROM 1 FOR 6), 'hex')::uuid AS txn_id
      FROM (SELECT txn_id, row_number() OVER (ORDER BY txn_id) AS n FROM transactions WHERE txn_id = ANY('{${template.join(',')}}'::uuid[])) t
     CROSS JOIN generate_series(${first}, ${last - 1}) AS k`,
  `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity, txn_date,
                            amount_usd, original_currency, original_amount, fx_rate, memo, metadata, request_hash, posted_by)
    SELECT c.txn_id, t.customer_id, t.txn_type, t.source, t.source_txn_id || '-copy-' || c.k, t.category, t.symbol, t.quantity,
           t.txn_date - (c.k % 700), t.amount_usd, t.original_currency, t.original_amount, t.fx_rate, t.memo, t.metadata,
           t.request_hash, (${ACTORS})[1 + c.k % 5]
      FROM copy_ids c JOIN transactions t ON t.txn_id = c.template_id
     ORDER BY c.txn_id`,
  `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date)
    SELECT c.txn_id, l.account_code, l.debit, l.credit, l.customer_id, l.posting_kind,
           l.txn_date - (c.k % 700)
      FROM copy_ids c JOIN journal_lines l ON l.txn_id = c.template_id
     ORDER BY c.txn_id, l.line_id`,
];

/**
 * A book of about `count` transactions in little time: TEMPLATE transactions of the bench mix
 * over `customers` customers through the bulk path, then copied in SQL (see copySql), then
 * vacuumed and analysed as autovacuum would. Minutes faster than posting a million through the
 * bulk path, with the same shape of rows, lines, actors and days. Returns the seconds it took.
 */
export async function seedBook(database: TestDatabase, count: number, customers = 1_000): Promise<number> {
  const started = process.hrtime.bigint();
  const db = database.runtime?.db ?? database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, customerId(i, customers), {});
  const template = drafts(Math.min(TEMPLATE, count), customers);
  const posted = await postTransactions(db, template);
  if (posted.inserted !== template.length) throw new Error(`posted ${posted.inserted} of ${template.length}`);
  const copies = Math.ceil(count / TEMPLATE) - 1;
  // Milliseconds of the UUIDv7 time field: a year ago, one per copied transaction.
  const since = Date.now() - 365 * 86_400_000;
  for (let first = 1; first <= copies; first += COPIES_PER_COMMIT) {
    const last = Math.min(copies + 1, first + COPIES_PER_COMMIT);
    await database.db.transaction(async (trx) => {
      for (const statement of copySql(
        template.map((d) => d.txnId),
        since,
        first,
        last,
      ))
        await trx.raw(statement);
    });
  }
  await database.db.raw('VACUUM ANALYZE');
  return Number(process.hrtime.bigint() - started) / 1e9;
}
