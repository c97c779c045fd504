import { postTransactions, upsertCustomer } from '@ledger/core';
import type { TestDatabase } from '@ledger/core/testing';
import { customerId, drafts } from './fixtures.js';
import { withApi } from './http.js';

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
 * through the bulk path a slice at a time, analysed as autovacuum would, then each report
 * requested SAMPLES times in a row after WARM_UP: the median is its latency.
 */
export async function benchReports(database: TestDatabase, count: number, customers = 1_000): Promise<ReportsResult> {
  const db = database.runtime?.db ?? database.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, customerId(i, customers), {});
  const started = process.hrtime.bigint();
  for (let first = 0; first < count; first += SLICE) {
    const slice = drafts(Math.min(SLICE, count - first), customers, first);
    const posted = await postTransactions(db, slice);
    if (posted.inserted !== slice.length) throw new Error(`posted ${posted.inserted} of ${slice.length} at ${first}`);
  }
  const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  await database.db.raw('ANALYZE');

  const medianMs = await withApi(database, async ({ baseUrl, ledgerToken }) => {
    const times = new Map<string, number>();
    for (const [name, path] of REPORTS) {
      const samples: number[] = [];
      for (let i = 0; i < WARM_UP + SAMPLES; i += 1) {
        const t0 = process.hrtime.bigint();
        const reply = await fetch(`${baseUrl}${path}`, { headers: { 'x-ledger-token': ledgerToken } });
        await reply.arrayBuffer();
        if (!reply.ok) throw new Error(`${path} answered ${reply.status}`);
        if (i >= WARM_UP) samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      samples.sort((a, b) => a - b);
      times.set(name, samples[Math.floor(samples.length / 2)] as number);
    }
    return times;
  });
  return { transactions: count, loadSeconds, medianMs };
}
