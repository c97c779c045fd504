import {
  Decimal,
  draftFromEntry,
  FeeSchedule,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  type TransactionDraft,
} from '@ledger/core/posting';
import { createLogger } from '@ledger/core/runtime';
import { postTransactions, recost, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { createApp, loadConfig } from '@ledger/api';
import { createJobProducer } from '@ledger/job-runtime';
import { JOBS } from '@ledger/jobs';
import { createDataset } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema } from '@ledger/upstream-clients';
import { randomBytes } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import {
  brokerFeesReport,
  capitalGainsReport,
  dividendsReport,
  fxMarginReport,
  indiaSettingsOf,
  indiaSettingsSchema,
  loadFxRates,
  lrsReport,
  parseFinancialYear,
  scheduleFaReport,
  settlementAuditReport,
  shippedRatesCsv,
  type IndiaReportContext,
} from '@ledger/india';
import { tieOutAgreement, type TieOutAgreement } from '@ledger/reconciliation/testing';
import { v7 } from 'uuid';
import { cpuSecondsOf } from './cpu.js';
import { startSandboxProcess } from './sync-sandbox.js';

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL'];
const FEES = { feeSchedule: new FeeSchedule(new Decimal(22)) };
const SLICE = 50_000;
const SAMPLES = 5;
/** The paged reports answer a page at a time: the first, as the api gives it by default and at its largest. */
const PAGES = [PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX].map((limit) => ({ limit, offset: 0 }));

export interface IndiaBenchResult {
  customers: number;
  trades: number;
  remittances: number;
  loadSeconds: number;
  /** Median milliseconds per report (over every customer; a paged report, its first page). */
  medianMs: Array<[name: string, ms: number]>;
  /** The yardstick, same run: median ms of a plain count(*) over journal_lines, and its line count. */
  countMs: number;
  journalLines: number;
  /** The 1-minute load average before and after the reports. */
  load: [before: number, after: number];
}

/** The median milliseconds of SAMPLES runs of `run`. */
async function medianMs(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let s = 0; s < SAMPLES; s += 1) {
    const t0 = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(SAMPLES / 2)]!;
}

/** `count` trades over `customers` × 5 symbols from 2023-04 on, two buys of 3 then a sell of 2 per pair, so FY 2024-25 holds sales and open lots. */
function trades(first: number, count: number, customers: number): TransactionDraft[] {
  const pairs = customers * SYMBOLS.length;
  return Array.from({ length: count }, (_, k) => {
    const i = first + k;
    const pair = i % pairs;
    const step = Math.floor(i / pairs);
    const isBuy = step % 3 !== 2;
    return draftFromEntry(
      {
        txn_type: isBuy ? 'buy_security' : 'sell_security',
        customer_id: `IND-BENCH-${pair % customers}`,
        source: 'usbroker',
        source_txn_id: `india-bench-${i}`,
        txn_date: new Date(Date.UTC(2023, 3, 3 + step * 30)).toISOString().slice(0, 10),
        symbol: SYMBOLS[Math.floor(pair / customers) % SYMBOLS.length]!,
        quantity: isBuy ? '3' : '2',
        amount_usd: new Decimal(((i * 7_919) % 200_000) + 100).dividedBy(100).toFixed(2),
      },
      v7(),
      FEES,
    );
  });
}

/**
 * `pnpm bench india [customers]`: a book of `customers` India customers, 100 trades and 10 paid
 * remittances each (2,000 customers: 200,000 trades, 20,000 remittances), recosted, the shipped
 * rates loaded, a close price per symbol and weekday; then each stored-data report over the whole
 * book, timed (median of 5). Target: each under 1 s.
 */
export async function benchIndiaReports(database: TestDatabase, customers: number): Promise<IndiaBenchResult> {
  const started = process.hrtime.bigint();
  await seedIndiaBook(database, customers);
  const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    customers,
    trades: customers * 100,
    remittances: customers * 10,
    loadSeconds,
    ...(await timeIndiaReports(database)),
  };
}

