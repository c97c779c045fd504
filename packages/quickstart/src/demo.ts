// The demo load: both books filled from the sandbox by the real jobs, through each book's api, in
// the order docs/quickstart.md gives (and why). Nothing here posts directly: what the demo shows is
// what the jobs produced.

import { usbrokerClosePricesCsv } from '@ledger/sandbox';

export interface Period {
  /** First and last day, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

/** One step: a job by its endpoint (polled to its end), or a plain admin POST. */
export interface DemoStep {
  name: string;
  job?: string;
  path?: string;
  body: Record<string, unknown>;
}

export interface BookApi {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown, headers?: Record<string, string>): Promise<T>;
}

/** The job status record, as far as the load reads it. */
interface JobRecord {
  job_id: string;
  status: 'running' | 'done' | 'error';
  result: unknown;
  error: string | null;
}

/** Polls a background job's status record this often. */
const POLL_MS = 500;
/** A step that takes longer than this is reported as failed (the stack keeps running). */
const STEP_TIMEOUT_MS = 15 * 60_000;

/** The months `from`..`to` (`YYYY-MM`), inclusive. */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (
    let [y, m] = from.split('-').map(Number) as [number, number];
    `${y}-${String(m).padStart(2, '0')}` <= to;
    m === 12 ? ((y += 1), (m = 1)) : (m += 1)
  ) {
    months.push(`${y}-${String(m).padStart(2, '0')}`);
  }
  return months;
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** `[start, end]` windows covering the period, each within sync-usbroker-ledger's 92 days. */
function ledgerWindows(from: string, to: string): [string, string][] {
  const windows: [string, string][] = [];
  for (let start = from; start <= to; start = addDays(start, 91)) {
    const end = addDays(start, 90);
    windows.push([start, end < to ? end : to]);
  }
  return windows;
}

/**
 * Each book's steps. UAE: link the registry's customers, post the feed (which recosts), store
 * the custodian's statements and holdings the reconciliation compares with. India: the shipped
 * SBI rates and issuers and the sandbox's daily closes (the reports convert, name and value
 * holdings by them), link, then the
 * broker's fractional trades before its wires and quantity orders (a sell of shares bought by a
 * fractional order must find them: the other order leaves it flagged until a recost), the daily
 * ledger (dividends, withholding, fees), the remittances, one recost over everything. Both end
 * with a reconciliation run.
 */
export function demoSteps(book: string, period: Period, seed: number): DemoStep[] {
  const lastMonth = period.to.slice(0, 7);
  const recentMonths = monthsBetween(period.from.slice(0, 7), lastMonth).slice(-3);
  const reconcile: DemoStep = { name: 'reconciliation run', path: '/v1/reconciliation/run', body: {} };
  if (book === 'ENTITY_UAE') {
    return [
      { name: 'provision-uae', job: 'provision-uae', body: {} },
      { name: 'sync-uaefeed', job: 'sync-uaefeed', body: {} },
      ...recentMonths.map((month) => ({
        name: `sync-cash-statements ${month}`,
        job: 'sync-cash-statements',
        body: { month },
      })),
      { name: `sync-uaefeed-statements ${lastMonth}`, job: 'sync-uaefeed-statements', body: { month: lastMonth } },
      { name: `sync-holdings ${period.to}`, job: 'sync-holdings', body: { as_of: period.to } },
      { name: 'refresh-snapshots', job: 'refresh-snapshots', body: {} },
      reconcile,
    ];
  }
  return [
    // The reference data the India reports convert, name, index and value holdings by: the files shipped
    // with the service, and the closes of the sandbox's period as a vendor's end-of-day file.
    { name: 'load-fx-rates sbi-usd-inr-rates', job: 'load-fx-rates', body: { file: 'sbi-usd-inr-rates' } },
    { name: 'load-issuers us-issuers', job: 'load-issuers', body: { file: 'us-issuers' } },
    {
      name: 'load-cost-inflation-index cost-inflation-index',
      job: 'load-cost-inflation-index',
      body: { file: 'cost-inflation-index' },
    },
    {
      name: 'load-close-prices (the sandbox’s end-of-day file)',
      job: 'load-close-prices',
      body: { csv: usbrokerClosePricesCsv({ seed, period }, period.from, period.to), source: 'sandbox-eod' },
    },
    { name: 'provision-india', job: 'provision-india', body: {} },
    { name: 'sync-usbroker-trades', job: 'sync-usbroker-trades', body: { recost: false } },
    { name: 'sync-usbroker', job: 'sync-usbroker', body: { recost: false } },
    ...ledgerWindows(period.from, period.to).map(([start, end]) => ({
      name: `sync-usbroker-ledger ${start}..${end}`,
      job: 'sync-usbroker-ledger',
      body: { start, end },
    })),
    { name: 'sync-remit', job: 'sync-remit', body: {} },
    { name: 'recost', job: 'recost', body: {} },
    reconcile,
  ];
}

