import { readFileSync } from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { TEST_SERVER_URL, type TestDatabase } from '@ledger/core/testing';
import { cpuSecondsBetween, cpuSecondsByPid, cpuSecondsOf } from './cpu.js';
import { customerId } from './fixtures.js';
import { withApi, type ApiVariant, type RunningApi } from './http.js';
import { seedBook } from './seed.js';

/** pgledger (MIT, bench/anchors/pgledger/LICENSE): a double-entry ledger written as Postgres functions. */
const PGLEDGER_SQL = fileURLToPath(new URL('../anchors/pgledger/pgledger.sql', import.meta.url));
/** Accounts on each side: 50 customers' deposits in the book, transfers among 50 accounts in pgledger. */
const PARTIES = 50;

export interface Leg {
  side: 'book' | 'pgledger';
  perSecond: number;
  done: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU per posting: the api process's (book only) and every Postgres process's, in ms; null off Linux. */
  apiCpuMs: number | null;
  postgresCpuMs: number | null;
  /** CPU per posting of this bench process, the clients (fetch for the book, node-postgres for pgledger), in ms. */
  clientCpuMs: number | null;
}

export interface AnchorResult {
  bookTransactions: number;
  seedSeconds: number;
  /** Each round's legs, and the book's mean batch: entries per statement and commit of group commit. */
  rounds: Array<{ book: Leg; pgledger: Leg; ratio: number; meanBatch: number }>;
}

