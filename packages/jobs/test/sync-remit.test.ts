import { closePeriod, upsertCustomer, type Db } from '@ledger/core/store';
import { expect } from 'chai';
import nock from 'nock';
import {
  JOBS,
  noOutcomes,
  provisionIndiaJob,
  refundReversalIndiaJob,
  runSyncRemit,
  syncRemitInput,
  syncRemitJob,
  syncRemitResult,
  syncRemitWebhookJob,
} from '../src/testing.js';
import { indiaDeps, remitPostings, rowCount, testRemitClient } from './india-support.js';
import { nockedBookPerTest } from './book-per-test.js';

const ORIGIN = 'http://remit.test';
const API_KEY = 'remit-test-key';
const remit = () => testRemitClient(ORIGIN, API_KEY);

interface Wire {
  orders: Array<Record<string, unknown>>;
  payments: Array<Record<string, unknown>>;
  quotes?: Record<string, Record<string, unknown>>;
  settlements?: Record<string, Record<string, unknown>>;
}

const page = (data: unknown[]) => ({
  data,
  page_meta: { current: 1, previous: null, next: null, per_page: 100, pages: 1, count: data.length },
});

/** remit as nock answers it for one customer: what `wire` holds, as often as asked. */
function serve(remitCustomerId: string, wire: Wire) {
  const api = nock(`${ORIGIN}/api/v1`, { reqheaders: { authorization: `Bearer ${API_KEY}` } }).persist();
  api
    .get('/orders')
    .query({ customer_id: remitCustomerId, page: 1, per_page: 100 })
    .reply(200, () => page(wire.orders));
  api
    .get('/payment')
    .query({ customer_id: remitCustomerId, page: 1, per_page: 100 })
    .reply(200, () => page(wire.payments));
  api.get(/\/quotes\/.+/).reply(200, (uri) => wire.quotes?.[uri.split('/').pop()!] ?? quote(uri.split('/').pop()!));
  api.get(/\/settlements\/.+/).reply(200, (uri) => wire.settlements?.[uri.split('/').pop()!]);
  api
    .get('/fx_rates')
    .query(true)
    .reply(200, { mid_market_rate: { currency: 'USD', rate: '0.01150000' } });
}

function order(n: number, status: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `order_${n}`,
    customer_id: 'cust_1',
    status,
    currency: 'INR',
    amount: 10_000_000, // INR 1,00,000.00
    purpose_code: 'S0001',
    reference_number: null,
    quote_id: `quote_${n}`,
    created_at: '2026-01-05T04:00:00Z',
    updated_at: '2026-01-05T05:10:00Z',
    notes: {},
    ...overrides,
  };
}

function quote(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    from: { amount: 10_000_000, currency: 'INR' },
    to: { amount: 114_240, currency: 'USD' }, // USD 1,142.40 at 0.011424
    fx_rate: '0.011424',
    bank_code: 'HDFC',
    total_tax: '0.00',
    expires_at: '2026-01-05T04:30:00Z',
    created_at: '2026-01-05T04:00:00Z',
    ...overrides,
  };
}

function payment(n: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `payt_${n}`,
    customer_id: 'cust_1',
    payin_id: `order_${n}`,
    payin_type: 'orders',
    status: 'success',
    currency: 'INR',
    amount: 10_000_000,
    purpose_code: 'S0001',
    transaction_reference_number: 'TRN1',
    settlement_id: null,
    funds_available: true,
    payment_method: 'netbanking',
    error_code: null,
    // 19:00Z is past midnight in India: the remittance's date is the next day.
    created_at: '2026-01-05T19:00:00Z',
    updated_at: '2026-01-05T19:10:00Z',
    ...overrides,
  };
}

function settlement(id: string, status = 'settled') {
  return {
    id,
    status,
    amount: 114_240,
    currency: 'USD',
    fees: { fx_fee: { amount: 114, currency: 'USD' }, txn_fee: { amount: 500, currency: 'USD' } },
    utr: 'HDFCN26006123456',
    created_at: '2026-01-07T06:00:00Z',
    updated_at: '2026-01-07T06:00:00Z',
  };
}

