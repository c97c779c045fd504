import { generateKeyPairSync } from 'node:crypto';
import { inspect } from 'node:util';
import { expect } from 'chai';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import nock from 'nock';
import {
  createUaefeedClient,
  createUaefeedClientIfConfigured,
  jsonNumberToDecimal,
  UAEFEED_PAGES_MAX,
  UaefeedRejectedError,
  UpstreamError,
  UpstreamPayloadError,
  type UaefeedClientConfig,
} from '../src/testing.js';
import { rejectionOf } from './support.js';

const BASE_URL = 'http://uaefeed.test';
const APP_KEY = 'app-key-do-not-leak';
const APP_SECRET = 'app-secret-do-not-leak';
const INST_CODE = 'INST01';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_KEY_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const BASIC = `Basic ${Buffer.from(`${APP_KEY}:${APP_SECRET}`).toString('base64')}`;
const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);
const MINUTE = 60_000;

let clock = T0;

function client(overrides: Partial<UaefeedClientConfig> = {}) {
  return createUaefeedClient({
    baseUrl: BASE_URL,
    appKey: APP_KEY,
    appSecret: APP_SECRET,
    privateKeyPem: PRIVATE_KEY_PEM,
    instCode: INST_CODE,
    userId: 'inst-user-1',
    timeoutMs: 1_000,
    retryLimit: 2,
    backoffMs: 5,
    now: () => clock,
    ...overrides,
  });
}

const OK = { status: 'SUCCESS', reason: null, rejectCode: null };

function tokenAnswer(n: number, accessTtlMs = 15 * MINUTE, refreshTtlMs = 24 * 60 * MINUTE) {
  return {
    ...OK,
    accessToken: `access-token-${n}-secret`,
    refreshToken: `refresh-token-${n}-secret`,
    accessTokenExpiresAt: clock + accessTtlMs,
    refreshTokenExpiresAt: clock + refreshTtlMs,
    tokenType: 'Bearer',
  };
}

/** The token exchange by assertion, answered with token `n`. */
function expectTokenExchange(n: number, accessTtlMs?: number) {
  return nock(BASE_URL, { reqheaders: { authorization: BASIC } })
    .post('/trade/auth/token', (body: { assertion?: unknown }) => typeof body.assertion === 'string')
    .reply(200, () => tokenAnswer(n, accessTtlMs));
}

function summaryBody(balance = '100.5') {
  return `{"status":"SUCCESS","reason":null,"rejectCode":null,"list":[{"accountNumber":"7000001-AED","currency":"AED","balance":${balance},"blockedAmount":0,"buyingPower":${balance},"cashForWithdrawal":${balance},"lastUpdatedDate":"2026-01-14","unsettledSales":0}]}`;
}

/** `GET /v1.2/cash/summary` with bearer token `n`. */
function expectSummary(n: number, times = 1) {
  return nock(BASE_URL, { reqheaders: { authorization: `Bearer access-token-${n}-secret` } })
    .get('/v1.2/cash/summary')
    .query({ customerNumber: '7000001' })
    .times(times)
    .reply(200, summaryBody(), { 'content-type': 'application/json' });
}

function transfer(id: number, amount: string) {
  return `{"transferId":"T-${id}","cashAccountNumber":"7000001-AED","type":"DEPOSIT","amount":${amount},"currency":"AED","status":"COMPLETED","valueDate":"2026-01-0${(id % 9) + 1}"}`;
}

function transfersPage(pageNumber: number, records: string[], hasNextPage: boolean, totalRecords = 5) {
  return `{"status":"SUCCESS","reason":null,"rejectCode":null,"pageNumber":${pageNumber},"pageSize":2,"totalRecords":${totalRecords},"hasNextPage":${hasNextPage},"list":[${records.join(',')}]}`;
}

