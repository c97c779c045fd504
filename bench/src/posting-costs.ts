import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COPY_FROM, postTransactions, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { from as copyFrom } from 'pg-copy-streams';
import { backendCpuSecondsOf } from './cpu.js';
import { RAW_COPY_COLUMNS, rawCopyRows } from './bulk.js';
import { customerId, drafts, type PostingOrder } from './fixtures.js';

type Owner = TestDatabase['db'];

/** A part of posting, removed (inside the measured database transaction, rolled back) to see what it costs. */
export interface PostingPart {
  name: string;
  /** DDL run before the chunk is posted, undone by the rollback. */
  without: string[];
  /** Records per chunk of postTransactions: the whole batch (COPY) unless told. */
  chunkSize?: number;
  /** The order the batch is posted in: each customer's together (as the product's posters give it) unless told. */
  order?: PostingOrder;
}

const TRANSACTION_INDEXES = [
  'transactions_amount_idx',
  'transactions_customer_idx',
  'transactions_pair_idx',
  'transactions_posted_at_idx',
  'transactions_posted_by_idx',
  'transactions_txn_date_idx',
  'transactions_type_idx',
];
// journal_lines_txn_idx is left in: without it the commit check scans the journal once per transaction.
const LINE_INDEXES = ['journal_lines_account_idx', 'journal_lines_customer_idx'];

export const POSTING_PARTS: PostingPart[] = [
  { name: "nothing (the posting as it is: COPY, one chunk of 10,000, each customer's drafts together)", without: [] },
  {
    name: "nothing, the chunk's customers interleaved (round-robin: no poster of the product gives this order)",
    without: [],
    order: 'interleaved',
  },
  {
    name: `nothing, by the INSERT statement instead (statements of ${COPY_FROM - 1}, below the COPY path's)`,
    without: [],
    chunkSize: COPY_FROM - 1,
  },
  {
    name: 'the statement triggers (checks, totals, daily totals; so no commit check)',
    without: ['ALTER TABLE transactions DISABLE TRIGGER USER', 'ALTER TABLE journal_lines DISABLE TRIGGER USER'],
  },
  { name: 'every secondary index of transactions', without: TRANSACTION_INDEXES.map((i) => `DROP INDEX ${i}`) },
  { name: 'journal_lines_account_idx and _customer_idx', without: LINE_INDEXES.map((i) => `DROP INDEX ${i}`) },
  {
    name: 'all three: triggers and those nine indexes (rows, keys and journal_lines_txn_idx are left)',
    without: [
      'ALTER TABLE transactions DISABLE TRIGGER USER',
      'ALTER TABLE journal_lines DISABLE TRIGGER USER',
      ...[...TRANSACTION_INDEXES, ...LINE_INDEXES].map((i) => `DROP INDEX ${i}`),
    ],
  },
];

export interface PartCost {
  part: string;
  /** Postgres CPU (the posting backend's, /proc) per transaction: the INSERT statement, then the commit check. */
  insertMicros: number;
  commitCheckMicros: number;
  /**
   * Raw COPY's CPU per line over the part's, round by round (each round's raw COPY beside the
   * parts it ran with): lowest, median and highest. A machine whose speed drifts between rounds
   * moves both sides of a round's ratio alike, where the totals' ratio mixes rounds.
   */
  rawCopyShare: { low: number; median: number; high: number };
}

export interface PostingCosts {
  book: number;
  /** Transactions per measured batch, posted in one database transaction. */
  batch: number;
  linesPerTransaction: number;
  /** The yardstick, same backend and run: CPU of a raw COPY of the same lines into a bare table, per line (median of the rounds). */
  rawCopyMicrosPerLine: number;
  /** The rounds' lowest and highest raw COPY, per line. */
  rawCopyRange: [number, number];
  parts: PartCost[];
}

/**
 * What each part of bulk posting costs Postgres (single indexes are not resolved: on a shared
 * machine their few µs drown in the noise, so the parts are removed a group at a time), on a book
 * of `book` transactions: batches of `batchSize` of the bulk bench's fixture (one chunk, so by
 * COPY, unless the part says otherwise) posted by `postTransactions` inside a database
 * transaction of the schema owner in which the part is removed, the commit check forced, then
 * rolled back. CPU of the posting backend from the scheduler (/proc, ns), so other work on a
 * shared machine slows it but is not counted; beside it, in every round, that backend's CPU for
 * a raw COPY of the lines the round posted.
 */
