import { Decimal, istDate } from '@ledger/core/posting';
import { upsertRemittances, type RemittanceRecord } from '@ledger/core/store';
import { financialYearOf } from '@ledger/india';
import { expect } from 'chai';
import nock from 'nock';
import { mockedUpstreams } from './mocked-upstreams.js';
import { expectError, startApi, type TestApi } from './support.js';

// Importing nock intercepts every HTTP request of this process (mocha loads every test file
// first): off at once, on only while this file's tests run, so no other suite goes through it.
nock.restore();

/*
 * The live India reports on hand-written upstream answers (nock): the api is real, on its own
 * database, and every answer is validated against the OpenAPI document (startApi).
 */
const USBROKER = 'http://usbroker.test';
const REMIT = 'http://remit.test';
const ENV = {
  ENTITY_ID: 'ENTITY_IND_IFSC',
  USBROKER_BASE_URL: USBROKER,
  USBROKER_API_KEY: 'usbroker-client',
  USBROKER_API_SECRET: 'usbroker-secret-0123456789',
  REMIT_BASE_URL: REMIT,
  REMIT_API_KEY: 'remit-key-0123456789abcdef',
  RECON_TIE_OUT_DAY_WINDOW: '3',
};

const BALANCE = {
  cash: '699.34',
  cash_withdrawable: '699.34',
  buying_power: '699.34',
  pending_deposits: '0.00',
  currency: 'USD',
  as_of: '2026-11-24T20:00:00Z',
};
// The broker's cost is an average with its bundled fee (300.66); the ledger's is FIFO without it (300.00).
const POSITIONS = [
  { symbol: 'AAPL', cusip: '037833100', qty: '6', avg_cost: '50.11', cost_basis: '300.66', market_value: '1500.00' },
];

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** USB-2's broker is down for every call. */
const secondBrokerDown = () =>
  nock(USBROKER)
    .get(/^\/v1\/accounts\/USB-2(\/.*)?$/)
    .query(true)
    .replyWithError(refused())
    .persist();

async function get(api: TestApi, path: string) {
  const reply = await api.get(path, { token: 'ledger' });
  expect(reply.status, reply.text).to.equal(200);
  return reply.body;
}

/** A paid remittance of I-1, paid and settled on `paidOn`. */
function remittance(orderId: string, amountUsd: string, paidOn: string): RemittanceRecord {
  return {
    order_id: orderId,
    customer_id: 'I-1',
    remit_customer_id: 'cust_1',
    pan: 'ABCDE1234F',
    status: 'paid',
    purpose_code: 'S0001',
    reference_number: null,
    amount_inr: '10000.00',
    amount_usd: amountUsd,
    quote_id: orderId.replace('order_', 'quote_'),
    quoted_at: `${paidOn}T04:00:00Z`,
    quote_expires_at: `${paidOn}T04:15:00Z`,
    fx_rate: '0.011424',
    mid_rate: null,
    mid_rate_source: null,
    mid_rate_at: null,
    tcs_inr: '0',
    payment_id: null,
    payment_status: 'success',
    funds_available: true,
    payment_error_code: null,
    paid_at: `${paidOn}T05:00:00Z`,
    settlement_id: orderId.replace('order_', 'setl_'),
    settlement_status: 'settled',
    settlement_amount_usd: amountUsd,
    settlement_fx_fee_usd: null,
    settlement_txn_fee_usd: null,
    utr: null,
    settled_at: `${paidOn}T06:00:00Z`,
    remitted_on: paidOn,
    order_created_at: `${paidOn}T04:00:00Z`,
    order_updated_at: `${paidOn}T05:00:00Z`,
  };
}

const order = (id: string, status: string, createdAt: string, customerId = 'cust_1') => ({
  id,
  customer_id: customerId,
  status,
  currency: 'INR',
  amount: 1_000_000,
  purpose_code: 'S0001',
  reference_number: null,
  quote_id: null,
  created_at: createdAt,
  updated_at: createdAt,
  notes: {},
});
const page = (data: unknown[]) => ({
  data,
  page_meta: { current: 1, previous: null, next: null, per_page: 100, pages: 1, count: data.length },
});

