import { expect } from 'chai';
import { countRows, deposit, expectError, startApi, type TestApi } from './support.js';

describe('customers', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  describe('PUT /v1/customers/{customer_id}', () => {
    it('creates a customer: 201 with the customer', async () => {
      const reply = await api.put('/v1/customers/C-100', {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        metadata: { tier: 'gold' },
      });
      expect(reply.status).to.equal(201);
      expect(reply.body).to.include({ customer_id: 'C-100', name: 'Ada Lovelace', email: 'ada@example.com' });
      expect(reply.body.metadata).to.deep.equal({ tier: 'gold' });
      expect(reply.body.created_at).to.equal(reply.body.updated_at);
    });

    it('updates it: 200; fields left out keep their value, null clears one', async () => {
      const reply = await api.put('/v1/customers/C-100', { email: null });
      expect(reply.status).to.equal(200);
      expect(reply.body).to.include({ customer_id: 'C-100', name: 'Ada Lovelace', email: null });
      expect(reply.body.metadata).to.deep.equal({ tier: 'gold' });
      expect(Date.parse(reply.body.updated_at)).to.be.at.least(Date.parse(reply.body.created_at));
    });

    it('an empty body creates the bare customer', async () => {
      const reply = await api.put('/v1/customers/C-bare', {});
      expect(reply.status).to.equal(201);
      expect(reply.body).to.include({ name: null, email: null });
    });

    it('refuses a bad body or id with 400 and stores nothing', async () => {
      expectError(await api.put('/v1/customers/C-bad', { email: 'not-an-email' }), 400, 'validation_error');
      expectError(await api.put('/v1/customers/C-bad', { nickname: 'x' }), 400, 'validation_error');
      expectError(await api.put('/v1/customers/C-bad', { name: 'x\u0000y' }), 400, 'validation_error');
      expectError(await api.put('/v1/customers/C%20bad', {}), 400, 'validation_error');
      expectError(await api.put(`/v1/customers/${'x'.repeat(129)}`, {}), 400, 'validation_error');
      expect(await api.db('customers').where('customer_id', 'like', 'C%bad').first()).to.equal(undefined);
    });
  });

  describe('customer ids: letters, digits, "-", "_" and ".", up to 128, not "." or ".." alone', () => {
    const before = async () => (await api.db('customers').count<Array<{ count: string }>>('* as count'))[0]!.count;

    it('when a path id is outside the alphabet (a path, a query, a quote) › PUT and a customer’s GET answer 400 validation_error and nothing is stored', async () => {
      const count = await before();
      for (const id of [
        '..%2F..%2Fetc%2Fpasswd',
        'a%2Fb',
        'C-1%3Bdrop',
        "O'Brien",
        'C%2B1',
        'C~1',
        '%C3%A9t%C3%A9',
        'C%3F1',
      ]) {
        const put = await api.put(`/v1/customers/${id}`, {});
        expectError(put, 400, 'validation_error');
        expect(put.text, id).to.contain('letters, digits');
        expectError(await api.get(`/v1/customers/${id}/summary`, { token: 'ledger' }), 400, 'validation_error');
      }
      expect(await before()).to.equal(count);
    });

    it('when a body names a customer id outside the alphabet › manual entry, cash requests and job bodies answer 400 validation_error', async () => {
      const count = await countRows(api.db, 'transactions');
      const entry = await api.post('/v1/transactions', {
        txn_type: 'deposit',
        customer_id: '../x',
        source: 'manual',
        txn_date: '2026-01-15',
        amount_usd: '1.00',
      });
      expectError(entry, 400, 'validation_error');
      expect(entry.text).to.contain('/body/customer_id');
      expectError(
        await api.post('/v1/cash-requests', {
          customer_id: 'a/b',
          direction: 'deposit',
          amount: '1.00',
          currency: 'USD',
        }),
        400,
        'validation_error',
      );
      const job = await api.post('/v1/jobs/sync-uaefeed', { customer_ids: ['UAE-1', '../../etc/passwd'] });
      expectError(job, 400, 'validation_error');
      expect(job.text).to.contain('/body/customer_ids/1');
      expect(await countRows(api.db, 'transactions')).to.equal(count);
    });
  });

  describe('upstream references', () => {
    it('are set, kept when left out and cleared by null, and shown on the customer', async () => {
      const set = await api.put('/v1/customers/C-IN-1', {
        usbroker_account_no: 'ACC-1',
        remit_customer_id: 'cus_1',
        pan: 'ABCDE1234F',
      });
      expect(set.status).to.equal(201);
      expect(set.body).to.include({
        usbroker_account_no: 'ACC-1',
        remit_customer_id: 'cus_1',
        pan: 'ABCDE1234F',
        partner_id: null,
        uaefeed_customer_number: null,
      });
      const kept = await api.put('/v1/customers/C-IN-1', { pan: null });
      expect(kept.body).to.include({ usbroker_account_no: 'ACC-1', remit_customer_id: 'cus_1', pan: null });
    });

    it('one upstream account names one customer: a second claim is 409 conflict naming the field, and changes nothing', async () => {
      const reply = await api.put('/v1/customers/C-IN-2', { name: 'Second', usbroker_account_no: 'ACC-1' });
      expectError(reply, 409, 'conflict');
      expect(reply.body.error.details).to.deep.equal([{ field: 'usbroker_account_no' }]);
      expect(await api.db('customers').where('customer_id', 'C-IN-2').first()).to.equal(undefined);
    });

    it('a PAN not in the five-letters, four-digits, letter form is refused with 400', async () => {
      expectError(await api.put('/v1/customers/C-IN-3', { pan: 'abcde1234f' }), 400, 'validation_error');
      expect(await api.db('customers').where('customer_id', 'C-IN-3').first()).to.equal(undefined);
    });
  });

  describe('GET /v1/customers', () => {
    before(async () => {
      await api.put('/v1/customers/C-200', { name: 'Grace Hopper', email: 'grace@navy.example' });
      await api.put('/v1/customers/C-300', { name: '100% Margin Ltd' });
    });

    it('lists customers by customer_id in the envelope', async () => {
      const body = (await api.get('/v1/customers', { token: 'ledger' })).body;
      expect(body).to.include({ total: 5, limit: 50, offset: 0 });
      expect(body.items.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal([
        'C-100',
        'C-200',
        'C-300',
        'C-IN-1',
        'C-bare',
      ]);
    });

    it('q searches id, name and email, case-insensitively, with % and _ taken literally', async () => {
      const ids = async (q: string) =>
        (await api.get(`/v1/customers?q=${encodeURIComponent(q)}`, { token: 'ledger' })).body.items.map(
          (c: { customer_id: string }) => c.customer_id,
        );
      expect(await ids('grace')).to.deep.equal(['C-200']);
      expect(await ids('NAVY.EXAMPLE')).to.deep.equal(['C-200']);
      expect(await ids('c-1')).to.deep.equal(['C-100']);
      expect(await ids('%')).to.deep.equal(['C-300']);
      expect(await ids('_')).to.deep.equal([]);
    });

    it('says since when each customer is active: their first transaction, not when the book learned of them', async () => {
      for (const [day, id] of [
        ['2025-03-02', 'since-a'],
        ['2024-11-20', 'since-b'],
      ] as const) {
        const posted = await api.post(
          '/v1/transactions',
          deposit({ customer_id: 'C-200', txn_date: day, source_txn_id: id }),
        );
        expect(posted.status, JSON.stringify(posted.body)).to.equal(201);
      }
      const items: Array<{ customer_id: string; first_activity_date: string | null; created_at: string }> = (
        await api.get('/v1/customers?q=C-', { token: 'ledger' })
      ).body.items;
      const since = Object.fromEntries(items.map((c) => [c.customer_id, c.first_activity_date]));
      expect(since['C-200']).to.equal('2024-11-20');
      expect(since['C-300'], 'no transaction yet').to.equal(null);
      const overview = (await api.get('/v1/customers/C-200/overview', { token: 'ledger' })).body;
      expect(overview.customer.first_activity_date).to.equal('2024-11-20');
      expect((await api.put('/v1/customers/C-200', {})).body.first_activity_date).to.equal('2024-11-20');
    });

    it('pages and refuses a page over 500', async () => {
      const body = (await api.get('/v1/customers?limit=2&offset=2', { token: 'ledger' })).body;
      expect(body).to.include({ total: 5, limit: 2, offset: 2 });
      expect(body.items.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal(['C-300', 'C-IN-1']);
      expectError(await api.get('/v1/customers?limit=501', { token: 'ledger' }), 400, 'validation_error');
      expectError(await api.get('/v1/customers?q=', { token: 'ledger' }), 400, 'validation_error');
    });
  });
});
