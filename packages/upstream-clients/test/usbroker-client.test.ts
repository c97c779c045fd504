import { expect } from 'chai';
import nock from 'nock';
import {
  createUsbrokerClient,
  createUsbrokerClientIfConfigured,
  UpstreamError,
  UpstreamPayloadError,
  UsbrokerAuthError,
  UsbrokerNotFoundError,
  UsbrokerPageCapError,
  USBROKER_QUOTE_SYMBOLS_MAX,
  type UsbrokerClientOptions,
} from '../src/testing.js';
import { expectNoSecret, onlyMockedNetwork, rejectionOf } from './support.js';

const BASE_URL = 'http://usbroker.test';
const CLIENT_ID = 'usbroker-client-id-do-not-leak';
const CLIENT_SECRET = 'usbroker-client-secret-do-not-leak';
const TOKEN = 'usbroker-access-token-do-not-leak';
const SECRETS = [CLIENT_ID, CLIENT_SECRET, TOKEN];
const ACCOUNT = 'DWAB000001';

function client(overrides: Partial<UsbrokerClientOptions> = {}) {
  return createUsbrokerClient({
    baseUrl: BASE_URL,
    apiKey: CLIENT_ID,
    apiSecret: CLIENT_SECRET,
    timeoutMs: 1_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

const FORM = { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET };

/** The token endpoint, answering `token` for `expiresIn` seconds. */
function tokenEndpoint(token = TOKEN, expiresIn = 3600) {
  return nock(BASE_URL, { reqheaders: { 'content-type': 'application/x-www-form-urlencoded' } })
    .post('/oauth2/token', FORM)
    .reply(200, { access_token: token, expires_in: expiresIn, token_type: 'Bearer' });
}

function api(token = TOKEN) {
  return nock(BASE_URL, { reqheaders: { authorization: `Bearer ${token}` } });
}

function order(id: number, overrides: Record<string, unknown> = {}) {
  return {
    order_id: `ORD-${String(id).padStart(6, '0')}`,
    client_order_id: null,
    symbol: 'AAPL',
    side: 'BUY',
    qty: '2',
    notional: null,
    filled_qty: '2',
    avg_fill_price: '190.2500',
    status: 'filled',
    submitted_at: '2026-01-05T14:30:00Z',
    filled_at: '2026-01-05T14:30:01Z',
    cost_type: 'quantity',
    ...overrides,
  };
}

function orders(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => order(from + i));
}

function wire(id: number, overrides: Record<string, unknown> = {}) {
  return {
    transfer_id: `WIRE-${String(id).padStart(4, '0')}`,
    account_no: ACCOUNT,
    direction: 'IN',
    amount: '1200.00',
    currency: 'USD',
    status: 'completed',
    value_date: '2026-01-06',
    ...overrides,
  };
}

describe('usbroker client', () => {
  onlyMockedNetwork();

  describe('configuration', () => {
    it('is not configured without a base URL', () => {
      expect(createUsbrokerClientIfConfigured({ baseUrl: '', apiKey: CLIENT_ID, apiSecret: CLIENT_SECRET })).to.equal(
        null,
      );
      expect(
        createUsbrokerClientIfConfigured({ baseUrl: BASE_URL, apiKey: CLIENT_ID, apiSecret: CLIENT_SECRET }),
      ).to.not.equal(null);
    });

    it('refuses a missing credential by name, never echoing a value', () => {
      expect(() => client({ apiSecret: '' })).to.throw(RangeError, 'usbroker: apiSecret is required');
      const error = (() => {
        try {
          client({ baseUrl: CLIENT_SECRET });
        } catch (e) {
          return e as Error;
        }
        throw new Error('expected a throw');
      })();
      expect(error.message).to.equal('usbroker: baseUrl is not a URL');
    });
  });

  describe('token', () => {
    it('asks for a token with the client credentials as a form body, then sends it as the bearer token', async () => {
      tokenEndpoint();
      api().get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: ACCOUNT, status: 'active' });
      expect(await client().getAccount(ACCOUNT)).to.deep.equal({ account_no: ACCOUNT, status: 'active' });
    });

    it('reuses the token until shortly before expires_in runs out, then asks for a new one (no refresh token)', async () => {
      let nowMs = 1_000_000;
      const broker = client({ now: () => nowMs });
      tokenEndpoint('token-1', 3600);
      api('token-1').get(`/v1/accounts/${ACCOUNT}`).times(2).reply(200, { account_no: ACCOUNT, status: 'active' });
      await broker.getAccount(ACCOUNT);
      nowMs += 3_539_000; // 59 min 59 s: still more than the one-minute margin left
      await broker.getAccount(ACCOUNT);

      nowMs += 2_000; // inside the last minute: renewed before it expires
      tokenEndpoint('token-2', 3600);
      api('token-2').get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: ACCOUNT, status: 'active' });
      await broker.getAccount(ACCOUNT);
    });

    it('renews a short-lived token at half its lifetime', async () => {
      let nowMs = 0;
      const broker = client({ now: () => nowMs });
      tokenEndpoint('short-1', 10);
      api('short-1').get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: ACCOUNT, status: 'active' });
      await broker.getAccount(ACCOUNT);
      nowMs = 5_000;
      tokenEndpoint('short-2', 10);
      api('short-2').get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: ACCOUNT, status: 'active' });
      await broker.getAccount(ACCOUNT);
    });

    it('asks once for calls that start together', async () => {
      tokenEndpoint();
      api().get(`/v1/accounts/${ACCOUNT}`).times(3).reply(200, { account_no: ACCOUNT, status: 'active' });
      const broker = client();
      await Promise.all([broker.getAccount(ACCOUNT), broker.getAccount(ACCOUNT), broker.getAccount(ACCOUNT)]);
    });

    it('retries the token request after a 503: asking for a token changes nothing upstream', async () => {
      nock(BASE_URL).post('/oauth2/token').reply(503);
      tokenEndpoint();
      api().get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: ACCOUNT, status: 'active' });
      await client().getAccount(ACCOUNT);
    });

    describe('when the credentials are refused (401)', () => {
      it('fails with UsbrokerAuthError, the OAuth error code kept, no credential in it', async () => {
        nock(BASE_URL)
          .post('/oauth2/token')
          .reply(401, {
            error: 'invalid_client',
            error_description: `unknown client ${CLIENT_ID} with secret ${CLIENT_SECRET}`,
          });
        const error = await rejectionOf(client().getAccount(ACCOUNT));
        expect(error).to.be.instanceOf(UsbrokerAuthError).and.instanceOf(UpstreamError);
        expect(error).to.include({ status: 401, method: 'POST', path: 'oauth2/token', attempts: 1 });
        expect(error.message).to.equal(
          'usbroker POST /oauth2/token answered 401 after 1 attempt: credentials refused (invalid_client)',
        );
        expect((error as UsbrokerAuthError).detail).to.deep.equal({
          error: 'invalid_client',
          message: 'unknown client [redacted] with secret [redacted]',
        });
        expectNoSecret(error, SECRETS);
      });
    });

    describe('when a call answers 401 with the held token (revoked)', () => {
      it('asks for a new token and tries once more', async () => {
        tokenEndpoint('revoked');
        api('revoked').get(`/v1/accounts/${ACCOUNT}`).reply(401, { error: 'invalid_token' });
        tokenEndpoint('fresh');
        api('fresh').get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: ACCOUNT, status: 'active' });
        expect(await client().getAccount(ACCOUNT)).to.deep.equal({ account_no: ACCOUNT, status: 'active' });
      });

      it('fails with UsbrokerAuthError when the fresh token is refused too', async () => {
        tokenEndpoint('first');
        api('first')
          .get(`/v1/accounts/${ACCOUNT}`)
          .reply(401, { error: 'invalid_token', message: 'token first revoked' });
        tokenEndpoint(TOKEN);
        api()
          .get(`/v1/accounts/${ACCOUNT}`)
          .reply(401, { error: 'invalid_token', message: `token ${TOKEN} revoked` });
        const error = await rejectionOf(client().getAccount(ACCOUNT));
        expect(error).to.be.instanceOf(UsbrokerAuthError);
        expect(error).to.include({ status: 401, method: 'GET', path: `v1/accounts/${ACCOUNT}` });
        expect((error as UsbrokerAuthError).detail).to.deep.equal({
          error: 'invalid_token',
          message: 'token [redacted] revoked',
        });
        expectNoSecret(error, SECRETS);
      });
    });

    it('refuses a malformed token answer, naming the field', async () => {
      nock(BASE_URL)
        .post('/oauth2/token')
        .reply(200, { access_token: TOKEN, expires_in: '3600', token_type: 'Bearer' });
      const error = await rejectionOf(client().getAccount(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect(error).to.include({ upstream: 'usbroker', method: 'POST', path: 'oauth2/token', field: 'expires_in' });
      expectNoSecret(error, SECRETS);
    });
  });

  describe('account, balance, positions, statement', () => {
    beforeEach(() => tokenEndpoint());

    it('reads the balance with its money as decimal strings', async () => {
      const balance = {
        cash: '-12.50',
        cash_withdrawable: '0.00',
        buying_power: '1000.123456',
        pending_deposits: '250.00',
        currency: 'USD',
        as_of: '2026-01-05T21:00:00Z',
      };
      api().get(`/v1/accounts/${ACCOUNT}/balance`).reply(200, balance);
      expect(await client().getBalance(ACCOUNT)).to.deep.equal(balance);
    });

    it('refuses money sent as a JSON number, naming the field', async () => {
      api().get(`/v1/accounts/${ACCOUNT}/balance`).reply(200, {
        cash: 12.5,
        cash_withdrawable: '0.00',
        buying_power: '0.00',
        pending_deposits: '0.00',
        currency: 'USD',
        as_of: '2026-01-05T21:00:00Z',
      });
      const error = await rejectionOf(client().getBalance(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect(error).to.include({ field: 'cash', path: `v1/accounts/${ACCOUNT}/balance` });
    });

    it('reads positions', async () => {
      const positions = [
        {
          symbol: 'AAPL',
          cusip: '037833100',
          qty: '3.5',
          avg_cost: '180.00',
          cost_basis: '630.00',
          market_value: '665.87',
        },
      ];
      api().get(`/v1/accounts/${ACCOUNT}/positions`).reply(200, positions);
      expect(await client().listPositions(ACCOUNT)).to.deep.equal(positions);
    });

    it('names the position field that is malformed', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/positions`)
        .reply(200, [
          { symbol: 'AAPL', cusip: '037833100', qty: '1', avg_cost: '1', cost_basis: '1', market_value: '1' },
          { symbol: 'MSFT' },
        ]);
      const error = await rejectionOf(client().listPositions(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect((error as UpstreamPayloadError).field).to.equal('[1].cusip');
    });

    it('reads the monthly statement of the month asked for', async () => {
      const statement = {
        account_no: ACCOUNT,
        month: '2026-01',
        currency: 'USD',
        opening_cash: '0.00',
        closing_cash: '819.50',
        activity: [
          {
            date: '2026-01-06',
            txn_no: 'T-1',
            row_code: 'WIREI',
            symbol: null,
            description: 'Wire in',
            amount: '1200.00',
          },
          {
            date: '2026-01-07',
            txn_no: 'T-2',
            row_code: 'TRD',
            symbol: 'AAPL',
            description: 'Buy 2 AAPL',
            amount: '-380.50',
          },
        ],
      };
      api().get(`/v1/accounts/${ACCOUNT}/statement`).query({ month: '2026-01' }).reply(200, statement);
      expect(await client().getMonthlyStatement(ACCOUNT, '2026-01')).to.deep.equal(statement);
    });

    it('refuses an account answer that names another account', async () => {
      api().get(`/v1/accounts/${ACCOUNT}`).reply(200, { account_no: 'DWAB999999', status: 'active' });
      const error = await rejectionOf(client().getAccount(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect(error).to.include({ field: 'account_no' });
    });

    it('types an unknown account (404) as UsbrokerNotFoundError, without retrying', async () => {
      api().get('/v1/accounts/DWAB404').once().reply(404, { error: 'not_found', message: 'no such account' });
      const error = await rejectionOf(client().getAccount('DWAB404'));
      expect(error).to.be.instanceOf(UsbrokerNotFoundError);
      expect(error).to.include({ resource: 'account', id: 'DWAB404', status: 404, attempts: 1 });
    });
  });

  describe('transient failures', () => {
    beforeEach(() => tokenEndpoint());

    it('retries a 5xx and returns the answer that follows', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}`)
        .reply(502)
        .get(`/v1/accounts/${ACCOUNT}`)
        .reply(503)
        .get(`/v1/accounts/${ACCOUNT}`)
        .reply(200, {
          account_no: ACCOUNT,
          status: 'trading_halted',
        });
      expect(await client().getAccount(ACCOUNT)).to.deep.equal({ account_no: ACCOUNT, status: 'trading_halted' });
    });

    it('gives up after the retry limit on 5xx, with the status and attempts', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/positions`)
        .times(3)
        .reply(500, { error: 'internal', message: `failed for ${TOKEN}` });
      const error = await rejectionOf(client().listPositions(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamError);
      expect(error).to.include({ upstream: 'usbroker', failure: 'http_status', status: 500, attempts: 3 });
      expect((error as UpstreamError).detail).to.deep.equal({ error: 'internal', message: 'failed for [redacted]' });
      expectNoSecret(error, SECRETS);
    });

    it('fails with a timeout after retrying', async () => {
      // The timeout covers the token request too: the file's usual 1 s, not a tight one a busy
      // machine's token request could miss (then retried, with no token mocked: `network`). The
      // answer comes far later than any timeout, so the account's request always times out.
      api().get(`/v1/accounts/${ACCOUNT}`).times(2).delay(30_000).reply(200, { account_no: ACCOUNT, status: 'active' });
      const error = await rejectionOf(client({ timeoutMs: 1_000, retryLimit: 1 }).getAccount(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamError);
      expect(error).to.include({ failure: 'timeout', attempts: 2, path: `v1/accounts/${ACCOUNT}` });
    });

    it('fails as a network error when the connection is refused, after retrying', async () => {
      nock.cleanAll();
      nock.enableNetConnect('127.0.0.1:1');
      const error = await rejectionOf(client({ baseUrl: 'http://127.0.0.1:1', retryLimit: 1 }).getAccount(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamError);
      expect(error).to.include({ failure: 'network', code: 'ECONNREFUSED', attempts: 2, path: 'oauth2/token' });
      expectNoSecret(error, SECRETS);
    });
  });

  describe('orders: forward-only cursor paging', () => {
    beforeEach(() => tokenEndpoint());

    it('follows after_id page by page until an empty page, in ascending id order', async () => {
      api().get(`/v1/accounts/${ACCOUNT}/orders`).query({ limit: '100' }).reply(200, orders(1, 100));
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000100', limit: '100' })
        .reply(200, orders(101, 37));
      api().get(`/v1/accounts/${ACCOUNT}/orders`).query({ after_id: 'ORD-000137', limit: '100' }).reply(200, []);
      const all = await client().listOrders(ACCOUNT);
      expect(all.map((o) => o.order_id)).to.deep.equal(orders(1, 137).map((o) => o.order_id));
    });

    it('starts after the given id and passes the status filter', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000010', status: 'filled', limit: '100' })
        .reply(200, [order(11)]);
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000011', status: 'filled', limit: '100' })
        .reply(200, []);
      expect(await client().listOrders(ACCOUNT, { afterId: 'ORD-000010', status: 'filled' })).to.have.length(1);
    });

    it('stops at the page cap with an error naming the last id read', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ limit: '100' })
        .reply(200, [order(1)]);
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000001', limit: '100' })
        .reply(200, [order(2)]);
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000002', limit: '100' })
        .reply(200, [order(3)]);
      const error = await rejectionOf(client({ pageCap: 2 }).listOrders(ACCOUNT));
      expect(error).to.be.instanceOf(UsbrokerPageCapError);
      expect(error).to.include({ pageCap: 2, lastId: 'ORD-000002' });
    });

    it('reads one page with a smaller limit', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000004', limit: '2' })
        .reply(200, orders(5, 2));
      expect(await client().listOrdersPage(ACCOUNT, { afterId: 'ORD-000004', limit: 2 })).to.have.length(2);
    });

    it('refuses a limit above 100 without calling', async () => {
      nock.cleanAll();
      const error = await rejectionOf(client().listOrdersPage(ACCOUNT, { limit: 101 }));
      expect(error).to.be.instanceOf(RangeError);
    });

    it('refuses a page that does not move past the cursor (it would never end)', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query({ after_id: 'ORD-000001', limit: '100' })
        .reply(200, [order(1)]);
      const error = await rejectionOf(client().listOrders(ACCOUNT, { afterId: 'ORD-000001' }));
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect(error).to.include({ field: '[0]' });
    });

    it('types both cost types and refuses a quantity order with a notional', async () => {
      const fpc = order(2, {
        cost_type: 'full_portfolio_cost',
        qty: null,
        notional: '500.00',
        filled_qty: '2.627430',
        avg_fill_price: '190.300000',
      });
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query(true)
        .reply(200, [order(1, { side: 'sell' }), fpc]);
      const broker = client();
      const [quantity, portfolio] = await broker.listOrdersPage(ACCOUNT);
      expect(quantity).to.include({ cost_type: 'quantity', qty: '2', notional: null, side: 'SELL' });
      expect(portfolio).to.include({
        cost_type: 'full_portfolio_cost',
        qty: null,
        notional: '500.00',
        filled_qty: '2.627430',
      });

      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query(true)
        .reply(200, [order(1), order(2, { notional: '10.00' })]);
      const error = await rejectionOf(broker.listOrdersPage(ACCOUNT));
      expect(error).to.be.instanceOf(UpstreamPayloadError);
      expect(error).to.include({ field: '[1].notional' });
    });

    it('refuses an unknown order status, naming the field', async () => {
      api()
        .get(`/v1/accounts/${ACCOUNT}/orders`)
        .query(true)
        .reply(200, [order(1, { status: 'new' })]);
      const error = await rejectionOf(client().listOrdersPage(ACCOUNT));
      expect(error).to.include({ field: '[0].status' });
    });
  });

  describe('funding wires', () => {
    beforeEach(() => tokenEndpoint());

    it('pages the firm-wide list with its filters to the empty page', async () => {
      api()
        .get('/v1/funding/wires')
        .query({ account_no: ACCOUNT, direction: 'IN', limit: '100' })
        .reply(200, [wire(1), wire(2)]);
      api()
        .get('/v1/funding/wires')
        .query({ after_id: 'WIRE-0002', account_no: ACCOUNT, direction: 'IN', limit: '100' })
        .reply(200, []);
      const wires = await client().listWires({ accountNo: ACCOUNT, direction: 'IN' });
      expect(wires).to.deep.equal([wire(1), wire(2)]);
    });

    it('refuses a wire with a negative amount (direction says which way)', async () => {
      api()
        .get('/v1/funding/wires')
        .query(true)
        .reply(200, [wire(1, { direction: 'OUT', amount: '-5.00' })]);
      const error = await rejectionOf(client().listWiresPage());
      expect(error).to.include({ field: '[0].amount' });
    });
  });

  describe('order preview', () => {
    beforeEach(() => tokenEndpoint());

    it('posts the order and reads the estimated fees', async () => {
      const fees = { est_commission: '0.00', sec_fee: '0.01', taf_fee: '0.01', ifsca_fee: '0.05' };
      api().post('/v1/orders/preview', { account_no: ACCOUNT, symbol: 'AAPL', side: 'BUY', qty: '2' }).reply(200, fees);
      expect(await client().previewOrder({ account_no: ACCOUNT, symbol: 'AAPL', side: 'BUY', qty: '2' })).to.deep.equal(
        fees,
      );
    });

    it('never retries it: a 503 fails at once', async () => {
      api().post('/v1/orders/preview').once().reply(503);
      const error = await rejectionOf(
        client().previewOrder({ account_no: ACCOUNT, symbol: 'AAPL', side: 'SELL', notional: '100.00' }),
      );
      expect(error).to.include({ method: 'POST', status: 503, attempts: 1 });
    });

    it('refuses a request with both qty and notional without calling', async () => {
      nock.cleanAll();
      const request = {
        account_no: ACCOUNT,
        symbol: 'AAPL',
        side: 'BUY',
        qty: '1',
        notional: '1',
      } as unknown as Parameters<ReturnType<typeof client>['previewOrder']>[0];
      expect(await rejectionOf(client().previewOrder(request))).to.be.instanceOf(RangeError);
    });
  });

  describe('quotes', () => {
    it('asks for the symbols comma-separated, at most 100 per call, and nothing for no symbols', async () => {
      tokenEndpoint();
      const symbols = Array.from({ length: USBROKER_QUOTE_SYMBOLS_MAX + 1 }, (_, i) => `S${i}`);
      const quote = (symbol: string) => ({ symbol, last: '10.5', currency: 'USD', as_of: '2026-01-05T21:00:00Z' });
      api()
        .get('/v1/quotes')
        .query({ symbols: symbols.slice(0, 100).join(',') })
        .reply(200, symbols.slice(0, 100).map(quote));
      api()
        .get('/v1/quotes')
        .query({ symbols: 'S100' })
        .reply(200, [quote('S100')]);
      const broker = client();
      expect(await broker.getQuotes(symbols)).to.have.length(101);
      expect(await broker.getQuotes([])).to.deep.equal([]);
    });
  });

  it('keeps every credential and the token out of every error', async () => {
    const errors: Error[] = [];
    nock(BASE_URL)
      .post('/oauth2/token')
      .reply(400, { error: 'invalid_grant', message: `${CLIENT_SECRET}` });
    errors.push(await rejectionOf(client().getBalance(ACCOUNT)));
    tokenEndpoint();
    api()
      .get(`/v1/accounts/${ACCOUNT}/balance`)
      .times(3)
      .reply(503, { error: TOKEN, message: `echo ${CLIENT_ID}` });
    errors.push(await rejectionOf(client().getBalance(ACCOUNT)));
    tokenEndpoint();
    api().get(`/v1/accounts/${ACCOUNT}/balance`).reply(200, { cash: TOKEN });
    errors.push(await rejectionOf(client().getBalance(ACCOUNT)));
    for (const error of errors) expectNoSecret(error, SECRETS);
  });
});