export async function benchPostingCosts(
  database: TestDatabase,
  book: number,
  batchSize = 10_000,
  rounds = 5,
): Promise<PostingCosts> {
  const customers = 1_000;
  const owner = database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(owner, customerId(i, customers), {});
  for (let done = 0; done < book; done += 50_000) {
    const size = Math.min(50_000, book - done);
    const posted = await postTransactions(owner, drafts(size, customers, done));
    if (posted.inserted !== size) throw new Error(`loading the book posted ${posted.inserted} of ${size}`);
  }
  await owner.raw('VACUUM ANALYZE transactions, journal_lines');
  let next = book;
  const chunk = (order: PostingOrder) => {
    const batch = drafts(batchSize, customers, next, undefined, order);
    next += batch.length;
    return batch;
  };
  const sums = new Map<string, { insert: number; check: number; transactions: number; microsPerLine: number[] }>();
  const rawCopy: number[] = [];
  let lines = 0;
  let transactions = 0;
  for (let round = 0; round < rounds; round += 1) {
    const posted: Array<ReturnType<typeof drafts>> = [];
    for (const part of POSTING_PARTS) {
      const batch = chunk(part.order ?? 'by_customer');
      const cost = await postPart(owner, part, batch);
      const sum = sums.get(part.name) ?? { insert: 0, check: 0, transactions: 0, microsPerLine: [] };
      const batchLines = batch.reduce((n, d) => n + d.lines.length, 0);
      sums.set(part.name, {
        insert: sum.insert + cost.insert,
        check: sum.check + cost.check,
        transactions: sum.transactions + batch.length,
        microsPerLine: [...sum.microsPerLine, ((cost.insert + cost.check) * 1e6) / batchLines],
      });
      posted.push(batch);
      // The rolled-back batch left its rows and index entries behind, dead: gone before the next
      // part, which would otherwise insert beside them (and split pages they fill) as no real
      // posting does.
      await owner.raw('VACUUM transactions, journal_lines, recost_states');
      lines += batchLines;
      transactions += batch.length;
    }
    // The yardstick in every round, on the lines this round posted: a machine whose speed drifts
    // (other work, a neighbour on the host) moves both sides of the ratio alike.
    rawCopy.push(await rawCopyCpuPerLine(owner, posted.flat()));
  }
  const micros = (seconds: number, count: number) => (seconds * 1e6) / count;
  const sorted = [...rawCopy].sort((a, b) => a - b);
  return {
    book,
    batch: batchSize,
    linesPerTransaction: lines / transactions,
    rawCopyMicrosPerLine: sorted[Math.floor(sorted.length / 2)]!,
    rawCopyRange: [sorted[0]!, sorted[sorted.length - 1]!],
    parts: [...sums].map(([part, s]) => {
      const shares = s.microsPerLine.map((perLine, round) => rawCopy[round]! / perLine).sort((a, b) => a - b);
      return {
        part,
        insertMicros: micros(s.insert, s.transactions),
        commitCheckMicros: micros(s.check, s.transactions),
        rawCopyShare: {
          low: shares[0]!,
          median: shares[Math.floor(shares.length / 2)]!,
          high: shares[shares.length - 1]!,
        },
      };
    }),
  };
}

/**
 * Posts one batch with `part` removed, inside a database transaction of the schema owner that is
 * rolled back: the posting backend's CPU seconds for the posting and for the commit check (forced).
 */
async function postPart(
  owner: Owner,
  part: PostingPart,
  batch: ReturnType<typeof drafts>,
): Promise<{ insert: number; check: number }> {
  let cost = { insert: 0, check: 0 };
  await owner
    .transaction(async (trx) => {
      const pid = (await trx.raw<{ rows: Array<{ pid: number }> }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      for (const ddl of part.without) await trx.raw(ddl);
      const started = backendCpuSecondsOf(pid);
      const posted = await postTransactions(trx as unknown as Owner, batch, {
        chunkSize: part.chunkSize ?? batch.length,
        concurrency: 1,
      });
      if (posted.inserted !== batch.length) throw new Error(`posted ${posted.inserted} of ${batch.length}`);
      const inserted = backendCpuSecondsOf(pid);
      await trx.raw('SET CONSTRAINTS ALL IMMEDIATE');
      cost = { insert: inserted - started, check: backendCpuSecondsOf(pid) - inserted };
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return cost;
}

class RolledBack extends Error {}

/** CPU per line of the backend that COPYs the drafts' lines into a bare table (as the bulk bench's yardstick). */
async function rawCopyCpuPerLine(owner: Owner, batch: ReturnType<typeof drafts>): Promise<number> {
  const rows = rawCopyRows(batch);
  const connection = await owner.client.acquireConnection();
  try {
    await connection.query(`CREATE TABLE bench_raw_copy_cpu ${RAW_COPY_COLUMNS}`);
    const pid = (await connection.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const started = backendCpuSecondsOf(pid);
    await pipeline(
      Readable.from([`${rows.join('\n')}\n`]),
      connection.query(copyFrom('COPY bench_raw_copy_cpu FROM STDIN')),
    );
    return ((backendCpuSecondsOf(pid) - started) * 1e6) / rows.length;
  } finally {
    await connection.query('DROP TABLE bench_raw_copy_cpu');
    await owner.client.releaseConnection(connection);
  }
}
