import { inspect } from 'node:util';
import { expect } from 'chai';
import nock from 'nock';
import {
  createCustodianClient,
  createCustodianClientIfConfigured,
  CUSTODIAN_PAGES_MAX,
  UpstreamError,
  UpstreamPayloadError,
  type CustodianClientConfig,
} from '../src/testing.js';
import { onlyMockedNetwork, rejectionOf } from './support.js';

const BASE_URL = 'http://custodian.test/api';
const API_KEY = 'cust-key-do-not-leak';
const AUTH = { reqheaders: { authorization: `Bearer ${API_KEY}` } };

function client(overrides: Partial<CustodianClientConfig> = {}) {
  return createCustodianClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    timeoutMs: 1_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

function cashIn(id: number, net = '100.00') {
  return {
    id: `CTX-${id}`,
    type: 'CASH_IN',
    symbol: null,
    qty: null,
    price: null,
    gross: net,
    fees: [],
    net,
    currency: 'AED',
    trade_date: '2026-01-05',
    settle_date: '2026-01-05',
  };
}

const HOLDINGS = {
  as_of: '2026-01-31',
  account: 'CUS-000001',
  currency: 'AED',
  positions: [{ symbol: 'EMAAR', isin: 'AEE000301011', qty: '10', avg_cost: '9.55', market_value: '98.00' }],
  cash: { balance: '1000.00', available: '1000.00' },
};

describe('custodian client', () => {
  onlyMockedNetwork();

  it('sends the bearer key and reads holdings as of a date', async () => {
    nock(BASE_URL, AUTH).get('/holdings').query({ account: 'CUS-000001', as_of: '2026-01-31' }).reply(200, HOLDINGS);
    expect(await client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' })).to.deep.equal(HOLDINGS);
  });

  it('follows next_page to the end of the transactions', async () => {
    const pages = [
      { data: [cashIn(1), cashIn(2)], page: 1, per_page: 2, total: 5, next_page: 2 },
      { data: [cashIn(3), cashIn(4)], page: 2, per_page: 2, total: 5, next_page: 3 },
      { data: [cashIn(5)], page: 3, per_page: 2, total: 5, next_page: null },
    ];
    for (const page of pages) {
      nock(BASE_URL, AUTH)
        .get('/transactions')
        .query({ account: 'CUS-000001', from: '2026-01-01', to: '2026-01-31', page: String(page.page), per_page: '2' })
        .reply(200, page);
    }
    const transactions = await client({ perPage: 2 }).listTransactions({
      account: 'CUS-000001',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(transactions.map((t) => t.id)).to.deep.equal(['CTX-1', 'CTX-2', 'CTX-3', 'CTX-4', 'CTX-5']);
  });

  it('lists accounts through the same paging', async () => {
    const account = { account: 'CUS-000001', name: 'A', currency: 'AED', status: 'active', opened_on: '2025-12-01' };
    nock(BASE_URL, AUTH)
      .get('/accounts')
      .query({ page: '1', per_page: '500' })
      .reply(200, { data: [account], page: 1, per_page: 500, total: 1, next_page: null });
    expect(await client().listAccounts()).to.deep.equal([account]);
  });

  it(`stops at the page cap (${CUSTODIAN_PAGES_MAX} pages) with a payload error`, async () => {
    nock(BASE_URL)
      .get('/transactions')
      .query(true)
      .times(CUSTODIAN_PAGES_MAX)
      .reply(200, (uri) => {
        const page = Number(new URL(uri, 'http://x').searchParams.get('page'));
        return { data: [cashIn(page)], page, per_page: 1, total: 1e6, next_page: page + 1 };
      });
    const error = await rejectionOf(client({ perPage: 1 }).listTransactions({ account: 'CUS-000001' }));
    expect(error).to.be.instanceOf(UpstreamPayloadError).and.include({ field: 'next_page', path: 'transactions' });
  });

  it('reads the monthly cash statement', async () => {
    const statement = {
      account: 'CUS-000001',
      month: '2026-01',
      currency: 'AED',
      opening_balance: '0.00',
      closing_balance: '100.00',
      lines: [
        {
          date: '2026-01-05',
          value_date: '2026-01-05',
          description: 'Cash in',
          debit: '0.00',
          credit: '100.00',
          balance: '100.00',
        },
      ],
    };
    nock(BASE_URL, AUTH)
      .get('/statements/cash')
      .query({ account: 'CUS-000001', month: '2026-01' })
      .reply(200, statement);
    expect(await client().getCashStatement({ account: 'CUS-000001', month: '2026-01' })).to.deep.equal(statement);
  });

  it('names the malformed field: a quantity sent as a number', async () => {
    const malformed = { ...HOLDINGS, positions: [{ ...HOLDINGS.positions[0], qty: 10 }] };
    nock(BASE_URL).get('/holdings').query(true).reply(200, malformed);
    const error = await rejectionOf(client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' }));
    expect(error)
      .to.be.instanceOf(UpstreamPayloadError)
      .and.include({ upstream: 'custodian', path: 'holdings', field: 'positions[0].qty' });
  });

  it('names the field of a malformed record in a page', async () => {
    nock(BASE_URL)
      .get('/transactions')
      .query(true)
      .reply(200, {
        data: [cashIn(1), { ...cashIn(2), trade_date: '2026/01/05' }],
        page: 1,
        per_page: 100,
        total: 2,
        next_page: null,
      });
    const error = await rejectionOf(client().listTransactions({ account: 'CUS-000001' }));
    expect(error).to.include({ field: 'data[1].trade_date' });
  });

  it('fails with UpstreamError 401 carrying the custodian error code', async () => {
    nock(BASE_URL)
      .get('/holdings')
      .query(true)
      .reply(401, { error: { code: 'unauthorized', message: 'API key expired' } });
    const error = await rejectionOf(client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' }));
    expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 401, attempts: 1 });
    expect((error as UpstreamError).detail).to.deep.equal({ code: 'unauthorized', message: 'API key expired' });
  });

  it('retries a 5xx and returns the answer that follows', async () => {
    nock(BASE_URL).get('/holdings').query(true).reply(500).get('/holdings').query(true).reply(200, HOLDINGS);
    expect(await client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' })).to.deep.equal(HOLDINGS);
  });

  it('gives up after the retry limit with UpstreamError', async () => {
    nock(BASE_URL)
      .get('/holdings')
      .query(true)
      .times(3)
      .reply(503, { error: { code: 'unavailable', message: 'down' } });
    const error = await rejectionOf(client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' }));
    expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 503, attempts: 3 });
  });

  it('fails with a timeout after retrying', async () => {
    nock(BASE_URL).get('/holdings').query(true).times(2).delay(300).reply(200, HOLDINGS);
    const error = await rejectionOf(
      client({ timeoutMs: 50, retryLimit: 1 }).getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' }),
    );
    expect(error).to.be.instanceOf(UpstreamError).and.include({ failure: 'timeout', attempts: 2 });
  });

  it('never carries the API key in an error', async () => {
    nock(BASE_URL)
      .get('/holdings')
      .query(true)
      .reply(401, { error: { code: 'unauthorized', message: 'bad key' } });
    nock(BASE_URL)
      .get('/holdings')
      .query(true)
      .reply(200, { ...HOLDINGS, cash: null });
    const errors = [
      await rejectionOf(client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' })),
      await rejectionOf(client().getHoldings({ account: 'CUS-000001', asOf: '2026-01-31' })),
    ];
    for (const error of errors) {
      for (const rendering of [
        String(error),
        error.stack ?? '',
        inspect(error, { depth: 10, showHidden: true }),
        JSON.stringify(error),
      ]) {
        expect(rendering).to.not.include(API_KEY);
      }
    }
  });

  it('is not created without a base URL (not configured)', () => {
    expect(createCustodianClientIfConfigured({ baseUrl: undefined, apiKey: API_KEY })).to.equal(null);
    expect(createCustodianClientIfConfigured({ baseUrl: BASE_URL, apiKey: API_KEY })?.upstream).to.equal('custodian');
  });
});
