import { randomUUID } from 'node:crypto';
import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { recost } from '@ledger/core/store';
import { expect } from 'chai';
import { deposit, expectError, startApi, type TestApi } from './support.js';

describe('POST /v1/transactions/{txn_id}/reverse', () => {
  let api: TestApi;
  let seq = 0;
  before(async () => {
    api = await startApi();
    await api.put('/v1/customers/C-1', {});
    // The trades below are manual buys, which take the funds check: the wallet covers them.
    const funding = await api.post('/v1/transactions', deposit({ source_txn_id: 'rev-funds', amount_usd: '1000.00' }));
    expect(funding.status, funding.text).to.equal(201);
  });
  after(async () => {
    await api.close();
  });

  async function posted(overrides: Record<string, unknown> = {}) {
    seq += 1;
    const reply = await api.post('/v1/transactions', deposit({ source_txn_id: `rev-${seq}`, ...overrides }));
    expect(reply.status).to.equal(201);
    return reply.body;
  }

  it('answers 201 with a reversal that mirrors every line and names the original', async () => {
    const original = await posted({ amount_usd: '250.00' });
    const reply = await api.post(`/v1/transactions/${original.txn_id}/reverse`, {
      memo: 'entered twice',
      txn_date: '2026-02-01',
    });
    expect(reply.status).to.equal(201);
    expect(reply.headers.get('location')).to.equal(`/v1/transactions/${reply.body.txn_id}`);
    expect(reply.body).to.include({
      txn_type: 'reversal',
      source: 'ledger',
      reverses_txn_id: original.txn_id,
      customer_id: 'C-1',
      amount_usd: '250.00',
      txn_date: '2026-02-01',
      memo: 'entered twice',
    });
    const mirror = original.journal_lines.map((l: Record<string, string>) => [l.account_code, l.credit, l.debit]);
    expect(
      reply.body.journal_lines.map((l: Record<string, string>) => [l.account_code, l.debit, l.credit]),
    ).to.deep.equal(mirror);
    const now = await api.get(`/v1/transactions/${original.txn_id}`, { token: 'ledger' });
    expect(now.body.reversed_by_txn_id).to.equal(reply.body.txn_id);
  });

  it('without a body dates the reversal today (UTC)', async () => {
    const original = await posted();
    const reply = await api.request('POST', `/v1/transactions/${original.txn_id}/reverse`, { token: 'admin' });
    expect(reply.status).to.equal(201);
    expect(reply.body.txn_date).to.equal(new Date().toISOString().slice(0, 10));
    expect(reply.body.memo).to.equal(null);
  });

  it('re-pends a reversed trade for recost (recosted_at null again), and nothing else', async () => {
    const buy = await posted({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '1', amount_usd: '100.00' });
    const cash = await posted();
    // As recost leaves them: stamped.
    await api.db('recost_states').where('txn_id', buy.txn_id).update({ recosted_at: api.db.fn.now() });
    for (const t of [buy, cash])
      expect((await api.post(`/v1/transactions/${t.txn_id}/reverse`, {})).status).to.equal(201);
    expect((await api.get(`/v1/transactions/${buy.txn_id}`, { token: 'ledger' })).body.recosted_at).to.equal(null);
    expect((await api.get(`/v1/transactions/${cash.txn_id}`, { token: 'ledger' })).body.recosted_at).to.be.a('string');
  });

  it('a recost entry: 409 derived_entry naming the trade to reverse instead, and nothing posted', async () => {
    const buy = await posted({ txn_type: 'buy_security', symbol: 'ORCL', quantity: '1', amount_usd: '100.00' });
    await recost(api.db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    const entry = await api
      .db('transactions')
      .where({ txn_type: 'recost' })
      .whereRaw("metadata->>'recost_of' = ?", [buy.txn_id])
      .first('txn_id');
    const reply = await api.post(`/v1/transactions/${entry.txn_id}/reverse`, {});
    expectError(reply, 409, 'derived_entry');
    expect(reply.body.error.message).to.include(`reverse trade ${buy.txn_id} instead`);
    expect(reply.body.error.details).to.deep.equal([{ recost_of: buy.txn_id }]);
    expect(
      await api.db('transactions').where({ reverses_txn_id: entry.txn_id }).count({ n: '*' }).first(),
    ).to.deep.equal({ n: '0' });
  });

  it('a repeat answers 200 with the same reversal and posts nothing more', async () => {
    const original = await posted();
    const first = await api.post(`/v1/transactions/${original.txn_id}/reverse`, {});
    const again = await api.post(`/v1/transactions/${original.txn_id}/reverse`, { memo: 'other memo' });
    expect(first.status).to.equal(201);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    expect(
      await api.db('transactions').where({ reverses_txn_id: original.txn_id }).count({ n: '*' }).first(),
    ).to.deep.equal({ n: '1' });
  });

  it('20 simultaneous calls post exactly one reversal and all 20 callers receive its txn_id', async () => {
    const original = await posted({ amount_usd: '19.99' });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => api.post(`/v1/transactions/${original.txn_id}/reverse`, {})),
    );
    const statuses = replies.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 201),
      statuses.join(','),
    ).to.equal(true);
    expect(statuses.filter((s) => s === 201)).to.have.length(1);
    const rows = await api.db('transactions').where({ reverses_txn_id: original.txn_id }).pluck('txn_id');
    expect(rows).to.have.length(1);
    for (const reply of replies) expect(reply.body.txn_id).to.equal(rows[0]);
    expect(await api.db('journal_lines').where({ txn_id: rows[0] }).count({ n: '*' }).first()).to.deep.equal({
      n: '2',
    });
  });

  it('reversing a reversal is 409 conflict and posts nothing', async () => {
    const original = await posted();
    const reversal = await api.post(`/v1/transactions/${original.txn_id}/reverse`, {});
    const reply = await api.post(`/v1/transactions/${reversal.body.txn_id}/reverse`, {});
    expectError(reply, 409, 'conflict');
    expect(await api.db('transactions').where({ reverses_txn_id: reversal.body.txn_id }).first()).to.equal(undefined);
  });

  it('an unknown txn_id is 404 not_found; a malformed one is 400', async () => {
    expectError(await api.post(`/v1/transactions/${randomUUID()}/reverse`, {}), 404, 'not_found');
    expectError(await api.post('/v1/transactions/not-a-uuid/reverse', {}), 400, 'validation_error');
  });

  it('a body with an unknown field or a bad date is 400 and reverses nothing', async () => {
    const original = await posted();
    expectError(
      await api.post(`/v1/transactions/${original.txn_id}/reverse`, { reason: 'x' }),
      400,
      'validation_error',
    );
    expectError(
      await api.post(`/v1/transactions/${original.txn_id}/reverse`, { txn_date: '2026-13-01' }),
      400,
      'validation_error',
    );
    expect(await api.db('transactions').where({ reverses_txn_id: original.txn_id }).first()).to.equal(undefined);
  });

  it('after a reversal the accounts it touched are back where they were', async () => {
    const before = await api.get('/v1/firm/accounts', { token: 'ledger' });
    const original = await posted({ amount_usd: '1234.56' });
    await api.post(`/v1/transactions/${original.txn_id}/reverse`, {});
    const after = await api.get('/v1/firm/accounts', { token: 'ledger' });
    const net = (body: { items: Array<{ account_code: string; net: string }> }) =>
      body.items.map((a) => [a.account_code, a.net]);
    expect(net(after.body)).to.deep.equal(net(before.body));
  });
});
