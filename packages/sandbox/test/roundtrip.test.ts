import { expect } from 'chai';
import { UaefeedRejectedError, UpstreamError } from '@ledger/upstream-clients';
import {
  custodianAccount,
  custodianCashStatement,
  custodianHoldings,
  custodianTransactions,
  startSandbox,
  uaefeedCashStatement,
  uaefeedCashSummary,
  uaefeedHoldingsStatement,
  type RegistryCustomer,
  type Sandbox,
} from '../src/index.js';
import { custodianClient, dashDates, PRIVATE_KEY_PEM, rejectionOf, uaefeedClient } from './helpers.js';

describe('sandbox round trip: the clients read back exactly the generated data', () => {
  let sandbox: Sandbox;
  let customers: readonly RegistryCustomer[];

  before(async () => {
    sandbox = await startSandbox({
      seed: 7,
      customers: 6,
      recordsPerCustomer: 40,
      startMonth: '2026-01',
      months: 3,
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM },
    });
    customers = sandbox.data.customers;
  });
  after(() => sandbox.close());

  it('serves the customer registry with remit-style paging', async () => {
    const seen: unknown[] = [];
    for (let page: number | null = 1; page !== null;) {
      const answer = (await (
        await fetch(`${sandbox.urls.registry}/v1/uae/customers?page=${page}&per_page=4`)
      ).json()) as {
        data: unknown[];
        page_meta: { next: number | null; count: number; pages: number };
      };
      seen.push(...answer.data);
      expect(answer.page_meta).to.include({ count: 6, pages: 2 });
      page = answer.page_meta.next;
    }
    expect(seen).to.deep.equal(customers);
    const one = await fetch(`${sandbox.urls.registry}/v1/uae/customers/${customers[1]!.customer_id}`);
    expect(await one.json()).to.deep.equal(customers[1]);
    expect((await fetch(`${sandbox.urls.registry}/v1/uae/customers/UAE-999999`)).status).to.equal(404);
    expect((await fetch(`${sandbox.urls.registry}/v1/uae/customers?per_page=101`)).status).to.equal(400);
  });

  describe('uaefeed', () => {
    it('lists every cash transfer and order of each customer, page after page', async () => {
      const feed = uaefeedClient(sandbox, { pageSize: 7 });
      for (const customer of customers) {
        const data = sandbox.data.dataOf(customer);
        const number = customer.uaefeed_customer_number;
        expect(await feed.listCashTransfers({ customerNumber: number })).to.deep.equal(data.transfers);
        expect(await feed.listOrders({ customerNumber: number })).to.deep.equal(data.orders);
      }
    });

    it('filters lists by date, both ends inclusive', async () => {
      const customer = customers[0]!;
      const data = sandbox.data.dataOf(customer);
      const transfers = await uaefeedClient(sandbox).listCashTransfers({
        customerNumber: customer.uaefeed_customer_number,
        fromDate: '2026-02-01',
        toDate: '2026-02-28',
      });
      expect(transfers).to.deep.equal(
        data.transfers.filter((t) => t.valueDate >= '2026-02-01' && t.valueDate <= '2026-02-28'),
      );
    });

    it('answers the cash summary, the monthly cash statement and the holdings statement as generated', async () => {
      const feed = uaefeedClient(sandbox);
      for (const customer of customers.slice(0, 3)) {
        const data = sandbox.data.dataOf(customer);
        const number = customer.uaefeed_customer_number;
        expect(await feed.getCashSummary(number)).to.deep.equal(uaefeedCashSummary(data, sandbox.data.period.to));
        for (const month of [1, 2, 3]) {
          const cash = await feed.getCashStatement({ customerNumber: number, year: 2026, month });
          expect(cash.statement).to.deep.equal(dashDates(uaefeedCashStatement(data, 2026, month)));
          expect(cash.raw).to.match(/"transactionDate":"\d{4}\/\d{2}\/\d{2}"/);
          const holdings = await feed.getHoldingsStatement({ customerNumber: number, year: 2026, month });
          expect(holdings.statement).to.deep.equal(
            dashDates(uaefeedHoldingsStatement(sandbox.data.config, data, 2026, month)),
          );
        }
      }
    });

    it('writes amounts as JSON numbers, not strings', async () => {
      const customer = customers[0]!;
      const { raw } = await uaefeedClient(sandbox).getCashStatement({
        customerNumber: customer.uaefeed_customer_number,
        year: 2026,
        month: 1,
      });
      expect(raw).to.match(/"tradeOpeningBalance":0\.00,/);
      expect(raw).to.match(/"credit":\d+\.\d{2},/);
    });

    it('refuses an unknown customer with status FAILED, CUSTOMER_NOT_FOUND', async () => {
      const error = await rejectionOf(uaefeedClient(sandbox).getCashSummary('1234567'));
      expect(error).to.be.instanceOf(UaefeedRejectedError).and.include({ rejectCode: 'CUSTOMER_NOT_FOUND' });
    });

    it('refuses an assertion signed with another key (401 INVALID_ASSERTION) and a wrong app secret (401 INVALID_CLIENT)', async () => {
      const { generateKeyPairSync } = await import('node:crypto');
      const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const badKey = await rejectionOf(
        uaefeedClient(sandbox, { privateKeyPem: otherKey }).getCashSummary(customers[0]!.uaefeed_customer_number),
      );
      expect(badKey).to.be.instanceOf(UpstreamError).and.include({ status: 401, path: 'trade/auth/token' });
      expect((badKey as UpstreamError).detail).to.include({ rejectCode: 'INVALID_ASSERTION' });
      const badSecret = await rejectionOf(
        uaefeedClient(sandbox, { appSecret: 'wrong' }).getCashSummary(customers[0]!.uaefeed_customer_number),
      );
      expect((badSecret as UpstreamError).detail).to.include({ rejectCode: 'INVALID_CLIENT' });
    });
  });

  it('serves the same records from another sandbox started with the same seed', async () => {
    const twin = await startSandbox({ ...sandbox.data.config, uaefeed: { privateKeyPem: PRIVATE_KEY_PEM } });
    try {
      const customer = customers[2]!;
      const [ours, theirs] = await Promise.all(
        [sandbox, twin].map((s) => uaefeedClient(s).listOrders({ customerNumber: customer.uaefeed_customer_number })),
      );
      expect(theirs).to.deep.equal(ours);
      expect(await custodianClient(twin).listAccounts()).to.deep.equal(await custodianClient(sandbox).listAccounts());
    } finally {
      await twin.close();
    }
  });

  describe('custodian', () => {
    it('lists the accounts, each customer’s transactions page after page, and answers holdings and cash statements as generated', async () => {
      const custodian = custodianClient(sandbox, { perPage: 5 });
      expect(await custodian.listAccounts()).to.deep.equal(
        customers.map((customer) => custodianAccount({ customer }, sandbox.data.period.from)),
      );
      for (const customer of customers) {
        const data = sandbox.data.dataOf(customer);
        const account = customer.custodian_account;
        expect(await custodian.listTransactions({ account })).to.deep.equal(
          custodianTransactions(sandbox.data.config, data),
        );
        expect(await custodian.getHoldings({ account, asOf: '2026-02-15' })).to.deep.equal(
          custodianHoldings(sandbox.data.config, data, '2026-02-15'),
        );
        expect(await custodian.getCashStatement({ account, month: '2026-03' })).to.deep.equal(
          custodianCashStatement(data, '2026-03'),
        );
      }
    });

    it('answers an unknown account 404 account_not_found, and a wrong key 401', async () => {
      const notFound = await rejectionOf(
        custodianClient(sandbox).getHoldings({ account: 'CUS-999999', asOf: '2026-01-31' }),
      );
      expect(notFound).to.be.instanceOf(UpstreamError).and.include({ status: 404 });
      expect((notFound as UpstreamError).detail).to.include({ code: 'account_not_found' });
      const wrongKey = await rejectionOf(custodianClient(sandbox, { apiKey: 'nope' }).listAccounts());
      expect(wrongKey).to.include({ status: 401 });
    });
  });
});

