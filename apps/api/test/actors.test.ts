import { jobActor, draftFromEntry, FeeSchedule, Decimal } from '@ledger/core/posting';
import { withActor } from '@ledger/core/runtime';
import { postTransactions } from '@ledger/core/store';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { deposit, expectError, startApi, type TestApi } from './support.js';

const ANA = { headers: { 'X-Ledger-Actor': 'ana@example.com' } };

describe('who posted what (posted_by, created_by, updated_by)', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await startApi();
  });
  after(() => api?.close());

  it('a customer records who created it and who last changed it', async () => {
    const created = await api.put('/v1/customers/C-1', { name: 'Ana' }, ANA);
    expect(created.body).to.include({ created_by: 'api:ana@example.com', updated_by: 'api:ana@example.com' });
    const changed = await api.put('/v1/customers/C-1', { email: 'c1@example.com' });
    expect(changed.body).to.include({ created_by: 'api:ana@example.com', updated_by: 'api' });
  });

  it('a manual entry and a reversal record the operator of X-Ledger-Actor, or api; a job’s posting records the job', async () => {
    const named = await api.post('/v1/transactions', deposit({ source_txn_id: 'who-1' }), ANA);
    expect(named.body.posted_by).to.equal('api:ana@example.com');
    const plain = await api.post('/v1/transactions', deposit({ source_txn_id: 'who-2' }));
    expect(plain.body.posted_by).to.equal('api');
    const reversal = await api.post(
      `/v1/transactions/${plain.body.txn_id}/reverse`,
      {},
      { headers: { 'X-Ledger-Actor': 'Bo Li' } },
    );
    expect(reversal.body.posted_by).to.equal('api:Bo Li');
    const synced = draftFromEntry(
      {
        txn_type: 'deposit',
        customer_id: 'C-1',
        source: 'uaefeed',
        source_txn_id: 'who-3',
        txn_date: '2026-01-15',
        amount_usd: '5.00',
      },
      randomUUID(),
      { feeSchedule: new FeeSchedule(new Decimal(22)) },
    );
    await withActor(jobActor('sync-uaefeed', 'job-42'), () => postTransactions(api.db, [synced]));
    expect((await api.get(`/v1/transactions/${synced.txnId}`, { token: 'ledger' })).body.posted_by).to.equal(
      'job:sync-uaefeed:job-42',
    );
  });

  it('the list filters on posted_by: one actor, or every actor under a prefix ending in ":"', async () => {
    const ids = async (postedBy: string) =>
      (
        (
          await api.get(`/v1/transactions?posted_by=${encodeURIComponent(postedBy)}&sort=posted_at&order=asc`, {
            token: 'ledger',
          })
        ).body.items as Array<{ source_txn_id: string }>
      ).map((t) => t.source_txn_id);
    expect(await ids('api:ana@example.com')).to.deep.equal(['who-1']);
    expect(await ids('api')).to.deep.equal(['who-2']);
    expect(await ids('api:')).to.have.members([
      'who-1',
      `reversal:${(await api.db('transactions').where('source_txn_id', 'who-2').first('txn_id')).txn_id}`,
    ]);
    expect(await ids('job:sync-uaefeed:')).to.deep.equal(['who-3']);
    expect(await ids('job:%')).to.deep.equal([]);
  });

  it('a cash request records who made it and who moved it', async () => {
    const made = await api.post(
      '/v1/cash-requests',
      { customer_id: 'C-1', direction: 'deposit', amount: '25.00', currency: 'USD' },
      ANA,
    );
    expect(made.body).to.include({ created_by: 'api:ana@example.com', updated_by: 'api:ana@example.com' });
    const confirmed = await api.post(
      `/v1/cash-requests/${made.body.cash_request_id}/confirm`,
      {},
      { headers: { 'X-Ledger-Actor': 'Bo Li' } },
    );
    expect(confirmed.body).to.include({
      status: 'completed',
      created_by: 'api:ana@example.com',
      updated_by: 'api:Bo Li',
    });
    expect((await api.get(`/v1/transactions/${confirmed.body.txn_id}`, { token: 'ledger' })).body.posted_by).to.equal(
      'api:Bo Li',
    );
  });

  it('refuses an X-Ledger-Actor outside its pattern on any admin write (400), storing nothing', async () => {
    expectError(
      await api.post('/v1/transactions', deposit({ source_txn_id: 'who-bad' }), {
        headers: { 'X-Ledger-Actor': 'ana<script>' },
      }),
      400,
      'validation_error',
    );
    expectError(
      await api.put('/v1/customers/C-9', {}, { headers: { 'X-Ledger-Actor': 'x'.repeat(201) } }),
      400,
      'validation_error',
    );
    expect(await api.db('customers').where('customer_id', 'C-9').first()).to.equal(undefined);
  });
});
