import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Knex } from 'knex';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { assert } from '../domain/errors.js';
import { isBalanced } from '../domain/posting-rules/legs.js';
import type { TransactionDraft } from '../domain/transaction.js';
import { JOURNAL_LINES, linesOf } from './columns/journal-lines.js';
import { TRANSACTIONS, type TransactionRecord } from './columns/transactions.js';
import {
  copyFromStdin,
  copyRows,
  documentOf,
  documentRecords,
  insertList,
  insertValues,
  selectList,
} from './columns/table.js';
import { isUniqueViolation, refusalOf, translateDbError } from './errors.js';
import type { JournalWrite, JournalWritten } from '../use-cases/ports.js';
import { rependRecostByIds } from './recost-states.js';
import { JOURNAL_LINE_JSON, recordOf, type StoredRow } from './transactions.js';

/*
 * How drafts are written: one document for transactions and one for their lines (store/columns/
 * derives both, and the SQL reading them, from the column tables), one INSERT of
 * each in one statement. A draft whose (source, source_txn_id) is taken is skipped with its
 * lines: that skip is what makes ingest and reversal idempotent.
 */

/** The INSERT of the transactions of the document `document` (a placeholder: knex's `?`, pg's `$1`). */
const insertTransactionsSql = (returning: string, document: string) => `
  INSERT INTO transactions (${insertList(TRANSACTIONS)})
  SELECT ${insertValues(TRANSACTIONS, 't')}
  FROM ${documentRecords(TRANSACTIONS, document)} AS t
  ON CONFLICT (source, source_txn_id) DO NOTHING
  RETURNING ${returning}`;

/**
 * The lines of the transactions a `new_txns` CTE (of insertTransactionsSql) inserted, in the
 * drafts' order, so line ids follow it; lines of skipped transactions are not written.
 */
const insertLinesSql = (returning: string, document: string) => `
  INSERT INTO journal_lines (${insertList(JOURNAL_LINES)})
  SELECT ${insertValues(JOURNAL_LINES, 'l')}
  FROM ${documentRecords(JOURNAL_LINES, document)} AS l
  WHERE l.txn_id IN (SELECT txn_id FROM new_txns)
  ORDER BY l.position
  RETURNING ${returning}`;

/**
 * The recost states of the transactions a `new_txns` CTE inserted that are pending recost (their
 * ids given as `pending`): each starts pending (ADR 0009). The CTE returns txn_date and posted_at.
 */
const insertPendingSql = (pending: string) => `
  INSERT INTO recost_states (txn_id, txn_date, posted_at)
  SELECT txn_id, txn_date, posted_at FROM new_txns WHERE txn_id = ANY(${pending}::uuid[])`;

/** Inserts, answering the ids inserted. */
const INSERT_SQL = `WITH new_txns AS (${insertTransactionsSql('txn_id, txn_date, posted_at', '?')}),
  new_lines AS (${insertLinesSql('1', '?')}),
  new_pending AS (${insertPendingSql('?')})
  SELECT txn_id FROM new_txns`;

/**
 * Inserts and answers, in the same statement, what it stored: each transaction it inserted with
 * its journal lines, from the inserts' RETURNING, in the shape a read gives (store.test.ts
 * compares the two). Lines get their ids in the entry's order.
 */
const INSERT_AND_RETURN_SQL = `WITH new_txns AS (${insertTransactionsSql(selectList(TRANSACTIONS, undefined, ['recosted_at']), '$1')}),
  new_lines AS (${insertLinesSql(selectList(JOURNAL_LINES), '$2')}),
  new_pending AS (${insertPendingSql('$3')})
  SELECT ${selectList(TRANSACTIONS, 't', ['recosted_at'])}, NULL::uuid AS reversed_by_txn_id,
    -- This statement's own recost states are not visible to it: as they were just written.
    CASE WHEN t.txn_id = ANY($3::uuid[]) THEN NULL ELSE t.posted_at END AS recosted_at,
    coalesce(lines.journal_lines, '[]') AS journal_lines
  FROM new_txns t
  LEFT JOIN (SELECT l.txn_id, json_agg(${JOURNAL_LINE_JSON} ORDER BY l.line_id) AS journal_lines
             FROM new_lines l JOIN accounts a USING (account_code) GROUP BY l.txn_id) lines USING (txn_id)`;

/**
 * The drafts to write: each once (the same draft twice would join its lines to its one row
 * twice), each asserted balanced — balanced three times: by the rule, here, and by the
 * database at commit.
 */
function draftsToWrite(batch: TransactionDraft[]): TransactionDraft[] {
  const drafts = [...new Map(batch.map((d) => [d.txnId, d])).values()];
  for (const d of drafts) assert(isBalanced(d.lines), `transaction ${d.txnId} reached the store unbalanced`);
  return drafts;
}

