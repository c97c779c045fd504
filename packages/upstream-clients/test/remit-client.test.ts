import { expect } from 'chai';
import nock from 'nock';
import {
  createRemitClient,
  createRemitClientIfConfigured,
  minorToDecimal,
  RemitApiError,
  RemitAuthError,
  RemitNotFoundError,
  RemitPageCapError,
  UpstreamError,
  UpstreamPayloadError,
  type RemitClientOptions,
} from '../src/testing.js';
import { expectNoSecret, onlyMockedNetwork, rejectionOf } from './support.js';

const ORIGIN = 'http://remit.test';
const BASE_URL = `${ORIGIN}/api/v1`;
const API_KEY = 'remit-secret-key-do-not-leak';
const API_SECRET = 'remit-unused-secret-do-not-leak';
const AUTH = { reqheaders: { authorization: `Bearer ${API_KEY}` } };

function client(overrides: Partial<RemitClientOptions> = {}) {
  return createRemitClient({
    baseUrl: ORIGIN,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    timeoutMs: 1_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

function remit() {
  return nock(BASE_URL, AUTH);
}

function order(n: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `order_${n}`,
    customer_id: 'cust_1',
    status: 'paid',
    currency: 'INR',
    amount: 10_000_000,
    purpose_code: 'S0001',
    reference_number: `REF${n}`,
    quote_id: `quote_${n}`,
    created_at: '2026-01-05T09:30:00Z',
    updated_at: '2026-01-05T09:45:00+05:30',
    notes: { channel: 'app' },
    ...overrides,
  };
}

function payment(overrides: Record<string, unknown> = {}) {
  return {
    id: 'payt_1',
    customer_id: 'cust_1',
    payin_id: 'order_1',
    payin_type: 'orders',
    status: 'success',
    currency: 'INR',
    amount: 10_000_000,
    purpose_code: 'S0001',
    transaction_reference_number: 'UTIB0000123456789012',
    settlement_id: null,
    funds_available: true,
    payment_method: 'netbanking',
    error_code: null,
    created_at: '2026-01-05T09:31:00Z',
    updated_at: '2026-01-05T09:32:00Z',
    ...overrides,
  };
}

function meta(current: number, next: number | null, perPage = 100) {
  return { current, previous: current === 1 ? null : current - 1, next, per_page: perPage, pages: 3, count: 250 };
}

describe('remit client', () => {
  onlyMockedNetwork();

  for (const baseUrl of [ORIGIN, `${ORIGIN}/`, BASE_URL, `${BASE_URL}/`]) {
    it(`takes REMIT_BASE_URL as the origin or with the provider's /api/v1 suffix, and asks /api/v1 once: ${baseUrl}`, async () => {
      const scope = remit()
        .get('/orders')
        .query({ page: 1, per_page: 100 })
        .reply(200, {
          data: [order(1)],
          page_meta: { current: 1, previous: null, next: null, per_page: 100, pages: 1, count: 1 },
        });
      expect((await client({ baseUrl }).listOrders()).map((o) => o.id)).to.deep.equal(['order_1']);
      expect(scope.isDone()).to.equal(true);
    });
  }

  it('is not configured without a base URL', () => {
    expect(createRemitClientIfConfigured({ baseUrl: undefined, apiKey: API_KEY })).to.equal(null);
    expect(createRemitClientIfConfigured({ baseUrl: ORIGIN, apiKey: API_KEY })).to.not.equal(null);
  });

  it('sends the secret key as the bearer token under /api/v1 and converts paise to a decimal string', async () => {
    remit()
      .get('/orders/order_1')
      .reply(200, order(1, { purpose_code: null, reference_number: null }));
    expect(await client().getOrder('order_1')).to.deep.equal({
      ...order(1),
      amount: '100000.00',
      purpose_code: null,
      reference_number: null,
    });
  });

  it('refuses an id of the wrong type without calling', async () => {
    expect(await rejectionOf(client().getOrder('payt_1'))).to.be.instanceOf(RangeError);
  });

  describe('minor units, converted exactly', () => {
    it('converts with the currency exponent, on digits', () => {
      expect(minorToDecimal(1, 'INR')).to.equal('0.01');
      expect(minorToDecimal(0, 'USD')).to.equal('0.00');
      expect(minorToDecimal(123456789012345, 'INR')).to.equal('1234567890123.45');
      expect(minorToDecimal(9007199254740991, 'USD')).to.equal('90071992547409.91');
      expect(minorToDecimal(123456789012345678901234567890n, 'INR')).to.equal('1234567890123456789012345678.90');
      expect(minorToDecimal(5, 'JPY')).to.equal('5');
      expect(minorToDecimal(1, 'BHD')).to.equal('0.001');
      expect(() => minorToDecimal(-1, 'INR')).to.throw(RangeError);
      expect(() => minorToDecimal(1.5, 'INR')).to.throw(RangeError);
      expect(() => minorToDecimal(1, 'XXX')).to.throw(RangeError);
    });

    for (const [paise, rupees] of [
      [1, '0.01'],
      [99, '0.99'],
      [100, '1.00'],
      [123456789012345, '1234567890123.45'],
    ] as const) {
      it(`reads ${paise} ${paise === 1 ? 'paisa' : 'paise'} as "${rupees}"`, async () => {
        remit()
          .get('/orders/order_1')
          .reply(200, order(1, { amount: paise }));
        expect((await client().getOrder('order_1')).amount).to.equal(rupees);
      });
    }

    for (const [what, amount] of [
      ['a negative amount', -100],
      ['a fractional amount', 100.5],
      ['an amount sent as a string', '100'],
      ['an amount beyond 2^53 (JSON has already lost digits)', 2 ** 60],
    ] as const) {
      it(`refuses ${what}, naming the field`, async () => {
        remit().get('/orders/order_1').reply(200, order(1, { amount }));
        const error = await rejectionOf(client().getOrder('order_1'));
        expect(error).to.be.instanceOf(UpstreamPayloadError);
        expect(error).to.include({ upstream: 'remit', path: 'api/v1/orders/order_1', field: 'amount' });
      });
    }

    it('refuses a currency whose minor unit is unknown, naming the field', async () => {
      remit()
        .get('/orders/order_1')
        .reply(200, order(1, { currency: 'XAU' }));
      expect(await rejectionOf(client().getOrder('order_1'))).to.include({ field: 'currency' });
    });
  });

  describe('quotes, payments, settlements', () => {
    const quote = {
      id: 'quote_1',
      from: { amount: 10_000_000, currency: 'INR' },
      to: { amount: 114_240, currency: 'USD' },
      fx_rate: '0.011424',
      bank_code: 'HDFC',
      total_tax: '10.0',
      expires_at: '2026-01-05T09:40:00Z',
      created_at: '2026-01-05T09:30:00Z',
    };

    it('reads a quote: amounts converted, the rate and the tax kept as decimal strings', async () => {
      remit().get('/quotes/quote_1').reply(200, quote);
      expect(await client().getQuote('quote_1')).to.deep.equal({
        ...quote,
        from: { amount: '100000.00', currency: 'INR' },
        to: { amount: '1142.40', currency: 'USD' },
      });
    });

    it('refuses a rate sent as a JSON number (a float), naming it', async () => {
      remit()
        .get('/quotes/quote_1')
        .reply(200, { ...quote, fx_rate: 0.011424 });
      expect(await rejectionOf(client().getQuote('quote_1'))).to.include({ field: 'fx_rate' });
    });

    it('names a nested field: to.amount', async () => {
      remit()
        .get('/quotes/quote_1')
        .reply(200, { ...quote, to: { amount: -1, currency: 'USD' } });
      expect(await rejectionOf(client().getQuote('quote_1'))).to.include({ field: 'to.amount' });
    });

    it('lists the payments of an order by payin_id', async () => {
      remit()
        .get('/payment')
        .query({ payin_id: 'order_1', page: '1', per_page: '100' })
        .reply(200, { data: [payment()], page_meta: meta(1, null) });
      expect(await client().listPayments({ payinId: 'order_1' })).to.deep.equal([
        { ...payment(), amount: '100000.00' },
      ]);
    });

    it('refuses a payment for an order whose payin_id is not an order id', async () => {
      remit()
        .get('/payment/payt_1')
        .reply(200, payment({ payin_id: 'plink_1' }));
      expect(await rejectionOf(client().getPayment('payt_1'))).to.include({ field: 'payin_id' });
    });

    it('reads a settlement: USD cents and fees converted, no UTR yet', async () => {
      remit()
        .get('/settlements/setl_1')
        .reply(200, {
          id: 'setl_1',
          status: 'settled',
          amount: 114_240,
          currency: 'USD',
          fees: { fx_fee: { amount: 57, currency: 'USD' }, txn_fee: { amount: 2_500, currency: 'INR' } },
          utr: null,
          created_at: '2026-01-06T09:30:00Z',
          updated_at: '2026-01-06T09:30:00Z',
        });
      expect(await client().getSettlement('setl_1')).to.deep.include({
        amount: '1142.40',
        fees: { fx_fee: { amount: '0.57', currency: 'USD' }, txn_fee: { amount: '25.00', currency: 'INR' } },
        utr: null,
      });
    });
  });

  describe('lists: page / per_page until page_meta.next is null', () => {
    it('walks every page with the filters, and returns each order once', async () => {
      const query = {
        customer_id: 'cust_1',
        status: 'paid',
        after: '2026-01-01T00:00:00Z',
        before: '2026-02-01T00:00:00Z',
      };
      remit()
        .get('/orders')
        .query({ ...query, page: '1', per_page: '100' })
        .reply(200, { data: [order(3), order(2)], page_meta: meta(1, 2) });
      // A new order moved order_2 onto page 2: read once.
      remit()
        .get('/orders')
        .query({ ...query, page: '2', per_page: '100' })
        .reply(200, { data: [order(2), order(1)], page_meta: meta(2, 3) });
      remit()
        .get('/orders')
        .query({ ...query, page: '3', per_page: '100' })
        .reply(200, { data: [], page_meta: meta(3, null) });
      const orders = await client().listOrders({
        customerId: 'cust_1',
        status: 'paid',
        after: query.after,
        before: query.before,
      });
      expect(orders.map((o) => o.id)).to.deep.equal(['order_3', 'order_2', 'order_1']);
    });

    it('stops at the page cap instead of running on', async () => {
      for (const page of [1, 2]) {
        remit()
          .get('/customers')
          .query({ page: String(page), per_page: '100' })
          .reply(200, { data: [], page_meta: meta(page, page + 1) });
      }
      const error = await rejectionOf(client({ pageCap: 2 }).listCustomers());
      expect(error).to.be.instanceOf(RemitPageCapError);
      expect(error).to.include({ pageCap: 2, path: 'api/v1/customers' });
    });

    it('refuses per_page above 100 without calling', async () => {
      expect(() => client({ perPage: 101 })).to.throw(RangeError, /per_page/);
      expect(await rejectionOf(client().listOrdersPage({}, { page: 1, perPage: 101 }))).to.be.instanceOf(RangeError);
    });

    it("types remit's 400 for a per_page it refuses as RemitApiError with the flat error", async () => {
      remit()
        .get('/orders')
        .query({ page: '1', per_page: '50' })
        .reply(400, { error: 'invalid_request', message: 'per_page must be at most 100', code: 'PER_PAGE_TOO_LARGE' });
      const error = await rejectionOf(client().listOrdersPage({}, { page: 1, perPage: 50 }));
      expect(error).to.be.instanceOf(RemitApiError).and.instanceOf(UpstreamError);
      expect(error).to.include({
        status: 400,
        apiError: 'invalid_request',
        apiCode: 'PER_PAGE_TOO_LARGE',
        apiMessage: 'per_page must be at most 100',
      });
      expect(error.message).to.equal(
        'remit GET /api/v1/orders answered 400 after 1 attempt: invalid_request: per_page must be at most 100',
      );
    });

    it('refuses a page that is not the one asked for, or holds more than per_page', async () => {
      remit()
        .get('/refunds')
        .query(true)
        .reply(200, { data: [], page_meta: meta(2, null) });
      expect(await rejectionOf(client().listRefunds())).to.include({ field: 'page_meta.current' });
      remit()
        .get('/orders')
        .query(true)
        .reply(200, { data: [order(1), order(2)], page_meta: meta(1, null, 1) });
      expect(await rejectionOf(client().listOrdersPage({}, { page: 1, perPage: 1 }))).to.include({ field: 'data' });
    });

    it('names the field of a malformed record in a page', async () => {
      remit()
        .get('/orders')
        .query(true)
        .reply(200, { data: [order(1), order(2, { status: 'refunded' })], page_meta: meta(1, null) });
      expect(await rejectionOf(client().listOrders())).to.include({ field: 'data[1].status' });
    });
  });

  describe('ours: refunds, customers, mid rate; and the merchant balance', () => {
    it('lists refunds (INR unless they name a currency)', async () => {
      remit()
        .get('/refunds')
        .query({ page: '1', per_page: '100' })
        .reply(200, {
          data: [
            {
              id: 'refund_1',
              order_id: 'order_1',
              payment_id: 'payt_1',
              amount: 10_000_000,
              created_at: '2026-01-09T10:00:00Z',
            },
          ],
          page_meta: meta(1, null),
        });
      expect(await client().listRefunds()).to.deep.equal([
        {
          id: 'refund_1',
          order_id: 'order_1',
          payment_id: 'payt_1',
          amount: '100000.00',
          currency: 'INR',
          created_at: '2026-01-09T10:00:00Z',
        },
      ]);
    });

    it('reads a customer with the PAN as sent', async () => {
      const customer = {
        id: 'cust_1',
        name: 'Asha Rao',
        email: 'asha@example.com',
        pan: 'ABCDE1234F',
        created_at: '2025-12-01T00:00:00Z',
      };
      remit().get('/customers/cust_1').reply(200, customer);
      expect(await client().getCustomer('cust_1')).to.deep.equal(customer);
    });

    it('reads the merchant balance', async () => {
      remit()
        .get('/balances')
        .reply(200, {
          available: [{ amount: 123_45, currency: 'USD' }],
          pending: [{ amount: 1, currency: 'INR' }],
          deficit: [],
        });
      expect(await client().getBalances()).to.deep.equal({
        available: [{ amount: '123.45', currency: 'USD' }],
        pending: [{ amount: '0.01', currency: 'INR' }],
        deficit: [],
      });
    });

    it('reads the INR→USD mid rate as a decimal string', async () => {
      remit()
        .get('/fx_rates')
        .query({ source_currency: 'INR', target_currency: 'USD' })
        .reply(200, { mid_market_rate: { currency: 'USD', rate: '0.011500' } });
      expect(await client().getMidRate()).to.deep.equal({ currency: 'USD', rate: '0.011500' });
    });
  });

  describe('errors', () => {
    it("types a 404 as RemitNotFoundError with remit's flat error", async () => {
      remit().get('/orders/order_404').once().reply(404, { error: 'not_found', message: 'Order not found' });
      const error = await rejectionOf(client().getOrder('order_404'));
      expect(error).to.be.instanceOf(RemitNotFoundError);
      expect(error).to.include({ resource: 'order', id: 'order_404', apiError: 'not_found', status: 404, attempts: 1 });
    });

    it('types a 401 as RemitAuthError, the key never in it even when remit echoes it', async () => {
      remit()
        .get('/balances')
        .reply(401, { error: 'unauthorized', message: `invalid key ${API_KEY}` });
      const error = await rejectionOf(client().getBalances());
      expect(error).to.be.instanceOf(RemitAuthError);
      expect(error).to.include({ status: 401, apiError: 'unauthorized', apiMessage: 'invalid key [redacted]' });
      expectNoSecret(error, [API_KEY, API_SECRET]);
    });

    it('retries a 5xx and returns the answer that follows', async () => {
      remit().get('/orders/order_1').reply(503).get('/orders/order_1').reply(200, order(1));
      expect((await client().getOrder('order_1')).amount).to.equal('100000.00');
    });

    it('gives up after the retry limit on 5xx', async () => {
      remit().get('/orders/order_1').times(3).reply(500, { error: 'server_error', message: 'try later' });
      const error = await rejectionOf(client().getOrder('order_1'));
      expect(error).to.be.instanceOf(UpstreamError).and.not.instanceOf(RemitApiError);
      expect(error).to.include({ status: 500, attempts: 3, failure: 'http_status' });
      expect((error as UpstreamError).detail).to.deep.equal({ error: 'server_error', message: 'try later' });
    });

    it('fails with a timeout after retrying', async () => {
      remit().get('/balances').times(2).delay(300).reply(200, {});
      const error = await rejectionOf(client({ timeoutMs: 50, retryLimit: 1 }).getBalances());
      expect(error).to.include({ failure: 'timeout', attempts: 2 });
    });

    it('fails as a network error when the connection is refused, after retrying', async () => {
      nock.enableNetConnect('127.0.0.1:1');
      const error = await rejectionOf(client({ baseUrl: 'http://127.0.0.1:1', retryLimit: 1 }).getBalances());
      expect(error).to.include({ failure: 'network', code: 'ECONNREFUSED', attempts: 2 });
    });

    it('keeps the key and the unused secret out of every error', async () => {
      const errors: Error[] = [];
      remit()
        .get('/orders/order_1')
        .reply(403, { error: API_KEY, message: `${API_SECRET} ${API_KEY}`, code: API_SECRET });
      errors.push(await rejectionOf(client().getOrder('order_1')));
      remit()
        .get('/orders/order_1')
        .reply(200, order(1, { customer_id: API_KEY }));
      errors.push(await rejectionOf(client().getOrder('order_1')));
      remit().get('/orders/order_1').times(3).reply(502, `<html>${API_KEY}</html>`);
      errors.push(await rejectionOf(client().getOrder('order_1')));
      for (const error of errors) expectNoSecret(error, [API_KEY, API_SECRET]);
    });
  });
});