/** A thin client of one book's api with the admin token. */
export function bookApi(baseUrl: string, tokens: { LEDGER_TOKEN: string; LEDGER_ADMIN_TOKEN: string }): BookApi {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-ledger-token': tokens.LEDGER_TOKEN,
        'x-ledger-admin-token': tokens.LEDGER_ADMIN_TOKEN,
        'x-ledger-actor': 'quickstart',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  return { get: (path) => call('GET', path), post: (path, body, headers) => call('POST', path, body, headers) };
}

/** True when the book already holds transactions: the demo is loaded once, then kept. */
export async function hasTransactions(api: BookApi): Promise<boolean> {
  const page = await api.get<{ items: unknown[] }>('/v1/transactions?limit=1');
  return page.items.length > 0;
}

async function runJob(api: BookApi, job: string, body: Record<string, unknown>): Promise<unknown> {
  let record = await api.post<JobRecord>(`/v1/jobs/${job}`, body);
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (record.status === 'running') {
    if (Date.now() > deadline)
      throw new Error(`${job} still running after ${STEP_TIMEOUT_MS / 60_000} min (job ${record.job_id})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    record = await api.get<JobRecord>(`/v1/jobs/status/${encodeURIComponent(record.job_id)}`);
  }
  if (record.status === 'error') throw new Error(`${job} failed (job ${record.job_id}): ${record.error}`);
  return record.result;
}

/** A reconciliation run's answer as the progress line shows it: its status and whom its variances name. */
function runSummary(outcome: unknown): string {
  const run = outcome as {
    run_id?: string;
    status?: string;
    metadata?: { variances?: Array<{ check_name: string; customer_id: string | null }> };
  };
  if (run?.run_id === undefined || run.status === undefined) return '';
  const named = [
    ...new Set((run.metadata?.variances ?? []).map((v) => `${v.check_name} ${v.customer_id ?? ''}`.trim())),
  ];
  return `: ${run.status}${named.length > 0 ? ` (${named.join(', ')})` : ''}, run ${run.run_id}`;
}

/** Runs a book's steps in order, one progress line each; the first failure stops that book's load. */
export async function loadDemo({
  book,
  api,
  period,
  seed,
  log,
}: {
  book: string;
  api: BookApi;
  period: Period;
  /** The sandbox's seed: its prices are a function of it. */
  seed: number;
  log: (line: string) => void;
}): Promise<number> {
  const steps = demoSteps(book, period, seed);
  const started = Date.now();
  for (const [index, step] of steps.entries()) {
    const t0 = Date.now();
    const outcome = step.job ? await runJob(api, step.job, step.body) : await api.post(step.path!, step.body);
    log(
      `[${index + 1}/${steps.length}] ${step.name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s${runSummary(outcome)}`,
    );
  }
  return Date.now() - started;
}
