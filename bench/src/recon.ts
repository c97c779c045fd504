import { loadavg } from 'node:os';
import { postTransactions } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import {
  CHECKS,
  DEFAULT_RECON_SETTINGS,
  FULL_SWEEP_SETTINGS,
  runReconciliation,
  worst,
  type CheckStatus,
  type ReconciliationRun,
  type ReconSettings,
} from '@ledger/reconciliation';
import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { drafts, entry } from './fixtures.js';
import { fundCustomers, postEntries, withApi } from './http.js';
import { loadBook } from './reports.js';

export interface ReconBenchResult {
  transactions: number;
  loadSeconds: number;
  /** The A, B and D checks in one run each (as recon runs them), full sweeps, seconds. */
  sweepSeconds: number;
  /** Each check alone, full sweep, seconds, with its status. */
  checks: Array<{ name: string; seconds: number; status: string }>;
  /** The yardstick, timed just before the full sweep and the incremental run: one sequential scan of the journal (`SELECT count(*), sum(debit) FROM journal_lines`), seconds. */
  yardstickSeconds: { sweep: number; incremental: number };
  /** The machine's 1-minute load average at the same two moments. */
  loadAverage: { sweep: number; incremental: number };
  /** Transactions posted after the last clean run, before the incremental one. */
  newTransactions: number;
  /** The A, B and D checks in one run each, incremental (since their high-water marks), seconds, and the worst status. */
  incrementalSeconds: number;
  incrementalStatus: string;
  /** Each check's share of the incremental runs, seconds: from its result's `ran_at` to the next one's (the last, to the run's end). */
  incrementalChecks: Array<{ name: string; seconds: number }>;
}

const SWEPT = ['A', 'B', 'D'] as const;
/** The new transactions of the incremental run: a day's business, on a day after the book's. */
const NEW_TRANSACTIONS = 10_000;
const NEW_DAY = '2026-12-31';

/**
 * A book of `count` transactions of the bench mix posted in bulk (as the firm reports' bench),
 * then the A, B and D checks run as the recon process runs them (runtime role, each in its
 * snapshot, the run stored): a full sweep, then each check alone; then a clean run with
 * incremental runs on (it sets each journal check's high-water mark), NEW_TRANSACTIONS more
 * posted, and the incremental run timed. Category C calls upstreams and is not timed here.
 */
