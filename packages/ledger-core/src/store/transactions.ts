import type { Knex } from 'knex';
import { JOURNAL_LINES, linesKeySql } from './columns/journal-lines.js';
import {
  FACT_COLUMNS,
  TRANSACTIONS,
  type StoredFacts,
  type StoredTransaction,
  type TransactionRecord,
  type TransactionRow,
} from './columns/transactions.js';
import { jsonObject, selectList } from './columns/table.js';

/** A journal line (alias `l`, its account `a`) as the JSON object StoredJournalLine is read from. */
export const JOURNAL_LINE_JSON = jsonObject(JOURNAL_LINES, 'l', { account_name: 'a.name' });

/** A row of a read of stored transactions: the transaction, its request hash and its lines. */
export type StoredRow = StoredTransaction & Pick<TransactionRow, 'request_hash'>;

export const recordOf = ({ request_hash: requestHash, ...transaction }: StoredRow): TransactionRecord => ({
  transaction,
  requestHash,
});

/** Stored transactions (`t`) with their lines and request hash, to be completed by a WHERE on `t`. */
const SELECT_STORED = `SELECT ${selectList(TRANSACTIONS, 't')}, r.txn_id AS reversed_by_txn_id,
       coalesce((SELECT json_agg(${JOURNAL_LINE_JSON} ORDER BY l.line_id)
         FROM journal_lines l JOIN accounts a USING (account_code) WHERE l.txn_id = t.txn_id), '[]') AS journal_lines
     FROM transactions t LEFT JOIN transactions r ON r.reverses_txn_id = t.txn_id`;

/** Transactions with their journal lines, by a condition on `t` (transactions). */
async function selectTransactions(
  db: Knex | Knex.Transaction,
  condition: string,
  params: Knex.RawBinding[],
): Promise<TransactionRecord[]> {
  const result = await db.raw<{ rows: StoredRow[] }>(`${SELECT_STORED} WHERE ${condition}`, params);
  return result.rows.map(recordOf);
}

/** One transaction with its journal lines, or null. */
export async function getTransaction(
  db: Knex,
  where: { txnId: string } | { reversesTxnId: string } | { source: string; sourceTxnId: string },
): Promise<TransactionRecord | null> {
  const [condition, params]: [string, string[]] =
    'txnId' in where
      ? ['t.txn_id = ?', [where.txnId]]
      : 'reversesTxnId' in where
        ? ['t.reverses_txn_id = ?', [where.reversesTxnId]]
        : ['t.source = ? AND t.source_txn_id = ?', [where.source, where.sourceTxnId]];
  const [found] = await selectTransactions(db, condition, params);
  return found ?? null;
}

/**
 * The transactions holding these (source, source_txn_id) keys, in one statement. Without JIT:
 * the planner prices the lines' subquery by the journal's statistics, which a bulk import has
 * just outdated; priced past jit_above_cost, a read of 2,000 keys spent ~1 s compiling for
 * ~30 ms of work (the bulk bench's re-run took 35 s instead of 3).
 */
export async function findBySourceKeys(
  db: Knex,
  keys: Array<{ source: string; sourceTxnId: string }>,
): Promise<TransactionRecord[]> {
  if (keys.length === 0) return [];
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL jit = off');
    return selectTransactions(trx, '(t.source, t.source_txn_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))', [
      keys.map((k) => k.source),
      keys.map((k) => k.sourceTxnId),
    ]);
  });
}

/** What a re-sent record is compared on (StoredFacts: the request it was posted from among them), by a condition on `t`. */
const SELECT_FACTS = `SELECT t.txn_id, t.source, t.source_txn_id, t.request_hash, ${FACT_COLUMNS.map((name) => `t.${name}`).join(', ')},
       ${linesKeySql('t.txn_id')} AS lines_key
     FROM transactions t`;

/**
 * The facts of the transactions holding these keys (bulk posting's duplicate-or-conflict
 * question), in one statement: no line, account name or timestamp is read into the process.
 * Without JIT, as findBySourceKeys.
 */
export async function findFactsBySourceKeys(
  db: Knex,
  keys: Array<{ source: string; sourceTxnId: string }>,
): Promise<StoredFacts[]> {
  if (keys.length === 0) return [];
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL jit = off');
    const { rows } = await trx.raw<{ rows: StoredFacts[] }>(
      `${SELECT_FACTS} WHERE (t.source, t.source_txn_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))`,
      [keys.map((k) => k.source), keys.map((k) => k.sourceTxnId)],
    );
    return rows;
  });
}