/** The bench's book: `customers` India customers with 100 trades and 10 paid remittances each, recosted, rates and close prices loaded. */
export async function seedIndiaBook(database: TestDatabase, customers: number): Promise<void> {
  const db = database.runtime!.db;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, `IND-BENCH-${i}`, {});
  const count = customers * 100;
  for (let first = 0; first < count; first += SLICE) {
    const slice = trades(first, Math.min(SLICE, count - first), customers);
    const posted = await postTransactions(db, slice);
    if (posted.inserted !== slice.length) throw new Error(`posted ${posted.inserted} of ${slice.length} at ${first}`);
  }
  await recost(db, { policy: FEES, limit: null });
  await loadFxRates(db, await shippedRatesCsv('sbi-usd-inr-rates'), 'sbi-usd-inr-rates');
  // Ten paid remittances per customer over FY 2024-25, INR 1.5 lakh each (PAN per customer).
  await database.db.raw(
    `INSERT INTO remittances (order_id, customer_id, remit_customer_id, pan, status, purpose_code, amount_inr, amount_usd, quote_id, fx_rate, mid_rate,
                              mid_rate_source, mid_rate_at, tcs_inr, paid_at, settled_at, utr, remitted_on, order_created_at, order_updated_at, status_history)
     SELECT 'order_b' || c || '_' || n, 'IND-BENCH-' || c, 'cust_b' || c, 'AAAAA' || lpad(c::text, 4, '0') || 'A', 'paid', 'S0001', 150000.00, 1800.00, 'quote_b' || c || '_' || n,
            0.012, 0.0121, 'remit:fx_rates', now(), 0, d + time '10:00', d + time '10:00' + (n || ' hours')::interval, 'UTR' || c || 'N' || n, d, now(), now(), '[]'
       FROM generate_series(0, ? - 1) c, generate_series(1, 10) n, LATERAL (SELECT date '2024-04-05' + n * 30 AS d) dd`,
    [customers],
  );
  await database.db.raw(
    `INSERT INTO close_prices (symbol, price_date, close_usd, source)
     SELECT s, d::date, 100 + extract(doy FROM d)::int % 50, 'bench' FROM unnest(?::text[]) s, generate_series(date '2024-01-01', date '2024-12-31', interval '1 day') d
      WHERE extract(isodow FROM d) < 6`,
    [SYMBOLS],
  );
  await database.db.raw('VACUUM ANALYZE');
}

/** Each stored-data report over every customer (a paged one: its first page, at the default limit and at the largest), median of SAMPLES runs. */
export async function timeIndiaReports(database: TestDatabase) {
  const db = database.runtime!.db;

  const context: IndiaReportContext = {
    book: 'ENTITY_IND_IFSC',
    db,
    settings: indiaSettingsOf(
      indiaSettingsSchema.parse({ FX_SPREAD_BPS: '75' }),
      new FeeSchedule(new Decimal(22), {}, new Decimal(4)),
    ),
  };
  const fy = parseFinancialYear('2024-25');
  const reports: Array<[string, () => Promise<unknown>]> = [
    ['lrs', () => lrsReport(context, fy)],
    ...PAGES.map((page): [string, () => Promise<unknown>] => [
      `capital-gains (first page, ${page.limit} customers)`,
      () => capitalGainsReport(context, fy, null, page),
    ]),
    ['dividends', () => dividendsReport(context, fy, null)],
    ...PAGES.map((page): [string, () => Promise<unknown>] => [
      `schedule-fa (first page, ${page.limit} customers)`,
      () => scheduleFaReport(context, fy, null, page),
    ]),
    ['settlement-audit', () => settlementAuditReport(context, fy)],
    ...PAGES.map((page): [string, () => Promise<unknown>] => [
      `broker-fees (totals over every trade, first page of ${page.limit})`,
      () => brokerFeesReport(context, { from: null, to: null, customerId: null }, page),
    ]),
    ['fx-margin (remit not configured)', () => fxMarginReport(context, fy, null)],
  ];
  const load = loadavg()[0]!;
  const medians: Array<[string, number]> = [];
  for (const [name, run] of reports) medians.push([name, await medianMs(run)]);
  const { rows } = await db.raw<{ rows: Array<{ count: string }> }>('SELECT count(*) FROM journal_lines');
  const countMs = await medianMs(() => db.raw('SELECT count(*) FROM journal_lines'));
  return {
    medianMs: medians,
    countMs,
    journalLines: Number(rows[0]!.count),
    load: [load, loadavg()[0]!] as [number, number],
  };
}

