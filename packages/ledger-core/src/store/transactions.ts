import type { Knex } from 'knex';
import type pg from 'pg';
import { assert, LedgerError } from '../domain/errors.js';
import { Decimal } from '../domain/money.js';
import type { TxnType } from '../domain/posting-rules/index.js';
import { draftReversal, type TransactionDraft } from '../domain/transaction.js';
import { draftsToWrite, insertLinesSql, insertTransactionsSql, linesDocument, transactionsDocument } from './draft-rows.js';
import { isDataRefusal, isUniqueViolation, refusalOfEntry, translateDbError } from './errors.js';

/** A transaction as stored, with its journal lines, in wire form (decimal strings). */
export interface StoredTransaction {
  txn_id: string;
  customer_id: string | null;
  txn_type: TxnType;
  source: string;
  source_txn_id: string;
  category: string;
  symbol: string | null;
  quantity: string | null;
  txn_date: string;
  posted_at: Date;
  amount_usd: string;
  original_currency: string | null;
  original_amount: string | null;
  fx_rate: string | null;
  recosted_at: Date | null;
  reverses_txn_id: string | null;
  reversed_by_txn_id: string | null;
  memo: string | null;
  metadata: Record<string, unknown>;
  journal_lines: StoredJournalLine[];
}

export interface StoredJournalLine {
  line_id: string;
  txn_id: string;
  account_code: string;
  account_name: string;
  debit: string;
  credit: string;
  customer_id: string | null;
  posting_kind: string | null;
  txn_date: string;
  created_at: string;
}

/**
 * Inserts transactions with their journal lines in one set-based statement. A draft whose
 * (source, source_txn_id) is already taken is skipped, lines and all: this is what makes
 * ingest, and reversal (keyed by the original), idempotent. Returns the ids actually inserted.
 */
export async function insertDrafts(db: Knex | Knex.Transaction, batch: TransactionDraft[]): Promise<Set<string>> {
  const drafts = draftsToWrite(batch);
  if (drafts.length === 0) return new Set();
  try {
    const result = await db.raw<{ rows: Array<{ txn_id: string }> }>(
      `WITH new_txns AS (${insertTransactionsSql('txn_id')}), new_lines AS (${insertLinesSql('1')}) SELECT txn_id FROM new_txns`,
      [transactionsDocument(drafts), linesDocument(drafts)],
    );
    return new Set(result.rows.map((r) => r.txn_id));
  } catch (error) {
    translateDbError(error);
  }
}

/**
 * Posts many transactions: chunks of `chunkSize`, each one statement and one database
 * transaction, `concurrency` chunks at a time. A failed chunk leaves the committed ones in
 * place; posting is idempotent, so running the batch again completes it.
 */
export async function postTransactions(
  db: Knex,
  drafts: TransactionDraft[],
  { chunkSize = 2_000, concurrency = 2 }: { chunkSize?: number; concurrency?: number } = {},
): Promise<{ inserted: number; skipped: number }> {
  assert(chunkSize > 0 && concurrency > 0, 'chunkSize and concurrency must be positive');
  let inserted = 0;
  let next = 0;
  const poster = async () => {
    while (next < drafts.length) {
      const start = next;
      next += chunkSize;
      const posted = await insertDrafts(db, drafts.slice(start, start + chunkSize));
      inserted += posted.size; // after the await: `inserted += await …` would lose a concurrent chunk's count

    }
  };
  await Promise.all(Array.from({ length: concurrency }, poster));
  return { inserted, skipped: drafts.length - inserted };
}

/** ISO-8601 UTC with milliseconds, as JSON.stringify writes a Date. */
export const isoTimestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const TRANSACTION_COLUMNS = `t.txn_id, t.customer_id, t.txn_type, t.source, t.source_txn_id, t.category, t.symbol,
  t.quantity, t.txn_date, t.posted_at, t.amount_usd, t.original_currency, t.original_amount, t.fx_rate,
  t.recosted_at, t.reverses_txn_id, r.txn_id AS reversed_by_txn_id, t.memo, t.metadata`;

