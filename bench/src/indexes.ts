import pg from 'pg';
import type { TestDatabase } from '@ledger/core/testing';
import { customerLinesSql } from '@ledger/core/store';
import { backendCpuSecondsOf } from './cpu.js';
import { seedBook } from './seed.js';

/**
 * The reads each index of `transactions` and `journal_lines` serves, as the code asks them (the
 * list's default order and filters, the journal, the customer views, recost, the India reports,
 * incremental reconciliation, the commit check). The primary keys and the unique indexes
 * (idempotency key, one reversal per original) are correctness, not speed: not timed here.
 */
export const INDEX_READS: ReadonlyArray<{
  index: string;
  table: string;
  reads: ReadonlyArray<[name: string, sql: string]>;
}> = [
  {
    index: 'transactions_txn_date_idx',
    table: 'transactions',
    reads: [
      ['list, default order', `SELECT t.txn_id FROM transactions t ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`],
      [
        'list, a month',
        `SELECT t.txn_id FROM transactions t WHERE t.txn_date BETWEEN '2026-06-01' AND '2026-06-30' ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
    ],
  },
  {
    index: 'transactions_posted_at_idx',
    table: 'transactions',
    reads: [
      ['list, sort=posted_at', `SELECT t.txn_id FROM transactions t ORDER BY t.posted_at DESC, t.txn_id DESC LIMIT 50`],
      [
        'incremental reconciliation (posted in the last hour)',
        `SELECT count(*) FROM transactions WHERE posted_at >= now() - interval '1 hour'`,
      ],
    ],
  },
  {
    index: 'transactions_amount_idx',
    table: 'transactions',
    reads: [
      [
        'list, sort=amount_usd',
        `SELECT t.txn_id FROM transactions t ORDER BY t.amount_usd DESC, t.txn_id DESC LIMIT 50`,
      ],
      [
        'list, amount_min=4990',
        `SELECT t.txn_id FROM transactions t WHERE t.amount_usd >= 4990 ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
    ],
  },
  {
    index: 'transactions_customer_idx',
    table: 'transactions',
    reads: [
      [
        'list, customer_id',
        `SELECT t.txn_id FROM transactions t WHERE t.customer_id = 'BENCH-7' ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
      [
        "a customer's trial balance (their lines on every account, through their transactions)",
        `SELECT l.account_code, sum(l.debit), sum(l.credit) FROM journal_lines l
          WHERE ${customerLinesSql('l', "'BENCH-7'")} GROUP BY l.account_code`,
      ],
      [
        'journal, customer_id (their lines on every account, newest first)',
        `SELECT l.line_id FROM journal_lines l WHERE ${customerLinesSql('l', "'BENCH-7'")} ORDER BY l.line_id DESC LIMIT 50`,
      ],
    ],
  },
  {
    index: 'transactions_type_idx',
    table: 'transactions',
    reads: [
      [
        'list, txn_type=wht_tax',
        `SELECT t.txn_id FROM transactions t WHERE t.txn_type = 'wht_tax' ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
      [
        'India: sells in a month',
        `SELECT count(*) FROM transactions t WHERE t.txn_type = 'sell_security' AND t.txn_date BETWEEN '2026-06-01' AND '2026-06-30'`,
      ],
    ],
  },
  {
    index: 'transactions_pair_idx',
    table: 'transactions',
    reads: [
      [
        'recost: one customer-symbol pair',
        `SELECT t.txn_id FROM transactions t WHERE t.symbol = 'AAPL' AND t.customer_id = 'BENCH-7' ORDER BY t.txn_date`,
      ],
    ],
  },
  {
    index: 'transactions_posted_by_idx',
    table: 'transactions',
    reads: [
      [
        'list, posted_by=api:ops@example.com',
        `SELECT t.txn_id FROM transactions t WHERE t.posted_by = 'api:ops@example.com' ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
      [
        'list, posted_by=job:recost:7 (one run)',
        `SELECT t.txn_id FROM transactions t WHERE t.posted_by = 'job:recost:7' ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
      [
        'list, posted_by=job:recost: (every run)',
        `SELECT t.txn_id FROM transactions t WHERE t.posted_by LIKE 'job:recost:%' ORDER BY t.txn_date DESC, t.txn_id DESC LIMIT 50`,
      ],
    ],
  },
  {
    index: 'journal_lines_account_idx',
    table: 'journal_lines',
    reads: [
      [
        'journal, account_code=4010',
        `SELECT l.line_id FROM journal_lines l WHERE l.account_code = '4010' ORDER BY l.line_id DESC LIMIT 50`,
      ],
      [
        'journal, account_code=5010',
        `SELECT l.line_id FROM journal_lines l WHERE l.account_code = '5010' ORDER BY l.line_id DESC LIMIT 50`,
      ],
    ],
  },
  {
    index: 'journal_lines_customer_idx',
    table: 'journal_lines',
    reads: [
      [
        "a customer's wallet as of a day",
        `SELECT sum(debit) - sum(credit) FROM journal_lines WHERE customer_id = 'BENCH-7' AND account_code = '2010' AND txn_date <= '2026-06-30'`,
      ],
    ],
  },
  {
    index: 'journal_lines_txn_idx',
    table: 'journal_lines',
    reads: [
      [
        "a transaction's lines",
        `SELECT l.* FROM journal_lines l WHERE l.txn_id = (SELECT txn_id FROM transactions ORDER BY txn_id DESC LIMIT 1)`,
      ],
    ],
  },
];

/** Transactions (with their lines) each cost measurement inserts, rolled back. */
const INSERTED = 5_000;
const REPEATS = 3;

export interface IndexAudit {
  bookTransactions: number;
  seedSeconds: number;
  /** Backend CPU µs per posted transaction (with its lines), every index in place. */
  allIndexesUsPerTransaction: number;
  indexes: Array<{
    index: string;
    sizeMb: number;
    /** Backend CPU µs per posted transaction this index costs: with it, less without it (median of REPEATS). */
    costUsPerTransaction: number;
    reads: Array<{ name: string; withMs: number; withoutMs: number; planWith: string; planWithout: string }>;
  }>;
}

/** INSERTED copies of the book's latest transactions with their lines, as new postings (time-ordered ids, new keys). */
const POST_COPIES = [
  `CREATE TEMP TABLE copies ON COMMIT DROP AS
     SELECT txn_id AS template_id,
            encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                   FROM 1 FOR 6), 'hex')::uuid AS txn_id
       FROM (SELECT txn_id FROM transactions ORDER BY txn_id DESC LIMIT ${INSERTED}) t`,
  `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity, txn_date,
                             amount_usd, original_currency, original_amount, fx_rate, memo, metadata, request_hash, posted_by)
     SELECT c.txn_id, t.customer_id, t.txn_type, 'manual', c.txn_id::text, t.category, t.symbol, t.quantity, t.txn_date,
            t.amount_usd, t.original_currency, t.original_amount, t.fx_rate, t.memo, t.metadata, t.request_hash, 'api'
       FROM copies c JOIN transactions t ON t.txn_id = c.template_id ORDER BY c.txn_id`,
  `INSERT INTO journal_lines (txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date)
     SELECT c.txn_id, l.account_code, l.debit, l.credit, l.customer_id, l.posting_kind, l.txn_date
       FROM copies c JOIN journal_lines l ON l.txn_id = c.template_id ORDER BY c.txn_id, l.line_id`,
];

/** Backend CPU µs per transaction of posting the copies, `without` dropped first; all rolled back. */
async function postingCost(client: pg.Client, backend: number, without?: string): Promise<number> {
  await client.query('BEGIN');
  try {
    if (without !== undefined) await client.query(`DROP INDEX ${without}`);
    await client.query(POST_COPIES[0] as string);
    const before = backendCpuSecondsOf(backend);
    for (const statement of POST_COPIES.slice(1)) await client.query(statement);
    return ((backendCpuSecondsOf(backend) - before) * 1e6) / INSERTED;
  } finally {
    await client.query('ROLLBACK');
  }
}

/** EXPLAIN ANALYZE of `sql`: its execution time in ms and the plan's first node. */
async function explain(client: pg.Client, sql: string): Promise<{ ms: number; plan: string }> {
  // Twice: the first warms the cache, the second is the figure.
  await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`);
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: object; 'Execution Time': number }> }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
  );
  const [result] = rows[0]!['QUERY PLAN'];
  const nodes: string[] = [];
  const walk = (node: { 'Node Type': string; 'Index Name'?: string; Plans?: object[] }) => {
    nodes.push(node['Index Name'] ? `${node['Node Type']} ${node['Index Name']}` : node['Node Type']);
    for (const child of node.Plans ?? []) walk(child as typeof node);
  };
  walk(result!.Plan as Parameters<typeof walk>[0]);
  return { ms: Math.round(result!['Execution Time'] * 100) / 100, plan: nodes.join(' > ') };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * What each secondary index costs a posting and what the reads it serves cost without it, on a
 * book of `count` transactions: for each index, REPEATS times, INSERTED transactions with their
 * lines posted with every index and with that one dropped (in a transaction rolled back), by the
 * backend's own CPU time, so other work on a shared machine does not count; then each read it
 * serves, EXPLAIN ANALYZEd with it and without it.
 */
export async function benchIndexes(database: TestDatabase, count: number): Promise<IndexAudit> {
  const seedSeconds = await seedBook(database, count);
  return { bookTransactions: count, seedSeconds, ...(await auditIndexes(database.url)) };
}

/** The audit of benchIndexes on the book at `url`, as it stands. */
export async function auditIndexes(url: string): Promise<Pick<IndexAudit, 'allIndexesUsPerTransaction' | 'indexes'>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const baseline: number[] = [];
    const indexes: IndexAudit['indexes'] = [];
    for (const { index, reads } of INDEX_READS) {
      const costs: number[] = [];
      for (let r = 0; r < REPEATS; r += 1) {
        const all = await postingCost(client, backend);
        baseline.push(all);
        costs.push(all - (await postingCost(client, backend, index)));
      }
      const size = await client.query<{ bytes: string }>('SELECT pg_relation_size($1::regclass) AS bytes', [index]);
      const timed = [];
      for (const [name, sql] of reads) {
        const withIt = await explain(client, sql);
        await client.query('BEGIN');
        let without;
        try {
          await client.query(`DROP INDEX ${index}`);
          without = await explain(client, sql);
        } finally {
          await client.query('ROLLBACK');
        }
        timed.push({
          name,
          withMs: withIt.ms,
          withoutMs: without.ms,
          planWith: withIt.plan,
          planWithout: without.plan,
        });
      }
      indexes.push({
        index,
        sizeMb: Math.round(Number(size.rows[0]!.bytes) / 1_048_576),
        costUsPerTransaction: Math.round(median(costs) * 10) / 10,
        reads: timed,
      });
    }
    return {
      allIndexesUsPerTransaction: Math.round(median(baseline)),
      indexes,
    };
  } finally {
    await client.end();
  }
}