export interface IndiaLiveBenchResult {
  customers: number;
  /** Median milliseconds per live report over HTTP (the api in this process, the sandbox in its own). */
  medianMs: Array<[name: string, ms: number]>;
  /** Requests to usbroker per customer, per report (its untimed run). */
  requestsPerCustomer: Map<string, number>;
  /** The tie-out reports beside a category C run on the same book: how many items each compared, and every disagreement. */
  tieOuts: TieOutAgreement;
  /** CPU ms per run of each report (mean of the timed runs): the bench's process (the api and its clients) and the sandbox's, null where /proc is not there to ask. Not Postgres: its processes serve other work of the machine too. */
  cpuMs: Map<string, { api: number; sandbox: number | null }>;
  /** The yardstick, same run: median ms of one broker account read per customer straight from the client, as many at a time as the reports read. */
  brokerCallsMs: number;
  concurrency: number;
  load: [before: number, after: number];
}

const LIVE_REPORTS = [
  '/v1/india/nav',
  '/v1/india/holdings-recon',
  '/v1/india/ledger-recon',
  '/v1/india/reconciliation',
  '/v1/india/compliance',
  '/v1/india/treasury',
  '/v1/india/remittance-exceptions',
];

/** Runs category C over HTTP and reads the three tie-out reports: the bench's book shows report and check deciding alike (issue 36). */
async function compareTieOuts(base: string, tokens: { token: string; adminToken: string }): Promise<TieOutAgreement> {
  const call = async (path: string, init: RequestInit = {}) => {
    const reply = await fetch(`${base}${path}`, init);
    const body = (await reply.json()) as never;
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  const read = (path: string) => call(path, { headers: { 'X-Ledger-Token': tokens.token } });
  const run = await call('/v1/reconciliation/run', {
    method: 'POST',
    headers: { 'X-Ledger-Admin-Token': tokens.adminToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ category: 'C' }),
  });
  return tieOutAgreement(run, {
    reconciliation: await read('/v1/india/reconciliation'),
    holdings: await read('/v1/india/holdings-recon'),
    ledger: await read('/v1/india/ledger-recon'),
  });
}

/**
 * The live India reports against the sandbox (`pnpm sandbox` in its own process, as an upstream
 * is another machine), over the book `seedIndiaBook` made: its customers linked to the
 * sandbox's India customers (broker account, remit customer, PAN), so every report reads every
 * customer's broker account. Each report once untimed (the sandbox makes a customer's records on
 * its first request), then the median of SAMPLES. Target: each under 5 s.
 */
export async function benchIndiaLiveReports(database: TestDatabase, customers: number): Promise<IndiaLiveBenchResult> {
  const db = database.runtime!.db;
  const [seed, recordsPerCustomer] = [2027, 10];
  const sandbox = await startSandboxProcess(seed, customers, recordsPerCustomer);
  const sandboxCpuSeconds = () => (process.platform === 'linux' ? cpuSecondsOf(sandbox.pid) : null);
  const running: Array<() => unknown> = [];
  try {
    const india = createDataset({ seed, customers, recordsPerCustomer }).india.customers;
    for (const [i, c] of india.entries())
      await upsertCustomer(db, `IND-BENCH-${i}`, {
        references: { usbroker_account_no: c.usbroker_account_no, remit_customer_id: c.remit_customer_id, pan: c.pan },
      });
    const { USBROKER_BASE_URL, USBROKER_API_KEY, USBROKER_API_SECRET, REMIT_BASE_URL, REMIT_API_KEY } = sandbox.env;
    const upstreamEnv = { USBROKER_BASE_URL, USBROKER_API_KEY, USBROKER_API_SECRET, REMIT_BASE_URL, REMIT_API_KEY };
    const { get, concurrency, base, tokens } = await startIndiaApi(database, upstreamEnv, running);

    const broker = createUpstreamClients(upstreamConfigSchema.parse(upstreamEnv)).usbroker!;
    const brokerCalls = async () => {
      for (let i = 0; i < india.length; i += concurrency)
        await Promise.all(india.slice(i, i + concurrency).map((c) => broker.getAccount(c.usbroker_account_no)));
    };
    await brokerCalls();
    const requestsPerCustomer = await brokerRequestsPerCustomer(get, new URL(USBROKER_BASE_URL!).host, india.length);

    const load = loadavg()[0]!;
    const medians: Array<[string, number]> = [];
    // CPU time beside the wall time: on a machine shared with other work it moves far less.
    const cpuMs = new Map<string, { api: number; sandbox: number | null }>();
    const perRun = (seconds: number) => (seconds * 1000) / SAMPLES;
    for (const path of LIVE_REPORTS) {
      const [api, sandboxCpu] = [process.cpuUsage(), sandboxCpuSeconds()];
      medians.push([path, await medianMs(() => get(path))]);
      const spent = process.cpuUsage(api);
      const sandboxAfter = sandboxCpuSeconds();
      cpuMs.set(path, {
        api: perRun((spent.user + spent.system) / 1e6),
        sandbox: sandboxCpu === null || sandboxAfter === null ? null : perRun(sandboxAfter - sandboxCpu),
      });
    }
    const brokerCallsMs = await medianMs(brokerCalls);
    const tieOuts = await compareTieOuts(base, tokens);
    return {
      tieOuts,
      customers,
      medianMs: medians,
      requestsPerCustomer,
      cpuMs,
      brokerCallsMs,
      concurrency,
      load: [load, loadavg()[0]!],
    };
  } finally {
    for (const stop of running) await stop();
    sandbox.close();
  }
}

