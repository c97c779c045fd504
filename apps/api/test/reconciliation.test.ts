import { randomUUID } from 'node:crypto';
import { advisoryLockId, createDb } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { CHECKS } from '@ledger/reconciliation';
import { expect } from 'chai';
import { deposit, expectError, startApi, type TestApi } from './support.js';

describe('reconciliation: /v1/reconciliation/*', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let api: TestApi;

  before(async () => {
    // A database of the test's own: the owner breaks the book, the api runs as the runtime role.
    database = await createTestDatabase({ runtimeRole: true });
    api = await startApi({ db: database.runtime!.db, dbUrl: database.runtime!.url });
    expect((await api.put('/v1/customers/C-1', { name: 'One' })).status).to.equal(201);
    expect((await api.post('/v1/transactions', deposit({ customer_id: 'C-1', amount_usd: '100.00' }))).status).to.equal(
      201,
    );
  });
  after(async () => {
    await api?.close();
    await database?.drop();
  });

  it('POST /v1/reconciliation/run (admin) runs every check now and answers the run; GET answers the same', async () => {
    const reply = await api.post('/v1/reconciliation/run', {});
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.body).to.include({ category: null, status: 'ok' });
    // Every check of the book (UAE here: usbroker_omnibus_cash is the India book's alone).
    expect(reply.body.results.map((r: { check_name: string }) => r.check_name)).to.deep.equal(
      CHECKS.filter((c) => c.books.includes('ENTITY_UAE')).map((c) => c.name),
    );
    expect(reply.body.metadata).to.deep.equal({ variances: [], skipped: [] });
    const got = await api.get(`/v1/reconciliation/runs/${reply.body.run_id}`, { token: 'ledger' });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(reply.body);
  });

  it('with {category} runs that category only; without a body, every category', async () => {
    const a = await api.post('/v1/reconciliation/run', { category: 'A' });
    expect(a.status, a.text).to.equal(200);
    expect(a.body.category).to.equal('A');
    expect(new Set(a.body.results.map((r: { category: string }) => r.category))).to.deep.equal(new Set(['A']));
    const none = await api.request('POST', '/v1/reconciliation/run', { token: 'admin' });
    expect(none.status, none.text).to.equal(200);
    expect(none.body.category).to.equal(null);
  });

  it('a request for the category a run in flight is running joins it: both answer the one run', async () => {
    // Another instance runs trial_balance_zero: the first run waits for it, the second request joins.
    const other = createDb({ url: database.url, poolMax: 1, applicationName: 'other-recon' });
    const holder = await other.transaction();
    try {
      await holder.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId('recon:trial_balance_zero')]);
      const joined = () => api.logs.filter((line) => line.includes('joins the same run in flight')).length;
      const first = api.post('/v1/reconciliation/run', { category: 'A' });
      const second = api.post('/v1/reconciliation/run', { category: 'A' });
      while (joined() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await holder.commit();
      const [a, b] = await Promise.all([first, second]);
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect(b.body.run_id).to.equal(a.body.run_id);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
      await other.destroy();
    }
  });

  it('with {"full": true} every incremental check sweeps the whole book', async () => {
    await api.post('/v1/reconciliation/run', { category: 'A' });
    const sweep = (reply: { body: { results: Array<{ check_name: string; metrics: { sweep?: string } }> } }) =>
      reply.body.results.find((r) => r.check_name === 'source_txn_uniqueness')!.metrics.sweep;
    const incremental = await api.post('/v1/reconciliation/run', { category: 'A' });
    const full = await api.post('/v1/reconciliation/run', { category: 'A', full: true });
    expect(full.status, full.text).to.equal(200);
    expect([sweep(incremental), sweep(full)]).to.deep.equal(['incremental', 'full']);
    expectError(await api.post('/v1/reconciliation/run', { full: 'yes' }), 400, 'validation_error');
  });

  it('any other category, or another field, is a 400 and runs nothing', async () => {
    const before = await api.get('/v1/reconciliation/runs', { token: 'ledger' });
    expectError(await api.post('/v1/reconciliation/run', { category: 'E' }), 400, 'validation_error');
    expectError(await api.post('/v1/reconciliation/run', { category: 'a' }), 400, 'validation_error');
    expectError(await api.post('/v1/reconciliation/run', { category: 'A', also: 1 }), 400, 'validation_error');
    expect((await api.get('/v1/reconciliation/runs', { token: 'ledger' })).body.total).to.equal(before.body.total);
  });

  it('the read token may not run the checks (403); no token, 401', async () => {
    expectError(await api.post('/v1/reconciliation/run', {}, { token: 'ledger' }), 403, 'forbidden');
    expectError(await api.request('POST', '/v1/reconciliation/run', { body: {} }), 401, 'unauthorized');
  });

  it('an unknown run is a 404; a malformed id, a 400', async () => {
    expectError(await api.get(`/v1/reconciliation/runs/${randomUUID()}`, { token: 'ledger' }), 404, 'not_found');
    expectError(await api.get('/v1/reconciliation/runs/not-a-uuid', { token: 'ledger' }), 400, 'validation_error');
  });

  it('on a broken book › the run fails, names the variance, and the history filters find it', async () => {
    await database.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx.raw(
        `INSERT INTO account_totals (account_code, slot, debit_total, credit_total, line_count) VALUES ('1010', 99, 1.00, 0, 0)`,
      );
    });
    const run = await api.post('/v1/reconciliation/run', { category: 'A' });
    expect(run.body.status).to.equal('fail');
    const failed = run.body.results.find((r: { check_name: string }) => r.check_name === 'trial_balance_zero');
    expect(failed).to.include({ status: 'fail' });
    expect(run.body.metadata.variances).to.have.length(1);
    expect(run.body.metadata.variances[0]).to.include({ check_name: 'trial_balance_zero', difference: '-1.00' });
    // Counted where the LedgerReconFail alert reads, as a scheduled run's fail is (docs/runbooks/recon-check-fail.md).
    const counted = (await api.metrics.getSingleMetricAsString('ledger_recon_check_results_total')).split('\n');
    const counts = counted.filter((line) => /check="trial_balance_zero".*status="fail"/.test(line));
    expect(counts).to.have.length(1);
    expect(counts[0]).to.include('book="ENTITY_UAE"').and.match(/ 1$/);

    const list = await api.get('/v1/reconciliation/runs?status=fail&check_name=trial_balance_zero&category=A', {
      token: 'ledger',
    });
    expect(list.status, list.text).to.equal(200);
    expect(list.body).to.include({ total: 1, limit: 50, offset: 0 });
    expect(list.body.items[0]).to.include({ run_id: run.body.run_id, status: 'fail', variance_count: 1 });
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await api.get(`/v1/reconciliation/runs?from=${today}&to=${today}`, { token: 'ledger' })).body.total,
    ).to.be.greaterThan(1);
    expect((await api.get('/v1/reconciliation/runs?to=2000-01-01', { token: 'ledger' })).body.total).to.equal(0);
    expectError(await api.get('/v1/reconciliation/runs?status=bad', { token: 'ledger' }), 400, 'validation_error');
    const page = await api.get('/v1/reconciliation/runs?limit=1&offset=1', { token: 'ledger' });
    expect(page.body.items).to.have.length(1);
  });
});