type StoredWithHash = { transaction: StoredTransaction; requestHash: string | null };
type StoredRow = StoredTransaction & { request_hash: string | null };

/** A journal line (alias `l`, its account `a`) as the JSON object `StoredJournalLine` is read from. */
const JOURNAL_LINE_JSON = `json_build_object(
  'line_id', l.line_id::text, 'txn_id', l.txn_id, 'account_code', l.account_code, 'account_name', a.name,
  'debit', l.debit::text, 'credit', l.credit::text, 'customer_id', l.customer_id,
  'posting_kind', l.posting_kind, 'txn_date', l.txn_date, 'created_at', ${isoTimestamp('l.created_at')})`;

/** Stored transactions (`t`) with their lines and request hash, to be completed by a WHERE on `t`. */
const SELECT_STORED = `SELECT ${TRANSACTION_COLUMNS}, t.request_hash,
       coalesce((SELECT json_agg(${JOURNAL_LINE_JSON} ORDER BY l.line_id)
         FROM journal_lines l JOIN accounts a USING (account_code) WHERE l.txn_id = t.txn_id), '[]') AS journal_lines
     FROM transactions t LEFT JOIN transactions r ON r.reverses_txn_id = t.txn_id`;

const withHash = ({ request_hash: requestHash, ...transaction }: StoredRow): StoredWithHash => ({ transaction, requestHash });

/** Transactions with their journal lines, by a condition on `t` (transactions). */
async function selectTransactions(db: Knex, condition: string, params: Knex.RawBinding[]): Promise<StoredWithHash[]> {
  const result = await db.raw<{ rows: StoredRow[] }>(`${SELECT_STORED} WHERE ${condition}`, params);
  return result.rows.map(withHash);
}

/** One transaction with its journal lines, or null. */
export async function getTransaction(
  db: Knex,
  where: { txnId: string } | { reversesTxnId: string } | { source: string; sourceTxnId: string },
): Promise<StoredWithHash | null> {
  const [condition, params]: [string, string[]] =
    'txnId' in where
      ? ['t.txn_id = ?', [where.txnId]]
      : 'reversesTxnId' in where
        ? ['t.reverses_txn_id = ?', [where.reversesTxnId]]
        : ['t.source = ? AND t.source_txn_id = ?', [where.source, where.sourceTxnId]];
  const [found] = await selectTransactions(db, condition, params);
  return found ?? null;
}

export type PostOutcome = { created: boolean; transaction: StoredTransaction };

const sourceKey = (source: string, sourceTxnId: string) => `${source}\u0000${sourceTxnId}`;

const STORED_TRANSACTION_COLUMNS = `txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity,
  txn_date, posted_at, amount_usd, original_currency, original_amount, fx_rate, recosted_at, reverses_txn_id, memo,
  metadata, request_hash`;

/**
 * Posts entries and answers, in the same statement, what it stored: each transaction it
 * inserted with its journal lines, from the inserts' RETURNING, in the shape a read gives
 * (store.test.ts compares the two). Same insert, same documents as insertDrafts; lines get
 * their ids in the entry's order. An entry whose key was already taken gets no row.
 */
const POST_AND_RETURN = `WITH new_txns AS (${insertTransactionsSql(STORED_TRANSACTION_COLUMNS, '$1')}),
  new_lines AS (${insertLinesSql('line_id, txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date, created_at', '$2')})
  SELECT t.txn_id, t.customer_id, t.txn_type, t.source, t.source_txn_id, t.category, t.symbol, t.quantity,
    t.txn_date, t.posted_at, t.amount_usd, t.original_currency, t.original_amount, t.fx_rate, t.recosted_at,
    t.reverses_txn_id, NULL::uuid AS reversed_by_txn_id, t.memo, t.metadata, t.request_hash,
    coalesce(lines.journal_lines, '[]') AS journal_lines
  FROM new_txns t
  LEFT JOIN (SELECT l.txn_id, json_agg(${JOURNAL_LINE_JSON} ORDER BY l.line_id) AS journal_lines
             FROM new_lines l JOIN accounts a USING (account_code) GROUP BY l.txn_id) lines USING (txn_id)`;

