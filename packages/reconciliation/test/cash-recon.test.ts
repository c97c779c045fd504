import { upsertCustomer } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  createCustodianClient,
  createUaefeedClient,
  NO_UPSTREAMS,
  type UpstreamClients,
} from '@ledger/upstream-clients';
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import nock from 'nock';
import { CHECKS, DEFAULT_RECON_SETTINGS, runReconciliation, type CheckOutcome } from '../src/index.js';
import { NO_VARIANCE, post } from './book.js';

const CUSTODIAN_URL = 'http://custodian.test';
const UAEFEED_URL = 'http://uaefeed.test';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** Clients that retry once, at once: the faults here are answered immediately. */
const RETRY = { timeoutMs: 2_000, retryLimit: 1, backoffMs: 5 };
const custodian = () => createCustodianClient({ baseUrl: CUSTODIAN_URL, apiKey: 'custodian-key', ...RETRY });
const uaefeed = () =>
  createUaefeedClient({
    baseUrl: UAEFEED_URL,
    appKey: 'app-key',
    appSecret: 'app-secret',
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    instCode: 'INST',
    ...RETRY,
  });
const UPSTREAMS: UpstreamClients = { ...NO_UPSTREAMS, custodian: custodian(), uaefeed: uaefeed() };

/** The custodian holding this AED cash per account (an account not listed answers 500). */
function fakeCustodian(cash: Record<string, string>): void {
  nock(CUSTODIAN_URL)
    .persist()
    .get('/holdings')
    .query(true)
    .reply((uri) => {
      const query = new URL(uri, CUSTODIAN_URL).searchParams;
      const balance = cash[query.get('account') ?? ''];
      if (balance === undefined) return [500, { error: { code: 'internal_error', message: 'down' } }];
      const asOf = query.get('as_of');
      return [
        200,
        {
          as_of: asOf,
          account: query.get('account'),
          currency: 'AED',
          positions: [],
          cash: { balance, available: balance },
        },
      ];
    });
}

/**
 * uaefeed's cash account summary per customer number, balances as JSON numbers (as uaefeed sends
 * them): `{AED: '367.25'}`; a customer not listed answers CUSTOMER_NOT_FOUND.
 */
function fakeUaefeed(summaries: Record<string, Record<string, string>>): void {
  const scope = nock(UAEFEED_URL).persist();
  scope.post('/trade/auth/token').reply(200, {
    status: 'SUCCESS',
    accessToken: 'access',
    refreshToken: 'refresh',
    accessTokenExpiresAt: Date.now() + 3_600_000,
    refreshTokenExpiresAt: Date.now() + 86_400_000,
    tokenType: 'Bearer',
  });
  scope
    .get('/v1.2/cash/summary')
    .query(true)
    .reply((uri) => {
      const number = new URL(uri, UAEFEED_URL).searchParams.get('customerNumber') ?? '';
      const summary = summaries[number];
      if (summary === undefined)
        return [200, '{"status":"FAILED","reason":"no such customer","rejectCode":"CUSTOMER_NOT_FOUND"}'];
      const accounts = Object.entries(summary).map(
        ([currency, balance]) =>
          `{"accountNumber":"${number}-${currency}","currency":"${currency}","balance":${balance},"blockedAmount":0,` +
          `"buyingPower":${balance},"cashForWithdrawal":${balance},"lastUpdatedDate":"2026/06/30","unsettledSales":0}`,
      );
      return [200, `{"status":"SUCCESS","reason":null,"rejectCode":null,"list":[${accounts.join(',')}]}`];
    });
}

