import { createLogger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import { createRemitClient, NO_UPSTREAMS, type RemitClient } from '@ledger/upstream-clients';
import { type JobProgress } from '@ledger/job-runtime';
import { DEFAULT_JOB_SETTINGS, type JobDeps, type JobSettings } from '../src/index.js';

const logger = createLogger({ level: 'error', service: 'jobs-test', book: 'ENTITY_IND_IFSC', silent: true });

/** A remit client for tests: short timeout, one quick retry. */
export function testRemitClient(baseUrl: string, apiKey: string): RemitClient {
  return createRemitClient({ baseUrl, apiKey, timeoutMs: 3_000, retryLimit: 1, backoffMs: 5 });
}

/** What an India job runs with in a test; `progress` collects what it reported. */
export function indiaDeps(
  db: Db,
  remit: RemitClient | null,
  settings: Partial<JobSettings> = {},
): JobDeps & { reported: JobProgress[] } {
  const reported: JobProgress[] = [];
  return {
    book: 'ENTITY_IND_IFSC',
    db,
    logger,
    progress: (p) => reported.push(p),
    settings: { ...DEFAULT_JOB_SETTINGS, ...settings },
    upstreams: { ...NO_UPSTREAMS, remit },
    reported,
  };
}

/** How many rows of `table` match `where`. */
export async function rowCount(db: Db, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = await db(table).where(where).count<Array<{ n: string }>>({ n: '*' });
  return Number(row?.n ?? 0);
}

/** The remit postings of the book, as comparable tuples: [source_txn_id, txn_type, customer, date, its lines in order ("Dr 1300 8.57, Cr 4030 8.57")]. */
export async function remitPostings(db: Db): Promise<string[][]> {
  const rows: Array<{ source_txn_id: string; txn_type: string; customer_id: string; txn_date: string; lines: string }> =
    await db('transactions as t')
      .join('journal_lines as l', 'l.txn_id', 't.txn_id')
      .where('t.source', 'remit')
      .groupBy('t.txn_id')
      .select(
        't.source_txn_id',
        't.txn_type',
        't.customer_id',
        db.raw("to_char(t.txn_date, 'YYYY-MM-DD') AS txn_date"),
        db.raw(
          "string_agg(CASE WHEN l.debit > 0 THEN 'Dr ' || l.account_code || ' ' || l.debit ELSE 'Cr ' || l.account_code || ' ' || l.credit END, ', ' ORDER BY l.line_id) AS lines",
        ),
      )
      .orderBy('t.source_txn_id');
  return rows.map((r) => [r.source_txn_id, r.txn_type, r.customer_id, r.txn_date, r.lines]);
}

/** `cents × bps / 10,000`, half up, in whole cents: worked out on integers, apart from the code under test. */
export function spreadCents(usdCents: bigint, bps: bigint): bigint {
  return (usdCents * bps + 5_000n) / 10_000n;
}

export const centsText = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
