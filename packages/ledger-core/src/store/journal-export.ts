import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { DateWindow } from './customer-views.js';

/** One journal line with its transaction's facts, in export order: a transaction's lines are consecutive. */
export interface ExportLine {
  txn_id: string;
  txn_date: string;
  txn_type: string;
  source: string;
  source_txn_id: string;
  customer_id: string | null;
  symbol: string | null;
  memo: string | null;
  reverses_txn_id: string | null;
  line_id: string;
  account_code: string;
  account_name: string;
  debit: string;
  credit: string;
  /** An AED account's line: its amount in AED ('AED', positive, on the line's side); null on a USD line. */
  native_currency: string | null;
  native_amount: string | null;
}

/** Rows a database cursor fetches at a time: the export's memory is this many rows, whatever the book's size. */
export const EXPORT_BATCH_ROWS = 1_000;

/**
 * The book's journal lines (txn_date within the window) as an object stream read through a
 * server-side cursor (pg-query-stream): rows are fetched a batch at a time as the consumer
 * reads, so backpressure reaches the database and memory stays constant. Ordered by txn_date,
 * txn_id, line: each transaction's lines come together. The cursor holds one pooled connection
 * until the stream ends or is destroyed (destroy it when the reader goes away).
 */
export function streamJournal(db: Knex, window: DateWindow): Readable {
  const query = db('transactions as t')
    .join('journal_lines as l', 'l.txn_id', 't.txn_id')
    .join('accounts as a', 'a.account_code', 'l.account_code')
    .select(
      't.txn_id',
      't.txn_date',
      't.txn_type',
      't.source',
      't.source_txn_id',
      't.customer_id',
      't.symbol',
      't.memo',
      't.reverses_txn_id',
      db.raw('l.line_id::text AS line_id'),
      'l.account_code',
      'a.name as account_name',
      db.raw('l.debit::text AS debit'),
      db.raw('l.credit::text AS credit'),
      'l.native_currency',
      db.raw('l.native_amount::text AS native_amount'),
    )
    .orderBy([{ column: 't.txn_date' }, { column: 't.txn_id' }, { column: 'l.line_id' }]);
  if (window.from !== undefined) query.where('t.txn_date', '>=', window.from);
  if (window.to !== undefined) query.where('t.txn_date', '<=', window.to);
  return query.stream({ batchSize: EXPORT_BATCH_ROWS, highWaterMark: EXPORT_BATCH_ROWS });
}