describe('category C checks: UAE wallet balances against the upstreams’ (custodian_cash_recon, uaefeed_cash_recon)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(() => {
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
  });
  after(() => nock.enableNetConnect());
  beforeEach(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    await upsertCustomer(t.db, 'UAE-1', {
      references: { custodian_account: 'CUST-1', uaefeed_customer_number: 'UF-1' },
    });
    await upsertCustomer(t.db, 'UAE-2', {
      references: { custodian_account: 'CUST-2', uaefeed_customer_number: 'UF-2' },
    });
    // UAE-1 paid in AED 367.25 well over a year ago, and USD 100.00; UAE-2 nothing.
    await post(t.db, {
      txn_type: 'deposit',
      customer_id: 'UAE-1',
      source: 'uaefeed',
      source_txn_id: 'TR-1',
      txn_date: '2025-03-10',
      amount_usd: '100.00',
      original_currency: 'AED',
      original_amount: '367.25',
      metadata: { cash_movement: '367.25' },
    });
    await post(t.db, {
      txn_type: 'deposit',
      customer_id: 'UAE-1',
      source: 'uaefeed',
      source_txn_id: 'TR-2',
      txn_date: '2025-03-11',
      amount_usd: '100.00',
      metadata: { cash_movement: '100.00' },
    });
  });
  afterEach(async () => {
    nock.cleanAll();
    await t?.drop();
  });

  const outcome = async (name: string, upstreams: UpstreamClients = UPSTREAMS): Promise<CheckOutcome> => {
    const run = await runReconciliation(
      { db: t.runtime!.db, book: 'ENTITY_UAE', settings: DEFAULT_RECON_SETTINGS, upstreams },
      { checks: CHECKS.filter((c) => c.name === name) },
    );
    const result = run.results[0]!;
    return {
      status: result.status,
      metrics: result.metrics,
      variances: run.metadata.variances.map(({ check_name: _n, ...v }) => v),
    };
  };
  const today = () => new Date().toISOString().slice(0, 10);

  it('neither upstream configured › each warns naming the setting, never fail', async () => {
    expect(await outcome('custodian_cash_recon', NO_UPSTREAMS)).to.deep.include({
      status: 'warn',
      metrics: { customers: 2, reason: 'the custodian is not configured on this book (CUSTODIAN_BASE_URL unset)' },
    });
    expect(await outcome('uaefeed_cash_recon', NO_UPSTREAMS)).to.deep.include({
      status: 'warn',
      metrics: { customers: 2, reason: 'uaefeed is not configured on this book (UAEFEED_BASE_URL unset)' },
    });
  });

  it('the upstreams hold what the wallets do, in every currency › ok, no variance', async () => {
    fakeCustodian({ 'CUST-1': '367.25', 'CUST-2': '0.00' });
    fakeUaefeed({ 'UF-1': { AED: '367.25', USD: '100.00' }, 'UF-2': { AED: '0', USD: '0' } });
    expect(await outcome('custodian_cash_recon')).to.deep.equal({
      status: 'ok',
      metrics: { customers: 2, as_of: today(), unreachable: 0, cash_differs: 0, variances: 0 },
      variances: [],
    });
    expect(await outcome('uaefeed_cash_recon')).to.deep.equal({
      status: 'ok',
      metrics: { customers: 2, unreachable: 0, cash_differs: 0, variances: 0 },
      variances: [],
    });
  });

  it('an AED deposit posted twice a year ago › both warn naming the customer, the AED wallet and both figures', async () => {
    await post(t.db, {
      txn_type: 'deposit',
      customer_id: 'UAE-1',
      source: 'uaefeed',
      source_txn_id: 'TR-1-again',
      txn_date: '2025-03-10',
      amount_usd: '100.00',
      original_currency: 'AED',
      original_amount: '367.25',
      metadata: { cash_movement: '367.25' },
    });
    fakeCustodian({ 'CUST-1': '367.25', 'CUST-2': '0.00' });
    fakeUaefeed({ 'UF-1': { AED: '367.25', USD: '100.00' }, 'UF-2': { AED: '0', USD: '0' } });
    const twice = {
      ...NO_VARIANCE,
      customer_id: 'UAE-1',
      account_code: '2020',
      expected: '734.50',
      actual: '367.25',
      difference: '-367.25',
    };
    expect(await outcome('custodian_cash_recon')).to.deep.equal({
      status: 'warn',
      metrics: { customers: 2, as_of: today(), unreachable: 0, cash_differs: 1, variances: 1 },
      variances: [
        { ...twice, detail: { problem: 'cash_balance_differs', currency: 'AED', account: 'CUST-1', as_of: today() } },
      ],
    });
    expect(await outcome('uaefeed_cash_recon')).to.deep.equal({
      status: 'warn',
      metrics: { customers: 2, unreachable: 0, cash_differs: 1, variances: 1 },
      variances: [
        {
          ...twice,
          detail: {
            problem: 'cash_balance_differs',
            currency: 'AED',
            customer_number: 'UF-1',
            cash_accounts: ['UF-1-AED', 'UF-1-USD'],
          },
        },
      ],
    });
  });

  it('USD off by a cent, a currency the book keeps no wallet in, and a customer the upstream fails for › warn naming each', async () => {
    fakeUaefeed({ 'UF-1': { AED: '367.25', USD: '100.01', EUR: '5.00' } });
    const result = await outcome('uaefeed_cash_recon');
    expect(result.status).to.equal('warn');
    expect(result.metrics).to.deep.equal({ customers: 2, unreachable: 1, cash_differs: 2, variances: 3 });
    const detail = {
      problem: 'cash_balance_differs',
      customer_number: 'UF-1',
      cash_accounts: ['UF-1-AED', 'UF-1-USD', 'UF-1-EUR'],
    };
    expect(result.variances.slice(0, 2)).to.deep.equal([
      {
        ...NO_VARIANCE,
        customer_id: 'UAE-1',
        expected: '0.00',
        actual: '5.00',
        difference: '5.00',
        detail: { ...detail, currency: 'EUR' },
      },
      {
        ...NO_VARIANCE,
        customer_id: 'UAE-1',
        account_code: '2010',
        expected: '100.00',
        actual: '100.01',
        difference: '0.01',
        detail: { ...detail, currency: 'USD' },
      },
    ]);
    expect(result.variances[2]).to.deep.include({ customer_id: 'UAE-2' });
    expect(result.variances[2]!.detail).to.include({ problem: 'uaefeed_unreachable', customer_number: 'UF-2' });
    expect(String(result.variances[2]!.detail.error)).to.match(/CUSTOMER_NOT_FOUND|no such customer/);
  });

  it('the custodian down for one customer › warn naming the customer and why; the other is still compared', async () => {
    fakeCustodian({ 'CUST-1': '367.25' });
    const result = await outcome('custodian_cash_recon');
    expect(result.status).to.equal('warn');
    expect(result.metrics).to.include({ unreachable: 1, cash_differs: 0 });
    expect(result.variances).to.have.length(1);
    expect(result.variances[0]).to.deep.include({ customer_id: 'UAE-2' });
    expect(result.variances[0]!.detail).to.include({
      problem: 'custodian_unreachable',
      account: 'CUST-2',
      as_of: today(),
    });
  });
});
