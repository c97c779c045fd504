import { createHmac, randomUUID } from 'node:crypto';
import { createLogger } from '@ledger/core/runtime';
import { advisoryLockId, createDb, LOCK_KEYS } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { createJobWorkers, type JobWorkers } from '@ledger/job-runtime';
import { DEFAULT_JOB_SETTINGS, JOBS, runProvisionIndia } from '@ledger/jobs';
import { startSandbox, type Remittance, type Sandbox } from '@ledger/sandbox';
import { createRemitClient, createUsbrokerClient, NO_UPSTREAMS, type UpstreamClients } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { startApi, type Reply, type TestApi } from './support.js';

const SECRET = 'remit-webhook-secret-e2e-0123456789';
const BPS = '75';

/** The remit webhook end to end: signed deliveries → the api → the queue → a worker → the books. */
describe('the remit webhook, end to end through a worker and the sandbox', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  let api: TestApi;
  let workers: JobWorkers;
  let paid: Remittance;
  /** A paid remittance of the one customer the book has not linked (provision-india left them out). */
  let strangers: Remittance;
  const prefix = `webhook-e2e-${randomUUID().slice(0, 8)}`;

  before(async () => {
    sandbox = await startSandbox({ seed: 11, customers: 4, recordsPerCustomer: 6 });
    database = await createTestDatabase({ runtimeRole: true });
    const db = database.runtime!.db;
    const upstreams: UpstreamClients = {
      ...NO_UPSTREAMS,
      remit: createRemitClient({
        baseUrl: sandbox.urls.remit,
        apiKey: sandbox.credentials.remit.apiKey,
        timeoutMs: 5_000,
      }),
      usbroker: createUsbrokerClient({
        baseUrl: sandbox.urls.usbroker,
        apiKey: sandbox.credentials.usbroker.apiKey,
        apiSecret: sandbox.credentials.usbroker.apiSecret,
        timeoutMs: 5_000,
      }),
    };
    const logger = createLogger({ level: 'error', service: 'worker-test', book: 'ENTITY_IND_IFSC', silent: true });
    const settings = { ...DEFAULT_JOB_SETTINGS, fxSpreadBps: BPS, apiGlobalBaseUrl: sandbox.urls.registry };
    const paidOf = (c: (typeof sandbox.data.india.customers)[number]) =>
      sandbox.data.india.dataOf(c).remittances.find((r) => r.order.status === 'paid' && r.payment !== null);
    const stranger = [...sandbox.data.india.customers].reverse().find((c) => paidOf(c) !== undefined);
    if (!stranger) throw new Error('the seeded data set has no paid remittance');
    strangers = paidOf(stranger)!;
    const linked = sandbox.data.india.customers.filter((c) => c !== stranger).map((c) => c.customer_id);
    await runProvisionIndia(
      { customer_ids: linked },
      { book: 'ENTITY_IND_IFSC', db, logger, progress: () => undefined, settings, upstreams },
    );
    workers = createJobWorkers({
      book: 'ENTITY_IND_IFSC',
      redisUrl: 'redis://127.0.0.1:6379',
      queuePrefix: prefix,
      db,
      logger,
      catalog: JOBS,
      settings,
      upstreams,
    });
    await workers.waitUntilReady();
    api = await startApi({
      db,
      dbUrl: database.runtime!.url,
      env: { ENTITY_ID: 'ENTITY_IND_IFSC', REMIT_WEBHOOK_SECRET: SECRET, QUEUE_PREFIX: prefix },
    });
    const all = sandbox.data.india.customers.flatMap((c) => sandbox.data.india.dataOf(c).remittances);
    const found = all.find(
      (r) => r.order.status === 'paid' && r.payment !== null && r.order.customer_id !== strangers.order.customer_id,
    );
    if (!found) throw new Error('the seeded data set has no paid remittance');
    paid = found;
  });
  after(async () => {
    await api?.close();
    await workers?.close();
    await sandbox?.close();
    await database?.drop();
  });

  const deliver = (event: unknown): Promise<Reply> => {
    const raw = JSON.stringify(event);
    return api.request('POST', '/v1/india/webhooks/remit', {
      rawBody: raw,
      headers: {
        'Content-Type': 'application/json',
        'X-Remit-Signature': `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`,
      },
    });
  };
  const paidEvent = () => ({
    entity_type: 'orders',
    event_type: 'paid',
    data: { id: paid.order.id, customer_id: paid.order.customer_id, status: 'paid', amount: paid.order.amount },
  });

  /** Polls a job's status record until it is no longer running. */
  async function finished(
    jobId: string,
  ): Promise<{ status: string; result: Record<string, unknown> | null; error: string | null }> {
    for (;;) {
      const reply = await api.get(`/v1/jobs/status/${jobId}`, { token: 'ledger' });
      if (reply.body.status !== 'running') return reply.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const fxSpreadPostings = () =>
    api
      .db('transactions')
      .where({ source: 'remit', source_txn_id: `fx_spread:${paid.order.id}` })
      .count<Array<{ n: string }>>({ n: '*' });

  it('ten concurrent duplicate deliveries of one paid event post exactly one fx_spread', async () => {
    const replies = await Promise.all(Array.from({ length: 10 }, () => deliver(paidEvent())));
    for (const reply of replies) expect(reply.body).to.include({ triggered_sync: true, order_id: paid.order.id });
    const outcomes = await Promise.all(replies.map((reply) => finished(reply.body.job_id as string)));
    for (const outcome of outcomes) expect(outcome.status, outcome.error ?? '').to.equal('done');
    expect(Number((await fxSpreadPostings())[0]!.n)).to.equal(1);
    const remittance = await api.db('remittances').where({ order_id: paid.order.id }).first();
    expect(remittance).to.include({ status: 'paid' });
  });

  it('a paid event of a remit customer the book has not linked: triggered, linked from the registry, then synced (its fx_spread posted)', async () => {
    const remitId = strangers.order.customer_id;
    expect(await api.db('customers').where({ remit_customer_id: remitId }).first()).to.equal(undefined);
    const reply = await deliver({
      entity_type: 'orders',
      event_type: 'paid',
      data: { id: strangers.order.id, customer_id: remitId, status: 'paid', amount: strangers.order.amount },
    });
    expect(reply.body).to.include({ triggered_sync: true, remit_customer_id: remitId, order_id: strangers.order.id });
    expect(reply.body.reason).to.contain('the sync links it from the customer registry first');
    const outcome = await finished(reply.body.job_id as string);
    expect(outcome.status, outcome.error ?? '').to.equal('done');
    const customer = await api.db('customers').where({ remit_customer_id: remitId }).first();
    expect(customer, 'linked').to.not.equal(undefined);
    expect(outcome.result).to.include({ customer_id: customer.customer_id, linked: true });
    expect(outcome.result!.reason).to.equal(
      `remit customer ${remitId} was not linked: linked it to ${customer.customer_id} from the customer registry (as provision-india does), then synced ${customer.customer_id}`,
    );
    const posted = await api
      .db('transactions')
      .where({ source: 'remit', source_txn_id: `fx_spread:${strangers.order.id}` })
      .first();
    expect(posted).to.include({ customer_id: customer.customer_id, txn_type: 'fx_spread' });
    // Again (a duplicate delivery): the customer is known now; nothing new is posted.
    const again = await finished(
      (
        await deliver({
          entity_type: 'orders',
          event_type: 'paid',
          data: { id: strangers.order.id, customer_id: remitId },
        })
      ).body.job_id as string,
    );
    expect(again.result).to.include({ linked: false });
    expect(
      await api
        .db('transactions')
        .where({ source: 'remit', source_txn_id: `fx_spread:${strangers.order.id}` })
        .count<Array<{ n: string }>>({ n: '*' }),
    ).to.deep.equal([{ n: '1' }]);
  });

  it('a triggered sync waits while the India sync lock is held (another replica’s sync), then runs', async () => {
    // Another replica's sync, as far as the database can tell: a connection of its own holding the lock.
    const holder = createDb({ url: database.url, poolMax: 1, applicationName: 'other-replica' });
    try {
      const connection = await holder.client.acquireConnection();
      await connection.query('SELECT pg_advisory_lock($1::bigint)', [advisoryLockId(LOCK_KEYS.indiaSync)]);
      const reply = await deliver(paidEvent());
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const meanwhile = await api.get(`/v1/jobs/status/${reply.body.job_id}`, { token: 'ledger' });
      expect(meanwhile.body.status, 'finished while the lock was held').to.equal('running');
      await connection.query('SELECT pg_advisory_unlock($1::bigint)', [advisoryLockId(LOCK_KEYS.indiaSync)]);
      await holder.client.releaseConnection(connection);
      expect((await finished(reply.body.job_id as string)).status).to.equal('done');
    } finally {
      await holder.destroy();
    }
  });

  it('an out-of-order non-terminal event after paid leaves the order paid and posts nothing more', async () => {
    const reply = await deliver({
      entity_type: 'orders',
      event_type: 'active',
      data: { id: paid.order.id, customer_id: paid.order.customer_id, status: 'active' },
    });
    expect(reply.body).to.include({ triggered_sync: false });
    const payment = await deliver({
      entity_type: 'payment',
      event_type: 'success',
      data: { id: paid.payment!.id, payin_id: paid.order.id, customer_id: paid.order.customer_id, status: 'success' },
    });
    expect((await finished(payment.body.job_id as string)).status).to.equal('done');
    expect(await api.db('remittances').where({ order_id: paid.order.id }).first()).to.include({ status: 'paid' });
    expect(Number((await fxSpreadPostings())[0]!.n)).to.equal(1);
  });
});
