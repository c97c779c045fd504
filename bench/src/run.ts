import { createTestDatabase } from '@ledger/core/testing';
import { benchBulkPosting } from './bulk.js';
import { entry, fundingEntry } from './fixtures.js';
import { benchManualEntry } from './http.js';
import { benchRecost } from './recost.js';
import { benchSyncUaefeed } from './uaefeed.js';

/**
 * `pnpm bench`: (a) manual entry over HTTP, 16 clients for 15 s, for two mixes of entries; (b) bulk posting of 100k
 * transactions through the batch API; (c) recost of 100k pending trades and a full re-cost of the
 * same history; (d) sync-uaefeed over a sandbox of 500 customers × 100 records. Each on a
 * throwaway database. Targets on a 2-core machine: (a) ≥ 2,000 transactions/s, (b) ≥ 100,000
 * journal lines/s, (c) ≥ 20,000 trades/s each, (d) ≥ 5,000 records/s end to end.
 */
const which = process.argv[2] ?? 'all';
const round = (n: number) => Math.round(n).toLocaleString('en-US');

async function withDatabase<T>(run: (db: Awaited<ReturnType<typeof createTestDatabase>>) => Promise<T>): Promise<T> {
  // As production runs: the processes and the bulk poster connect as a role that owns nothing.
  const database = await createTestDatabase({ poolMax: 4, runtimeRole: true });
  try {
    return await run(database);
  } finally {
    await database.drop();
  }
}

/** Funding is what operators enter by hand most; the mix adds trades (6 lines), income and tax. */
const HTTP_SCENARIOS = [
  { name: 'funding entries (deposits and withdrawals)', entry: fundingEntry },
  { name: 'mixed entries (30% buys, 20% sells, funding, dividends, tax)', entry },
];

if (which === 'all' || which === 'http') {
  for (const scenario of HTTP_SCENARIOS) {
    const r = await withDatabase((db) => benchManualEntry(db, scenario));
    console.log(
      `manual entry over HTTP, ${r.scenario} (${r.connections} clients, ${r.seconds} s): ${round(r.transactionsPerSecond)} transactions/s, ` +
        `p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms, ${r.transactions} posted, ${r.non2xx} non-2xx, ${r.errors} errors, ` +
        `CPU per transaction: api ${r.apiCpuMsPerTransaction ?? '?'} ms, Postgres ${r.postgresCpuMsPerTransaction ?? '?'} ms ` +
        `(target ≥ 2,000/s)`,
    );
  }
}
if (which === 'all' || which === 'bulk') {
  const r = await withDatabase((db) => benchBulkPosting(db, 100_000));
  console.log(
    `bulk posting (${round(r.transactions)} transactions, ${round(r.journalLines)} journal lines): ${r.seconds.toFixed(2)} s, ` +
      `${round(r.transactionsPerSecond)} transactions/s, ${round(r.journalLinesPerSecond)} journal lines/s (target ≥ 100,000 lines/s); ` +
      `re-run of the same batch answers all ${round(r.transactions)} duplicate in ${r.rerunSeconds.toFixed(2)} s; ` +
      `raw COPY of the same lines into a bare table here: ${round(r.rawCopyLinesPerSecond)} lines/s, so bulk posting runs at ` +
      `${Math.round((100 * r.journalLinesPerSecond) / r.rawCopyLinesPerSecond)}% of it (target ≈ 25%)`,
  );
}
if (which === 'all' || which === 'recost') {
  const r = await withDatabase((db) => benchRecost(db, 100_000));
  console.log(
    `recost (${round(r.trades)} pending trades over ${round(r.pairs)} customer-symbol pairs, posted in bulk): ` +
      `${r.firstSeconds.toFixed(2)} s, ${round(r.firstTradesPerSecond)} trades/s, ${round(r.derivations)} derivations posted; ` +
      `full re-cost of the same history (every recosted_at nulled): ${r.fullRecostSeconds.toFixed(2)} s, ${round(r.fullRecostTradesPerSecond)} trades/s ` +
      `(target ≥ 20,000 trades/s each); raw COPY of the trades' journal lines into a bare table here: ${round(r.rawCopyLinesPerSecond)} lines/s`,
  );
}
if (which === 'all' || which === 'uaefeed') {
  const r = await withDatabase((db) => benchSyncUaefeed(db, 500, 100));
  console.log(
    `sync-uaefeed end to end against the sandbox (${round(r.customers)} customers, ${round(r.records)} records over HTTP: fetch, map, post in bulk): ` +
      `${r.seconds.toFixed(2)} s, ${round(r.recordsPerSecond)} records/s (target ≥ 5,000/s), ${round(r.posted)} posted (${round(r.postedPerSecond)}/s), ` +
      `${round(r.skipped)} skipped (rejected transfers, unfilled orders); then recost of its ${round(r.trades)} pending transactions: ${r.recostSeconds.toFixed(2)} s ` +
      `(with it: ${round(r.records / (r.seconds + r.recostSeconds))} records/s); yardsticks here: the same transactions through bulk posting alone ` +
      `${round(r.bulkOnlyPerSecond)}/s (the sync posts at ${Math.round((100 * r.postedPerSecond) / r.bulkOnlyPerSecond)}% of it), raw COPY of their journal lines into a bare table ${round(r.rawCopyLinesPerSecond)} lines/s`,
  );
}
