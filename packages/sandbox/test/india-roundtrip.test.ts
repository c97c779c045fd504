import { expect } from 'chai';
import { RemitApiError, RemitNotFoundError, UsbrokerAuthError, UsbrokerNotFoundError } from '@ledger/upstream-clients';
import {
  dailyLedgerRows,
  newestFirst,
  remitCustomer,
  startSandbox,
  usbrokerBalance,
  usbrokerClosePricesCsv,
  usbrokerPositions,
  usbrokerQuotes,
  usbrokerStatement,
  type IndiaCustomerData,
  type Sandbox,
} from '../src/index.js';
import { PRIVATE_KEY_PEM, rejectionOf } from './helpers.js';
import {
  asClientOrder,
  asClientPayment,
  asClientQuote,
  asClientRow,
  asClientSettlement,
  remitClient,
  usbrokerClient,
} from './india-helpers.js';

describe('sandbox India round trip: the usbroker and remit clients read back exactly the generated data', () => {
  let sandbox: Sandbox;
  let all: IndiaCustomerData[];

  before(async () => {
    sandbox = await startSandbox({
      seed: 7,
      customers: 13,
      recordsPerCustomer: 16,
      startMonth: '2026-01',
      months: 3,
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM },
    });
    all = sandbox.data.india.all();
  });
  after(() => sandbox.close());

  it('serves the India customer registry with remit-style paging', async () => {
    const seen: unknown[] = [];
    for (let page: number | null = 1; page !== null;) {
      const answer = (await (
        await fetch(`${sandbox.urls.registry}/v1/india/customers?page=${page}&per_page=5`)
      ).json()) as { data: unknown[]; page_meta: { next: number | null; count: number } };
      expect(answer.page_meta.count).to.equal(13);
      seen.push(...answer.data);
      page = answer.page_meta.next;
    }
    expect(seen).to.deep.equal(sandbox.data.india.customers);
    const one = sandbox.data.india.customers[2]!;
    expect(Object.keys(one)).to.deep.equal([
      'customer_id',
      'name',
      'email',
      'pan',
      'remit_customer_id',
      'usbroker_account_no',
      'partner_id',
      'created_at',
    ]);
    expect(one.pan).to.match(/^[A-Z]{3}P[A-Z]\d{4}[A-Z]$/);
    expect(await (await fetch(`${sandbox.urls.registry}/v1/india/customers/${one.customer_id}`)).json()).to.deep.equal(
      one,
    );
    expect((await fetch(`${sandbox.urls.registry}/v1/india/customers/IND-999999`)).status).to.equal(404);
    expect((await fetch(`${sandbox.urls.registry}/v1/india/customers?per_page=101`)).status).to.equal(400);
  });

  describe('usbroker', () => {
    it('answers account, balance, positions and every order page by page (limit 3) to the empty page', async () => {
      const broker = usbrokerClient(sandbox);
      for (const data of all) {
        const account = data.account.account_no;
        expect(await broker.getAccount(account)).to.deep.equal(data.account);
        expect(await broker.getBalance(account)).to.deep.equal(usbrokerBalance(data, sandbox.data.period.to));
        expect(await broker.listPositions(account)).to.deep.equal(
          usbrokerPositions(sandbox.data.config, data, sandbox.data.period.to),
        );
        const paged = [];
        let after: string | undefined;
        for (;;) {
          const page = await broker.listOrdersPage(account, {
            limit: 3,
            ...(after === undefined ? {} : { afterId: after }),
          });
          if (page.length === 0) break;
          expect(page.length).to.be.at.most(3);
          paged.push(...page);
          after = page.at(-1)!.order_id;
        }
        expect(paged).to.deep.equal(data.orders);
        expect(await broker.listOrders(account, { status: 'filled' })).to.deep.equal(
          data.orders.filter((o) => o.status === 'filled'),
        );
      }
      expect(all.flatMap((d) => d.orders).map((o) => o.cost_type)).to.include.members([
        'quantity',
        'full_portfolio_cost',
      ]);
    });

    it('lists the funding wires firm-wide ascending, per account (none for an unknown one) and per direction, strictly after after_id', async () => {
      const broker = usbrokerClient(sandbox);
      const wires = all.flatMap((d) => d.wires).sort((a, b) => (a.transfer_id < b.transfer_id ? -1 : 1));
      expect(await broker.listWires()).to.deep.equal(wires);
      const page = await broker.listWiresPage({ afterId: wires[4]!.transfer_id, limit: 5 });
      expect(page).to.deep.equal(wires.slice(5, 10));
      const account = all[1]!.account.account_no;
      expect(await broker.listWires({ accountNo: account })).to.deep.equal(all[1]!.wires);
      expect(await broker.listWires({ accountNo: account, direction: 'IN' })).to.deep.equal(
        all[1]!.wires.filter((w) => w.direction === 'IN'),
      );
      expect(await broker.listWires({ accountNo: 'USB-NOPE' })).to.deep.equal([]);
      expect(await broker.listWires({ direction: 'OUT' })).to.deep.equal(wires.filter((w) => w.direction === 'OUT'));
      // Every settlement's wire arrives (the period's last ones after it): none is left pending.
      expect(new Set(wires.map((w) => w.status))).to.deep.equal(new Set(['completed', 'returned']));
      const tooMany = await fetch(`${sandbox.urls.usbroker}/v1/funding/wires?limit=101`, {
        headers: { authorization: `Bearer ${await token()}` },
      });
      expect(tooMany.status).to.equal(400);
    });

    it('answers the monthly statements and every day’s daily ledger as generated', async () => {
      const broker = usbrokerClient(sandbox);
      for (const data of all.slice(0, 4)) {
        for (const month of ['2025-12', '2026-01', '2026-02', '2026-03', '2026-04']) {
          expect(await broker.getMonthlyStatement(data.account.account_no, month)).to.deep.equal(
            usbrokerStatement(data, month),
          );
        }
      }
      const firm = sandbox.credentials.usbroker.firmId;
      const dates = [...new Set(all.flatMap((d) => d.rows.map((r) => r.report_date)))].sort();
      let rows = 0;
      for (const date of dates) {
        const got = await broker.getDailyLedger(date, firm);
        expect(got).to.deep.equal(dailyLedgerRows(all, date, firm).map(asClientRow));
        rows += got.length;
      }
      expect(rows).to.equal(all.reduce((sum, d) => sum + d.rows.length, 0));
      expect(await broker.getDailyLedger('2025-06-01', firm)).to.deep.equal([]);
      const raw = await (
        await fetch(`${sandbox.urls.usbroker}/v1/reports/daily-ledger?date=${dates[0]}&firm=${firm}`, {
          headers: { authorization: `Bearer ${await token()}` },
        })
      ).text();
      expect(raw.split('\r\n')[0]).to.match(/^report_date,firm_id,account_no,txn_no,row_code,/);
      expect(raw.endsWith('\r\n')).to.equal(true);
      expect(raw.replaceAll('\r\n', '')).to.not.include('\n');
      const error = await rejectionOf(broker.getDailyLedger(dates[0]!, 'NOFIRM'));
      expect(error).to.be.instanceOf(UsbrokerNotFoundError).and.include({ resource: 'firm', status: 404 });
    });

    it('previews an order’s fees and answers quotes of the symbols it knows', async () => {
      const broker = usbrokerClient(sandbox);
      const account = all[0]!.account.account_no;
      const sell = await broker.previewOrder({ account_no: account, symbol: 'AAPL', side: 'SELL', qty: '10' });
      expect(Object.keys(sell)).to.deep.equal(['est_commission', 'sec_fee', 'taf_fee', 'ifsca_fee']);
      expect(sell.taf_fee).to.equal('0.01');
      const buy = await broker.previewOrder({ account_no: account, symbol: 'AAPL', side: 'BUY', notional: '1000.00' });
      expect(buy).to.include({ est_commission: '1.00', sec_fee: '0.00', taf_fee: '0.00', ifsca_fee: '0.10' });
      expect(await broker.getQuotes(['AAPL', 'NOPE', 'SPY'])).to.deep.equal(
        usbrokerQuotes(sandbox.data.config, ['AAPL', 'SPY'], sandbox.data.period.to),
      );
    });

    it('its end-of-day file closes each weekday at the price its quotes give that day, in load-close-prices’ form', () => {
      // 2026-01-02 is a Friday: the weekend after it has no close.
      const lines = usbrokerClosePricesCsv(
        { seed: sandbox.data.config.seed, period: sandbox.data.period },
        '2026-01-02',
        '2026-01-05',
      )
        .trim()
        .split('\n');
      expect(lines[0]).to.equal('symbol,date,close');
      expect(lines.filter((l) => l.startsWith('AAPL,')).map((l) => l.split(',')[1])).to.deep.equal([
        '2026-01-02',
        '2026-01-05',
      ]);
      expect(lines).to.have.length(1 + 5 * 2);
      const [quote] = usbrokerQuotes(sandbox.data.config, ['NVDA'], '2026-01-05');
      expect(lines).to.include(`NVDA,2026-01-05,${quote!.last}`);
    });

    it('refuses a wrong client secret (401, UsbrokerAuthError) and an unknown account (404)', async () => {
      const wrong = usbrokerClient(sandbox, { apiSecret: 'wrong' });
      expect(await rejectionOf(wrong.getAccount(all[0]!.account.account_no)))
        .to.be.instanceOf(UsbrokerAuthError)
        .and.include({ status: 401 });
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'nobody',
        client_secret: sandbox.credentials.usbroker.apiSecret,
      });
      expect((await fetch(`${sandbox.urls.usbroker}/oauth2/token`, { method: 'POST', body: form })).status).to.equal(
        401,
      );
      const error = await rejectionOf(usbrokerClient(sandbox).getBalance('USB-999999'));
      expect(error).to.be.instanceOf(UsbrokerNotFoundError).and.include({ resource: 'account', status: 404 });
    });
  });

  describe('remit', () => {
    const remittances = () => all.flatMap((d) => d.remittances);

    it('lists every order newest first, page after page until next is null, and each one by id', async () => {
      const expected = newestFirst(remittances().map((r) => r.order));
      const client = remitClient(sandbox, { perPage: 7 });
      expect(await client.listOrders()).to.deep.equal(expected.map(asClientOrder));
      const seen: string[] = [];
      for (let page: number | null = 1; page !== null;) {
        const answer = (await (
          await fetch(`${sandbox.urls.remit}/api/v1/orders?page=${page}&per_page=9`, {
            headers: { authorization: `Bearer ${sandbox.credentials.remit.apiKey}` },
          })
        ).json()) as {
          data: { id: string }[];
          page_meta: { next: number | null; current: number; count: number };
        };
        expect(answer.page_meta.count).to.equal(expected.length);
        seen.push(...answer.data.map((o) => o.id));
        page = answer.page_meta.next;
      }
      expect(seen).to.deep.equal(expected.map((o) => o.id));
      const customer = sandbox.data.india.customers[3]!.remit_customer_id;
      expect(await client.listOrders({ customerId: customer, status: 'paid' })).to.deep.equal(
        expected.filter((o) => o.customer_id === customer && o.status === 'paid').map(asClientOrder),
      );
      const some = remittances()[5]!;
      expect(await client.getOrder(some.order.id)).to.deep.equal(asClientOrder(some.order));
      expect(await client.getQuote(some.quote.id)).to.deep.equal(asClientQuote(some.quote));
      expect(new Set(expected.map((o) => o.status))).to.deep.equal(
        new Set(['active', 'paid', 'failed', 'action_required', 'cancelled', 'under_review', 'expired']),
      );
    });

    it('filters by created_at, both bounds exclusive, and refuses per_page over 100 (400)', async () => {
      const expected = newestFirst(remittances().map((r) => r.order));
      const [newer, older] = [expected[3]!, expected[10]!];
      const got = await remitClient(sandbox).listOrders({ before: newer.created_at, after: older.created_at });
      expect(got.map((o) => o.id)).to.deep.equal(
        expected.filter((o) => o.created_at < newer.created_at && o.created_at > older.created_at).map((o) => o.id),
      );
      const response = await fetch(`${sandbox.urls.remit}/api/v1/orders?per_page=101`, {
        headers: { authorization: `Bearer ${sandbox.credentials.remit.apiKey}` },
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ error: 'invalid_request' });
    });

    it('lists payments by payin_id (/payment and its alias /payments), and answers settlements with and without UTR', async () => {
      const client = remitClient(sandbox);
      const paid = remittances().filter((r) => r.payment !== null);
      expect(await client.listPayments()).to.deep.equal(newestFirst(paid.map((r) => r.payment!)).map(asClientPayment));
      const one = paid[0]!;
      expect(await client.listPayments({ payinId: one.order.id })).to.deep.equal([asClientPayment(one.payment!)]);
      const alias = (await (
        await fetch(`${sandbox.urls.remit}/api/v1/payments?payin_id=${one.order.id}`, {
          headers: { authorization: `Bearer ${sandbox.credentials.remit.apiKey}` },
        })
      ).json()) as { data: unknown[] };
      expect(alias.data).to.deep.equal([one.payment]);
      expect(await client.getPayment(one.payment!.id)).to.deep.equal(asClientPayment(one.payment!));
      const settled = remittances().filter((r) => r.settlement !== null);
      for (const r of settled)
        expect(await client.getSettlement(r.settlement!.id)).to.deep.equal(asClientSettlement(r.settlement!));
      expect(settled.some((r) => r.settlement!.utr === null)).to.equal(true);
      expect(settled.some((r) => r.settlement!.utr !== null)).to.equal(true);
      expect(remittances().some((r) => r.order.purpose_code === null)).to.equal(true);
      expect(await rejectionOf(client.getOrder('order_nope'))).to.be.instanceOf(RemitNotFoundError);
    });

    it('lists refunds, customers with PANs, the merchant balance and the mid rate', async () => {
      const client = remitClient(sandbox);
      const refunds = remittances()
        .filter((r) => r.refund !== null)
        .map((r) => r.refund!);
      expect(refunds.length).to.be.above(0);
      expect(await client.listRefunds()).to.deep.equal(
        newestFirst(refunds).map((r) => ({ ...r, amount: (r.amount / 100).toFixed(2) })),
      );
      const customers = sandbox.data.india.customers.map(remitCustomer);
      expect(await client.listCustomers()).to.deep.equal(newestFirst(customers));
      expect(await client.getCustomer(customers[0]!.id)).to.deep.equal(customers[0]);
      expect((await client.getMidRate()).rate).to.match(/^0\.0\d{7}$/);
      const balances = await client.getBalances();
      expect(balances.available[0]!.currency).to.equal('INR');
      const wrong = remitClient(sandbox, { apiKey: 'nope' });
      expect(await rejectionOf(wrong.getBalances()))
        .to.be.instanceOf(RemitApiError)
        .and.include({ status: 401 });
    });
  });

  async function token(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sandbox.credentials.usbroker.apiKey,
      client_secret: sandbox.credentials.usbroker.apiSecret,
    });
    const answer = (await (
      await fetch(`${sandbox.urls.usbroker}/oauth2/token`, { method: 'POST', body: form })
    ).json()) as { access_token: string; expires_in: number };
    expect(answer.expires_in).to.equal(3600);
    return answer.access_token;
  }
});