describe('sync-remit (remit mocked)', function () {
  this.timeout(60_000);
  let db: Db;
  nockedBookPerTest(
    (book) => (db = book),
    (book) => upsertCustomer(book, 'IND-1', { references: { remit_customer_id: 'cust_1', pan: 'ABCPS1234K' } }),
  );

  it('the three India remittance jobs are in the catalog, on the India book only, with the modes of JOB_MODES', () => {
    expect(JOBS['sync-remit']).to.equal(syncRemitJob);
    expect(JOBS['provision-india']).to.equal(provisionIndiaJob);
    expect(JOBS['refund-reversal-india']).to.equal(refundReversalIndiaJob);
    expect([syncRemitJob, provisionIndiaJob, refundReversalIndiaJob].map((j) => [j.mode, j.books])).to.deep.equal([
      ['background', ['ENTITY_IND_IFSC']],
      ['background', ['ENTITY_IND_IFSC']],
      ['sync', ['ENTITY_IND_IFSC']],
    ]);
  });

  it('takes customer_ids, dry_run and fx_spread_bps (0–1,000), and nothing else', () => {
    expect(syncRemitInput.parse({ customer_ids: null, dry_run: true, fx_spread_bps: 75 })).to.deep.equal({
      customer_ids: null,
      dry_run: true,
      fx_spread_bps: 75,
    });
    for (const bad of [
      { fx_spread_bps: -1 },
      { fx_spread_bps: 1_001 },
      { customer_ids: [] },
      { customer_ids: [''] },
      { other: 1 },
    ]) {
      expect(() => syncRemitInput.parse(bad), JSON.stringify(bad)).to.throw();
    }
  });

  it('accrues a paid order’s spread on its IST date, half-up to cents, and settles exactly that when its settlement lands, its fees a cost', async () => {
    const wire: Wire = { orders: [order(1, 'paid')], payments: [payment(1)] };
    serve('cust_1', wire);
    // USD 1,142.40 × 75 / 10,000 = 8.568 → 8.57; paid 2026-01-05T19:00Z = 2026-01-06 in India.
    const first = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(first.records.fx_spread).to.include({ inserted: 1 });
    expect(await remitPostings(db)).to.deep.equal([
      ['fx_spread:order_1', 'fx_spread', 'IND-1', '2026-01-06', 'Dr 1300 8.57, Cr 4030 8.57'],
    ]);

    // The settlement lands with fx_fee 1.14 and txn_fee 5.00: the accrued 8.57 leaves 1300 (even though the bps changed
    // since), 6.14 of it is the provider's fees (5030) and 2.43 reaches the bank (1010).
    wire.payments = [payment(1, { settlement_id: 'setl_1' })];
    wire.settlements = { setl_1: settlement('setl_1') };
    const second = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 150 }, indiaDeps(db, remit()));
    expect(second.records.fx_spread).to.include({ inserted: 0 });
    expect(second.records.fx_spread_settle).to.include({ inserted: 1 });
    expect(await remitPostings(db)).to.deep.equal([
      ['fx_spread:order_1', 'fx_spread', 'IND-1', '2026-01-06', 'Dr 1300 8.57, Cr 4030 8.57'],
      [
        'fx_spread_settle:order_1',
        'fx_spread_settle',
        'IND-1',
        '2026-01-07',
        'Dr 1010 2.43, Dr 5030 6.14, Cr 1300 8.57',
      ],
    ]);
    expect(await db('remittances').where({ order_id: 'order_1' }).first()).to.include({
      utr: 'HDFCN26006123456',
      settlement_amount_usd: '1142.40',
      settlement_fx_fee_usd: '1.14',
      settlement_txn_fee_usd: '5.00',
      remitted_on: '2026-01-06',
    });
    // The FX margin: 8.57 earned, 6.14 paid to the provider.
    const nets = await db('journal_lines')
      .whereIn('account_code', ['1010', '4030', '5030'])
      .groupBy('account_code')
      .orderBy('account_code')
      .select('account_code', db.raw('sum(credit - debit)::text AS net'));
    expect(nets).to.deep.equal([
      { account_code: '1010', net: '-2.43' },
      { account_code: '4030', net: '8.57' },
      { account_code: '5030', net: '-6.14' },
    ]);
  });

  it('a record dated in a closed period (a webhook-triggered sync, then the scheduled one) posts once, on the first open day, naming its date', async () => {
    await closePeriod(db, { through: '2026-01-10', actor: 'api', today: '2026-02-01' });
    serve('cust_1', { orders: [order(1, 'paid')], payments: [payment(1)] });
    const triggered = await syncRemitWebhookJob.run(
      { customer_id: 'IND-1', order_id: 'order_1' },
      indiaDeps(db, remit(), { fxSpreadBps: '75' }),
    );
    expect(triggered.remit.records.fx_spread).to.include({ inserted: 1 });
    expect(
      (await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()))).records.fx_spread,
    ).to.include({ inserted: 0 });
    expect(await remitPostings(db)).to.deep.equal([
      ['fx_spread:order_1', 'fx_spread', 'IND-1', '2026-01-11', 'Dr 1300 8.57, Cr 4030 8.57'],
    ]);
    expect(
      (await db('transactions').where('source_txn_id', 'fx_spread:order_1').first('metadata')).metadata,
    ).to.include({ original_txn_date: '2026-01-06' });
  });

  it('the sweep reverses a refund learnt after its day was closed on the first open day, naming the accrual’s date', async () => {
    const wire: Wire = { orders: [order(1, 'paid')], payments: [payment(1)] };
    serve('cust_1', wire);
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    await closePeriod(db, { through: '2026-01-10', actor: 'api', today: '2026-02-01' });
    wire.orders = [order(1, 'failed', { updated_at: '2026-01-09T05:00:00Z' })];
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    const [swept] = (await refundReversalIndiaJob.run({}, indiaDeps(db, null))).reversed;
    expect(swept?.reversal_date).to.equal('2026-01-11');
    const reversal = await db('transactions').where('txn_id', swept!.reversal_txn_id!).first('txn_date', 'metadata');
    expect([reversal.txn_date, reversal.metadata]).to.deep.equal(['2026-01-11', { original_txn_date: '2026-01-06' }]);
  });

  it('a settlement that lands before any accrual is posted with its stored fees once a later run accrues', async () => {
    serve('cust_1', {
      orders: [order(1, 'paid')],
      payments: [payment(1, { settlement_id: 'setl_1' })],
      settlements: { setl_1: settlement('setl_1') },
    });
    expect(
      (await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 0 }, indiaDeps(db, remit()))).records
        .fx_spread_settle,
    ).to.include({ inserted: 0 });
    nock.cleanAll();
    // The landed settlement is not read again: its fees come from the row.
    const api = nock(`${ORIGIN}/api/v1`).persist();
    api
      .get('/orders')
      .query(true)
      .reply(200, page([order(1, 'paid')]));
    api
      .get('/payment')
      .query(true)
      .reply(200, page([payment(1, { settlement_id: 'setl_1' })]));
    api.get(/\/settlements\/.+/).reply(500, { error: 'internal_error' });
    const later = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(later.customers_failed).to.deep.equal([]);
    expect(await remitPostings(db)).to.deep.equal([
      ['fx_spread:order_1', 'fx_spread', 'IND-1', '2026-01-06', 'Dr 1300 8.57, Cr 4030 8.57'],
      [
        'fx_spread_settle:order_1',
        'fx_spread_settle',
        'IND-1',
        '2026-01-07',
        'Dr 1010 2.43, Dr 5030 6.14, Cr 1300 8.57',
      ],
    ]);
  });

  it('a re-run that learns nothing new updates nothing: every order unchanged, no row’s updated_at moves', async () => {
    serve('cust_1', {
      orders: [order(1, 'paid'), order(2, 'active'), order(3, 'failed')],
      payments: [
        payment(1, { settlement_id: 'setl_1' }),
        payment(2, { status: 'in_progress', funds_available: false }),
      ],
      settlements: { setl_1: settlement('setl_1') },
    });
    const first = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(first.remittances).to.deep.equal({ ...noOutcomes(), seen: 3, inserted: 3 });
    const before = await db('remittances').orderBy('order_id').select('order_id', 'updated_at');
    const dry = await runSyncRemit(
      { customer_ids: ['IND-1'], fx_spread_bps: 75, dry_run: true },
      indiaDeps(db, remit()),
    );
    expect(dry.remittances).to.deep.equal({ ...noOutcomes(), seen: 3, duplicate: 3 });
    const again = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(again.remittances).to.deep.equal({ ...noOutcomes(), seen: 3, duplicate: 3 });
    expect(again.records.fx_spread.inserted + again.records.fx_spread_settle.inserted).to.equal(0);
    expect(await db('remittances').orderBy('order_id').select('order_id', 'updated_at')).to.deep.equal(before);
  });

  it('reads a stored quote and a landed settlement once: a later run does without them', async () => {
    serve('cust_1', {
      orders: [order(1, 'paid')],
      payments: [payment(1, { settlement_id: 'setl_1' })],
      settlements: { setl_1: settlement('setl_1') },
    });
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    const before = await db('remittances').first();
    nock.cleanAll();
    const api = nock(`${ORIGIN}/api/v1`).persist();
    api
      .get('/orders')
      .query(true)
      .reply(200, page([order(1, 'paid')]));
    api
      .get('/payment')
      .query(true)
      .reply(200, page([payment(1, { settlement_id: 'setl_1' })]));
    api.get(/\/(quotes|settlements)\/.+/).reply(500, { error: 'internal_error' });
    const again = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(again.customers_failed).to.deep.equal([]);
    const after = await db('remittances').first();
    const kept = [
      'amount_usd',
      'quote_id',
      'quoted_at',
      'quote_expires_at',
      'fx_rate',
      'tcs_inr',
      'settlement_id',
      'settlement_status',
      'settlement_amount_usd',
      'utr',
      'settled_at',
      'remitted_on',
    ];
    for (const column of kept) expect(after[column], column).to.deep.equal(before[column]);
    expect(await rowCount(db, 'transactions')).to.equal(2);
  });

  it('an out-of-order active snapshot after paid leaves the order paid, and its history as seen', async () => {
    const wire: Wire = { orders: [order(1, 'paid')], payments: [payment(1)] };
    serve('cust_1', wire);
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    wire.orders = [order(1, 'active', { updated_at: '2026-01-05T04:00:00Z' })];
    wire.payments = [payment(1, { status: 'in_progress', funds_available: false })];
    const stale = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    syncRemitResult.parse(stale);
    expect(stale.remittances).to.include({ skipped: 1, updated: 0 });
    expect(stale.remittances_skipped).to.deep.equal([
      {
        customer_id: 'IND-1',
        order_id: 'order_1',
        reason: { code: 'stale_snapshot', detail: { order_id: 'order_1' } },
      },
    ]);
    const row = await db('remittances').where({ order_id: 'order_1' }).first();
    expect(row).to.include({ status: 'paid', payment_status: 'success', funds_available: true });
    expect(row.status_history.map((h: { status: string }) => h.status)).to.deep.equal(['paid']);
    expect(await rowCount(db, 'transactions')).to.equal(1);
  });

  it('accrues nothing for an order that is not paid: authorised without funds, failed when first seen, or without a quote when paid', async () => {
    serve('cust_1', {
      orders: [order(1, 'action_required'), order(2, 'failed'), order(3, 'paid', { quote_id: null })],
      payments: [
        payment(1, { funds_available: false }),
        payment(2, { status: 'failed', funds_available: false, error_code: 'REFUNDED' }),
        payment(3),
      ],
    });
    const result = await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(result.records.fx_spread, 'order_3: paid without a quote').to.deep.equal({
      inserted: 0,
      updated: 0,
      duplicate: 0,
      conflict: 0,
      skipped: 1,
      rejected: 0,
    });
    expect(await rowCount(db, 'remittances')).to.equal(3);
    expect(await rowCount(db, 'transactions')).to.equal(0);
  });

  it('without fx_spread_bps takes the worker’s FX_SPREAD_BPS; with neither, accrues nothing', async () => {
    serve('cust_1', { orders: [order(1, 'paid')], payments: [payment(1)] });
    expect(
      (await runSyncRemit({ customer_ids: ['IND-1'] }, indiaDeps(db, remit()))).records.fx_spread.inserted,
    ).to.equal(0);
    const result = await runSyncRemit({ customer_ids: ['IND-1'] }, indiaDeps(db, remit(), { fxSpreadBps: '100' }));
    expect(result).to.include({ fx_spread_bps: '100' });
    expect((await remitPostings(db))[0]?.[4]).to.equal('Dr 1300 11.42, Cr 4030 11.42');
  });

  it('keeps the mid rate only when read while the quote was live', async () => {
    const live = new Date(Date.now() + 600_000).toISOString();
    serve('cust_1', {
      orders: [order(1, 'paid'), order(2, 'paid')],
      payments: [payment(1), payment(2)],
      quotes: { quote_2: quote('quote_2', { expires_at: live }) },
    });
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    const rows = await db('remittances').orderBy('order_id').select('order_id', 'mid_rate', 'mid_rate_source');
    expect(rows).to.deep.equal([
      { order_id: 'order_1', mid_rate: null, mid_rate_source: null },
      { order_id: 'order_2', mid_rate: '0.01150000', mid_rate_source: 'remit:fx_rates' },
    ]);
  });

  it('a 4xx from remit is that customer’s failure, not retried; an unknown customer is named as failed', async () => {
    const scope = nock(`${ORIGIN}/api/v1`)
      .get('/orders')
      .query(true)
      .once()
      .reply(401, { error: 'unauthorized', message: 'bad key' });
    nock(`${ORIGIN}/api/v1`).get('/payment').query(true).optionally().reply(401, { error: 'unauthorized' });
    const result = await runSyncRemit({ customer_ids: ['IND-1', 'NOBODY'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect(scope.isDone()).to.equal(true);
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal(['IND-1', 'NOBODY']);
    expect(result.customers_failed.map((f) => f.reason.code)).to.deep.equal(['upstream_refused', 'not_linked']);
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({
      upstream: 'remit',
      method: 'GET',
      path: '/api/v1/orders',
      status: 401,
      attempts: 1,
      upstream_error: { error: 'unauthorized', message: 'bad key' },
    });
    expect(result.customers_failed[0]!.reason.detail.message).to.match(/answered 401.*unauthorized/);
    syncRemitResult.parse(result);
    expect(await rowCount(db, 'remittances')).to.equal(0);
  });

  it('the sweep reverses only the revenue of an order refunded after settling (Dr 4030 / Cr 1300): 1300 shows 8.57 owed back to the provider, the bank keeps what arrived', async () => {
    const wire: Wire = {
      orders: [order(1, 'paid')],
      payments: [payment(1, { settlement_id: 'setl_1' })],
      settlements: { setl_1: settlement('setl_1') },
    };
    serve('cust_1', wire);
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    wire.orders = [order(1, 'failed', { updated_at: '2026-01-09T05:00:00Z' })];
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    const swept = await refundReversalIndiaJob.run({}, indiaDeps(db, null));
    expect(swept.reversed.map((r) => [r.order_id, r.txn_type, r.amount_usd, r.reversal_date])).to.deep.equal([
      ['order_1', 'fx_spread', '8.57', '2026-01-09'],
    ]);
    expect(swept.reversals).to.deep.equal({ ...noOutcomes(), inserted: 1 });
    const reversal = await db('transactions as r')
      .join('transactions as o', 'o.txn_id', 'r.reverses_txn_id')
      .join('journal_lines as l', 'l.txn_id', 'r.txn_id')
      .where('o.source_txn_id', 'fx_spread:order_1')
      .orderBy('l.line_id')
      .select('l.account_code', 'l.debit', 'l.credit');
    expect(reversal).to.deep.equal([
      { account_code: '1300', debit: '0.00', credit: '8.57' },
      { account_code: '4030', debit: '8.57', credit: '0.00' },
    ]);
    // Accrual +8.57, settlement −8.57, reversal −8.57: 1300 is 8.57 owed to the provider; 1010 keeps the 2.43 that arrived.
    const totals = await db('journal_lines')
      .whereIn('account_code', ['1010', '1300', '4030', '5030'])
      .groupBy('account_code')
      .select('account_code', db.raw('(sum(debit) - sum(credit))::text AS net'))
      .orderBy('account_code');
    expect(totals.map((r: { account_code: string; net: string }) => [r.account_code, r.net])).to.deep.equal([
      ['1010', '2.43'],
      ['1300', '-8.57'],
      ['4030', '0.00'],
      ['5030', '6.14'],
    ]);
    expect((await refundReversalIndiaJob.run({ dry_run: true }, indiaDeps(db, null))).reversed).to.deep.equal([]);
    expect(await refundReversalIndiaJob.run({}, indiaDeps(db, null))).to.deep.include({
      reversals: noOutcomes(),
      reversed: [],
    });
  });

  it('the sweep reverses the accrual of an order refunded before it settled: 1300 and 4030 back to zero, and no settlement is posted after', async () => {
    const wire: Wire = { orders: [order(1, 'paid')], payments: [payment(1)] };
    serve('cust_1', wire);
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    wire.orders = [order(1, 'failed', { updated_at: '2026-01-09T05:00:00Z' })];
    await runSyncRemit({ customer_ids: ['IND-1'], fx_spread_bps: 75 }, indiaDeps(db, remit()));
    expect((await refundReversalIndiaJob.run({}, indiaDeps(db, null))).reversed.map((r) => r.txn_type)).to.deep.equal([
      'fx_spread',
    ]);
    const totals = await db('journal_lines')
      .whereIn('account_code', ['1300', '4030'])
      .groupBy('account_code')
      .select('account_code', db.raw('(sum(debit) - sum(credit))::text AS net'))
      .orderBy('account_code');
    expect(totals).to.deep.equal([
      { account_code: '1300', net: '0.00' },
      { account_code: '4030', net: '0.00' },
    ]);
  });
});
