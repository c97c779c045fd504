import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { upsertCustomer } from '@ledger/core/store';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { ADMIN_TOKEN, deposit, LEDGER_TOKEN } from './support.js';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLIENTS = 16;
/** Requests answered before the signal is sent: the api is under load by then. */
const ANSWERED_BEFORE_SIGNAL = 300;
/** Each client's bound on requests, so the test ends whatever happens. */
const REQUESTS_PER_CLIENT_MAX = 2_000;

/** What one request got: an answer (its status), or a failure without one (the error's code). */
type Outcome = { id: string; status: number } | { id: string; error: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether some of the api's postings wait on a lock (the test's, on transactions). */
async function postingsWaitingOnLock(database: TestDatabase): Promise<boolean> {
  const { rows } = await database.db.raw<{ rows: Array<{ waiting: number }> }>(
    "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return rows[0]!.waiting > 0;
}

/** The code of a fetch failure: undici wraps the socket's error in `cause`. */
function codeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

describe('api graceful shutdown (SIGTERM, as Kubernetes stops a Pod)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let api: AppProcess | undefined;

  beforeEach(async () => {
    database = await createTestDatabase({ runtimeRole: true, poolMax: 2 });
    await upsertCustomer(database.runtime!.db, 'C-1', {});
  });
  afterEach(async () => {
    await api?.kill();
    await database.drop();
  });

  it(`under ${CLIENTS} clients posting entries: every request the api accepted is answered 201 and stored, the rest are refused at connect, and it exits 0`, async () => {
    api = new AppProcess(API_DIR, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.runtime!.url,
      LEDGER_MIGRATION_DB_URL: database.url,
      PORT: '0',
      LEDGER_TOKEN,
      LEDGER_ADMIN_TOKEN: ADMIN_TOKEN,
      REDIS_URL,
      QUEUE_PREFIX: `shutdown-${randomUUID().slice(0, 8)}`,
      DB_POOL_MAX: '4',
    });
    const listening = await api.waitForLog(/ listening on http:\/\/localhost:/, 60_000);
    const url = `http://127.0.0.1:${String(listening.port)}/v1/transactions`;
    const outcomes: Outcome[] = [];
    const exited = () => api!.child.exitCode !== null || api!.child.signalCode !== null;

    const client = async (c: number) => {
      for (let i = 0; i < REQUESTS_PER_CLIENT_MAX; i += 1) {
        const id = `shutdown-${c}-${i}`;
        try {
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Ledger-Admin-Token': ADMIN_TOKEN, 'X-Request-Id': id },
            body: JSON.stringify(deposit({ source_txn_id: id, amount_usd: '1.00' })),
          });
          await response.arrayBuffer();
          outcomes.push({ id, status: response.status });
        } catch (error) {
          outcomes.push({ id, error: codeOf(error) });
          // The listener is closed: nothing more will be accepted.
          if (codeOf(error) === 'ECONNREFUSED' || exited()) return;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    while (outcomes.length < ANSWERED_BEFORE_SIGNAL) await sleep(20);

    // Postings held in flight across the signal, whatever the two processes' speeds: a lock every
    // insert waits on, taken before the signal and let go once the api is shutting down.
    let [lockTaken, letGo] = [() => {}, () => {}];
    const taken = new Promise<void>((resolve) => (lockTaken = resolve));
    const holding = database.db.transaction(async (trx) => {
      await trx.raw('LOCK TABLE transactions IN EXCLUSIVE MODE');
      lockTaken();
      await new Promise<void>((release) => (letGo = release));
    });
    await taken;
    while (!(await postingsWaitingOnLock(database))) await sleep(20);
    const stopping = api.stop('SIGTERM');
    await api.waitForLog('shutting down');
    letGo();
    await holding;
    const exit = await stopping;
    await Promise.all(clients);
    expect(exit.code, JSON.stringify(api.logs.filter((l) => l.message !== 'request').slice(-8)) + api.stderr).to.equal(
      0,
    );

    // Accepted: the api read the request (its request log has the id). Each was answered, 201.
    const messages = api.logs.map((line) => line.message);
    const accepted = new Set(
      api.logs.filter((line) => line.message === 'request').map((line) => line.request_id as string),
    );
    const answered = outcomes.filter((o): o is { id: string; status: number } => 'status' in o);
    const failed = outcomes.filter((o): o is { id: string; error: string } => 'error' in o);
    expect(
      answered.filter((o) => o.status !== 201),
      'answers other than 201',
    ).to.deep.equal([]);
    expect(
      failed.filter((o) => accepted.has(o.id)),
      'accepted, then failed without an answer',
    ).to.deep.equal([]);
    expect(
      [...accepted].filter((id) => !answered.some((o) => o.id === id)),
      'accepted and never answered',
    ).to.deep.equal([]);
    // Requests were in flight when the signal came (held by the lock), and finished during the drain.
    const signalledAt = messages.indexOf('shutting down');
    expect(
      api.logs.slice(signalledAt).filter((line) => line.message === 'request').length,
      'requests drained after the signal',
    ).to.be.above(0);
    expect(failed.length, 'the clients saw the listener close').to.be.above(0);

    // Stored exactly what was answered 201: nothing accepted was lost, nothing unanswered was written.
    const stored = await database.db('transactions').where({ source: 'manual' }).pluck('source_txn_id');
    expect(new Set(stored)).to.deep.equal(new Set(answered.map((o) => o.id)));
  });
});