/** What the inserts read: the transactions' document, their lines', and the ids of those pending recost. */
const documents = (drafts: TransactionDraft[]) => [
  documentOf(TRANSACTIONS, drafts),
  documentOf(JOURNAL_LINES, linesOf(drafts)),
  drafts.filter((d) => d.pendingRecost).map((d) => d.txnId),
];

/** Inserts drafts of draftsToWrite with INSERT_SQL; rejects with the database's own error. */
async function insertWritten(db: Knex | Knex.Transaction, drafts: TransactionDraft[]): Promise<Set<string>> {
  if (drafts.length === 0) return new Set();
  const result = await db.raw<{ rows: Array<{ txn_id: string }> }>(INSERT_SQL, documents(drafts));
  return new Set(result.rows.map((r) => r.txn_id));
}

/*
 * The COPY path of bulk posting (ADR 0016): a batch of at least COPY_FROM drafts goes to the
 * tables by COPY, transactions then lines, in one database transaction. The statement triggers
 * fire for COPY as for INSERT (checks, totals, daily totals, the commit check scheduled), and
 * the balance check runs at commit, so every invariant holds as on the INSERT path. COPY has no
 * ON CONFLICT: a taken key fails it, and the batch then goes by INSERT_SQL, which skips taken
 * keys, so a re-run answers per record as ever.
 */

/**
 * Drafts from which a bulk insert COPYs them. Below it INSERT_SQL's one round trip is worth more
 * than COPY's lower cost per line (the COPY path takes seven); bulk posting's chunks are above it.
 */
export const COPY_FROM = 1_000;

/**
 * The session's memory for a COPYed batch's sorts and its triggers' transition tables: at the
 * default 4 MB the lines of a chunk of 10,000 spill to disk and are read back by each trigger
 * query (ADR 0016). SET LOCAL: it ends with the database transaction.
 */
const COPY_WORK_MEM = "SET LOCAL work_mem = '64MB'";
const COPY_TRANSACTIONS = copyFromStdin('transactions', TRANSACTIONS);
const COPY_LINES = copyFromStdin('journal_lines', JOURNAL_LINES);

/**
 * The recost states of COPYed transactions pending recost (ids and dates given): each starts
 * pending (ADR 0009). Their posted_at is now(): the COPY stamped it in this database transaction
 * (ledger_after_transactions_inserted holds posted_at = now()), so nothing is read back.
 */
const INSERT_PENDING_SQL = `INSERT INTO recost_states (txn_id, txn_date, posted_at)
  SELECT txn_id, txn_date, now() FROM unnest(?::uuid[], ?::date[]) AS p(txn_id, txn_date)`;

/** Streams COPY-format `rows` into `copy` on the connection of `trx`. */
async function copyInto(trx: Knex.Transaction, copy: string, rows: Buffer): Promise<void> {
  const connection = (await trx.client.acquireConnection()) as pg.PoolClient;
  await pipeline(Readable.from([rows]), connection.query(copyFrom(copy)));
}

/** COPYs drafts of draftsToWrite, their lines (ids in the drafts' order) and recost states, in `trx`; answers their ids. */
async function copyWritten(trx: Knex.Transaction, drafts: TransactionDraft[]): Promise<Set<string>> {
  await copyInto(trx, COPY_TRANSACTIONS, copyRows(TRANSACTIONS, drafts));
  await copyInto(trx, COPY_LINES, copyRows(JOURNAL_LINES, linesOf(drafts)));
  const pending = drafts.filter((d) => d.pendingRecost);
  if (pending.length > 0)
    await trx.raw(INSERT_PENDING_SQL, [pending.map((d) => d.txnId), pending.map((d) => d.txnDate)]);
  return new Set(drafts.map((d) => d.txnId));
}

/**
 * Inserts drafts of draftsToWrite by COPY in one database transaction (a savepoint of `db`'s,
 * when it is one), the COPYs under a savepoint of their own: on a unique violation (a key
 * already posted, or twice in the batch) they are rolled back to it and the batch is inserted by
 * INSERT_SQL instead, in the same database transaction. Rejects with the database's own error.
 */
async function copyOrInsertWritten(db: Knex | Knex.Transaction, drafts: TransactionDraft[]): Promise<Set<string>> {
  return db.transaction(async (trx) => {
    await trx.raw(COPY_WORK_MEM);
    try {
      return await trx.transaction((copying) => copyWritten(copying, drafts));
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== '23505') throw error;
      return insertWritten(trx, drafts);
    }
  });
}

/**
 * Inserts transactions with their journal lines in one set-based statement (in `db`'s database
 * transaction, when it is one), skipping drafts whose key is taken. Returns the ids inserted.
 * The refusals a rule names are domain errors; any other is the database's own error. Private:
 * writeJournal is its one caller, and the one way into the journal (ADR 0015).
 */
