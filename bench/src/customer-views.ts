import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Decimal, draftFromEntry, FeeSchedule } from '@ledger/core/posting';
import { postTransactions, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { v7 } from 'uuid';
import { customerId, entry } from './fixtures.js';

const API_MAIN = fileURLToPath(new URL('../../apps/api/dist/main.js', import.meta.url));
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };
/** The customer whose views are timed: the same 200 transactions in every book size. */
const VIEWED = 'VIEWED-1';
const VIEWED_TRANSACTIONS = 200;
const FILLER_CUSTOMERS = 1_000;
const CHUNK = 50_000;
const VIEWS = ['summary', 'positions', 'trial_balance', 'statement', 'equity_curve', 'dividends', 'orders', 'overview'];
const SAMPLES = 30;

export interface ViewLatency {
  view: string;
  p50Ms: number;
  p95Ms: number;
}

export interface BookMeasurement {
  transactions: number;
  journalLines: number;
  views: ViewLatency[];
  exportSeconds: number;
  exportBytes: number;
  exportLinesPerSecond: number;
  /** The api process's resident memory before the export and at its peak (VmHWM) over the whole export. */
  apiRssBeforeMb: number;
  apiPeakRssMb: number;
}

/** Posts the transactions `from` .. `to` − 1 of the filler mix, in chunks (never the whole book in memory). */
async function postFiller(db: TestDatabase['db'], from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    const drafts = Array.from({ length: end - start }, (_, k) =>
      draftFromEntry(entry(start + k, FILLER_CUSTOMERS), v7(), POLICY),
    );
    const result = await postTransactions(db, drafts);
    if (result.inserted !== drafts.length) throw new Error(`posted ${result.inserted} of ${drafts.length}`);
  }
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN);
}

async function startApi(database: TestDatabase): Promise<{ api: ChildProcess; baseUrl: string; token: string }> {
  const token = randomBytes(24).toString('hex');
  const port = 19_000 + Math.floor(Math.random() * 1_000);
  const api = spawn(process.execPath, [API_MAIN], {
    env: {
      ...process.env,
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.runtime!.url,
      LEDGER_MIGRATION_DB_URL: database.url,
      PORT: String(port),
      LEDGER_TOKEN: token,
      LEDGER_ADMIN_TOKEN: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${baseUrl}/health/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 300) throw new Error('api did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { api, baseUrl, token };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function timeViews(baseUrl: string, token: string): Promise<ViewLatency[]> {
  const results: ViewLatency[] = [];
  for (const view of VIEWS) {
    const url = `${baseUrl}/v1/customers/${VIEWED}/${view}`;
    const times: number[] = [];
    for (let i = 0; i < SAMPLES + 3; i += 1) {
      const started = performance.now();
      const reply = await fetch(url, { headers: { 'X-Ledger-Token': token } });
      await reply.arrayBuffer();
      if (!reply.ok) throw new Error(`${view}: ${reply.status}`);
      if (i >= 3) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    results.push({
      view,
      p50Ms: Number(percentile(times, 0.5).toFixed(1)),
      p95Ms: Number(percentile(times, 0.95).toFixed(1)),
    });
  }
  return results;
}

/** Reads the whole export, counting bytes: the reader keeps nothing. */
async function timeExport(baseUrl: string, token: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const reply = await fetch(`${baseUrl}/v1/journal/export?format=ledger`, { headers: { 'X-Ledger-Token': token } });
  if (!reply.ok || reply.body === null) throw new Error(`export: ${reply.status}`);
  let bytes = 0;
  for await (const chunk of reply.body) bytes += (chunk as Uint8Array).byteLength;
  return { seconds: (performance.now() - started) / 1000, bytes };
}

async function measure(database: TestDatabase, transactions: number): Promise<BookMeasurement> {
  await database.db.raw('ANALYZE transactions, journal_lines');
  const { api, baseUrl, token } = await startApi(database);
  try {
    const views = await timeViews(baseUrl, token);
    const apiRssBeforeMb = statusKb(api.pid!, 'VmRSS') / 1024;
    const exported = await timeExport(baseUrl, token);
    const apiPeakRssMb = statusKb(api.pid!, 'VmHWM') / 1024;
    const counted = (await database.db('journal_lines').count({ lines: '*' }).first()) as { lines: string };
    const lines = counted.lines;
    return {
      transactions,
      journalLines: Number(lines),
      views,
      exportSeconds: exported.seconds,
      exportBytes: exported.bytes,
      exportLinesPerSecond: Number(lines) / exported.seconds,
      apiRssBeforeMb,
      apiPeakRssMb,
    };
  } finally {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
}

/**
 * The customer views of one customer (the same 200 transactions) and the journal export, in a
 * book of each size in `sizes` (ascending; the book grows from one to the next): view latency
 * must not grow with the journal, the export's memory must not grow with it either.
 */
export async function benchCustomerViews(database: TestDatabase, sizes: number[]): Promise<BookMeasurement[]> {
  const db = database.runtime?.db ?? database.db;
  await upsertCustomer(db, VIEWED, {});
  for (let i = 0; i < FILLER_CUSTOMERS; i += 1) await upsertCustomer(db, customerId(i, FILLER_CUSTOMERS), {});
  const viewed = Array.from({ length: VIEWED_TRANSACTIONS }, (_, i) =>
    draftFromEntry({ ...entry(i, 1), customer_id: VIEWED, source_txn_id: `viewed-${i}` }, v7(), POLICY),
  );
  await postTransactions(db, viewed);
  const measurements: BookMeasurement[] = [];
  let posted = VIEWED_TRANSACTIONS;
  for (const size of sizes) {
    await postFiller(db, posted, size);
    posted = size;
    measurements.push(await measure(database, size));
  }
  return measurements;
}