type Query = (text: string, values: string[]) => Promise<StoredRow[]>;

/** Runs POST_AND_RETURN on a pg connection as the named prepared statement. */
function postAndReturnOn(connection: pg.PoolClient): Query {
  return async (text, values) => (await connection.query<StoredRow>({ name: 'ledger_post_and_return', text, values })).rows;
}

/**
 * Runs `work` on a connection of the pool (not a knex transaction: inside one this would escape
 * it), translating the database's refusals of data into domain errors.
 */
async function onConnection<T>(db: Knex, work: (connection: pg.PoolClient) => Promise<T>): Promise<T> {
  assert(!db.isTransaction, 'posting runs in its own database transaction');
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    return await work(connection);
  } catch (error) {
    translateDbError(error);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * Posts drafts with POST_AND_RETURN: the transactions it inserted, as stored. It is the hot
 * statement of manual entry (one per batch), so it goes to pg as a named prepared statement:
 * each pooled connection parses and plans it once, not once per batch.
 */
function postAndReturn(db: Knex, drafts: TransactionDraft[]): Promise<StoredWithHash[]> {
  return onConnection(db, async (connection) => {
    const rows = await postAndReturnOn(connection)(POST_AND_RETURN, [transactionsDocument(drafts), linesDocument(drafts)]);
    return rows.map(withHash);
  });
}

/**
 * Each draft's outcome once the statement ran: created (it is among `inserted`), or already
 * posted under its (source, source_txn_id) with the same request, or an idempotency conflict.
 * Only drafts whose key was taken need a read.
 */
async function outcomesOf(db: Knex, drafts: TransactionDraft[], inserted: StoredWithHash[]): Promise<Array<PostOutcome | LedgerError>> {
  const insertedIds = new Set(inserted.map((s) => s.transaction.txn_id));
  const byKey = new Map(inserted.map((s) => [sourceKey(s.transaction.source, s.transaction.source_txn_id), s]));
  const taken = drafts.filter((d) => !byKey.has(sourceKey(d.source, d.sourceTxnId)));
  if (taken.length > 0) {
    // A new statement, so a new snapshot: it sees a key committed while ours ran, too.
    const found = await selectTransactions(
      db,
      '(t.source, t.source_txn_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))',
      [taken.map((d) => d.source), taken.map((d) => d.sourceTxnId)],
    );
    for (const s of found) byKey.set(sourceKey(s.transaction.source, s.transaction.source_txn_id), s);
  }
  return drafts.map((draft) => {
    const found = byKey.get(sourceKey(draft.source, draft.sourceTxnId));
    assert(found, `transaction ${draft.source}/${draft.sourceTxnId} neither inserted nor found`);
    if (insertedIds.has(draft.txnId)) return { created: true, transaction: found.transaction };
    if (found.requestHash !== draft.requestHash) {
      return new LedgerError(
        'idempotency_conflict',
        `source_txn_id ${draft.sourceTxnId} of source ${draft.source} was already posted with a different payload`,
        [{ txn_id: found.transaction.txn_id }],
      );
    }
    return { created: false, transaction: found.transaction };
  });
}

/**
 * Posts entries together, in one statement and one database transaction, and answers each on
 * its own (see outcomesOf). New entries are answered from the statement itself, in one round
 * trip. If the database refuses the statement's data (say one entry names an unknown
 * customer, or breaks a constraint no earlier check caught), each entry is posted alone, so a
 * bad entry fails only itself, and never takes its batch-mates with it.
 */
export async function postEntries(db: Knex, drafts: TransactionDraft[]): Promise<Array<PostOutcome | LedgerError>> {
  let inserted: StoredWithHash[];
  try {
    inserted = await postAndReturn(db, draftsToWrite(drafts));
  } catch (error) {
    if (!(error instanceof LedgerError) && !isDataRefusal(error)) throw error;
    if (drafts.length > 1) return (await Promise.all(drafts.map((draft) => postEntries(db, [draft])))).flat();
    return [error instanceof LedgerError ? error : refusalOfEntry(error)];
  }
  return outcomesOf(db, drafts, inserted);
}

/**
 * What posting the entry would answer, without storing it: the very statement posting runs, in
 * a database transaction whose deferred checks (the commit-time balance) are forced to run,
 * then rolled back. So preview refuses exactly what posting refuses.
 */
export async function previewEntry(db: Knex, draft: TransactionDraft): Promise<PostOutcome> {
  let inserted: StoredWithHash[];
  try {
    inserted = await onConnection(db, async (connection) => {
      await connection.query('BEGIN');
      try {
        const drafts = draftsToWrite([draft]);
        const rows = await postAndReturnOn(connection)(POST_AND_RETURN, [transactionsDocument(drafts), linesDocument(drafts)]);
        await connection.query('SET CONSTRAINTS ALL IMMEDIATE');
        return rows.map(withHash);
      } finally {
        await connection.query('ROLLBACK');
      }
    });
  } catch (error) {
    if (!isDataRefusal(error)) throw error;
    throw refusalOfEntry(error);
  }
  const [outcome] = await outcomesOf(db, [draft], inserted);
  assert(outcome, 'outcomesOf answered no entry');
  if (outcome instanceof LedgerError) throw outcome;
  return outcome;
}

/**
 * Posts one entry. Repeating its (source, source_txn_id) with the same request returns the
 * existing transaction; with a different request it is an idempotency conflict.
 */
export async function postEntry(db: Knex, draft: TransactionDraft): Promise<PostOutcome> {
  const [outcome] = await postEntries(db, [draft]);
  assert(outcome, 'postEntries answered no entry');
  if (outcome instanceof LedgerError) throw outcome;
  return outcome;
}

/**
 * Reverses a transaction: posts the mirror entry once. Concurrent and repeated calls all get
 * the one reversal: it is keyed by its original (source `ledger`, `reversal:<txn_id>`), and the
 * database's unique keys decide the race.
 */
export async function reverseTransaction(
  db: Knex,
  txnId: string,
  reversal: { txnId: string; txnDate: string; memo: string | null },
): Promise<PostOutcome> {
  const existing = await getTransaction(db, { reversesTxnId: txnId });
  if (existing) return { created: false, transaction: existing.transaction };
  const original = await getTransaction(db, { txnId });
  if (!original) throw new LedgerError('not_found', `transaction ${txnId} does not exist`);
  const t = original.transaction;
  const draft = draftReversal(
    {
      txnId: t.txn_id,
      txnDate: t.txn_date,
      txnType: t.txn_type,
      customerId: t.customer_id,
      symbol: t.symbol,
      quantity: t.quantity === null ? null : new Decimal(t.quantity),
      amountUsd: new Decimal(t.amount_usd),
      lines: t.journal_lines.map((l) => ({
        accountCode: l.account_code,
        debit: new Decimal(l.debit),
        credit: new Decimal(l.credit),
        postingKind: l.posting_kind,
      })),
    },
    reversal.txnId,
    reversal.txnDate,
    reversal.memo,
  );
  let inserted: Set<string>;
  try {
    inserted = await insertDrafts(db, [draft]);
  } catch (error) {
    // A concurrent reversal of the same original got in first: the partial unique index on
    // reverses_txn_id, which ON CONFLICT (source, source_txn_id) does not arbitrate, decided it.
    if (!isUniqueViolation(error, 'transactions_one_reversal')) throw error;
    inserted = new Set();
  }
  const stored = await getTransaction(db, { reversesTxnId: txnId });
  assert(stored, `reversal of ${txnId} neither inserted nor found`);
  return { created: inserted.has(draft.txnId), transaction: stored.transaction };
}
