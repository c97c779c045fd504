import { jobActor } from '@ledger/core/posting';
import { withActor } from '@ledger/core/runtime';
import { recordExceptions } from '@ledger/core/store';
import { expect } from 'chai';
import { expectError, startApi, type TestApi } from './support.js';

describe('exceptions: a home for every record a sync could not post', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await startApi();
    await api.put('/v1/customers/C-1', {});
  });
  after(() => api?.close());

  const run = (job: string, outcomes: Parameters<typeof recordExceptions>[2], upstream = 'usbroker') =>
    withActor(jobActor('sync-usbroker', job), () => recordExceptions(api.db, { upstream }, outcomes));
  const refused = (key: string, reason = 'quantity is missing') =>
    ({
      recordKey: key,
      customerId: 'C-1',
      outcome: 'rejected',
      reasonCode: 'missing_fill',
      reason,
      record: { txn_no: key, api_key: 'k-123', nested: { token: 't' }, qty: null },
    }) as const;

  it('a record refused twice is one open row, last seen by the second run, its credentials never kept', async () => {
    await run('j-1', [refused('TXN-1'), refused('TXN-2')]);
    await run('j-2', [refused('TXN-1', 'quantity is still missing')]);
    const list = await api.get('/v1/exceptions?state=open&upstream=usbroker', { token: 'ledger' });
    expect(list.status, list.text).to.equal(200);
    expect(list.body).to.include({ total: 2, limit: 50, offset: 0 });
    const first = list.body.items.find((e: { record_key: string }) => e.record_key === 'TXN-1');
    expect(first).to.include({
      upstream: 'usbroker',
      customer_id: 'C-1',
      reason_code: 'missing_fill',
      reason: 'quantity is still missing',
      job: 'job:sync-usbroker:j-2',
      times_seen: 2,
      state: 'open',
    });
    expect(first.record).to.deep.equal({ txn_no: 'TXN-1', nested: {}, qty: null });
    expect((await api.get(`/v1/exceptions/${first.exception_id}`, { token: 'ledger' })).body).to.deep.equal(first);
  });

  it('a later run that posts the record resolves it, naming the run', async () => {
    await run('j-3', [{ recordKey: 'TXN-2', customerId: 'C-1', outcome: 'inserted' }]);
    const resolved = (await api.get('/v1/exceptions?state=resolved', { token: 'ledger' })).body.items;
    expect(
      resolved.map((e: Record<string, unknown>) => [e.record_key, e.state_reason, e.state_changed_by]),
    ).to.deep.equal([['TXN-2', 'posted by a later run', 'job:sync-usbroker:j-3']]);
  });

  it('an operator dismisses one with a reason (admin); a repeat answers it unchanged; a resolved one is 409; a later failure keeps it dismissed', async () => {
    const [open] = (await api.get('/v1/exceptions?state=open', { token: 'ledger' })).body.items;
    expectError(
      await api.post(`/v1/exceptions/${open.exception_id}/dismiss`, { reason: 'x' }, { token: 'ledger' }),
      403,
      'forbidden',
    );
    expectError(await api.post(`/v1/exceptions/${open.exception_id}/dismiss`, {}), 400, 'validation_error');
    const dismissed = await api.post(
      `/v1/exceptions/${open.exception_id}/dismiss`,
      { reason: 'the broker cancelled it' },
      { headers: { 'X-Ledger-Actor': 'ana@example.com' } },
    );
    expect(dismissed.status, dismissed.text).to.equal(200);
    expect(dismissed.body).to.include({
      state: 'dismissed',
      state_reason: 'the broker cancelled it',
      state_changed_by: 'api:ana@example.com',
    });
    expect((await api.post(`/v1/exceptions/${open.exception_id}/dismiss`, { reason: 'again' })).body).to.deep.equal(
      dismissed.body,
    );
    const [resolved] = (await api.get('/v1/exceptions?state=resolved', { token: 'ledger' })).body.items;
    expectError(
      await api.post(`/v1/exceptions/${resolved.exception_id}/dismiss`, { reason: 'late' }),
      409,
      'invalid_state_transition',
    );
    await run('j-4', [refused('TXN-1')]);
    expect((await api.get(`/v1/exceptions/${open.exception_id}`, { token: 'ledger' })).body).to.include({
      state: 'dismissed',
      times_seen: 3,
    });
    expectError(await api.get('/v1/exceptions/999999', { token: 'ledger' }), 404, 'not_found');
  });

  it('filters by reason, customer and first-seen date; a bad filter is a 400', async () => {
    await run(
      'j-5',
      [
        {
          recordKey: 'fx_spread:order_9',
          customerId: null,
          outcome: 'conflict',
          reasonCode: 'idempotency_conflict',
          reason: 'posted before with other amount_usd',
        },
      ],
      'remit',
    );
    const today = new Date().toISOString().slice(0, 10);
    const keys = async (query: string) =>
      (await api.get(`/v1/exceptions?${query}`, { token: 'ledger' })).body.items.map(
        (e: { record_key: string }) => e.record_key,
      );
    expect(await keys('reason=idempotency_conflict')).to.deep.equal(['fx_spread:order_9']);
    expect(await keys('customer_id=C-1')).to.have.members(['TXN-1', 'TXN-2']);
    expect(await keys(`from=${today}&to=${today}&upstream=remit`)).to.deep.equal(['fx_spread:order_9']);
    expect(await keys('to=2020-01-01')).to.deep.equal([]);
    expectError(await api.get('/v1/exceptions?state=closed', { token: 'ledger' }), 400, 'validation_error');
  });
});