export async function benchRecon(database: TestDatabase, count: number): Promise<ReconBenchResult> {
  const loadSeconds = await loadBook(database, count, 1_000);
  const db = database.runtime!.db;
  const deps = (settings: ReconSettings) => ({ db, book: 'ENTITY_UAE' as const, settings, upstreams: NO_UPSTREAMS });
  const seconds = async (work: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await work();
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  // The yardstick: what reading the journal once costs on this machine right now.
  const yardstick = () => seconds(() => db.raw('SELECT count(*), sum(debit) FROM journal_lines'));
  // Warm the caches once, as a book in service is.
  for (const category of SWEPT) await runReconciliation(deps(FULL_SWEEP_SETTINGS), { category });
  const sweepYardstick = await yardstick();
  const sweepLoad = loadavg()[0]!;
  let sweepSeconds = 0;
  for (const category of SWEPT)
    sweepSeconds += await seconds(() => runReconciliation(deps(FULL_SWEEP_SETTINGS), { category }));
  const checks = [];
  for (const check of CHECKS.filter((c) => (SWEPT as readonly string[]).includes(c.category))) {
    let status = '';
    const took = await seconds(async () => {
      status = (await runReconciliation(deps(FULL_SWEEP_SETTINGS), { checks: [check] })).status;
    });
    checks.push({ name: check.name, seconds: took, status });
  }
  // A clean run sets the marks; then a day's business arrives.
  for (const category of SWEPT) await runReconciliation(deps(DEFAULT_RECON_SETTINGS), { category });
  const posted = await postTransactions(db, drafts(NEW_TRANSACTIONS, 1_000, count, NEW_DAY));
  if (posted.inserted !== NEW_TRANSACTIONS)
    throw new Error(`posted ${posted.inserted} of ${NEW_TRANSACTIONS} new transactions`);
  const incrementalYardstick = await yardstick();
  const incrementalLoad = loadavg()[0]!;
  let incrementalSeconds = 0;
  const statuses: string[] = [];
  const incrementalChecks: ReconBenchResult['incrementalChecks'] = [];
  for (const category of SWEPT) {
    incrementalSeconds += await seconds(async () => {
      const run = await runReconciliation(deps(DEFAULT_RECON_SETTINGS), { category });
      statuses.push(run.status);
      incrementalChecks.push(...sharesOf(run));
    });
  }
  return {
    transactions: count,
    loadSeconds,
    sweepSeconds,
    checks,
    yardstickSeconds: { sweep: sweepYardstick, incremental: incrementalYardstick },
    loadAverage: { sweep: sweepLoad, incremental: incrementalLoad },
    newTransactions: NEW_TRANSACTIONS,
    incrementalSeconds,
    incrementalStatus: worst(statuses as CheckStatus[]),
    incrementalChecks,
  };
}

/** One on-demand A+B+D run through the api (`POST /v1/reconciliation/run`, one category after another). */
export interface TimedRun {
  seconds: number;
  /** The worst status of the three. */
  status: string;
  /** The most transactions one incremental check looked at (`metrics.new_transactions`). */
  newTransactions: number;
  /** The 1-minute load average (/proc/loadavg) as it started. */
  loadAverage: number;
  /** Each check's share, seconds: from its result's `ran_at` to the next one's (the last, to its run's end). */
  checks: Array<{ name: string; seconds: number }>;
}

/** Each check's share of `run`: from its result's `ran_at` to the next one's (the last, to the run's end). */
function sharesOf(run: ReconciliationRun): Array<{ name: string; seconds: number }> {
  const ends = [...run.results.slice(1).map((r) => r.ran_at), run.finished_at];
  return run.results.map((r, i) => ({
    name: r.check_name,
    seconds: (Date.parse(ends[i]!) - Date.parse(r.ran_at)) / 1000,
  }));
}

export interface ReconUnderLoadResult {
  transactions: number;
  clients: number;
  loadSecondsAsked: number;
  /** After NEW_TRANSACTIONS posted in bulk, nothing else running. */
  quiet: TimedRun;
  /** One after another while `clients` clients post the bench's mixed entries. */
  loaded: TimedRun[];
  /** The first once the load has stopped. */
  after: TimedRun;
  /** Transactions the load posted (2xx), and its answers otherwise. */
  posted: number;
  non2xx: number;
}

/**
 * The reconciliation the api runs on demand, beside `bench http`'s load (issue 32): a book of
 * `count` transactions posted in bulk, the built api on it, a clean A+B+D run (it sets the marks);
 * then NEW_TRANSACTIONS posted in bulk and an incremental A+B+D run timed on the quiet book; then
 * `clients` clients post the mixed entries for `seconds` while incremental A+B+D runs are asked
 * for one after another, each timed; then one more once the load has stopped.
 */
export async function benchReconUnderLoad(
  database: TestDatabase,
  count: number,
  { clients = 20, seconds = 60 } = {},
): Promise<ReconUnderLoadResult> {
  const customers = 1_000;
  await loadBook(database, count, customers);
  // The load's buys, fees and withdrawals are funds-checked: from funded wallets they post.
  await fundCustomers(database, customers);
  return withApi(database, async (api) => {
    const ask = async (category: string) => {
      const reply = await fetch(`${api.baseUrl}/v1/reconciliation/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ledger-admin-token': api.adminToken },
        body: JSON.stringify({ category }),
      });
      if (!reply.ok) throw new Error(`POST /v1/reconciliation/run answered ${reply.status}: ${await reply.text()}`);
      return (await reply.json()) as ReconciliationRun;
    };
    const timed = async (): Promise<TimedRun> => {
      const loadAverage = loadavg()[0]!;
      const started = process.hrtime.bigint();
      const runs = [];
      for (const category of SWEPT) runs.push(await ask(category));
      const results = runs.flatMap((r) => r.results);
      return {
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        status: worst(runs.map((r) => r.status)),
        newTransactions: Math.max(0, ...results.map((r) => Number(r.metrics.new_transactions ?? 0))),
        loadAverage,
        checks: runs.flatMap(sharesOf),
      };
    };
    await timed();
    const posted = await postTransactions(database.runtime!.db, drafts(NEW_TRANSACTIONS, customers, count, NEW_DAY));
    if (posted.inserted !== NEW_TRANSACTIONS)
      throw new Error(`posted ${posted.inserted} of ${NEW_TRANSACTIONS} new transactions`);
    const quiet = await timed();
    let loading = true;
    const load = postEntries(api, { name: 'mixed', entry }, { connections: clients, seconds, customers }).finally(
      () => (loading = false),
    );
    const loaded: TimedRun[] = [];
    while (loading) loaded.push(await timed());
    const result = await load;
    return {
      transactions: count,
      clients,
      loadSecondsAsked: seconds,
      quiet,
      loaded,
      after: await timed(),
      posted: result['2xx'],
      non2xx: result.non2xx,
    };
  });
}
