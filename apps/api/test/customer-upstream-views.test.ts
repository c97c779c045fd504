import { expect } from 'chai';
import nock from 'nock';
import { mockedUpstreams } from './mocked-upstreams.js';
import { deposit, expectError, startApi, type TestApi } from './support.js';

// Importing nock intercepts every HTTP request of this process (mocha loads every test file
// first): off at once, on only while this file's tests run, so no other suite goes through it.
nock.restore();

/*
 * The customer views that read an upstream: holdings (live, else the snapshot cache, else
 * nothing, saying why), the portfolio's prices from that cache, ledger-recon and the four raw
 * usbroker views. The upstreams are mocked with nock (hand-written answers); the api itself is
 * real, on its own database.
 */
const CUSTODIAN = 'http://custodian.test';
const USBROKER = 'http://usbroker.test';
const CUSTODIAN_ENV = { CUSTODIAN_BASE_URL: CUSTODIAN, CUSTODIAN_API_KEY: 'custodian-key-0123456789' };
const USBROKER_ENV = {
  USBROKER_BASE_URL: USBROKER,
  USBROKER_API_KEY: 'usbroker-client',
  USBROKER_API_SECRET: 'usbroker-secret-0123456789',
};

const HOLDINGS = {
  as_of: '2026-11-24',
  account: 'CUS-1',
  currency: 'AED',
  positions: [{ symbol: 'EMAAR', isin: 'AEE000301011', qty: '100', avg_cost: '7.3450', market_value: '800.00' }],
  cash: { balance: '1000.00', available: '900.00' },
};
const BALANCE = {
  cash: '699.34',
  cash_withdrawable: '699.34',
  buying_power: '699.34',
  pending_deposits: '0.00',
  currency: 'USD',
  as_of: '2026-11-24T20:00:00Z',
};
const POSITIONS = [
  { symbol: 'AAPL', cusip: '037833100', qty: '6', avg_cost: '50.00', cost_basis: '300.00', market_value: '1500.00' },
];
const ORDERS = [
  {
    order_id: 'ORD-2',
    client_order_id: null,
    symbol: 'AAPL',
    side: 'BUY',
    qty: '6',
    notional: null,
    filled_qty: '6',
    avg_fill_price: '50.11',
    status: 'filled',
    submitted_at: '2026-01-12T14:30:00Z',
    filled_at: '2026-01-12T14:30:05Z',
    cost_type: 'quantity',
  },
];
const STATEMENT = {
  account_no: 'USB-1',
  month: '2026-01',
  currency: 'USD',
  opening_cash: '0.00',
  closing_cash: '699.34',
  activity: [
    { date: '2026-01-10', txn_no: 'T-1', row_code: 'WIREI', symbol: null, description: 'wire in', amount: '1000.00' },
  ],
};

const RAW_VIEWS = ['usbroker-balance', 'usbroker-orders', 'usbroker-portfolio', 'usbroker-statement'];

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const brokerToken = () =>
  nock(USBROKER).post('/oauth2/token').reply(200, { access_token: 'tok-1', expires_in: 3600, token_type: 'Bearer' });

async function get(api: TestApi, path: string) {
  const reply = await api.get(path, { token: 'ledger' });
  expect(reply.status, reply.text).to.equal(200);
  return reply.body;
}

