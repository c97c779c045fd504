import { postTransactions, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { customerId, drafts } from './fixtures.js';
import { withApi, type RunningApi } from './http.js';

/** The firm reports timed, each as a GET of the running api. A mid-year day for `as_of` and a month for the window. */
export const REPORTS: ReadonlyArray<readonly [name: string, path: string]> = [
  ['summary', '/v1/firm/summary'],
  ['summary, a month', '/v1/firm/summary?from=2026-06-01&to=2026-06-30'],
  ['accounts', '/v1/firm/accounts'],
  ['accounts as_of', '/v1/firm/accounts?as_of=2026-06-30'],
  ['trial balance', '/v1/firm/trial_balance'],
  ['trial balance as_of', '/v1/firm/trial_balance?as_of=2026-06-30'],
  ['earnings', '/v1/firm/earnings'],
];

export interface ReportsResult {
  transactions: number;
  loadSeconds: number;
  /** Median milliseconds per report, by name. */
  medianMs: Map<string, number>;
}

const SLICE = 50_000;
const WARM_UP = 3;
const SAMPLES = 25;

/**
 * A book of `count` transactions of the bench mix (1,000 customers, 336 txn_dates) posted
 * through the bulk path a slice at a time, then vacuumed and analysed as autovacuum would (the
 * daily rows are updated by every chunk, so a freshly loaded book carries their dead versions).
 */
export async function loadBook(database: TestDatabase, count: number, customers: number): Promise<number> {
  const db = database.runtime?.db ?? database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, customerId(i, customers), {});
  const started = process.hrtime.bigint();
  for (let first = 0; first < count; first += SLICE) {
    const slice = drafts(Math.min(SLICE, count - first), customers, first);
    const posted = await postTransactions(db, slice);
    if (posted.inserted !== slice.length) throw new Error(`posted ${posted.inserted} of ${slice.length} at ${first}`);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await database.db.raw('VACUUM ANALYZE');
  return seconds;
}

/** Each api's running process, one per database, for the time of `run`. */
async function withApis<T>(
  databases: TestDatabase[],
  run: (apis: RunningApi[]) => Promise<T>,
  started: RunningApi[] = [],
): Promise<T> {
  const [next, ...rest] = databases;
  if (next === undefined) return run(started);
  return withApi(next, (api) => withApis(rest, run, [...started, api]));
}

/**
 * One book per size (`databases[i]` gets `counts[i]` transactions), then each report requested
 * of every book in turn, SAMPLES times after WARM_UP: taking the books in turn, request by
 * request, puts them under the same load of this shared machine. The median is the latency.
 */
export async function benchReports(
  databases: TestDatabase[],
  counts: number[],
  customers = 1_000,
): Promise<ReportsResult[]> {
  const loadSeconds: number[] = [];
  for (const [i, database] of databases.entries())
    loadSeconds.push(await loadBook(database, counts[i] as number, customers));
  const samples = counts.map(() => new Map<string, number[]>(REPORTS.map(([name]) => [name, []])));
  await withApis(databases, async (apis) => {
    for (const [name, path] of REPORTS) {
      for (let i = 0; i < WARM_UP + SAMPLES; i += 1) {
        for (const [book, { baseUrl, ledgerToken }] of apis.entries()) {
          const t0 = process.hrtime.bigint();
          const reply = await fetch(`${baseUrl}${path}`, { headers: { 'x-ledger-token': ledgerToken } });
          await reply.arrayBuffer();
          if (!reply.ok) throw new Error(`${path} answered ${reply.status}`);
          if (i >= WARM_UP) samples[book]?.get(name)?.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }
    }
  });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return counts.map((transactions, book) => ({
    transactions,
    loadSeconds: loadSeconds[book] as number,
    medianMs: new Map([...(samples[book] as Map<string, number[]>)].map(([name, values]) => [name, median(values)])),
  }));
}
