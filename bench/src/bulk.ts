import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TransactionDraft } from '@ledger/core/posting';
import { accountTotals, trialBalance } from '@ledger/core/reports';
import { postTransactions, upsertCustomer, type BulkResult as PostingResult } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { timed } from './cpu.js';
import { customerId, drafts } from './fixtures.js';

export interface BulkResult {
  /** Transactions the book held before the measured batch. */
  book: number;
  transactions: number;
  journalLines: number;
  seconds: number;
  /** CPU seconds of the measured posting: every Postgres process's (null off Linux), and this process's (encoding, judging). */
  postgresCpuSeconds: number | null;
  ownCpuSeconds: number;
  transactionsPerSecond: number;
  journalLinesPerSecond: number;
  /** The re-run of the same batch: every record read back and compared, answered duplicate. */
  rerunSeconds: number;
  /** The machine's yardstick, in the same run: the same lines COPYed into a table with no index, trigger or check. */
  rawCopyLinesPerSecond: number;
}

/** The yardstick's table: the journal lines' own columns, no index, trigger or check. */
export const RAW_COPY_COLUMNS = `(txn_id uuid, account_code text, debit numeric, credit numeric,
    posting_kind text, customer_id text, txn_date date)`;

/** The drafts' journal lines as the yardstick COPYs them: one text-format row a line. */
export const rawCopyRows = (batch: readonly TransactionDraft[]): string[] =>
  batch.flatMap((d) =>
    d.lines.map((l) =>
      [
        d.txnId,
        l.accountCode,
        l.debit.toFixed(),
        l.credit.toFixed(),
        l.postingKind ?? '\\N',
        d.customerId ?? '\\N',
        d.txnDate,
      ].join('\t'),
    ),
  );

/**
 * How fast this machine's Postgres takes the same journal lines by raw COPY into a bare table:
 * the figure the bulk target is set against (a quarter of it), measured where the bench runs.
 */
export async function rawCopyLinesPerSecond(database: TestDatabase, batch: TransactionDraft[]): Promise<number> {
  const { db } = database;
  await db.raw(`CREATE TABLE bench_raw_copy ${RAW_COPY_COLUMNS}`);
  const rows = rawCopyRows(batch);
  const chunks = Array.from(
    { length: Math.ceil(rows.length / 10_000) },
    (_, i) => `${rows.slice(i * 10_000, (i + 1) * 10_000).join('\n')}\n`,
  );
  const connection = (await db.client.acquireConnection()) as pg.PoolClient;
  try {
    const started = process.hrtime.bigint();
    await pipeline(Readable.from(chunks), connection.query(copyFrom('COPY bench_raw_copy FROM STDIN')));
    return rows.length / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** A bulk result's counts, e.g. `inserted 99999, duplicate 0, conflict 0, rejected 1`. */
const describe = ({ inserted, duplicate, conflict, rejected }: PostingResult) =>
  `inserted ${inserted}, duplicate ${duplicate}, conflict ${conflict}, rejected ${rejected}`;

/** Posts `count` drafts of the fixture numbered from `first`, a slice at a time (a large book is not held in memory at once). */
async function postBook(db: Parameters<typeof postTransactions>[0], first: number, count: number, customers: number) {
  const SLICE = 50_000;
  for (let done = 0; done < count; done += SLICE) {
    const size = Math.min(SLICE, count - done);
    const posted = await postTransactions(db, drafts(size, customers, first + done));
    if (posted.inserted !== size)
      throw new Error(`loading the book posted ${posted.inserted} of ${size}: ${describe(posted)}`);
  }
}

/**
 * The least book the measured batch is posted on: posting it first has the poster's code
 * compiled, as a running worker's is, before the measured batch.
 */
const WARM_UP = 10_000;

/**
 * Posts `count` transactions through the batch API the sync jobs use, each customer's together
 * as they give them, then the same batch again, on a book already holding `book` transactions,
 * at least WARM_UP (loaded the same way, then vacuumed and analysed): a write's cost as the book
 * grows is the figure that matters in production.
 */
export async function benchBulkPosting(
  database: TestDatabase,
  count: number,
  customers = 1_000,
  least = 0,
): Promise<BulkResult> {
  const book = Math.max(least, WARM_UP);
  const db = database.runtime?.db ?? database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, customerId(i, customers), {});
  await postBook(db, count, book, customers);
  await database.db.raw('VACUUM ANALYZE transactions, journal_lines');
  const batch = drafts(count, customers, 0, undefined, 'by_customer');
  const journalLines = batch.reduce((n, d) => n + d.lines.length, 0);

  const { result: first, seconds, postgresCpuSeconds, ownCpuSeconds } = await timed(() => postTransactions(db, batch));
  if (first.inserted !== count) throw new Error(`posted ${first.inserted} of ${count}: ${describe(first)}`);

  const totalsBefore = JSON.stringify(await accountTotals(db));
  const rerunStarted = process.hrtime.bigint();
  const second = await postTransactions(db, batch);
  const rerunSeconds = Number(process.hrtime.bigint() - rerunStarted) / 1e9;
  if (second.duplicate !== count)
    throw new Error(`re-running the batch did not answer every record duplicate: ${describe(second)}`);
  if (JSON.stringify(await accountTotals(db)) !== totalsBefore)
    throw new Error('re-running the batch changed the books');
  if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');
  const rawCopy = await rawCopyLinesPerSecond(database, batch);

  return {
    book,
    transactions: count,
    journalLines,
    seconds,
    postgresCpuSeconds,
    ownCpuSeconds,
    transactionsPerSecond: count / seconds,
    journalLinesPerSecond: journalLines / seconds,
    rerunSeconds,
    rawCopyLinesPerSecond: rawCopy,
  };
}
