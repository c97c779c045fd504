import { Decimal, draftFromEntry, FeeSchedule, previousMonth } from '@ledger/core/posting';
import { postEntry, recordStockSplits, recost, upsertCustomer } from '@ledger/core/store';
import { randomUUID } from 'node:crypto';
import {
  createCustodianClient,
  createUsbrokerClient,
  NO_UPSTREAMS,
  type UpstreamClients,
} from '@ledger/upstream-clients';
import { expect } from 'chai';
import nock from 'nock';
import { CHECKS, DEFAULT_RECON_SETTINGS, runReconciliation, type CheckOutcome } from '../src/index.js';
import { NO_VARIANCE, post } from './book.js';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';

const BROKER_URL = 'http://usbroker.test';
/** A client that retries once, at once: the faults here are answered immediately. */
const broker = () =>
  createUsbrokerClient({
    baseUrl: BROKER_URL,
    apiKey: 'sandbox-usbroker-client',
    apiSecret: 'sandbox-usbroker-secret',
    timeoutMs: 2_000,
    retryLimit: 1,
    backoffMs: 5,
  });

const balance = (cash: string) => ({
  cash,
  cash_withdrawable: cash,
  buying_power: cash,
  pending_deposits: '0.00',
  currency: 'USD',
  as_of: '2026-01-20T00:00:00Z',
});
const position = (symbol: string, qty: string) => ({
  symbol,
  cusip: null,
  qty,
  avg_cost: '50.00',
  cost_basis: '500.00',
  market_value: '520.00',
});

const wire = (id: string, account: string, amount: string, status = 'completed', direction = 'IN') => ({
  transfer_id: id,
  account_no: account,
  direction,
  amount,
  currency: 'USD',
  status,
  value_date: '2026-01-15',
});

/**
 * usbroker answering these balances and positions by account (an account missing from one
 * answers 500 there) and these funding wires (null: 500), a cursor page at a time.
 */
function fakeBroker(
  balances: Record<string, ReturnType<typeof balance>>,
  positions: Record<string, unknown[]>,
  wires: Array<ReturnType<typeof wire>> | null = [],
): void {
  const scope = nock(BROKER_URL).persist();
  scope.post('/oauth2/token').reply(200, { access_token: 'token', expires_in: 3600, token_type: 'Bearer' });
  scope
    .get('/v1/funding/wires')
    .query(true)
    .reply((uri) => {
      if (wires === null) return [500, { error: 'internal_error' }];
      const after = new URL(uri, BROKER_URL).searchParams.get('after_id');
      return [200, wires.filter((w) => after === null || w.transfer_id > after)];
    });
  for (const account of ['USB-1', 'USB-2']) {
    scope
      .get(`/v1/accounts/${account}/balance`)
      .reply(() => (balances[account] ? [200, balances[account]] : [500, { error: 'internal_error' }]));
    scope
      .get(`/v1/accounts/${account}/positions`)
      .reply(() => (positions[account] ? [200, positions[account]] : [500, { error: 'internal_error' }]));
  }
}