describe('customer views that read an upstream', () => {
  mockedUpstreams();

  describe('UAE book, custodian configured', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_UAE', ...CUSTODIAN_ENV } });
      await api.put('/v1/customers/U-1', { custodian_account: 'CUS-1' });
      await api.put('/v1/customers/U-2', { custodian_account: 'CUS-2' });
      await api.put('/v1/customers/U-3', {});
      // Funded first (a manual buy takes the funds check) with what the two buys and their fees take: 120.26.
      const funding = await api.post(
        '/v1/transactions',
        deposit({ customer_id: 'U-1', txn_date: '2026-01-11', amount_usd: '120.26' }),
      );
      expect(funding.status, funding.text).to.equal(201);
      // 50 EMAAR shares at 100.00 USD, and a symbol the custodian does not report.
      for (const [symbol, quantity, amount] of [
        ['EMAAR', '50', '100.00'],
        ['DEWA', '10', '20.00'],
      ]) {
        const reply = await api.post('/v1/transactions', {
          txn_type: 'buy_security',
          customer_id: 'U-1',
          source: 'manual',
          txn_date: '2026-01-12',
          symbol,
          quantity,
          amount_usd: amount,
        });
        expect(reply.status).to.equal(201);
      }
    });
    after(async () => {
      await api.close();
    });

    it('holdings are read live and saved as the customer’s cached portfolio', async () => {
      nock(CUSTODIAN)
        .get('/holdings')
        .query((q) => q.account === 'CUS-1')
        .reply(200, HOLDINGS);
      const body = await get(api, '/v1/customers/U-1/holdings');
      expect(body).to.deep.include({
        customer_id: 'U-1',
        upstream: 'custodian',
        account: 'CUS-1',
        source: 'live',
        reason: null,
        as_of: '2026-11-24',
        currency: 'AED',
      });
      // Cost is quantity × average cost: 100 × 7.3450.
      expect(body.positions).to.deep.equal([
        { symbol: 'EMAAR', quantity: '100', cost: '734.50', market_value: '800.00' },
      ]);
      expect(body.cash).to.deep.equal({ balance: '1000.00', available: '900.00' });
      const cached = await api.db('portfolio_snapshots').where({ customer_id: 'U-1', upstream: 'custodian' }).first();
      expect(cached.positions).to.deep.equal(body.positions);
    });

    it('the custodian down: the cached portfolio answers, saying so and why', async () => {
      nock(CUSTODIAN).get('/holdings').query(true).replyWithError(refused()).persist();
      const body = await get(api, '/v1/customers/U-1/holdings');
      expect(body).to.deep.include({ source: 'cache', as_of: '2026-11-24', currency: 'AED' });
      expect(body.reason).to.match(/^custodian could not be read/);
      expect(body.positions).to.deep.equal([
        { symbol: 'EMAAR', quantity: '100', cost: '734.50', market_value: '800.00' },
      ]);
      expect(Date.parse(body.taken_at)).to.be.below(Date.now() + 1);
    });

    it('the custodian answering 5xx is down too', async () => {
      nock(CUSTODIAN)
        .get('/holdings')
        .query(true)
        .reply(503, { error: { code: 'unavailable', message: 'maintenance' } })
        .persist();
      expect((await get(api, '/v1/customers/U-1/holdings')).source).to.equal('cache');
    });

    it('down and nothing cached: the safe empty shape, saying why', async () => {
      nock(CUSTODIAN).get('/holdings').query(true).replyWithError(refused()).persist();
      const body = await get(api, '/v1/customers/U-2/holdings');
      expect(body).to.deep.include({
        source: 'none',
        as_of: null,
        taken_at: null,
        currency: null,
        positions: [],
        cash: null,
      });
      expect(body.reason).to.match(/custodian could not be read.*; no snapshot is cached$/);
    });

    it('a customer without a custodian account is not read live', async () => {
      const body = await get(api, '/v1/customers/U-3/holdings');
      expect(body).to.deep.include({ account: null, source: 'none' });
      expect(body.reason).to.match(/^the customer has no custodian account linked/);
    });

    it('portfolio: market value from the cached snapshot, AED converted at the peg; a symbol not in it is null with the reason', async () => {
      const body = await get(api, '/v1/customers/U-1/portfolio');
      expect(body.prices).to.deep.include({ upstream: 'custodian', as_of: '2026-11-24' });
      // 800.00 AED for 100 shares = 8 AED a share = 8 / 3.6725 USD; 50 shares = 400 / 3.6725 = 108.9176… → 108.92.
      expect(body.items).to.deep.equal([
        {
          symbol: 'DEWA',
          quantity: '10',
          cost_usd: '20.00',
          average_cost_usd: '2',
          pending_recost: 1,
          price_usd: null,
          market_value_usd: null,
          unpriced_reason: 'not_in_snapshot',
        },
        {
          symbol: 'EMAAR',
          quantity: '50',
          cost_usd: '100.00',
          average_cost_usd: '2',
          pending_recost: 1,
          price_usd: '2.178353',
          market_value_usd: '108.92',
          unpriced_reason: null,
        },
      ]);
      expect(body.totals).to.deep.equal({ cost_usd: '120.00', market_value_usd: '108.92', unpriced_count: 1 });
    });

    it('ledger-recon is not applicable on the UAE book', async () => {
      const body = await get(api, '/v1/customers/U-1/ledger-recon');
      expect(body).to.deep.include({ status: 'not_applicable', broker: null, difference: null, error: null });
      expect(body.ledger).to.deep.equal({ cash_usd: '0.00', securities_at_cost_usd: '120.00' });
    });

    it('the raw broker views answer the safe empty shape on the UAE book', async () => {
      const empty: Record<string, unknown> = {
        'usbroker-balance': { balance: null },
        'usbroker-orders': { orders: [] },
        'usbroker-portfolio': { positions: [] },
        'usbroker-statement': { statement: null },
      };
      for (const view of RAW_VIEWS) {
        const body = await get(api, `/v1/customers/U-1/${view}`);
        expect(body).to.deep.equal({
          customer_id: 'U-1',
          account_no: null,
          available: false,
          reason: 'the UAE book has no US broker: broker views are India-only',
          fetched_at: null,
          ...(empty[view] as object),
        });
      }
    });
  });

  describe('UAE book, custodian not configured', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_UAE' } });
      await api.put('/v1/customers/U-1', { custodian_account: 'CUS-1' });
    });
    after(async () => {
      await api.close();
    });

    it('holdings: nothing called, the empty shape says the custodian is not configured', async () => {
      const body = await get(api, '/v1/customers/U-1/holdings');
      expect(body).to.deep.include({ source: 'none', positions: [] });
      expect(body.reason).to.equal('custodian is not configured on this book; no snapshot is cached');
    });

    it('holdings: a snapshot kept by the sync answers from the cache', async () => {
      await api.db('holdings_snapshots').insert({
        customer_id: 'U-1',
        upstream: 'custodian',
        as_of: '2026-06-30',
        account: 'CUS-1',
        currency: 'AED',
        positions: JSON.stringify([{ symbol: 'FAB', quantity: '3', cost: '45.00', market_value: '48.00' }]),
        cash: null,
      });
      const body = await get(api, '/v1/customers/U-1/holdings');
      expect(body).to.deep.include({
        source: 'cache',
        as_of: '2026-06-30',
        currency: 'AED',
        reason: 'custodian is not configured on this book',
      });
      expect(body.positions).to.deep.equal([{ symbol: 'FAB', quantity: '3', cost: '45.00', market_value: '48.00' }]);
    });
  });

  describe('India book, usbroker configured', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC', ...USBROKER_ENV } });
      await api.put('/v1/customers/I-1', { usbroker_account_no: 'USB-1' });
      await api.put('/v1/customers/I-2', {});
      // Ledger: 1,000.00 in, 6 AAPL bought for 300.00 with the 22 bps fee 0.66: wallet 699.34, securities 300.00.
      for (const body of [
        { txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '1000.00' },
        { txn_type: 'buy_security', txn_date: '2026-01-12', symbol: 'AAPL', quantity: '6', amount_usd: '300.00' },
      ]) {
        expect((await api.post('/v1/transactions', { customer_id: 'I-1', source: 'manual', ...body })).status).to.equal(
          201,
        );
      }
      brokerToken();
    });
    after(async () => {
      await api.close();
    });

    it('usbroker-balance, -portfolio, -orders and -statement proxy the broker live, read-only', async () => {
      const account = nock(USBROKER).matchHeader('authorization', 'Bearer tok-1');
      account.get('/v1/accounts/USB-1/balance').reply(200, BALANCE);
      account.get('/v1/accounts/USB-1/positions').reply(200, POSITIONS);
      account.get('/v1/accounts/USB-1/orders').query({ after_id: 'ORD-1', limit: '10' }).reply(200, ORDERS);
      account.get('/v1/accounts/USB-1/statement').query({ month: '2026-01' }).reply(200, STATEMENT);
      const balance = await get(api, '/v1/customers/I-1/usbroker-balance');
      expect(balance).to.deep.include({
        customer_id: 'I-1',
        account_no: 'USB-1',
        available: true,
        reason: null,
        balance: BALANCE,
      });
      expect(Date.parse(balance.fetched_at)).to.be.a('number');
      expect((await get(api, '/v1/customers/I-1/usbroker-portfolio')).positions).to.deep.equal(POSITIONS);
      expect((await get(api, '/v1/customers/I-1/usbroker-orders?after_id=ORD-1&limit=10')).orders).to.deep.equal(
        ORDERS,
      );
      expect((await get(api, '/v1/customers/I-1/usbroker-statement?month=2026-01')).statement).to.deep.equal(STATEMENT);
    });

    it('a customer without a broker account: 200, not available, nothing called', async () => {
      const body = await get(api, '/v1/customers/I-2/usbroker-balance');
      expect(body).to.deep.include({
        account_no: null,
        available: false,
        reason: 'the customer has no usbroker account linked',
        balance: null,
      });
    });

    it('the broker unreachable: 503 upstream_unavailable in the error shape', async () => {
      nock(USBROKER).get('/v1/accounts/USB-1/balance').replyWithError(refused()).persist();
      expectError(
        await api.get('/v1/customers/I-1/usbroker-balance', { token: 'ledger' }),
        503,
        'upstream_unavailable',
      );
    });

    it('ledger-recon: ledger cash to the cent and share counts agree with the broker: match (cost shown, not compared)', async () => {
      nock(USBROKER).get('/v1/accounts/USB-1/balance').reply(200, BALANCE);
      nock(USBROKER).get('/v1/accounts/USB-1/positions').reply(200, POSITIONS);
      expect(await get(api, '/v1/customers/I-1/ledger-recon')).to.deep.equal({
        customer_id: 'I-1',
        status: 'match',
        account_no: 'USB-1',
        ledger: { cash_usd: '699.34', securities_at_cost_usd: '300.00' },
        broker: {
          cash: '699.34',
          securities_cost_basis: '300.00',
          market_value: '1500.00',
          as_of: '2026-11-24T20:00:00Z',
        },
        difference: { cash_usd: '0.00', cash_status: 'match', shares: [] },
        error: null,
      });
    });

    it('ledger-recon: a cash difference is a mismatch, ledger − broker', async () => {
      nock(USBROKER)
        .get('/v1/accounts/USB-1/balance')
        .reply(200, { ...BALANCE, cash: '700.00' });
      nock(USBROKER).get('/v1/accounts/USB-1/positions').reply(200, POSITIONS);
      const body = await get(api, '/v1/customers/I-1/ledger-recon');
      expect(body).to.deep.include({
        status: 'mismatch',
        difference: { cash_usd: '-0.66', cash_status: 'mismatch', shares: [] },
      });
    });

    it('ledger-recon: the broker unreachable is status error with the message, never a 5xx', async () => {
      nock(USBROKER).get('/v1/accounts/USB-1/balance').replyWithError(refused()).persist();
      nock(USBROKER).get('/v1/accounts/USB-1/positions').replyWithError(refused()).persist();
      const body = await get(api, '/v1/customers/I-1/ledger-recon');
      expect(body).to.deep.include({ status: 'error', broker: null, difference: null });
      expect(body.error).to.match(/^usbroker could not be read/);
    });

    it('holdings: live from the broker (balance and positions), then the cache when it is down', async () => {
      nock(USBROKER).get('/v1/accounts/USB-1/balance').reply(200, BALANCE);
      nock(USBROKER).get('/v1/accounts/USB-1/positions').reply(200, POSITIONS);
      const live = await get(api, '/v1/customers/I-1/holdings');
      expect(live).to.deep.include({
        upstream: 'usbroker',
        account: 'USB-1',
        source: 'live',
        as_of: '2026-11-24',
        currency: 'USD',
      });
      expect(live.positions).to.deep.equal([
        { symbol: 'AAPL', quantity: '6', cost: '300.00', market_value: '1500.00' },
      ]);
      nock(USBROKER).get('/v1/accounts/USB-1/balance').replyWithError(refused()).persist();
      nock(USBROKER).get('/v1/accounts/USB-1/positions').replyWithError(refused()).persist();
      const cached = await get(api, '/v1/customers/I-1/holdings');
      expect(cached).to.deep.include({
        source: 'cache',
        as_of: '2026-11-24',
        positions: live.positions,
        currency: 'USD',
      });
      // And the portfolio prices the ledger's 6 shares at the broker's 1,500.00 / 6 = 250.
      const portfolio = await get(api, '/v1/customers/I-1/portfolio');
      expect(portfolio.items[0]).to.deep.include({ symbol: 'AAPL', price_usd: '250', market_value_usd: '1500.00' });
    });
  });

  describe('India book, usbroker not configured', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC' } });
      await api.put('/v1/customers/I-1', { usbroker_account_no: 'USB-1' });
    });
    after(async () => {
      await api.close();
    });

    it('every raw broker view is 503 upstream_unavailable', async () => {
      for (const view of RAW_VIEWS)
        expectError(await api.get(`/v1/customers/I-1/${view}`, { token: 'ledger' }), 503, 'upstream_unavailable');
    });

    it('ledger-recon is status error saying usbroker is not configured', async () => {
      expect(await get(api, '/v1/customers/I-1/ledger-recon')).to.deep.include({
        status: 'error',
        error: 'usbroker is not configured on this book (USBROKER_BASE_URL unset)',
      });
    });
  });
});