describe('uaefeed client', () => {
  before(() => nock.disableNetConnect());
  beforeEach(() => {
    clock = T0;
    nock.disableNetConnect();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every mocked answer was requested').to.deep.equal([]);
  });
  after(() => nock.enableNetConnect());

  describe('auth', () => {
    it('exchanges a signed RS256 assertion (iss = app key, instCode, userId, 24 h) with Basic auth, then calls with the bearer token', async () => {
      let assertion = '';
      nock(BASE_URL, { reqheaders: { authorization: BASIC, 'content-type': /application\/json/ } })
        .post('/trade/auth/token', (body: { assertion: string }) => {
          assertion = body.assertion;
          return true;
        })
        .reply(200, () => tokenAnswer(1));
      expectSummary(1);
      const summary = await client().getCashSummary('7000001');
      expect(summary[0]?.balance).to.equal('100.5');

      expect(decodeProtectedHeader(assertion)).to.include({ alg: 'RS256' });
      const { payload } = await jwtVerify(assertion, await importSPKI(PUBLIC_KEY_PEM, 'RS256'), {
        algorithms: ['RS256'],
        issuer: APP_KEY,
        currentDate: new Date(clock),
      });
      expect(payload).to.include({ instCode: INST_CODE, userId: 'inst-user-1', iat: T0 / 1000 });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).to.equal(24 * 60 * 60);
    });

    it('uses one token for every customer and call until it nears expiry', async () => {
      expectTokenExchange(1);
      expectSummary(1);
      expectSummary(1);
      const feed = client();
      await feed.getCashSummary('7000001');
      clock += 10 * MINUTE;
      await feed.getCashSummary('7000001');
    });

    it('refreshes before expiry with the refresh token, and then uses the new access token', async () => {
      expectTokenExchange(1);
      expectSummary(1);
      nock(BASE_URL, { reqheaders: { authorization: BASIC } })
        .post('/trade/auth/token/refresh', { refreshToken: 'refresh-token-1-secret' })
        .reply(200, () => tokenAnswer(2));
      expectSummary(2);
      const feed = client({ refreshMarginMs: MINUTE });
      await feed.getCashSummary('7000001');
      // 15 min token: at 14 min 30 s it is within the 1 min margin, not yet expired.
      clock += 14 * MINUTE + 30_000;
      await feed.getCashSummary('7000001');
    });

    it('spends each refresh token once: the next renewal sends the new one, and concurrent calls share one refresh', async () => {
      const refreshed: string[] = [];
      expectTokenExchange(1);
      expectSummary(1);
      nock(BASE_URL)
        .post('/trade/auth/token/refresh')
        .times(2)
        .reply(200, (_uri, body) => {
          const { refreshToken } = body as { refreshToken: string };
          refreshed.push(refreshToken);
          return tokenAnswer(refreshed.length + 1);
        });
      expectSummary(2, 2);
      expectSummary(3);
      const feed = client();
      await feed.getCashSummary('7000001');
      clock += 15 * MINUTE;
      await Promise.all([feed.getCashSummary('7000001'), feed.getCashSummary('7000001')]);
      clock += 15 * MINUTE;
      await feed.getCashSummary('7000001');
      expect(refreshed).to.deep.equal(['refresh-token-1-secret', 'refresh-token-2-secret']);
    });

    it('falls back to a new assertion when the refresh token is refused', async () => {
      expectTokenExchange(1);
      expectSummary(1);
      nock(BASE_URL)
        .post('/trade/auth/token/refresh')
        .reply(401, { status: 'FAILED', reason: 'refresh token already used', rejectCode: 'INVALID_REFRESH_TOKEN' });
      expectTokenExchange(2);
      expectSummary(2);
      const feed = client();
      await feed.getCashSummary('7000001');
      clock += 16 * MINUTE;
      await feed.getCashSummary('7000001');
    });

    it('renews the token and tries once more when a call answers 401 (expired token)', async () => {
      expectTokenExchange(1);
      nock(BASE_URL)
        .get('/v1.2/cash/summary')
        .query(true)
        .reply(401, { status: 'FAILED', reason: 'access token expired', rejectCode: 'TOKEN_EXPIRED' });
      nock(BASE_URL)
        .post('/trade/auth/token/refresh', { refreshToken: 'refresh-token-1-secret' })
        .reply(200, () => tokenAnswer(2));
      expectSummary(2);
      expect(await client().getCashSummary('7000001')).to.have.length(1);
    });

    it('fails with UpstreamError 401 and the rejectCode when the renewed token is refused too', async () => {
      expectTokenExchange(1);
      nock(BASE_URL)
        .get('/v1.2/cash/summary')
        .query(true)
        .times(2)
        .reply(401, { status: 'FAILED', reason: 'access token expired', rejectCode: 'TOKEN_EXPIRED' });
      nock(BASE_URL)
        .post('/trade/auth/token/refresh')
        .reply(200, () => tokenAnswer(2));
      const error = await rejectionOf(client().getCashSummary('7000001'));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 401, path: 'v1.2/cash/summary' });
      expect((error as UpstreamError).detail).to.deep.equal({
        rejectCode: 'TOKEN_EXPIRED',
        reason: 'access token expired',
      });
    });

    it('fails with UpstreamError 401 when the token endpoint refuses the app credentials', async () => {
      nock(BASE_URL)
        .post('/trade/auth/token')
        .reply(401, { status: 'FAILED', reason: 'bad client', rejectCode: 'INVALID_CLIENT' });
      const error = await rejectionOf(client().getCashSummary('7000001'));
      expect(error)
        .to.be.instanceOf(UpstreamError)
        .and.include({ status: 401, method: 'POST', path: 'trade/auth/token', attempts: 1 });
    });

    it('refuses a private key that is not a PEM RSA key, without echoing it', () => {
      expect(() => client({ privateKeyPem: 'not-a-key-secret' })).to.throw(
        'uaefeed: privateKeyPem is not a PEM RSA private key',
      );
      try {
        client({ privateKeyPem: 'not-a-key-secret' });
      } catch (error) {
        expect(inspect(error)).to.not.include('not-a-key-secret');
      }
    });
  });

  describe('the envelope', () => {
    it('turns HTTP 200 with status FAILED into a typed refusal, not retried', async () => {
      expectTokenExchange(1);
      nock(BASE_URL)
        .get('/v1.2/cash/summary')
        .query(true)
        .once()
        .reply(200, { status: 'FAILED', reason: 'no such customer', rejectCode: 'CUSTOMER_NOT_FOUND' });
      const error = await rejectionOf(client().getCashSummary('9999999'));
      expect(error).to.be.instanceOf(UaefeedRejectedError).and.include({
        rejectCode: 'CUSTOMER_NOT_FOUND',
        reason: 'no such customer',
        path: 'v1.2/cash/summary',
      });
      expect(error.message).to.equal('uaefeed GET /v1.2/cash/summary refused: CUSTOMER_NOT_FOUND (no such customer)');
    });

    it('refuses an answer without a status as a payload error naming `status`', async () => {
      expectTokenExchange(1);
      nock(BASE_URL).get('/v1.2/cash/summary').query(true).reply(200, { list: [] });
      const error = await rejectionOf(client().getCashSummary('7000001'));
      expect(error).to.be.instanceOf(UpstreamPayloadError).and.include({ upstream: 'uaefeed', field: 'status' });
    });

    it('turns a FAILED token answer into a typed refusal', async () => {
      nock(BASE_URL)
        .post('/trade/auth/token')
        .reply(200, { status: 'FAILED', reason: 'assertion expired', rejectCode: 'INVALID_ASSERTION' });
      const error = await rejectionOf(client().getCashSummary('7000001'));
      expect(error)
        .to.be.instanceOf(UaefeedRejectedError)
        .and.include({ rejectCode: 'INVALID_ASSERTION', path: 'trade/auth/token' });
    });
  });

  describe('retries', () => {
    it('retries a 5xx and returns the answer that follows', async () => {
      expectTokenExchange(1);
      nock(BASE_URL).get('/v1.2/cash/summary').query(true).reply(503);
      expectSummary(1);
      expect(await client().getCashSummary('7000001')).to.have.length(1);
    });

    it('gives up after the retry limit with UpstreamError', async () => {
      expectTokenExchange(1);
      nock(BASE_URL).get('/v1.2/cash/summary').query(true).times(3).reply(500);
      const error = await rejectionOf(client().getCashSummary('7000001'));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ failure: 'http_status', status: 500, attempts: 3 });
    });

    it('retries a timeout, then fails with a timeout', async () => {
      expectTokenExchange(1);
      // The timeout covers the token exchange too: the file's usual 1 s, not a tight one a busy
      // machine's exchange could miss. The answer comes far later than any timeout.
      nock(BASE_URL).get('/v1.2/cash/summary').query(true).times(2).delay(30_000).reply(200, summaryBody());
      const error = await rejectionOf(client({ timeoutMs: 1_000, retryLimit: 1 }).getCashSummary('7000001'));
      expect(error)
        .to.be.instanceOf(UpstreamError)
        .and.include({ failure: 'timeout', attempts: 2, path: 'v1.2/cash/summary' });
    });

    it('retries the token exchange by assertion after a 5xx (it is safe to repeat)', async () => {
      nock(BASE_URL).post('/trade/auth/token').reply(502);
      expectTokenExchange(1);
      expectSummary(1);
      await client().getCashSummary('7000001');
    });

    it('does not retry a refused connection: timeouts and 5xx only', async () => {
      nock.enableNetConnect('127.0.0.1:1');
      const error = await rejectionOf(client({ baseUrl: 'http://127.0.0.1:1' }).getCashSummary('7000001'));
      expect(error)
        .to.be.instanceOf(UpstreamError)
        .and.include({ failure: 'network', code: 'ECONNREFUSED', attempts: 1 });
    });
  });

  describe('pagination', () => {
    it('follows the pages to the end', async () => {
      expectTokenExchange(1);
      const pages = [
        transfersPage(1, [transfer(1, '10'), transfer(2, '20')], true),
        transfersPage(2, [transfer(3, '30'), transfer(4, '40')], true),
        transfersPage(3, [transfer(5, '50')], false),
      ];
      pages.forEach((page, index) => {
        nock(BASE_URL)
          .get('/v1.2/cash/transfers')
          .query({
            customerNumber: '7000001',
            fromDate: '2026-01-01',
            toDate: '2026-01-31',
            pageNumber: String(index + 1),
            pageSize: '2',
          })
          .reply(200, page, { 'content-type': 'application/json' });
      });
      const transfers = await client({ pageSize: 2 }).listCashTransfers({
        customerNumber: '7000001',
        fromDate: '2026-01-01',
        toDate: '2026-01-31',
      });
      expect(transfers.map((t) => t.transferId)).to.deep.equal(['T-1', 'T-2', 'T-3', 'T-4', 'T-5']);
      expect(transfers[0]).to.deep.equal({
        transferId: 'T-1',
        cashAccountNumber: '7000001-AED',
        type: 'DEPOSIT',
        amount: '10',
        currency: 'AED',
        status: 'COMPLETED',
        valueDate: '2026-01-02',
      });
    });

    it(`stops at the page cap (${UAEFEED_PAGES_MAX} pages) with a payload error instead of looping or truncating`, async () => {
      expectTokenExchange(1);
      nock(BASE_URL)
        .get('/v1.2/cash/transfers')
        .query(true)
        .times(UAEFEED_PAGES_MAX)
        .reply(200, (uri) => {
          const pageNumber = Number(new URL(uri, BASE_URL).searchParams.get('pageNumber'));
          return transfersPage(pageNumber, [transfer(pageNumber, '1')], true, 1e6);
        });
      const error = await rejectionOf(client({ pageSize: 2 }).listCashTransfers({ customerNumber: '7000001' }));
      expect(error)
        .to.be.instanceOf(UpstreamPayloadError)
        .and.include({ field: 'hasNextPage', path: 'v1.2/cash/transfers' });
      expect(error.message).to.include('page cap');
    });
  });

  describe('validation', () => {
    it('names the field of a malformed record as a payload error', async () => {
      expectTokenExchange(1);
      const page = transfersPage(1, [transfer(1, '10'), transfer(2, '"twenty"')], false);
      nock(BASE_URL).get('/v1.2/cash/transfers').query(true).reply(200, page);
      const error = await rejectionOf(client().listCashTransfers({ customerNumber: '7000001' }));
      expect(error).to.be.instanceOf(UpstreamPayloadError).and.include({
        upstream: 'uaefeed',
        method: 'GET',
        path: 'v1.2/cash/transfers',
        field: 'list[1].amount',
      });
      expect(error.message).to.not.include('twenty');
    });

    it('refuses an amount sent as a string: uaefeed amounts are JSON numbers', async () => {
      expectTokenExchange(1);
      nock(BASE_URL)
        .get('/v1.2/cash/transfers')
        .query(true)
        .reply(200, transfersPage(1, [transfer(1, '"10.00"')], false));
      const error = await rejectionOf(client().listCashTransfers({ customerNumber: '7000001' }));
      expect(error).to.include({ field: 'list[0].amount' });
    });

    it('fails as a bad response when the body is not JSON', async () => {
      expectTokenExchange(1);
      nock(BASE_URL).get('/v1.2/cash/summary').query(true).reply(200, '<html>maintenance</html>');
      const error = await rejectionOf(client().getCashSummary('7000001'));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ failure: 'bad_response', path: 'v1.2/cash/summary' });
    });

    it('normalises statement dates YYYY/MM/DD to YYYY-MM-DD and returns the body as received', async () => {
      expectTokenExchange(1);
      const body = `{"status":"SUCCESS","reason":null,"rejectCode":null,"customerNumber":"7000001","month":1,"year":2026,"list":[{"cashAccountNumber":"7000001-AED","currency":"AED","tradeOpeningBalance":0,"settledOpeningBalance":0,"deposit":100.10,"withdraw":0,"buy":40.05,"sell":0,"other":0,"tradeClosingBalance":60.05,"settledClosingBalance":60.05,"list":[{"transactionDate":"2026/01/05","valueDate":"2026/01/05","description":"Deposit T-1","debit":0,"credit":100.10,"tradeBalance":100.10,"settledBalance":100.10},{"transactionDate":"2026/01/31","valueDate":"2026/01/31","description":"Buy 1 EMAAR","debit":40.05,"credit":0,"tradeBalance":60.05,"settledBalance":60.05}]}]}`;
      nock(BASE_URL)
        .get('/v1.2/statement/cash')
        .query({ month: '1', year: '2026', customerNumber: '7000001' })
        .reply(200, body);
      const { statement, raw } = await client().getCashStatement({ customerNumber: '7000001', year: 2026, month: 1 });
      expect(raw).to.equal(body);
      const account = statement.list[0];
      expect(account?.list.map((line) => line.transactionDate)).to.deep.equal(['2026-01-05', '2026-01-31']);
      expect(account).to.include({ deposit: '100.10', buy: '40.05', tradeClosingBalance: '60.05' });
    });

    it('refuses a date that is not on the calendar', async () => {
      expectTokenExchange(1);
      const body = `{"status":"SUCCESS","reason":null,"rejectCode":null,"list":[{"accountNumber":"7000001-01","securityType":"CS","list":[{"exchange":"DFM","list":[{"symbol":"EMAAR","totalHolding":10,"totalAmount":95.5,"list":[{"transactionDate":"2026/02/30","narration":"BUY","quantity":10,"amount":95.5}]}]}]}]}`;
      nock(BASE_URL).get('/v1.2/statement/positions').query(true).reply(200, body);
      const error = await rejectionOf(
        client().getHoldingsStatement({ customerNumber: '7000001', year: 2026, month: 2 }),
      );
      expect(error).to.include({ field: 'list[0].list[0].list[0].list[0].transactionDate' });
    });
  });

  describe('lossless numbers', () => {
    it('keeps every digit of 0.1 + 0.2-style decimals, 1e21-size numbers and 18-digit integers', async () => {
      expectTokenExchange(1);
      const amounts = [
        '0.1',
        '0.2',
        '0.30000000000000004',
        '1e21',
        '1.5E-7',
        '123456789012345678',
        '987654321987654321.123456789',
        '-0',
      ];
      const records = amounts.map((amount, i) => transfer(i, amount));
      nock(BASE_URL)
        .get('/v1.2/cash/transfers')
        .query(true)
        .reply(200, transfersPage(1, records, false));
      const transfers = await client().listCashTransfers({ customerNumber: '7000001' });
      expect(transfers.map((t) => t.amount)).to.deep.equal([
        '0.1',
        '0.2',
        '0.30000000000000004',
        '1000000000000000000000',
        '0.00000015',
        '123456789012345678',
        '987654321987654321.123456789',
        '0',
      ]);
      // What JSON.parse would have made of them.
      expect(String(JSON.parse('123456789012345678'))).to.not.equal('123456789012345678');
    });

    it('turns JSON number text into plain decimal strings exactly', () => {
      const cases: [string, string | null][] = [
        ['100.50', '100.50'],
        ['1e21', '1000000000000000000000'],
        ['1E+2', '100'],
        ['-2.5e3', '-2500'],
        ['12.345e-2', '0.12345'],
        ['0e10', '0'],
        ['-0.0e0', '0.0'],
        ['1e400', null],
        ['01', null],
        ['abc', null],
      ];
      for (const [text, decimal] of cases) expect(jsonNumberToDecimal(text), text).to.equal(decimal);
    });
  });

  it('never carries a credential or token in any error', async () => {
    const errors: unknown[] = [];
    const collect = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail('expected a rejection'),
        (error: unknown) => errors.push(error),
      );
    nock(BASE_URL)
      .post('/trade/auth/token')
      .reply(401, { status: 'FAILED', reason: 'bad client', rejectCode: 'INVALID_CLIENT' });
    await collect(client().getCashSummary('7000001'));
    expectTokenExchange(1);
    nock(BASE_URL)
      .get('/v1.2/cash/summary')
      .query(true)
      .times(2)
      .reply(401, { status: 'FAILED', reason: 'expired', rejectCode: 'TOKEN_EXPIRED' });
    nock(BASE_URL)
      .post('/trade/auth/token/refresh')
      .reply(200, () => tokenAnswer(2));
    const feed = client();
    await collect(feed.getCashSummary('7000001'));
    nock(BASE_URL).get('/v1.2/cash/summary').query(true).times(3).reply(503);
    await collect(feed.getCashSummary('7000001'));
    nock(BASE_URL)
      .get('/v1.2/cash/summary')
      .query(true)
      .reply(200, { status: 'FAILED', reason: 'no', rejectCode: 'CUSTOMER_NOT_FOUND' });
    await collect(feed.getCashSummary('7000001'));
    nock(BASE_URL)
      .get('/v1.2/cash/transfers')
      .query(true)
      .reply(200, transfersPage(1, [transfer(1, 'null')], false));
    await collect(feed.listCashTransfers({ customerNumber: '7000001' }));
    expect(errors).to.have.length(5);
    const secrets = [
      APP_KEY,
      APP_SECRET,
      BASIC.slice('Basic '.length),
      'secret',
      PRIVATE_KEY_PEM.split('\n')[1] ?? 'unused',
    ];
    for (const error of errors) {
      const renderings = [
        String(error),
        (error as Error).stack ?? '',
        inspect(error, { depth: 10, showHidden: true }),
        JSON.stringify(error),
      ];
      for (const rendering of renderings) {
        for (const secret of secrets) expect(rendering, rendering).to.not.include(secret);
      }
    }
  });

  it('is not created without a base URL (not configured)', () => {
    const config = { appKey: APP_KEY, appSecret: APP_SECRET, privateKeyPem: PRIVATE_KEY_PEM, instCode: INST_CODE };
    expect(createUaefeedClientIfConfigured({ ...config, baseUrl: undefined })).to.equal(null);
    expect(createUaefeedClientIfConfigured({ ...config, baseUrl: '' })).to.equal(null);
    expect(createUaefeedClientIfConfigured({ ...config, baseUrl: BASE_URL })?.upstream).to.equal('uaefeed');
  });
});