/** What the book's side posts: a deposit of 1.00 for one of PARTIES customers, under its own key. */
export const benchDeposit = (sourceTxnId: string, party: number) => ({
  txn_type: 'deposit',
  customer_id: customerId(party, PARTIES),
  source: 'manual',
  source_txn_id: sourceTxnId,
  txn_date: '2026-01-15',
  amount_usd: '1.00',
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** `clients` closed loops calling `op` for `seconds`: how many it did, and its latencies. */
export async function load(
  side: Leg['side'],
  clients: number,
  seconds: number,
  op: (client: number, i: number) => Promise<void>,
  backends: () => Promise<number[]>,
  apiPids: number[] = [],
): Promise<Leg> {
  let done = 0;
  let errors = 0;
  const latencies: number[] = [];
  // Only this side's own Postgres backends: the machine is shared, other work's CPU is not ours.
  const cpu = async () => ({
    client: process.cpuUsage(),
    api: apiPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    postgres: cpuSecondsByPid(await backends()),
  });
  const before = await cpu();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; performance.now() < end; i += 1) {
        const t0 = performance.now();
        try {
          await op(client, i);
          done += 1;
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors += 1;
          if (errors < 4) console.error(side, String(error).slice(0, 200));
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const after = await cpu();
  latencies.sort((a, b) => a - b);
  const perPosting = (seconds: number) => (done === 0 ? null : Math.round((seconds * 1e5) / done) / 100);
  return {
    side,
    perSecond: Math.round(done / elapsed),
    done,
    errors,
    p50Ms: Math.round(percentile(latencies, 0.5) * 100) / 100,
    p99Ms: Math.round(percentile(latencies, 0.99) * 100) / 100,
    apiCpuMs: apiPids.length === 0 ? null : perPosting(after.api - before.api),
    postgresCpuMs: perPosting(cpuSecondsBetween(before.postgres, after.postgres)),
    clientCpuMs: perPosting(
      (after.client.user + after.client.system - before.client.user - before.client.system) / 1e6,
    ),
  };
}

/**
 * POSTs `body` and expects 201. node:http on a keep-alive agent, not fetch: fetch costs this
 * process ~1 ms of CPU per request on the 2-core machine, 6-8× what node-postgres costs per call
 * on the other side, and the load generator's own cost is not the book's.
 */
export function post(agent: http.Agent, url: string, adminToken: string, body: object): Promise<void> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-ledger-admin-token': adminToken,
        },
      },
      (reply) => {
        const chunks: Buffer[] = [];
        reply.on('data', (chunk: Buffer) => chunks.push(chunk));
        reply.on('end', () =>
          reply.statusCode === 201
            ? resolve()
            : reject(new Error(`${reply.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`)),
        );
        reply.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** `count` api processes on the book, as pods behind a load balancer, for the time of `run`. */
export async function withApis<T>(
  database: TestDatabase,
  count: number,
  run: (apis: RunningApi[]) => Promise<T>,
  variant: ApiVariant = {},
  started: RunningApi[] = [],
): Promise<T> {
  if (started.length === count) return run(started);
  return withApi(database, (api) => withApis(database, count, run, variant, [...started, api]), variant);
}

/** The Postgres backends connected to database `name`. */
export async function backendsOf(server: pg.Client, name: string): Promise<number[]> {
  const { rows } = await server.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
  return rows.map((r) => r.pid);
}

/** A database of its own with pgledger loaded and PARTIES accounts, for the time of `run`. */
async function withPgledger<T>(
  clients: number,
  server: pg.Client,
  run: (pool: pg.Pool, accounts: string[], backends: () => Promise<number[]>) => Promise<T>,
): Promise<T> {
  const name = `pgledger_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  await server.query(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: clients });
  // An idle connection cut by the server (the drop below) is not an error of the bench.
  pool.on('error', () => undefined);
  try {
    await pool.query(readFileSync(PGLEDGER_SQL, 'utf8'));
    const accounts: string[] = [];
    for (let i = 0; i < PARTIES; i += 1)
      accounts.push(
        (await pool.query<{ id: string }>(`SELECT id FROM pgledger_create_account('acct', 'USD')`)).rows[0]!.id,
      );
    return await run(pool, accounts, () => backendsOf(server, name));
  } finally {
    await pool.end();
    await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/**
 * Manual entry over HTTP (`POST /v1/transactions`, a deposit, as the anchor's own script posts)
 * against pgledger's `create_transfer` through node-postgres: the same `clients` closed loops for
 * the same `seconds`, alternating book, pgledger, book, pgledger for `rounds`, on a book that
 * already holds `bookSize` transactions. Both share the machine, so each round's ratio holds
 * when the machine is busy; an absolute rate does not.
 */
export async function benchAnchor(
  database: TestDatabase,
  { clients = 16, seconds = 10, rounds = 3, bookSize = 1_000_000, apiProcesses = 1 } = {},
): Promise<AnchorResult> {
  const seedSeconds = await seedBook(database, bookSize);
  const run = Date.now().toString(36);
  let leg = 0;
  const server = new pg.Client({ connectionString: TEST_SERVER_URL });
  await server.connect();
  const ourBackends = () => backendsOf(server, database.name);
  try {
    return await withApis(database, apiProcesses, (apis) =>
      withPgledger(clients, server, async (pool, accounts, theirBackends) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
        const pids = apis.flatMap((api) => (api.pid === undefined ? [] : [api.pid]));
        const book = (client: number, i: number) =>
          post(
            agent,
            `${apis[client % apis.length]!.baseUrl}/v1/transactions`,
            apis[client % apis.length]!.adminToken,
            benchDeposit(`anchor-${run}-${leg}-${client}-${i}`, client * 7 + i),
          );
        const transfer = async () => {
          const from = Math.floor(Math.random() * accounts.length);
          let to = Math.floor(Math.random() * (accounts.length - 1));
          if (to >= from) to += 1;
          await pool.query('SELECT id FROM pgledger_create_transfer($1, $2, $3)', [
            accounts[from],
            accounts[to],
            '1.00',
          ]);
        };
        // Warm-up, not counted, one leg's length each: the api's first requests compile its
        // validators and V8 optimises its hot paths over thousands of them (after a 2 s warm-up
        // the first round still spent 0.41 ms of api CPU per entry, the next ones 0.32), and each
        // connection plans its statements. A pod in production is warm.
        leg += 1;
        await load('book', clients, seconds, book, ourBackends, pids);
        await load('pgledger', clients, seconds, transfer, theirBackends);
        const results: AnchorResult['rounds'] = [];
        for (let r = 0; r < rounds; r += 1) {
          leg += 1;
          const ours = await load('book', clients, seconds, book, ourBackends, pids);
          const theirs = await load('pgledger', clients, seconds, transfer, theirBackends);
          // A batch is one database transaction: its entries share a posted_at.
          const { rows } = await database.db.raw<{ rows: Array<{ entries: number; batches: number }> }>(
            `SELECT count(*)::int AS entries, count(DISTINCT posted_at)::int AS batches FROM transactions WHERE source_txn_id LIKE ?`,
            [`anchor-${run}-${leg}-%`],
          );
          results.push({
            book: ours,
            pgledger: theirs,
            ratio: ours.perSecond / theirs.perSecond,
            meanBatch: rows[0]!.entries / Math.max(1, rows[0]!.batches),
          });
        }
        agent.destroy();
        return { bookTransactions: bookSize, seedSeconds, rounds: results };
      }),
    );
  } finally {
    await server.end();
  }
}