/**
 * The api of the India book in this process, on the sandbox's upstreams (`running` gets what
 * stops it): `get` asks it for a report and fails on any answer but a 200 with every customer read.
 */
async function startIndiaApi(
  database: TestDatabase,
  upstreamEnv: Record<string, string | undefined>,
  running: Array<() => unknown>,
) {
  const db = database.runtime!.db;
  const [token, adminToken] = [randomBytes(24).toString('hex'), randomBytes(24).toString('hex')];
  const config = loadConfig({
    ENTITY_ID: 'ENTITY_IND_IFSC',
    LEDGER_DB_URL: database.runtime!.url,
    LEDGER_TOKEN: token,
    LEDGER_ADMIN_TOKEN: adminToken,
    // Every variance kept (a run keeps 1,000 a check by default): the run is compared with the reports item by item.
    RECON_VARIANCES_PER_CHECK_MAX: '100000',
    LOG_LEVEL: 'error',
    ...upstreamEnv,
  });
  const logger = createLogger({ level: 'error', service: 'bench', book: config.book, silent: true });
  const jobs = createJobProducer({
    book: config.book,
    redisUrl: config.redisUrl,
    queuePrefix: `bench-india-${randomBytes(4).toString('hex')}`,
    catalog: JOBS,
    syncWaitMs: config.jobSyncWaitMs,
    logger,
    db,
  });
  running.push(() => jobs.close());
  const app = createApp({ config, db, logger, jobs });
  const listening = app.listen(0, '127.0.0.1');
  running.push(() => listening.close());
  await new Promise<void>((resolve) => listening.once('listening', resolve));
  const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const reply = await fetch(`${base}${path}`, { headers: { 'X-Ledger-Token': token } });
    const body = (await reply.json()) as { customers?: Array<{ status: string }> };
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(body).slice(0, 300)}`);
    if (body.customers?.some((c) => c.status === 'error'))
      throw new Error(`${path}: a customer could not be read: ${JSON.stringify(body).slice(0, 300)}`);
  };
  return { get, concurrency: config.indiaLive.concurrency, base, tokens: { token, adminToken } };
}

/** Each report run once, untimed, counting its requests to usbroker (got's requests go through node:http) per customer. */
async function brokerRequestsPerCustomer(get: (path: string) => Promise<void>, brokerHost: string, customers: number) {
  let brokerRequests = 0;
  const countRequest = (message: unknown) => {
    if ((message as { request: ClientRequest }).request.getHeader('host') === brokerHost) brokerRequests += 1;
  };
  const requestsPerCustomer: Array<[string, number]> = [];
  subscribe('http.client.request.start', countRequest);
  try {
    for (const path of LIVE_REPORTS) {
      brokerRequests = 0;
      await get(path);
      requestsPerCustomer.push([path, brokerRequests / customers]);
    }
  } finally {
    unsubscribe('http.client.request.start', countRequest);
  }
  return new Map(requestsPerCustomer);
}