describe('category C checks: usbroker (India)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
  });
  after(() => nock.enableNetConnect());
  beforeEach(async () => {
    t = await createTestDatabase({ runtimeRole: true });
  });
  afterEach(async () => {
    nock.cleanAll();
    await t?.drop();
  });

  /** The C run's outcome of each check, by name. */
  async function outcomes(
    upstreams: UpstreamClients,
    book: 'ENTITY_UAE' | 'ENTITY_IND_IFSC' = 'ENTITY_IND_IFSC',
  ): Promise<Record<string, CheckOutcome>> {
    const run = await runReconciliation(
      { db: t.runtime!.db, book, settings: DEFAULT_RECON_SETTINGS, upstreams },
      { category: 'C' },
    );
    return Object.fromEntries(
      run.results.map((r) => [
        r.check_name,
        {
          status: r.status,
          metrics: r.metrics,
          variances: run.metadata.variances
            .filter((v) => v.check_name === r.check_name)
            .map(({ check_name: _n, ...v }) => v),
        },
      ]),
    );
  }

  /**
   * IND-1 (USB-1): 1,000.00 in (remitted and settled to the broker as order_1), 10 AAPL bought
   * for 500.00 (fee 1.10): 498.90 cash. IND-2 (USB-2): 200.00 in, no remittance.
   */
  async function linkedBook(): Promise<void> {
    await upsertCustomer(t.db, 'IND-1', { references: { usbroker_account_no: 'USB-1' } });
    await upsertCustomer(t.db, 'IND-2', { references: { usbroker_account_no: 'USB-2' } });
    await post(t.db, { txn_type: 'deposit', customer_id: 'IND-1', amount_usd: '1000.00' });
    await post(t.db, {
      txn_type: 'buy_security',
      customer_id: 'IND-1',
      amount_usd: '500.00',
      symbol: 'AAPL',
      quantity: '10',
    });
    await post(t.db, { txn_type: 'deposit', customer_id: 'IND-2', amount_usd: '200.00' });
    const at = new Date('2026-01-15T10:00:00Z');
    await t.db('remittances').insert({
      order_id: 'order_1',
      customer_id: 'IND-1',
      remit_customer_id: 'cust_1',
      status: 'paid',
      amount_inr: '84000.00',
      amount_usd: '1000.00',
      quote_id: 'quote_1',
      fx_rate: '84.00',
      paid_at: at,
      settlement_amount_usd: '1000.00',
      settled_at: at,
      remitted_on: '2026-01-15',
      order_created_at: at,
      order_updated_at: at,
      status_history: JSON.stringify([]),
    });
  }

  it('on a book with no broker-linked customer (the UAE book) › ok, without calling anyone', async () => {
    const result = await outcomes(NO_UPSTREAMS, 'ENTITY_UAE');
    expect(result.usbroker_ledger_recon).to.deep.equal({ status: 'ok', metrics: { customers: 0 }, variances: [] });
    expect(result.usbroker_holdings_recon).to.deep.equal({ status: 'ok', metrics: { customers: 0 }, variances: [] });
    expect(result.lrs_usbroker_tie_out).to.deep.equal({ status: 'ok', metrics: { customers: 0 }, variances: [] });
    // Nor the UAE checks, where no customer links a custodian account or a uaefeed customer number.
    expect(result.custodian_ledger_recon).to.deep.equal({ status: 'ok', metrics: { customers: 0 }, variances: [] });
    expect(result.uaefeed_holdings_recon).to.deep.equal({ status: 'ok', metrics: { customers: 0 }, variances: [] });
    // The omnibus at usbroker is the India book's alone: not run on the UAE book.
    expect(result).to.not.have.property('usbroker_omnibus_cash');
  });

  it('usbroker not configured › warn naming why, never fail', async () => {
    await linkedBook();
    const result = await outcomes(NO_UPSTREAMS);
    for (const name of ['usbroker_ledger_recon', 'usbroker_holdings_recon', 'lrs_usbroker_tie_out']) {
      expect(result[name]).to.deep.equal({
        status: 'warn',
        metrics: { customers: 2, reason: 'usbroker is not configured on this book (USBROKER_BASE_URL unset)' },
        variances: [],
      });
    }
  });

  it('a broker that agrees with the ledger › ok with no variances', async () => {
    await linkedBook();
    // The remittance arrived that day; a pending wire and an outgoing one do not count, and IND-2's own
    // funding (a wire no remittance adds up to) is counted, not a variance.
    fakeBroker(
      { 'USB-1': balance('498.90'), 'USB-2': balance('200.00') },
      { 'USB-1': [position('AAPL', '10')], 'USB-2': [] },
      [
        wire('w1', 'USB-1', '1000.00'),
        wire('w3', 'USB-2', '50.00', 'pending'),
        wire('w4', 'USB-1', '25.00', 'completed', 'OUT'),
        { ...wire('w5', 'USB-2', '75.00'), value_date: '2026-01-20' },
      ],
    );
    const result = await outcomes({ ...NO_UPSTREAMS, usbroker: broker() });
    expect(result.usbroker_ledger_recon!.status).to.equal('ok');
    expect(result.usbroker_holdings_recon!.status).to.equal('ok');
    expect(result.lrs_usbroker_tie_out).to.deep.equal({
      status: 'ok',
      metrics: {
        customers: 2,
        remittances: 1,
        wires_read: 4,
        matched: 1,
        in_transit: 0,
        aged_in_transit: 0,
        unmatched_funding: 1,
        variances: 0,
      },
      variances: [],
    });
    expect(result.usbroker_ledger_recon!.metrics).to.deep.equal({
      customers: 2,
      unreachable: 0,
      cash_differs: 0,
      variances: 0,
    });
  });

  it('after a 4:1 split the ledger counts the split’s shares › the broker’s post-split position agrees', async () => {
    await linkedBook();
    await recordStockSplits(t.db, [
      {
        source: 'usbroker',
        sourceTxnId: 'split-1',
        customerId: 'IND-1',
        symbol: 'AAPL',
        effectiveOn: '2026-01-19',
        shares: '30',
        ratio: '4',
        sourceRow: {},
      },
    ]);
    fakeBroker(
      { 'USB-1': balance('498.90'), 'USB-2': balance('200.00') },
      { 'USB-1': [position('AAPL', '40')], 'USB-2': [] },
      [wire('w1', 'USB-1', '1000.00')],
    );
    const result = await outcomes({ ...NO_UPSTREAMS, usbroker: broker() });
    expect(result.usbroker_holdings_recon).to.deep.include({ status: 'ok', variances: [] });
  });

  it('broker cash off by one cent and a position off by one share › warn naming the customer, figures and difference', async () => {
    await linkedBook();
    fakeBroker(
      { 'USB-1': balance('498.90'), 'USB-2': balance('199.99') },
      { 'USB-1': [position('AAPL', '9')], 'USB-2': [position('MSFT', '1')] },
      [wire('w1', 'USB-1', '999.99')],
    );
    const result = await outcomes({ ...NO_UPSTREAMS, usbroker: broker() });
    expect(result.usbroker_ledger_recon).to.deep.include({ status: 'warn' });
    expect(result.usbroker_ledger_recon!.variances).to.deep.equal([
      {
        ...NO_VARIANCE,
        customer_id: 'IND-2',
        account_code: '2010',
        expected: '200.00',
        actual: '199.99',
        difference: '-0.01',
        detail: {
          problem: 'cash_differs',
          status: 'mismatch',
          account_no: 'USB-2',
          broker_as_of: '2026-01-20T00:00:00Z',
        },
      },
    ]);
    expect(result.usbroker_holdings_recon!.variances).to.deep.equal([
      {
        ...NO_VARIANCE,
        customer_id: 'IND-1',
        symbol: 'AAPL',
        expected: '10',
        actual: '9',
        difference: '-1',
        detail: { problem: 'shares_differ', status: 'mismatch', account_no: 'USB-1' },
      },
      {
        ...NO_VARIANCE,
        customer_id: 'IND-2',
        symbol: 'MSFT',
        expected: '0',
        actual: '1',
        difference: '1',
        detail: { problem: 'shares_differ', status: 'usbroker_only', account_no: 'USB-2' },
      },
    ]);
    expect(result.lrs_usbroker_tie_out!.variances).to.deep.equal([
      {
        ...NO_VARIANCE,
        source_txn_id: 'order_1',
        customer_id: 'IND-1',
        expected: '1000.00',
        actual: '0.00',
        difference: '-1000.00',
        detail: {
          problem: 'remitted_not_wired',
          status: 'aged_in_transit',
          account_no: 'USB-1',
          remitted_on: '2026-01-15',
          settled_on: '2026-01-15',
          window_ends_on: '2026-01-18',
          day_window: 3,
          // The wire a cent short carries nothing: named here, not a variance of its own.
          unmatched_wires: [{ transfer_id: 'w1', amount_usd: '999.99', value_date: '2026-01-15' }],
        },
      },
    ]);
  });

  it('wires a few days behind, or ahead of, their settlements › matched within RECON_TIE_OUT_DAY_WINDOW days of the later of payment and settlement; only an unwired remittance is a variance', async () => {
    await linkedBook();
    // IND-1 besides order_1 (1,000.00 paid and settled Thursday 2026-01-15, wired that day):
    // order_2 500.00 paid and settled Friday the 16th, wired Monday the 19th (3 days);
    // order_4 200.00 paid and settled the 19th, never wired;
    // order_3 300.00 paid and settled the 20th, wired Saturday the 24th (4 days);
    // order_5 and order_6 (700.00 and 50.00) paid the 26th, settled together on 2026-02-02: one wire of
    // 750.00 on the 27th carries both, before the settlement (the FX spread settles apart from the wire);
    // order_7 80.00 paid the 27th, settled 2026-02-02, wired 2026-02-05 (3 days after the settlement).
    // IND-1 also funds the account itself: 5,000.00 on 2026-01-21, not a variance.
    for (const [orderId, usd, paid, settled] of [
      ['order_2', '500.00', '2026-01-16', '2026-01-16'],
      ['order_4', '200.00', '2026-01-19', '2026-01-19'],
      ['order_3', '300.00', '2026-01-20', '2026-01-20'],
      ['order_5', '700.00', '2026-01-26', '2026-02-02'],
      ['order_6', '50.00', '2026-01-26', '2026-02-02'],
      ['order_7', '80.00', '2026-01-27', '2026-02-02'],
    ] as const) {
      const at = new Date(`${paid}T06:00:00Z`);
      await t.db('remittances').insert({
        order_id: orderId,
        customer_id: 'IND-1',
        remit_customer_id: 'cust_1',
        status: 'paid',
        amount_inr: '42000.00',
        amount_usd: usd,
        quote_id: `quote_${orderId}`,
        fx_rate: '84.00',
        paid_at: at,
        // The batch's USD, as remit settles several orders at once: never taken for an order's.
        settlement_amount_usd: orderId === 'order_5' || orderId === 'order_6' ? '750.00' : usd,
        settled_at: new Date(`${settled}T06:00:00Z`),
        remitted_on: paid,
        order_created_at: at,
        order_updated_at: at,
        status_history: JSON.stringify([]),
      });
    }
    const wires = [
      wire('w1', 'USB-1', '1000.00'),
      { ...wire('w2', 'USB-1', '500.00'), value_date: '2026-01-19' },
      { ...wire('w6', 'USB-1', '5000.00'), value_date: '2026-01-21' },
      { ...wire('w3', 'USB-1', '300.00'), value_date: '2026-01-24' },
      { ...wire('w5', 'USB-1', '750.00'), value_date: '2026-01-27' },
      { ...wire('w7', 'USB-1', '80.00'), value_date: '2026-02-05' },
    ];
    fakeBroker(
      { 'USB-1': balance('498.90'), 'USB-2': balance('200.00') },
      { 'USB-1': [position('AAPL', '10')], 'USB-2': [] },
      wires,
    );
    const tieOut = async (tieOutDayWindow: number) => {
      const run = await runReconciliation(
        {
          db: t.runtime!.db,
          book: 'ENTITY_IND_IFSC',
          settings: { ...DEFAULT_RECON_SETTINGS, tieOutDayWindow },
          upstreams: { ...NO_UPSTREAMS, usbroker: broker() },
        },
        { checks: CHECKS.filter((c) => c.name === 'lrs_usbroker_tie_out') },
      );
      return run.metadata.variances.map((v) => [
        v.source_txn_id,
        v.expected,
        (v.detail.unmatched_wires as Array<{ transfer_id: string }>).map((w) => w.transfer_id),
      ]);
    };
    // The default, 3 days: the weekend's wire is matched; the 19th's remittance finds no wire (the 5,000.00
    // of the 21st is the customer's own, named as a wire of its window that carried nothing); the 20th's
    // wire is a day too late, so the remittance is unwired and names it.
    expect(DEFAULT_RECON_SETTINGS.tieOutDayWindow).to.equal(3);
    expect(await tieOut(3)).to.deep.equal([
      ['order_4', '200.00', ['w6']],
      ['order_3', '300.00', ['w6']],
    ]);
    expect(await tieOut(4)).to.deep.equal([['order_4', '200.00', ['w6']]]);
    // Same-day matching alone (0): the weekend's and the late wires miss (order_2's, carrying nothing, is
    // named by the remittance paid the day it arrived), and so does order_7's, three days after its
    // settlement; the 750.00 wire still carries the two orders it arrived the day after (their settlement,
    // 2026-02-02, ends their window).
    expect(await tieOut(0)).to.deep.equal([
      ['order_2', '500.00', []],
      ['order_4', '200.00', ['w2']],
      ['order_3', '300.00', []],
      ['order_7', '80.00', []],
    ]);
  });

  describe('usbroker_omnibus_cash', () => {
    const FIRM = 'FIRM-1';
    /**
     * IND-1 (USB-1): 1,000.00 in, 10 AAPL bought at usbroker for 500.00 (fee 1.10 at 22 bps, of
     * which recost's broker cost 0.20 at 4 bps, settled out of 1100): 1100 = 1,000.00 − 500.00 −
     * 0.20 + 200.00 (IND-2) = 699.80. The broker: USB-1 498.90, USB-2 200.00, the firm 0.90.
     */
    async function omnibusBook(): Promise<void> {
      await upsertCustomer(t.db, 'IND-1', { references: { usbroker_account_no: 'USB-1' } });
      await upsertCustomer(t.db, 'IND-2', { references: { usbroker_account_no: 'USB-2' } });
      await post(t.db, { txn_type: 'deposit', customer_id: 'IND-1', amount_usd: '1000.00' });
      await post(t.db, {
        txn_type: 'buy_security',
        source: 'usbroker',
        customer_id: 'IND-1',
        amount_usd: '500.00',
        symbol: 'AAPL',
        quantity: '10',
      });
      await post(t.db, { txn_type: 'deposit', customer_id: 'IND-2', amount_usd: '200.00' });
      await recost(t.db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    }
    const firmAnswers = (cash: string | null) =>
      nock(BROKER_URL)
        .persist()
        .get(`/v1/accounts/${FIRM}/balance`)
        .reply(() => (cash === null ? [500, { error: 'internal_error' }] : [200, balance(cash)]));
    const withFirm = { ...NO_UPSTREAMS, usbroker: broker(), usbrokerFirmAccount: FIRM };

    it('USBROKER_FIRM_ACCOUNT unset › skipped: warn naming the setting, no variance', async () => {
      await omnibusBook();
      fakeBroker({ 'USB-1': balance('498.90'), 'USB-2': balance('200.00') }, {});
      const result = await outcomes({ ...NO_UPSTREAMS, usbroker: broker() });
      expect(result.usbroker_omnibus_cash).to.deep.equal({
        status: 'warn',
        metrics: {
          customers: 2,
          skipped: true,
          reason: 'the firm account at usbroker is not configured (USBROKER_FIRM_ACCOUNT unset)',
        },
        variances: [],
      });
    });

    it('1100 equals the customers’ broker cash plus the firm account’s, to the cent › ok', async () => {
      await omnibusBook();
      fakeBroker({ 'USB-1': balance('498.90'), 'USB-2': balance('200.00') }, {});
      firmAnswers('0.90');
      expect((await outcomes(withFirm)).usbroker_omnibus_cash).to.deep.equal({
        status: 'ok',
        metrics: {
          customers: 2,
          ledger_omnibus: '699.80',
          customers_cash: '698.90',
          firm_cash: '0.90',
          difference: '0.00',
          pending_recost: 0,
          variances: 0,
        },
        variances: [],
      });
    });

    it('the broker kept more than recost settled (and a trade still pending recost) › warn, one variance naming the difference and the pending count', async () => {
      await omnibusBook();
      // A buy not yet recosted: its settlement is still to come.
      await post(t.db, {
        txn_type: 'buy_security',
        source: 'usbroker',
        customer_id: 'IND-2',
        amount_usd: '100.00',
        symbol: 'MSFT',
        quantity: '1',
      });
      fakeBroker({ 'USB-1': balance('498.90'), 'USB-2': balance('99.78') }, {});
      firmAnswers('0.81');
      const result = (await outcomes(withFirm)).usbroker_omnibus_cash!;
      // 1100 = 699.80 − 100.00; the broker: 498.90 + 99.78 + 0.81 = 599.49, so 0.31 short of the ledger.
      expect(result.status).to.equal('warn');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          account_code: '1100',
          expected: '599.80',
          actual: '599.49',
          difference: '-0.31',
          detail: {
            problem: 'omnibus_cash_differs',
            customers_cash: '598.68',
            firm_account: FIRM,
            firm_cash: '0.81',
            customers: 2,
            pending_recost: 1,
          },
        },
      ]);
    });

    it('the firm account unreadable › warn naming it, no variance (nothing judged)', async () => {
      await omnibusBook();
      fakeBroker({ 'USB-1': balance('498.90'), 'USB-2': balance('200.00') }, {});
      firmAnswers(null);
      const result = (await outcomes(withFirm)).usbroker_omnibus_cash!;
      expect(result).to.deep.include({ status: 'warn', variances: [] });
      expect(result.metrics).to.deep.include({ customers: 2, unreachable: 1, pending_recost: 0 });
      expect((result.metrics.unreadable as Array<{ account_no: string }>).map((u) => u.account_no)).to.deep.equal([
        FIRM,
      ]);
    });
  });

  it('usbroker unreachable for one customer › warn naming the customer and why; the others are still checked', async () => {
    await linkedBook();
    fakeBroker({ 'USB-1': balance('498.00') }, { 'USB-1': [position('AAPL', '10')] }, null);
    const result = await outcomes({ ...NO_UPSTREAMS, usbroker: broker() });
    const ledger = result.usbroker_ledger_recon!;
    expect(ledger.status).to.equal('warn');
    expect(ledger.metrics).to.deep.equal({ customers: 2, unreachable: 1, cash_differs: 1, variances: 2 });
    expect(ledger.variances.map((v) => [v.customer_id, v.detail.problem])).to.deep.equal([
      ['IND-1', 'cash_differs'],
      ['IND-2', 'usbroker_unreachable'],
    ]);
    expect(String(ledger.variances[1]!.detail.error)).to.match(/^unreachable: /);
    expect(result.usbroker_holdings_recon!.variances.map((v) => [v.customer_id, v.detail.problem])).to.deep.equal([
      ['IND-2', 'usbroker_unreachable'],
    ]);
    expect(result.lrs_usbroker_tie_out!.status).to.equal('warn');
    expect(String(result.lrs_usbroker_tie_out!.metrics.reason)).to.match(
      /^usbroker's funding wires could not be read: unreachable: /,
    );
  });
});

