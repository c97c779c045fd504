import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { deposit, expectError, startApi, type TestApi } from './support.js';

describe('variance triage: /v1/reconciliation/variances*', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let api: TestApi;

  /** The owner moves account 1010's maintained total around the triggers: trial_balance_zero breaks by `amount`. */
  const drift = (slot: number, side: 'debit_total' | 'credit_total', amount: string) =>
    database.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx.raw(
        `INSERT INTO account_totals (account_code, slot, debit_total, credit_total, line_count) VALUES ('1010', ?, ?, ?, 0)`,
        [slot, side === 'debit_total' ? amount : '0', side === 'credit_total' ? amount : '0'],
      );
    });
  const run = async () => {
    const reply = await api.post('/v1/reconciliation/run', { category: 'A' });
    expect(reply.status, reply.text).to.equal(200);
    return reply.body;
  };
  const triageRows = async () => (await database.db('variance_triage_events').count({ n: '*' }))[0]!.n;

  before(async () => {
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

  let id: number;

  it('a run’s variance names the variance it is across runs and its state; two runs, one variance', async () => {
    await drift(99, 'debit_total', '1.00');
    const first = await run();
    const [seen] = first.metadata.variances;
    expect(seen).to.include({ check_name: 'trial_balance_zero', state: 'open' });
    id = seen.variance_id;
    expect(id).to.be.a('number');
    const second = await run();
    expect(second.metadata.variances[0]).to.include({ variance_id: id, state: 'open' });
    expect((await api.get(`/v1/reconciliation/runs/${second.run_id}`, { token: 'ledger' })).body).to.deep.equal(second);

    const list = await api.get('/v1/reconciliation/variances?state=unresolved&check_name=trial_balance_zero', {
      token: 'ledger',
    });
    expect(list.status, list.text).to.equal(200);
    expect(list.body).to.include({ total: 1, limit: 50, offset: 0 });
    expect(list.body.items[0]).to.include({
      variance_id: id,
      state: 'open',
      times_seen: 2,
      first_seen_run_id: first.run_id,
      last_seen_run_id: second.run_id,
      difference: '-1.00',
    });
    const byRun = await api.get(`/v1/reconciliation/variances?run_id=${first.run_id}`, { token: 'ledger' });
    expect(byRun.body.items.map((v: { variance_id: number }) => v.variance_id)).to.deep.equal([id]);
    const detail = await api.get(`/v1/reconciliation/variances/${id}`, { token: 'ledger' });
    expect(detail.status, detail.text).to.equal(200);
    expect(detail.body.runs.map((r: { run_id: string }) => r.run_id)).to.deep.equal([second.run_id, first.run_id]);
    expect(detail.body.history.map((e: { action: string; run_id: string }) => [e.action, e.run_id])).to.deep.equal([
      ['opened', first.run_id],
    ]);
    const counts = await api.get('/v1/reconciliation/variance-counts', { token: 'ledger' });
    expect(counts.status, counts.text).to.equal(200);
    expect(counts.body).to.deep.equal({
      unresolved: 1,
      by_state: { open: 1, acknowledged: 0, assigned: 0, resolved: 0 },
      by_check: [{ check_name: 'trial_balance_zero', unresolved: 1 }],
    });
    expect(
      (await api.get('/v1/reconciliation/variance-counts?customer_id=C-1', { token: 'ledger' })).body.unresolved,
    ).to.equal(0);
  });

  it('bad input is a 4xx in the error shape and changes nothing; the read token may not act (403)', async () => {
    const before = await triageRows();
    const path = `/v1/reconciliation/variances/${id}`;
    expectError(await api.post(`${path}/acknowledge`, {}, { token: 'ledger' }), 403, 'forbidden');
    expectError(await api.request('POST', `${path}/resolve`, { body: { note: 'x' } }), 401, 'unauthorized');
    expectError(await api.post(`${path}/assign`, {}), 400, 'validation_error');
    expectError(await api.post(`${path}/assign`, { assignee: 'a<b>' }), 400, 'validation_error');
    expectError(await api.post(`${path}/note`, { note: '   ' }), 400, 'validation_error');
    expectError(await api.post(`${path}/resolve`, {}), 400, 'validation_error');
    expectError(await api.post(`${path}/resolve`, { note: 'ok', extra: 1 }), 400, 'validation_error');
    expectError(await api.post('/v1/reconciliation/variances/0/acknowledge', {}), 400, 'validation_error');
    expectError(await api.post('/v1/reconciliation/variances/999999/acknowledge', {}), 404, 'not_found');
    expectError(await api.get('/v1/reconciliation/variances/999999', { token: 'ledger' }), 404, 'not_found');
    expectError(
      await api.get('/v1/reconciliation/variances?state=closed', { token: 'ledger' }),
      400,
      'validation_error',
    );
    expectError(await api.get('/v1/reconciliation/variances?limit=501', { token: 'ledger' }), 400, 'validation_error');
    expect(await triageRows()).to.equal(before);
    expect((await api.get(path, { token: 'ledger' })).body.state).to.equal('open');
  });

  it('acknowledge, assign, note and resolve (admin), each on the history with the operator; a resolved one cannot be assigned (409)', async () => {
    const path = `/v1/reconciliation/variances/${id}`;
    const as = { headers: { 'X-Ledger-Actor': 'ana@example.com' } };
    const acked = await api.post(`${path}/acknowledge`, undefined, as);
    expect(acked.status, acked.text).to.equal(200);
    expect(acked.body).to.include({ state: 'acknowledged', state_changed_by: 'api:ana@example.com' });
    expect((await api.post(`${path}/assign`, { assignee: 'Bo Li', note: 'yours' }, as)).body).to.include({
      state: 'assigned',
      assignee: 'Bo Li',
    });
    expect((await api.post(`${path}/note`, { note: 'a total moved by hand' })).body.state).to.equal('assigned');
    const resolved = await api.post(`${path}/resolve`, { note: 'explained' }, as);
    expect(resolved.status, resolved.text).to.equal(200);
    expect(
      resolved.body.history.map((e: Record<string, unknown>) => [e.action, e.state, e.assignee, e.note, e.actor]),
    ).to.deep.equal([
      ['opened', 'open', null, null, 'api'],
      ['acknowledged', 'acknowledged', null, null, 'api:ana@example.com'],
      ['assigned', 'assigned', 'Bo Li', 'yours', 'api:ana@example.com'],
      ['noted', 'assigned', 'Bo Li', 'a total moved by hand', 'api'],
      ['resolved', 'resolved', 'Bo Li', 'explained', 'api:ana@example.com'],
    ]);
    expect((await api.post(`${path}/resolve`, { note: 'again' })).body).to.deep.equal(resolved.body);
    expectError(await api.post(`${path}/assign`, { assignee: 'Cy' }), 409, 'invalid_state_transition');
    expect((await api.get('/v1/reconciliation/variance-counts', { token: 'ledger' })).body.unresolved).to.equal(0);
  });

  it('a run that no longer finds it marks it gone; when it comes back, the next run reopens it, naming the run', async () => {
    await drift(98, 'credit_total', '1.00');
    const clean = await run();
    expect(clean.status).to.equal('ok');
    expect((await api.get(`/v1/reconciliation/variances/${id}`, { token: 'ledger' })).body).to.include({
      state: 'resolved',
      present: false,
    });
    await drift(97, 'debit_total', '1.00');
    const back = await run();
    expect(back.metadata.variances[0]).to.include({ variance_id: id, state: 'open' });
    const detail = (await api.get(`/v1/reconciliation/variances/${id}`, { token: 'ledger' })).body;
    expect(detail.history.at(-1)).to.include({ action: 'reopened', state: 'open', run_id: back.run_id });

    await drift(96, 'credit_total', '1.00');
    const fixed = await run();
    const gone = (await api.get(`/v1/reconciliation/variances/${id}`, { token: 'ledger' })).body;
    expect(gone).to.include({ state: 'resolved', present: false });
    expect(gone.history.at(-1)).to.include({
      action: 'resolved',
      run_id: fixed.run_id,
      note: `no longer found by run ${fixed.run_id}`,
    });
  });
});