describe('sandbox tokens', () => {
  let sandbox: Sandbox;
  let clock = Date.UTC(2026, 6, 1);
  const now = () => clock;

  before(async () => {
    sandbox = await startSandbox({
      seed: 3,
      customers: 1,
      recordsPerCustomer: 5,
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM, accessTokenTtlMs: 60_000 },
      now,
    });
  });
  after(() => sandbox.close());

  it('expires access tokens; the client refreshes before expiry and reads on', async () => {
    const feed = uaefeedClient(sandbox, { now });
    const number = sandbox.data.customers[0]!.uaefeed_customer_number;
    await feed.getCashSummary(number);
    for (let i = 0; i < 5; i++) {
      clock += 55_000;
      expect(await feed.getCashSummary(number)).to.have.length(2);
    }
  });

  it('expires an access token at its time, and refuses a spent refresh token (single use)', async () => {
    const basic = `Basic ${Buffer.from('sandbox-app-key:sandbox-app-secret').toString('base64')}`;
    const { SignJWT } = await import('jose');
    const { createPrivateKey } = await import('node:crypto');
    const seconds = Math.floor(clock / 1000);
    const assertion = await new SignJWT({ instCode: 'SANDBOX', userId: 'u1' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('sandbox-app-key')
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 3600)
      .sign(createPrivateKey(PRIVATE_KEY_PEM));
    const post = (path: string, body: unknown) =>
      fetch(`${sandbox.urls.uaefeed}${path}`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const token = (await (await post('/trade/auth/token', { assertion })).json()) as {
      status: string;
      refreshToken: string;
      accessToken: string;
    };
    expect(token.status).to.equal('SUCCESS');
    const summary = () =>
      fetch(
        `${sandbox.urls.uaefeed}/v1.2/cash/summary?customerNumber=${sandbox.data.customers[0]!.uaefeed_customer_number}`,
        {
          headers: { authorization: `Bearer ${token.accessToken}` },
        },
      );
    expect((await summary()).status).to.equal(200);
    clock += 60_000;
    const expired = await summary();
    expect(expired.status).to.equal(401);
    expect(await expired.json()).to.include({ rejectCode: 'TOKEN_EXPIRED' });
    const first = await post('/trade/auth/token/refresh', { refreshToken: token.refreshToken });
    expect(first.status).to.equal(200);
    const second = await post('/trade/auth/token/refresh', { refreshToken: token.refreshToken });
    expect(second.status).to.equal(401);
    expect(await second.json()).to.include({ status: 'FAILED', rejectCode: 'INVALID_REFRESH_TOKEN' });
  });
});