describe('India live reports', () => {
  mockedUpstreams(() => {
    nock(USBROKER)
      .post('/oauth2/token')
      .optionally()
      .reply(200, { access_token: 'tok-1', expires_in: 3600, token_type: 'Bearer' });
  });

  describe('India book, usbroker and remit configured', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: ENV });
      await api.put('/v1/customers/I-1', {
        usbroker_account_no: 'USB-1',
        remit_customer_id: 'cust_1',
        pan: 'ABCDE1234F',
      });
      await api.put('/v1/customers/I-2', { usbroker_account_no: 'USB-2' });
      await api.put('/v1/customers/I-3', { remit_customer_id: 'cust_3' });
      // I-1: 1,000.00 in, 6 AAPL bought for 300.00 with the 22 bps fee 0.66: wallet 699.34, securities 300.00.
      for (const body of [
        { customer_id: 'I-1', txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '1000.00' },
        {
          customer_id: 'I-1',
          txn_type: 'buy_security',
          txn_date: '2026-01-12',
          symbol: 'AAPL',
          quantity: '6',
          amount_usd: '300.00',
        },
        { customer_id: 'I-2', txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '500.00' },
      ]) {
        expect((await api.post('/v1/transactions', { source: 'manual', ...body })).status).to.equal(201);
      }
    });
    after(async () => {
      await api.close();
    });

    it('ledger-recon: cash to the cent and shares exactly match although the broker’s cost carries its fee; the broker down for one customer is that customer’s error', async () => {
      nock(USBROKER).get('/v1/accounts/USB-1/balance').reply(200, BALANCE);
      nock(USBROKER).get('/v1/accounts/USB-1/positions').reply(200, POSITIONS);
      secondBrokerDown();
      const body = await get(api, '/v1/india/ledger-recon');
      const [first, second, third] = body.customers;
      expect(first).to.deep.equal({
        customer_id: 'I-1',
        account_no: 'USB-1',
        ledger: { cash_usd: '699.34', securities_at_cost_usd: '300.00' },
        status: 'match',
        broker: {
          cash: '699.34',
          securities_cost_basis: '300.66',
          market_value: '1500.00',
          as_of: '2026-11-24T20:00:00Z',
        },
        difference: { cash_usd: '0.00', cash_status: 'match', shares: [] },
        error: null,
      });
      expect(second).to.deep.include({ customer_id: 'I-2', status: 'error', broker: null, difference: null });
      expect(second.error).to.match(/^usbroker could not be read: unreachable/);
      expect(third).to.deep.include({ customer_id: 'I-3', status: 'no_link', error: null });
      expect(body.totals).to.deep.equal({
        customers: { match: 1, mismatch: 0, error: 1, no_link: 1, not_applicable: 0 },
        ledger_cash_usd: '699.34',
        broker_cash_usd: '699.34',
        cash_difference_usd: '0.00',
      });
    });

    it('the customer’s ledger-recon is the same comparison: a share count off is a mismatch naming the symbol, a cent of cash too', async () => {
      nock(USBROKER)
        .get('/v1/accounts/USB-1/balance')
        .reply(200, { ...BALANCE, cash: '699.35' });
      nock(USBROKER)
        .get('/v1/accounts/USB-1/positions')
        .reply(200, [{ ...POSITIONS[0], qty: '5' }]);
      const body = await get(api, '/v1/customers/I-1/ledger-recon');
      expect(body).to.deep.include({ status: 'mismatch' });
      expect(body.difference).to.deep.equal({
        cash_usd: '-0.01',
        cash_status: 'mismatch',
        shares: [
          { symbol: 'AAPL', status: 'mismatch', ledger_quantity: '6', usbroker_quantity: '5', difference: '-1' },
        ],
      });
    });

    it('holdings-recon: per symbol match, usbroker_only; the broker down for one customer is that customer’s error', async () => {
      nock(USBROKER)
        .get('/v1/accounts/USB-1/positions')
        .reply(200, [
          ...POSITIONS,
          { symbol: 'MSFT', cusip: null, qty: '1.5', avg_cost: '400.00', cost_basis: '600.00', market_value: '610.00' },
        ]);
      secondBrokerDown();
      const body = await get(api, '/v1/india/holdings-recon');
      expect(body.customers[0]).to.deep.equal({
        customer_id: 'I-1',
        account_no: 'USB-1',
        status: 'compared',
        error: null,
        symbols: [
          { symbol: 'AAPL', status: 'match', ledger_quantity: '6', usbroker_quantity: '6', difference: '0' },
          {
            symbol: 'MSFT',
            status: 'usbroker_only',
            ledger_quantity: '0',
            usbroker_quantity: '1.5',
            difference: '1.5',
          },
        ],
      });
      expect(body.customers[1]).to.deep.include({ customer_id: 'I-2', status: 'error' });
      expect(body.totals).to.deep.equal({
        customers: { compared: 1, no_link: 1, error: 1 },
        symbols: { match: 1, mismatch: 0, ledger_only: 0, usbroker_only: 1 },
      });
    });

    it('nav: the ledger’s shares at the broker’s last price plus cash, per customer and firm', async () => {
      nock(USBROKER)
        .get('/v1/quotes')
        .query({ symbols: 'AAPL' })
        .reply(200, [{ symbol: 'AAPL', last: '250.125', currency: 'USD', as_of: '2026-11-24T20:00:00Z' }]);
      const body = await get(api, '/v1/india/nav');
      // 6 × 250.125 = 1,500.75; unrealized 1,500.75 − 300.00 = 1,200.75; NAV 699.34 + 1,500.75 = 2,200.09.
      expect(body.customers[0]).to.deep.include({
        customer_id: 'I-1',
        status: 'valued',
        cash_usd: '699.34',
        cost_usd: '300.00',
        market_value_usd: '1500.75',
        unrealized_pnl_usd: '1200.75',
        nav_usd: '2200.09',
      });
      expect(body.customers[0].positions).to.deep.equal([
        {
          symbol: 'AAPL',
          quantity: '6',
          cost_usd: '300.00',
          price_usd: '250.125',
          market_value_usd: '1500.75',
          unrealized_pnl_usd: '1200.75',
        },
      ]);
      // I-2 holds no shares: valued with no quote asked; cash 500.00.
      expect(body.customers[1]).to.deep.include({ customer_id: 'I-2', status: 'valued', nav_usd: '500.00' });
      expect(body.customers[2]).to.deep.include({ customer_id: 'I-3', status: 'no_link', nav_usd: null });
      expect(body.firm).to.deep.equal({
        customers: { valued: 2, no_link: 1, error: 0 },
        cash_usd: '1199.34',
        cost_usd: '300.00',
        market_value_usd: '1500.75',
        unrealized_pnl_usd: '1200.75',
        nav_usd: '2700.09',
      });
      expect(body.warnings).to.deep.equal([]);
    });

    it('nav: the broker’s prices not read: a customer holding shares is error, one holding none is still valued; the firm sums the valued', async () => {
      nock(USBROKER).get('/v1/quotes').query(true).reply(503, { error: 'maintenance' }).persist();
      const body = await get(api, '/v1/india/nav');
      expect(body.customers[0]).to.deep.include({
        customer_id: 'I-1',
        status: 'error',
        market_value_usd: null,
        nav_usd: null,
      });
      expect(body.customers[0].error).to.match(/^usbroker could not be read/);
      expect(body.customers[1]).to.deep.include({ customer_id: 'I-2', status: 'valued', nav_usd: '500.00' });
      expect(body.firm).to.deep.include({ customers: { valued: 1, no_link: 1, error: 1 }, nav_usd: '500.00' });
      expect(body.warnings).to.have.length(1);
    });

    it('compliance: each customer’s account status, no_link without an account, error when the broker is down', async () => {
      nock(USBROKER).get('/v1/accounts/USB-1').reply(200, { account_no: 'USB-1', status: 'trading_halted' });
      secondBrokerDown();
      const body = await get(api, '/v1/india/compliance');
      expect(body.customers.map((c: { status: string }) => c.status)).to.deep.equal([
        'trading_halted',
        'error',
        'no_link',
      ]);
      expect(body.totals).to.deep.equal({ active: 0, trading_halted: 1, inactive: 0, no_link: 1, error: 1 });
    });

    it('reconciliation: one wire carrying two remittances matches both; a wire no remittance adds up to is unmatched funding; the rest in transit or aged', async () => {
      await upsertRemittances(api.db, [
        remittance('order_a', '100.00', '2026-01-05'),
        remittance('order_b', '50.00', '2026-01-05'),
        remittance('order_c', '200.00', '2026-02-01'),
        remittance('order_d', '80.00', daysAgo(1)),
      ]);
      nock(USBROKER)
        .get('/v1/funding/wires')
        .query((q) => q.account_no === 'USB-1' && q.direction === 'IN' && q.after_id === undefined)
        .reply(200, [
          {
            transfer_id: 'W-1',
            account_no: 'USB-1',
            direction: 'IN',
            amount: '150.00',
            currency: 'USD',
            status: 'completed',
            value_date: '2026-01-06',
          },
          {
            transfer_id: 'W-2',
            account_no: 'USB-1',
            direction: 'IN',
            amount: '999.00',
            currency: 'USD',
            status: 'completed',
            value_date: '2026-01-10',
          },
          {
            transfer_id: 'W-3',
            account_no: 'USB-1',
            direction: 'IN',
            amount: '200.00',
            currency: 'USD',
            status: 'completed',
            value_date: '2026-02-09',
          },
        ]);
      nock(USBROKER)
        .get('/v1/funding/wires')
        .query((q) => q.account_no === 'USB-1' && q.after_id === 'W-3')
        .reply(200, []);
      nock(USBROKER)
        .get('/v1/funding/wires')
        .query((q) => q.account_no === 'USB-2')
        .replyWithError(refused())
        .persist();
      const body = await get(api, '/v1/india/reconciliation');
      // W-3 came 8 days after order_c, outside the 3-day window: order_c is aged, W-3 unmatched.
      expect(
        body.remittances.map((r: Record<string, unknown>) => [r.order_id, r.status, r.transfer_id, r.window_ends_on]),
      ).to.deep.equal([
        ['order_a', 'matched', 'W-1', '2026-01-08'],
        ['order_b', 'matched', 'W-1', '2026-01-08'],
        ['order_c', 'aged_in_transit', null, '2026-02-04'],
        ['order_d', 'in_transit', null, new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)],
      ]);
      expect(body.wires.map((w: Record<string, unknown>) => [w.transfer_id, w.status, w.order_ids])).to.deep.equal([
        ['W-1', 'matched', ['order_a', 'order_b']],
        ['W-2', 'unmatched_funding', []],
        ['W-3', 'unmatched_funding', []],
      ]);
      expect(body.unmatched_funding.map((w: { transfer_id: string }) => w.transfer_id)).to.deep.equal(['W-2', 'W-3']);
      expect(body.customers[0]).to.deep.include({
        customer_id: 'I-1',
        status: 'compared',
        remittances: 4,
        remitted_usd: '430.00',
        wired_usd: '1349.00',
        matched_usd: '150.00',
      });
      expect(body.customers[0].counts).to.deep.equal({
        matched: 2,
        in_transit: 1,
        aged_in_transit: 1,
        unmatched_funding: 2,
      });
      expect(body.customers[1]).to.deep.include({ customer_id: 'I-2', status: 'error', wired_usd: null });
      expect(body).to.deep.include({ window_days: 3, as_of: today() });
    });

    it('treasury: remit’s merchant balance and live mid rate, read-only', async () => {
      nock(REMIT)
        .get('/api/v1/balances')
        .reply(200, {
          available: [{ currency: 'INR', amount: 1_250_050 }],
          pending: [],
          deficit: [{ currency: 'USD', amount: 1_000 }],
        });
      nock(REMIT)
        .get('/api/v1/fx_rates')
        .query({ source_currency: 'INR', target_currency: 'USD' })
        .reply(200, { mid_market_rate: { currency: 'USD', rate: '0.011424' } });
      const body = await get(api, '/v1/india/treasury');
      expect(body).to.deep.include({
        configured: true,
        warning: null,
        balances: {
          available: [{ currency: 'INR', amount: '12500.50' }],
          pending: [],
          deficit: [{ currency: 'USD', amount: '10.00' }],
        },
        mid_rate: { from: 'INR', to: 'USD', rate: '0.011424' },
      });
    });

    it('treasury with remit down: configured false with a warning', async () => {
      nock(REMIT).get(/.*/).query(true).replyWithError(refused()).persist();
      const body = await get(api, '/v1/india/treasury');
      expect(body).to.deep.include({
        configured: false,
        fetched_at: null,
        balances: { available: [], pending: [], deficit: [] },
        mid_rate: null,
      });
      expect(body.warning).to.match(/^remit could not be read: unreachable/);
    });

    it('remittance-exceptions: every non-paid order, actionable first, counted per category and customer', async () => {
      const byStatus: Record<string, unknown[]> = {
        failed: [order('order_f', 'failed', '2026-03-02T00:00:00Z')],
        action_required: [order('order_ar', 'action_required', '2026-03-05T00:00:00Z', 'cust_9')],
        active: [
          order('order_p2', 'active', '2026-03-04T00:00:00Z'),
          order('order_p1', 'active', '2026-03-01T00:00:00Z'),
        ],
        cancelled: [order('order_c', 'cancelled', '2026-01-01T00:00:00Z')],
      };
      nock(REMIT)
        .get('/api/v1/orders')
        .query(true)
        .times(6)
        .reply((uri) => [200, page(byStatus[new URL(uri, REMIT).searchParams.get('status')!] ?? [])]);
      const body = await get(api, '/v1/india/remittance-exceptions');
      expect(body.items.map((i: Record<string, unknown>) => [i.order_id, i.category, i.customer_id])).to.deep.equal([
        ['order_f', 'failed', 'I-1'],
        ['order_ar', 'action_required', null],
        ['order_p1', 'pending', 'I-1'],
        ['order_p2', 'pending', 'I-1'],
        ['order_c', 'cancelled', 'I-1'],
      ]);
      expect(body).to.deep.include({
        warning: null,
        total: 5,
        by_category: { failed: 1, action_required: 1, under_review: 0, pending: 2, expired: 0, cancelled: 1 },
      });
      expect(body.by_customer).to.deep.equal([
        {
          customer_id: 'I-1',
          remit_customer_id: 'cust_1',
          total: 4,
          by_category: { failed: 1, action_required: 0, under_review: 0, pending: 2, expired: 0, cancelled: 1 },
        },
        {
          customer_id: null,
          remit_customer_id: 'cust_9',
          total: 1,
          by_category: { failed: 0, action_required: 1, under_review: 0, pending: 0, expired: 0, cancelled: 0 },
        },
      ]);
      expect(body.items[0]).to.deep.include({ amount_inr: '10000.00', status: 'failed' });
    });

    it('remittance-exceptions with remit down: the empty snapshot with a warning', async () => {
      nock(REMIT).get(/.*/).query(true).replyWithError(refused()).persist();
      const body = await get(api, '/v1/india/remittance-exceptions');
      expect(body).to.deep.include({ fetched_at: null, total: 0, items: [], by_customer: [] });
      expect(body.warning).to.match(/^remit could not be read/);
    });

    it('usbroker and remit overviews: from the ledger and the stored remittances, no upstream called', async () => {
      const broker = await get(api, '/v1/india/usbroker');
      expect(broker.totals).to.deep.include({ customers: 2, wires_in: { count: 0, usd: '0.00' } });
      expect(broker.customers.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal(['I-1', 'I-2']);
      const remit = await get(api, '/v1/india/remit');
      expect(remit.totals).to.deep.include({ orders: 4, paid: 4, paid_usd: '430.00', paid_inr: '40000.00' });
      expect(remit.customers).to.deep.equal([
        {
          customer_id: 'I-1',
          remit_customer_id: 'cust_1',
          orders: 4,
          paid: 4,
          paid_usd: '430.00',
          paid_inr: '40000.00',
          tcs_inr: '0.00',
        },
      ]);
      expect(remit.recent[0]).to.deep.include({ order_id: 'order_d' });
    });

    it('remit overview per PAN over the fy asked (default: today’s in India); a bad fy is a 400', async () => {
      const asked = await get(api, '/v1/india/remit?fy=2025-26');
      expect(asked.fy).to.equal('2025-26');
      // order_a, order_b and order_c were paid in January and February 2026; order_d yesterday, in another FY.
      expect(asked.pans).to.deep.equal([
        {
          pan: 'ABCDE1234F',
          customers: 1,
          remittances: 3,
          remitted_usd: '350.00',
          remitted_inr: '30000.00',
          tcs_inr: '0.00',
        },
      ]);
      expect(asked.totals, 'all time').to.deep.include({ orders: 4, paid: 4 });
      expect(asked.fy_totals, 'the year’s: order_d was paid in another').to.deep.equal({
        paid: 3,
        paid_usd: '350.00',
        paid_inr: '30000.00',
        tcs_inr: '0.00',
      });
      const current = await get(api, '/v1/india/remit');
      expect(current.fy).to.equal(financialYearOf(istDate(new Date().toISOString())).label);
      expect(current.pans.map((p: { remittances: number }) => p.remittances)).to.not.deep.equal([3]);
      expectError(await api.get('/v1/india/remit?fy=2025-27', { token: 'ledger' }), 400, 'validation_error');
    });

    it('compliance counts the PAN’s declared LRS use elsewhere with its remittances here against the limit', async () => {
      const fy = financialYearOf(istDate(new Date().toISOString())).label;
      const declared = await api.put('/v1/india/lrs/prior-usage/ABCDE1234F', {
        fy,
        amount_usd: '200000.00',
        amount_inr: '16000000.00',
      });
      expect(declared.status, declared.text).to.equal(201);
      nock(USBROKER).get('/v1/accounts/USB-1').reply(200, { account_no: 'USB-1', status: 'active' });
      secondBrokerDown();
      const body = await get(api, '/v1/india/compliance');
      const [withPan, , withoutPan] = body.customers;
      expect(withPan.lrs).to.deep.include({ fy, declared_prior_usd: '200000.00', status: 'warn' });
      // What is used and what is left make the USD 250,000 limit.
      const { remitted_usd: remitted, declared_prior_usd: prior, lrs_headroom_usd: headroom } = withPan.lrs;
      expect(new Decimal(remitted).plus(prior).plus(headroom).toFixed(2)).to.equal('250000.00');
      expect(withoutPan).to.deep.include({ customer_id: 'I-3', lrs: null });
    });
  });

  describe('India book, several customers holding shares', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: ENV });
      await api.put('/v1/customers/N-1', { usbroker_account_no: 'USB-1' });
      await api.put('/v1/customers/N-2', { usbroker_account_no: 'USB-2' });
      await api.put('/v1/customers/N-3', {});
      const trades: Array<[customer: string, symbol: string, quantity: string, amount: string]> = [
        ['N-1', 'AAPL', '2', '200.00'],
        ['N-2', 'AAPL', '1', '100.00'],
        ['N-2', 'MSFT', '3', '900.00'],
        ['N-3', 'NVDA', '5', '500.00'],
      ];
      for (const [customer_id, symbol, quantity, amount_usd] of trades) {
        for (const body of [
          { customer_id, txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '2000.00' },
          { customer_id, txn_type: 'buy_security', txn_date: '2026-01-12', symbol, quantity, amount_usd },
        ])
          expect((await api.post('/v1/transactions', { source: 'manual', ...body })).status).to.equal(201);
      }
    });
    after(async () => {
      await api.close();
    });

    it('nav asks the broker’s prices once, for every symbol a linked customer holds, and values each customer at them', async () => {
      // Answered once: a second quotes call finds no answer and its customer would be error.
      nock(USBROKER)
        .get('/v1/quotes')
        .query({ symbols: 'AAPL,MSFT' })
        .reply(200, [
          { symbol: 'AAPL', last: '250.00', currency: 'USD', as_of: '2026-11-24T20:00:00Z' },
          { symbol: 'MSFT', last: '400.00', currency: 'USD', as_of: '2026-11-24T20:00:00Z' },
        ]);
      const body = await get(api, '/v1/india/nav');
      const [first, second, third] = body.customers;
      expect(first).to.deep.include({ customer_id: 'N-1', status: 'valued', market_value_usd: '500.00' });
      // 1 × 250.00 + 3 × 400.00.
      expect(second).to.deep.include({ customer_id: 'N-2', status: 'valued', market_value_usd: '1450.00' });
      // No broker account: its NVDA is not priced, nor asked for.
      expect(third).to.deep.include({ customer_id: 'N-3', status: 'no_link', market_value_usd: null });
      expect(body.firm).to.deep.include({
        customers: { valued: 2, no_link: 1, error: 0 },
        market_value_usd: '1950.00',
      });
    });
  });

  describe('UAE book', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_UAE' } });
      await api.put('/v1/customers/U-1', {});
      expect(
        (
          await api.post('/v1/transactions', {
            customer_id: 'U-1',
            source: 'manual',
            txn_type: 'deposit',
            txn_date: '2026-01-10',
            amount_usd: '10.00',
          })
        ).status,
      ).to.equal(201);
    });
    after(async () => {
      await api.close();
    });

    it('every live India report answers 200 with its shape, zero-valued, calling no upstream', async () => {
      expect((await get(api, '/v1/india/ledger-recon')).customers).to.deep.equal([]);
      expect((await get(api, '/v1/india/nav')).firm).to.deep.include({
        nav_usd: '0.00',
        customers: { valued: 0, no_link: 0, error: 0 },
      });
      expect((await get(api, '/v1/india/holdings-recon')).customers).to.deep.equal([]);
      expect((await get(api, '/v1/india/compliance')).customers).to.deep.equal([]);
      expect((await get(api, '/v1/india/reconciliation')).totals).to.deep.include({
        remitted_usd: '0.00',
        matched_usd: '0.00',
      });
      expect((await get(api, '/v1/india/treasury')).configured).to.equal(false);
      const exceptions = await get(api, '/v1/india/remittance-exceptions');
      expect(exceptions).to.deep.include({ total: 0, items: [] });
      expect(exceptions.warning).to.match(/India-only/);
      expect((await get(api, '/v1/india/usbroker')).totals).to.deep.include({
        customers: 0,
        brokerage_revenue_usd: '0.00',
      });
      expect((await get(api, '/v1/india/remit')).totals).to.deep.include({
        orders: 0,
        paid_usd: '0.00',
        fx_spread_revenue_usd: '0.00',
      });
    });
  });
});