async function insertDrafts(db: Knex | Knex.Transaction, batch: TransactionDraft[]): Promise<Set<string>> {
  try {
    const drafts = draftsToWrite(batch);
    // A batch of COPY_FROM or more by COPY (ADR 0016), a smaller one by INSERT_SQL.
    return await (drafts.length >= COPY_FROM ? copyOrInsertWritten(db, drafts) : insertWritten(db, drafts));
  } catch (error) {
    translateDbError(error);
  }
}

/**
 * Runs `work` on a connection of the pool (not a knex transaction: inside one this would escape
 * it), every refusal of the drafts' data a domain error.
 */
async function onConnection<T>(db: Knex, work: (connection: pg.PoolClient) => Promise<T>): Promise<T> {
  assert(!db.isTransaction, 'posting runs in its own database transaction');
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    return await work(connection);
  } catch (error) {
    refusalOf(error);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * Runs INSERT_AND_RETURN_SQL. It is the hot statement of manual entry (one per batch), so it goes
 * to pg as a named prepared statement: each pooled connection parses and plans it once.
 */
async function insertAndReturnOn(connection: pg.PoolClient, drafts: TransactionDraft[]): Promise<TransactionRecord[]> {
  const { rows } = await connection.query<StoredRow>({
    name: 'ledger_post_and_return',
    text: INSERT_AND_RETURN_SQL,
    values: documents(drafts),
  });
  return rows.map(recordOf);
}

/** Inserts drafts and answers each transaction it inserted, as stored. */
async function insertAndReturn(db: Knex, batch: TransactionDraft[]): Promise<TransactionRecord[]> {
  const drafts = draftsToWrite(batch);
  return onConnection(db, (connection) => insertAndReturnOn(connection, drafts));
}

/**
 * The very statement posting runs, in a database transaction whose deferred checks (the
 * commit-time balance) are forced to run, then rolled back. So preview refuses exactly what
 * posting refuses.
 */
async function insertAndReturnRolledBack(db: Knex, batch: TransactionDraft[]): Promise<TransactionRecord[]> {
  const drafts = draftsToWrite(batch);
  return onConnection(db, async (connection) => {
    await connection.query('BEGIN');
    try {
      const records = await insertAndReturnOn(connection, drafts);
      await connection.query('SET CONSTRAINTS ALL IMMEDIATE');
      return records;
    } finally {
      await connection.query('ROLLBACK');
    }
  });
}

const written = (records: TransactionRecord[]): JournalWritten => ({
  inserted: new Set(records.map((r) => r.transaction.txn_id)),
  records,
});

/**
 * What a reversal does beside its insert, in the same database transaction: a reversed trade is
 * pending recost again (`rependRecost`), never after it: a reversed trade left stamped keeps its
 * lot until someone notices. Even when already pending: the row lock waits for a recost stamp in
 * flight, then undoes it.
 */
async function afterReversal(
  trx: Knex.Transaction,
  draft: TransactionDraft,
  inserted: Set<string>,
  rependRecost: boolean,
) {
  const original = draft.reversesTxnId;
  assert(original !== null, `transaction ${draft.txnId} reverses nothing`);
  if (inserted.has(draft.txnId) && rependRecost) await rependRecostByIds(trx, [original]);
}

/**
 * The one way into the journal: every write of transactions and journal lines runs here, in
 * `db`'s database transaction when it is one. Every refusal of the drafts' data is a LedgerError
 * (refusalOf); a failure of the service is thrown as it is.
 */
export async function writeJournal(
  db: Knex | Knex.Transaction,
  { drafts, answer = 'ids', reversal }: JournalWrite,
): Promise<JournalWritten> {
  if (answer === 'records') return written(await insertAndReturn(db as Knex, drafts));
  if (answer === 'preview') return written(await insertAndReturnRolledBack(db as Knex, drafts));
  assert(!reversal || (drafts.length === 1 && drafts[0]), 'a reversal is written alone');
  // A reversal and its repending commit together; anything else is the one statement's own transaction.
  const run = <T>(work: (target: Knex | Knex.Transaction) => Promise<T>): Promise<T> =>
    reversal ? db.transaction(work) : work(db);
  try {
    const inserted = await run(async (target) => {
      const ids = await insertDrafts(target, drafts);
      if (reversal) await afterReversal(target as Knex.Transaction, drafts[0]!, ids, reversal.rependRecost);
      return ids;
    });
    return { inserted, records: [] };
  } catch (error) {
    // A concurrent reversal of the same original got in first: the partial unique index on
    // reverses_txn_id, which ON CONFLICT (source, source_txn_id) does not arbitrate, decided it.
    if (reversal && isUniqueViolation(error, 'transactions_one_reversal')) return { inserted: new Set(), records: [] };
    refusalOf(error);
  }
}
