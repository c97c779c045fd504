import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { upsertCustomer } from '@ledger/core';
import type { TestDatabase } from '@ledger/core/testing';
import type { EntryRequest } from '@ledger/core';
import { customerId } from './fixtures.js';

export interface HttpResult {
  scenario: string;
  connections: number;
  seconds: number;
  transactions: number;
  transactionsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
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

export interface Scenario {
  name: string;
  entry: (i: number, customers: number) => EntryRequest;
}

/** Manual entry over HTTP against the built API: `connections` clients for `seconds`. */
export async function benchManualEntry(
  database: TestDatabase,
  scenario: Scenario,
  { connections = 16, seconds = 15, customers = 200 } = {},
): Promise<HttpResult> {
  for (let i = 0; i < customers; i += 1) await upsertCustomer(database.db, customerId(i, customers), {});
  const adminToken = randomBytes(24).toString('hex');
  const port = 18_000 + Math.floor(Math.random() * 1_000);
  const api = spawn(process.execPath, [API_MAIN], {
    env: {
      ...process.env,
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.url,
      PORT: String(port),
      LEDGER_TOKEN: randomBytes(24).toString('hex'),
      LEDGER_ADMIN_TOKEN: adminToken,
      DB_POOL_MAX: '20',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseUrl, 30_000);
    let sequence = 0;
    const result = await autocannon({
      url: `${baseUrl}/v1/transactions`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-ledger-admin-token': adminToken },
          setupRequest: (request) => {
            sequence += 1;
            const body = { ...scenario.entry(sequence, customers), source: 'manual', source_txn_id: `http-bench-${sequence}` };
            return { ...request, body: JSON.stringify(body) };
          },
        },
      ],
    });
    return {
      scenario: scenario.name,
      connections,
      seconds,
      transactions: result['2xx'],
      transactionsPerSecond: result['2xx'] / result.duration,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  } finally {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
}
