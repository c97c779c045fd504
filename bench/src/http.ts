import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { EntryRequest } from '@ledger/core/posting';
import { postTransactions, upsertCustomer } from '@ledger/core/store';
import type { TestDatabase } from '@ledger/core/testing';
import { cpuSecondsOf, postgresCpuSeconds } from './cpu.js';
import { customerId, openingDeposits } from './fixtures.js';

export interface HttpResult {
  scenario: string;
  connections: number;
  seconds: number;
  transactions: number;
  transactionsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** CPU time per posted transaction, of the api process and of all Postgres processes (Linux only). */
  apiCpuMsPerTransaction: number | null;
  postgresCpuMsPerTransaction: number | null;
  non2xx: number;
  errors: number;
}

const API_MAIN = fileURLToPath(new URL('../../apps/api/dist/main.js', import.meta.url));

async function waitUntilReady(baseUrl: string, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('api did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** CPU seconds used so far by the api and by Postgres; null where /proc is not there to ask. */
function cpuSnapshot(apiPid: number | undefined): { api: number; postgres: number } | null {
  const postgres = postgresCpuSeconds();
  if (apiPid === undefined || postgres === null) return null;
  return { api: cpuSecondsOf(apiPid), postgres };
}

export interface Scenario {
  name: string;
  entry: (i: number, customers: number) => EntryRequest;
}

export interface RunningApi {
  baseUrl: string;
  pid: number | undefined;
  ledgerToken: string;
  adminToken: string;
}

/** Which api runs: a build's main.js (default apps/api/dist), Node's flags, and settings of its environment. */
export interface ApiVariant {
  main?: string;
  nodeArgs?: string[];
  env?: Record<string, string>;
}

/** The built API (apps/api/dist) as a process of its own on the bench's database, for the time of `run`. */
export async function withApi<T>(
  database: TestDatabase,
  run: (api: RunningApi) => Promise<T>,
  variant: ApiVariant = {},
): Promise<T> {
  const ledgerToken = randomBytes(24).toString('hex');
  const adminToken = randomBytes(24).toString('hex');
  const port = 18_000 + Math.floor(Math.random() * 1_000);
  // BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the api under load.
  const nodeArgs = variant.nodeArgs ?? process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const api = spawn(process.execPath, [...nodeArgs, variant.main ?? API_MAIN], {
    env: {
      ...process.env,
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.runtime!.url,
      LEDGER_MIGRATION_DB_URL: database.url,
      PORT: String(port),
      LEDGER_TOKEN: ledgerToken,
      LEDGER_ADMIN_TOKEN: adminToken,
      DB_POOL_MAX: '20',
      LOG_LEVEL: 'info',
      ...variant.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseUrl, 30_000);
    return await run({ baseUrl, pid: api.pid, ledgerToken, adminToken });
  } finally {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
}

/** Posts every customer's opening deposit (openingDeposits), not timed. */
export async function fundCustomers(database: TestDatabase, customers: number): Promise<void> {
  const opening = openingDeposits(customers);
  const posted = await postTransactions(database.runtime!.db, opening);
  if (posted.inserted !== opening.length) throw new Error(`opened ${posted.inserted} of ${opening.length} wallets`);
}

/** `connections` clients posting `scenario`'s entries (over `customers` customers) to the api for `seconds`. */
export function postEntries(
  { baseUrl, adminToken }: RunningApi,
  scenario: Scenario,
  { connections, seconds, customers }: { connections: number; seconds: number; customers: number },
): Promise<autocannon.Result> {
  let sequence = 0;
  // autocannon's instance is a thenable, not a Promise (no finally).
  return Promise.resolve(
    autocannon({
      url: `${baseUrl}/v1/transactions`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-ledger-admin-token': adminToken },
          setupRequest: (request) => {
            sequence += 1;
            const body = {
              ...scenario.entry(sequence, customers),
              source: 'manual',
              source_txn_id: `http-bench-${sequence}`,
            };
            return { ...request, body: JSON.stringify(body) };
          },
        },
      ],
    }),
  );
}

/** Manual entry over HTTP against the built API: `connections` clients for `seconds`. */
export async function benchManualEntry(
  database: TestDatabase,
  scenario: Scenario,
  { connections = 16, seconds = 15, customers = 200 } = {},
): Promise<HttpResult> {
  for (let i = 0; i < customers; i += 1) await upsertCustomer(database.db, customerId(i, customers), {});
  await fundCustomers(database, customers);
  return withApi(database, async (api) => {
    const cpuBefore = cpuSnapshot(api.pid);
    const result = await postEntries(api, scenario, { connections, seconds, customers });
    const cpuAfter = cpuSnapshot(api.pid);
    const perTransaction = (before: number, after: number) =>
      Math.round(((after - before) * 1000 * 100) / result['2xx']) / 100;
    return {
      scenario: scenario.name,
      connections,
      seconds,
      transactions: result['2xx'],
      transactionsPerSecond: result['2xx'] / result.duration,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      apiCpuMsPerTransaction: cpuBefore && cpuAfter ? perTransaction(cpuBefore.api, cpuAfter.api) : null,
      postgresCpuMsPerTransaction: cpuBefore && cpuAfter ? perTransaction(cpuBefore.postgres, cpuAfter.postgres) : null,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  });
}