describe('sandbox India: same seed, same answers; usbroker tokens expire', () => {
  it('serves the same remit orders and broker wires from two sandboxes started with the same seed', async () => {
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        startSandbox({ seed: 3, customers: 4, recordsPerCustomer: 8, uaefeed: { privateKeyPem: PRIVATE_KEY_PEM } }),
      ),
    );
    try {
      expect(await remitClient(a!).listOrders()).to.deep.equal(await remitClient(b!).listOrders());
      expect(await usbrokerClient(a!).listWires()).to.deep.equal(await usbrokerClient(b!).listWires());
      const firm = a!.credentials.usbroker.firmId;
      const date = a!.data.india.all()[0]!.rows[0]!.report_date;
      expect(await usbrokerClient(a!).getDailyLedger(date, firm)).to.deep.equal(
        await usbrokerClient(b!).getDailyLedger(date, firm),
      );
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  it('answers 401 token_expired past expires_in; the client asks for a new token before then and reads on', async () => {
    let clock = Date.parse('2026-03-01T00:00:00Z');
    const now = () => clock;
    const sandbox = await startSandbox({
      seed: 3,
      customers: 2,
      recordsPerCustomer: 6,
      now,
      usbroker: { tokenTtlSeconds: 600 },
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM },
    });
    try {
      const account = sandbox.data.india.customers[0]!.usbroker_account_no;
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sandbox.credentials.usbroker.apiKey,
        client_secret: sandbox.credentials.usbroker.apiSecret,
      });
      const { access_token: token, expires_in: ttl } = (await (
        await fetch(`${sandbox.urls.usbroker}/oauth2/token`, { method: 'POST', body: form })
      ).json()) as { access_token: string; expires_in: number };
      expect(ttl).to.equal(600);
      const get = () =>
        fetch(`${sandbox.urls.usbroker}/v1/accounts/${account}`, { headers: { authorization: `Bearer ${token}` } });
      expect((await get()).status).to.equal(200);
      clock += 600_000;
      const expired = await get();
      expect(expired.status).to.equal(401);
      expect(await expired.json()).to.include({ error: 'token_expired' });
      const client = usbrokerClient(sandbox, { now });
      await client.getAccount(account);
      clock += 590_000; // within the renewal margin: a new token is asked for
      expect(await client.getAccount(account)).to.include({ account_no: account });
    } finally {
      await sandbox.close();
    }
  });
});