describe('category C checks: the custodian (UAE)', function () {
  this.timeout(60_000);
  const CUSTODIAN_URL = 'http://custodian.test';
  const month = previousMonth(new Date());
  let t: TestDatabase;
  before(() => {
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
  });
  after(() => nock.enableNetConnect());
  beforeEach(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    await upsertCustomer(t.db, 'UAE-1', { references: { custodian_account: 'CUST-1' } });
    await upsertCustomer(t.db, 'UAE-2', { references: { custodian_account: 'CUST-2' } });
    // UAE-1 paid in 367.25 AED last month through uaefeed; the cash movement is what the record moved the cash account by.
    await post(t.db, {
      txn_type: 'deposit',
      customer_id: 'UAE-1',
      source: 'uaefeed',
      txn_date: `${month}-15`,
      amount_usd: '100.00',
      original_currency: 'AED',
      original_amount: '367.25',
      metadata: { cash_movement: '367.25' },
    });
  });
  afterEach(async () => {
    nock.cleanAll();
    await t?.drop();
  });

  const statement = (account: string, closing: string, lines: number) => ({
    account,
    month,
    currency: 'AED',
    opening_balance: '1000.00',
    closing_balance: closing,
    lines: Array.from({ length: lines }, () => ({
      date: `${month}-15`,
      value_date: `${month}-15`,
      description: 'transfer',
      debit: '0.00',
      credit: '367.25',
      balance: closing,
    })),
  });
  /** The custodian answering these statements by account; an account not listed answers 500. */
  const fakeCustodian = (statements: Record<string, ReturnType<typeof statement>>) =>
    nock(CUSTODIAN_URL)
      .persist()
      .get('/statements/cash')
      .query(true)
      .reply((uri) => {
        const answer = statements[new URL(uri, CUSTODIAN_URL).searchParams.get('account') ?? ''];
        return answer ? [200, answer] : [500, { error: 'internal_error' }];
      });
  const custodian = () =>
    createCustodianClient({
      baseUrl: CUSTODIAN_URL,
      apiKey: 'sandbox-custodian-key',
      timeoutMs: 2_000,
      retryLimit: 1,
      backoffMs: 5,
    });
  const outcome = async (upstreams: UpstreamClients) => {
    const run = await runReconciliation(
      { db: t.runtime!.db, book: 'ENTITY_UAE', settings: DEFAULT_RECON_SETTINGS, upstreams },
      { checks: CHECKS.filter((c) => c.name === 'custodian_ledger_recon') },
    );
    return { result: run.results[0]!, variances: run.metadata.variances.map(({ check_name: _n, ...v }) => v) };
  };

  it('the custodian not configured › warn naming why', async () => {
    const { result } = await outcome(NO_UPSTREAMS);
    expect(result).to.deep.include({
      status: 'warn',
      metrics: { customers: 2, reason: 'the custodian is not configured on this book (CUSTODIAN_BASE_URL unset)' },
    });
  });

  it('last month’s statements agree with the ledger’s AED movements › ok', async () => {
    fakeCustodian({ 'CUST-1': statement('CUST-1', '1367.25', 1), 'CUST-2': statement('CUST-2', '1000.00', 0) });
    const { result, variances } = await outcome({ ...NO_UPSTREAMS, custodian: custodian() });
    expect(result.status).to.equal('ok');
    expect(result.metrics).to.deep.equal({ customers: 2, month, unreachable: 0, differ: 0, variances: 0 });
    expect(variances).to.deep.equal([]);
  });

  it('the AED wallet’s lines moved by other AED amounts than the statement, though the records agree with it › warn (issue 18, item 4)', async () => {
    // A second deposit of AED 367.25 whose AED lines were posted carrying AED 100.00 (a posting path
    // that got the AED amount wrong): the record's cash movement still says 367.25, the wallet holds 100.00.
    const txnId = randomUUID();
    const draft = draftFromEntry(
      {
        txn_type: 'deposit',
        customer_id: 'UAE-1',
        source: 'uaefeed',
        source_txn_id: `src-${txnId}`,
        txn_date: `${month}-16`,
        amount_usd: '100.00',
        original_currency: 'AED',
        original_amount: '367.25',
        metadata: { cash_movement: '367.25' },
      },
      txnId,
      { feeSchedule: new FeeSchedule(new Decimal(22)) },
    );
    await postEntry(t.db, { ...draft, lines: draft.lines.map((l) => ({ ...l, nativeAmount: new Decimal('100.00') })) });
    fakeCustodian({ 'CUST-1': statement('CUST-1', '1734.50', 2), 'CUST-2': statement('CUST-2', '1000.00', 0) });
    const { result, variances } = await outcome({ ...NO_UPSTREAMS, custodian: custodian() });
    expect(result.status).to.equal('warn');
    expect(variances).to.deep.equal([
      {
        ...NO_VARIANCE,
        customer_id: 'UAE-1',
        expected: '467.25',
        actual: '734.50',
        difference: '267.25',
        detail: {
          problem: 'cash_statement_differs',
          account: 'CUST-1',
          month,
          currency: 'AED',
          statement_lines: 2,
          ledger_transactions: 2,
        },
      },
    ]);
  });

  it('a statement off by one fil, and a customer the custodian fails for › warn naming each', async () => {
    fakeCustodian({ 'CUST-1': statement('CUST-1', '1367.24', 1) });
    const { result, variances } = await outcome({ ...NO_UPSTREAMS, custodian: custodian() });
    expect(result.status).to.equal('warn');
    expect(variances[0]).to.deep.equal({
      ...NO_VARIANCE,
      customer_id: 'UAE-1',
      expected: '367.25',
      actual: '367.24',
      difference: '-0.01',
      detail: {
        problem: 'cash_statement_differs',
        account: 'CUST-1',
        month,
        currency: 'AED',
        statement_lines: 1,
        ledger_transactions: 1,
      },
    });
    expect(variances[1]).to.deep.include({ customer_id: 'UAE-2' });
    expect(variances[1]!.detail).to.include({ problem: 'custodian_unreachable', account: 'CUST-2', month });
  });
});
