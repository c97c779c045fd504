import { inspect } from 'node:util';
import { expect } from 'chai';
import nock from 'nock';
import { createUpstreamHttp, UpstreamError, type UpstreamHttpOptions } from '../src/testing.js';
import { onlyMockedNetwork, rejectionOf } from './support.js';

const BASE_URL = 'http://usbroker.test/api';
const SECRET = 'sk_live_do_not_leak';

function client(overrides: Partial<UpstreamHttpOptions> = {}) {
  return createUpstreamHttp({
    upstream: 'usbroker',
    baseUrl: BASE_URL,
    timeoutMs: 1_000,
    retryLimit: 2,
    backoffMs: 5,
    headers: { 'x-api-key': SECRET },
    ...overrides,
  });
}

const rejectionOfUpstream = (promise: Promise<unknown>) => rejectionOf(promise, UpstreamError);

describe('upstream HTTP client', () => {
  onlyMockedNetwork();

  it('resolves paths against the base URL and sends the configured headers', async () => {
    nock(BASE_URL, { reqheaders: { 'x-api-key': SECRET, accept: 'application/json' } })
      .get('/v1/accounts')
      .query({ page: '2' })
      .reply(200, { items: [] });
    expect(await client().getJson('/v1/accounts', { page: 2 })).to.deep.equal({ items: [] });
  });

  it('posts JSON and parses the JSON answer', async () => {
    nock(BASE_URL).post('/v1/orders', { symbol: 'AAPL', quantity: '2' }).reply(201, { order_id: 'o-1' });
    expect(await client().postJson('v1/orders', { symbol: 'AAPL', quantity: '2' })).to.deep.equal({ order_id: 'o-1' });
  });

  describe('when a GET answers 503 and then 200', () => {
    it('retries and returns the 200 answer', async () => {
      nock(BASE_URL)
        .get('/v1/positions')
        .reply(503)
        .get('/v1/positions')
        .reply(200, { positions: ['AAPL'] });
      expect(await client().getJson('v1/positions')).to.deep.equal({ positions: ['AAPL'] });
    });
  });

  describe('when a GET keeps answering 5xx', () => {
    it('gives up after the retry limit with the status and the number of attempts', async () => {
      nock(BASE_URL).get('/v1/positions').times(3).reply(503, { error: 'down' });
      const error = await rejectionOfUpstream(client({ retryLimit: 2 }).getJson('v1/positions'));
      expect(error).to.include({
        upstream: 'usbroker',
        failure: 'http_status',
        status: 503,
        method: 'GET',
        attempts: 3,
      });
      expect(error.path).to.equal('v1/positions');
      expect(error.message).to.equal('usbroker GET /v1/positions answered 503 after 3 attempts');
    });

    it('waits longer before each retry (backoff)', async () => {
      nock(BASE_URL).get('/v1/slow').times(3).reply(502);
      const startedAt = Date.now();
      await rejectionOfUpstream(client({ retryLimit: 2, backoffMs: 40 }).getJson('v1/slow'));
      // 40 ms, then 80 ms.
      expect(Date.now() - startedAt).to.be.at.least(110);
    });
  });

  describe('when the upstream does not answer in time', () => {
    it('fails with a timeout, after retrying a GET', async () => {
      nock(BASE_URL).get('/v1/statement').times(2).delay(500).reply(200, {});
      const error = await rejectionOfUpstream(client({ timeoutMs: 50, retryLimit: 1 }).getJson('v1/statement'));
      expect(error).to.include({ failure: 'timeout', status: null, attempts: 2, code: 'ETIMEDOUT' });
    });
  });

  describe('when the upstream answers 4xx', () => {
    it('does not retry', async () => {
      nock(BASE_URL).get('/v1/accounts/nope').once().reply(404, { error: 'not found' });
      const error = await rejectionOfUpstream(client().getJson('v1/accounts/nope'));
      expect(error).to.include({ failure: 'http_status', status: 404, attempts: 1 });
    });
  });

  describe('when a GET answers 429 (too many requests)', () => {
    it('waits the Retry-After it names, then retries', async () => {
      nock(BASE_URL)
        .get('/v1/orders')
        .reply(429, { error: 'rate_limited' }, { 'retry-after': '1' })
        .get('/v1/orders')
        .reply(200, { orders: [] });
      const startedAt = Date.now();
      expect(await client({ timeoutMs: 2_000 }).getJson('v1/orders')).to.deep.equal({ orders: [] });
      // Node's timers count from the event loop's cached time: one may fire a millisecond early by Date.now.
      expect(Date.now() - startedAt).to.be.at.least(990);
    });

    it('does not retry when the Retry-After is longer than the timeout: the caller learns now, with the status', async () => {
      nock(BASE_URL).get('/v1/orders').once().reply(429, {}, { 'retry-after': '120' });
      const error = await rejectionOfUpstream(client({ timeoutMs: 1_000 }).getJson('v1/orders'));
      expect(error).to.include({ failure: 'http_status', status: 429, attempts: 1 });
    });
  });

  describe('with requestsPerMinute', () => {
    it('starts no more than its sixtieth of them in any second: 120 a minute, 6 GETs at once start two a second', async () => {
      const started: number[] = [];
      nock(BASE_URL)
        .get('/v1/quotes')
        .times(6)
        .reply(() => {
          started.push(Date.now());
          return [200, {}];
        });
      const paced = client({ requestsPerMinute: 120 });
      await Promise.all(Array.from({ length: 6 }, () => paced.getJson('v1/quotes')));
      started.sort((a, b) => a - b);
      // Any three in a row span a second: two a second. The times are taken where nock answers, after
      // the pacer let each request go, and a busy machine delays one more than the next by a few
      // milliseconds (989 ms was seen beside another suite): 900 keeps a margin that an unpaced
      // client, starting all six within milliseconds, is nowhere near.
      for (let i = 2; i < started.length; i += 1) expect(started[i]! - started[i - 2]!).to.be.at.least(900);
    });

    it('refuses a pace that is not a whole number of at least one request a minute', () => {
      expect(() => client({ requestsPerMinute: 0 })).to.throw(RangeError, /requestsPerMinute/);
    });
  });

  describe('when a POST answers 503', () => {
    it('does not retry it: a POST may have taken effect', async () => {
      nock(BASE_URL).post('/v1/orders').once().reply(503);
      const error = await rejectionOfUpstream(client().postJson('v1/orders', {}));
      expect(error).to.include({ method: 'POST', status: 503, attempts: 1 });
    });
  });

  describe('when the connection is refused', () => {
    it('fails as a network error, after retrying', async () => {
      // A real refusal: nothing listens on port 1 of loopback.
      nock.enableNetConnect('127.0.0.1:1');
      const error = await rejectionOfUpstream(
        client({ baseUrl: 'http://127.0.0.1:1/api', retryLimit: 1 }).getJson('v1/ping'),
      );
      expect(error).to.include({ failure: 'network', status: null, code: 'ECONNREFUSED', attempts: 2 });
    });
  });

  describe('when the answer is not JSON', () => {
    it('fails as a bad response', async () => {
      nock(BASE_URL).get('/v1/accounts').reply(200, '<html>maintenance</html>', { 'content-type': 'text/html' });
      const error = await rejectionOfUpstream(client().getJson('v1/accounts'));
      expect(error).to.include({ failure: 'bad_response', attempts: 1 });
    });
  });

  it('never carries credentials in its errors: not the headers, not the query string', async () => {
    nock(BASE_URL)
      .get('/v1/accounts')
      .query(true)
      .reply(401, { error: `bad key ${SECRET}` });
    const error = await rejectionOfUpstream(client().getJson(`v1/accounts?api_key=${SECRET}`));
    expect(error.status).to.equal(401);
    for (const rendering of [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error)]) {
      expect(rendering).to.not.include(SECRET);
    }
  });

  it('returns a text body as text', async () => {
    nock(BASE_URL).get('/v1/ledger.csv').reply(200, 'date,amount\n2026-01-02,1.00\n', { 'content-type': 'text/csv' });
    expect(await client().getText('v1/ledger.csv')).to.equal('date,amount\n2026-01-02,1.00\n');
  });
});
