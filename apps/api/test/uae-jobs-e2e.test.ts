import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { trialBalance } from '@ledger/core/reports';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { startSandbox, type Sandbox } from '@ledger/sandbox';
import { expect } from 'chai';
import { countRows, startApi, type TestApi } from './support.js';

const WORKER_DIR = fileURLToPath(new URL('../../worker', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('UAE jobs end to end: the sandbox, the api, a real worker', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  let api: TestApi;
  let worker: AppProcess;

  before(async () => {
    sandbox = await startSandbox({ seed: 17, customers: 3, recordsPerCustomer: 20, startMonth: '2026-01', months: 2 });
    const prefix = `e2e-uae-${randomUUID().slice(0, 8)}`;
    database = await createTestDatabase({ runtimeRole: true, poolMax: 4 });
    api = await startApi({
      db: database.runtime!.db,
      dbUrl: database.runtime!.url,
      env: { QUEUE_PREFIX: prefix, JOB_SYNC_WAIT_MS: '60000' },
    });
    const c = sandbox.credentials;
    worker = new AppProcess(WORKER_DIR, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: database.runtime!.url,
      LEDGER_MIGRATION_DB_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'info',
      UAEFEED_BASE_URL: sandbox.urls.uaefeed,
      UAEFEED_API_KEY: c.uaefeed.appKey,
      UAEFEED_API_SECRET: c.uaefeed.appSecret,
      UAEFEED_PRIVATE_KEY: c.uaefeed.privateKeyPem,
      UAEFEED_INST_CODE: c.uaefeed.instCode,
      CUSTODIAN_BASE_URL: sandbox.urls.custodian,
      CUSTODIAN_API_KEY: c.custodian.apiKey,
      API_GLOBAL_BASE_URL: sandbox.urls.registry,
    });
    await worker.waitForLog('ready');
  });
  after(async () => {
    await worker?.kill();
    await api?.close();
    await database?.drop();
    await sandbox?.close();
  });

  it('POST /v1/jobs/provision-uae links the registry’s customers (the worker’s API_GLOBAL_BASE_URL); again, nothing changes', async () => {
    const provision = async () => {
      const started = await api.post('/v1/jobs/provision-uae', {});
      expect(started.status, started.text).to.equal(202);
      for (let i = 0; i < 600; i += 1) {
        const status = await api.get(`/v1/jobs/status/${started.body.job_id as string}`, { token: 'ledger' });
        if (status.body.status !== 'running') return status.body as { status: string; result: Record<string, unknown> };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return expect.fail('provision-uae never finished');
    };
    const first = await provision();
    expect(first.status).to.equal('done');
    expect(first.result).to.deep.include({
      customers: 3,
      outcomes: { inserted: 3, updated: 0, duplicate: 0, conflict: 0, rejected: 0, skipped: 0 },
    });
    expect(first.result.changes).to.deep.include({
      customer_id: 'UAE-000001',
      outcome: 'inserted',
      fields: ['name', 'uaefeed_customer_number', 'uaefeed_account_number', 'custodian_account'],
    });
    expect((await provision()).result.outcomes).to.include({ inserted: 0, updated: 0, duplicate: 3 });
    const rows = await database
      .runtime!.db('customers')
      .select('customer_id', 'uaefeed_customer_number', 'custodian_account')
      .orderBy('customer_id');
    expect(rows).to.deep.equal(
      sandbox.data.customers.map((c) => ({
        customer_id: c.customer_id,
        uaefeed_customer_number: c.uaefeed_customer_number,
        custodian_account: c.custodian_account,
      })),
    );
  });

  it('POST /v1/jobs/sync-uaefeed answers done with every record posted; again, nothing new', async () => {
    const expected = sandbox.data.customers.reduce((n, c) => {
      const data = sandbox.data.dataOf(c);
      return (
        n +
        data.transfers.filter((t) => t.status === 'COMPLETED').length +
        data.orders.filter((o) => o.cumQty !== '0').length
      );
    }, 0);
    const reply = await api.post('/v1/jobs/sync-uaefeed', {});
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.body).to.include({ kind: 'sync-uaefeed', status: 'done', error: null });
    const { records } = reply.body.result as { records: Record<string, { inserted: number }> };
    expect(reply.body.result).to.deep.include({ customers: 3, customers_synced: 3, issues: [] });
    expect(records.cash_transfers!.inserted + records.orders!.inserted).to.equal(expected);
    expect(reply.body.result.customers_failed).to.deep.equal([]);
    expect((await trialBalance(database.runtime!.db)).balanced).to.equal(true);
    const posted = await countRows(database.runtime!.db, 'transactions');

    const again = await api.post('/v1/jobs/sync-uaefeed', { customer_ids: ['UAE-000002'] });
    expect(again.body.result).to.include({ customers: 1 });
    expect(again.body.result.records.cash_transfers.inserted + again.body.result.records.orders.inserted).to.equal(0);
    expect(await countRows(database.runtime!.db, 'transactions')).to.equal(posted);
  });

  it('POST /v1/jobs/sync-holdings answers 202 and the worker stores the day', async () => {
    const reply = await api.post('/v1/jobs/sync-holdings', { as_of: '2026-02-28' });
    expect(reply.status, reply.text).to.equal(202);
    const deadline = Date.now() + 60_000;
    let status = reply.body;
    while (status.status === 'running' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await api.get(`/v1/jobs/status/${String(reply.body.job_id)}`, { token: 'ledger' })).body;
    }
    expect(status).to.include({ status: 'done' });
    expect(status.result).to.deep.include({ as_of: '2026-02-28' });
    expect(status.result.snapshots).to.include({ inserted: 3, duplicate: 0 });
  });
});
