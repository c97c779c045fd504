import { draftFromEntry, Decimal, FeeSchedule } from '@ledger/core/posting';
import { customerPositions } from '@ledger/core/reports';
import { dividendEvents, postTransactions, recost, type Db } from '@ledger/core/store';
import type { UsbrokerDailyLedgerRow } from '@ledger/upstream-clients';
import { expect } from 'chai';
import nock from 'nock';
import {
  JOBS,
  noOutcomes,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  syncUsbrokerLedgerJob,
  syncUsbrokerLedgerResult,
} from '../src/testing.js';
import {
  brokerBookPerTest,
  brokerClient,
  depsOf,
  derivationOf,
  DIV,
  DIVNRA,
  fakeBroker,
  linesOf,
  order,
  rowCounts,
  TRD,
  wire,
  type FakeBroker,
} from './usbroker-support.js';

/**
 * 2026-01-07: USB-1's TRD of its buy ORD-1 (fees 2.63 + 1.87 = 4.50), a WIREI and a FEE row (a 5.00
 * wire fee); USB-2's TRD of ORD-21 (0.30 + 0.03 = 0.33); a TRD and a FEE of USB-9, an account no
 * customer holds.
 * 2026-02-13: USB-1's dividend of 10.00 with 2.50 withheld (25 %); USB-2's of 20.00 with 6.00 (30 %).
 */
function broker(): FakeBroker {
  return {
    wires: [wire({ transfer_id: 'WIR-001', account_no: 'USB-1', amount: '5000.00', value_date: '2026-01-05' })],
    orders: {
      'USB-1': [order({ order_id: 'ORD-1' })],
      'USB-2': [order({ order_id: 'ORD-21', symbol: 'MSFT', qty: '3', filled_qty: '3', avg_fill_price: '100.00' })],
    },
    ledger: {
      '2026-01-07': [
        TRD,
        { account_no: 'USB-1', txn_no: 'TXN-WIREI', row_code: 'WIREI', amount: '5000.00' },
        { account_no: 'USB-1', txn_no: 'TXN-FEE', row_code: 'FEE', amount: '-5.00', description: 'Wire fee' },
        {
          ...TRD,
          account_no: 'USB-2',
          txn_no: 'TXN-TRD2',
          symbol: 'MSFT',
          quantity: '3',
          price: '99.89',
          principal: '-299.67',
          commission: '-0.30',
          ifsca_fee: '-0.03',
          amount: '-300.00',
        },
        { ...TRD, account_no: 'USB-9', txn_no: 'TXN-TRD9' },
        { account_no: 'USB-9', txn_no: 'TXN-FEE9', row_code: 'FEE', amount: '-15.00', description: 'Account fee' },
      ],
      '2026-02-13': [
        DIV,
        DIVNRA,
        { ...DIV, account_no: 'USB-2', txn_no: 'TXN-DIV2', symbol: 'MSFT', quantity: '80', amount: '20.00' },
        {
          ...DIVNRA,
          account_no: 'USB-2',
          txn_no: 'TXN-NRA2',
          symbol: 'MSFT',
          quantity: '80',
          amount: '-6.00',
          wht_rate: '0.30',
          ref_txn_no: 'TXN-DIV2',
        },
      ],
    },
  };
}

const RANGE = { start: '2026-01-07', end: '2026-02-13' };
/** No outcome counted: a count's other outcomes. */
const none = noOutcomes();

describe('sync-usbroker-ledger against a nock’ed broker', function () {
  this.timeout(60_000);
  let db: Db;
  brokerBookPerTest((opened) => (db = opened));

  it('is in the catalog with the spec’s body: end defaults to start, at most 92 days, never before start', () => {
    expect(JOBS['sync-usbroker-ledger']).to.equal(syncUsbrokerLedgerJob);
    expect(syncUsbrokerLedgerJob).to.include({ mode: 'background', family: 'syncs' });
    expect(syncUsbrokerLedgerJob.input.parse({ start: '2026-01-07' })).to.deep.equal({
      start: '2026-01-07',
      dry_run: false,
    });
    expect(syncUsbrokerLedgerJob.input.parse({ start: '2026-01-01', end: '2026-04-02', code: null })).to.deep.include({
      end: '2026-04-02',
      code: null,
    });
    for (const bad of [
      {},
      { start: '2026-1-7' },
      { start: '2026-01-07', end: '2026-01-06' },
      { start: '2026-01-01', end: '2026-04-03' },
      { start: '2026-01-07', code: '' },
      { start: '2026-01-07', other: 1 },
    ]) {
      expect(() => syncUsbrokerLedgerJob.input.parse(bad), JSON.stringify(bad)).to.throw();
    }
  });

  it('posts each dividend gross and its withholding, each FEE row as a broker_fee, upserts the dividend events, records the TRD fees; counts TRD and WIREI rows without posting them', async () => {
    fakeBroker(broker());
    const result = await runSyncUsbrokerLedger(RANGE, depsOf(db, brokerClient()));
    syncUsbrokerLedgerResult.parse(result);
    expect(result).to.deep.include({
      dry_run: false,
      firm: 'FIRM1',
      dates: 38,
      dates_failed: [],
      rows: { TRD: 3, WIREI: 1, WIREO: 0, DIV: 2, DIVNRA: 2, FEE: 2, SPLIT: 0, CIL: 0 },
      rows_of_unknown_accounts: 2,
      rows_of_unknown_codes: {},
      customers: 2,
      customers_failed: [],
      records: {
        dividends: { inserted: 2, updated: 0, duplicate: 0, conflict: 0, skipped: 0, rejected: 0 },
        withholdings: { inserted: 2, updated: 0, duplicate: 0, conflict: 0, skipped: 0, rejected: 0 },
        fees: { inserted: 1, updated: 0, duplicate: 0, conflict: 0, skipped: 0, rejected: 0 },
        cash_in_lieu: { inserted: 0, updated: 0, duplicate: 0, conflict: 0, skipped: 0, rejected: 0 },
        unknown_rows: { inserted: 0, updated: 0, duplicate: 0, conflict: 0, skipped: 0, rejected: 0 },
      },
      dividend_events: { ...none, offered: 2, inserted: 2 },
      broker_fees: { ...none, offered: 2, inserted: 2, repending: 0 },
      trades_unmatched: [],
      issues: [],
    });
    expect(await linesOf(db, 'TXN-DIV')).to.deep.equal([
      ['1100', '10.00', '0.00', 'dividend'],
      ['2010', '0.00', '10.00', 'dividend'],
    ]);
    expect(await linesOf(db, 'TXN-NRA2')).to.deep.equal([
      ['2010', '6.00', '0.00', 'wht_tax'],
      ['1100', '0.00', '6.00', 'wht_tax'],
    ]);
    // USB-1's 5.00 wire fee: the broker holds 5.00 less of IND-1's cash, so its wallet and the omnibus fall together.
    expect(await linesOf(db, 'TXN-FEE')).to.deep.equal([
      ['2010', '5.00', '0.00', 'broker_fee'],
      ['1100', '0.00', '5.00', 'broker_fee'],
    ]);
    expect(
      await db('transactions')
        .where({ source: 'usbroker', source_txn_id: 'TXN-FEE' })
        .first('txn_type', 'customer_id', db.raw('txn_date::text AS txn_date'), 'amount_usd'),
    ).to.deep.equal({
      txn_type: 'broker_fee',
      customer_id: 'IND-1',
      txn_date: '2026-01-07',
      amount_usd: '5.00',
    });
    for (const notPosted of ['TXN-TRD', 'TXN-WIREI', 'TXN-TRD9', 'TXN-FEE9'])
      expect(await linesOf(db, notPosted)).to.deep.equal([]);
    const [event] = await dividendEvents(db, 'IND-2');
    expect(event).to.deep.include({
      div_txn_no: 'TXN-DIV2',
      symbol: 'MSFT',
      ex_date: '2026-02-09',
      pay_date: '2026-02-13',
      shares: '80',
      gross_usd: '20.00',
      wht_txn_no: 'TXN-NRA2',
      wht_rate: '0.30',
      wht_usd: '6.00',
    });
    const fees = await db('broker_fees')
      .select('source', 'source_txn_id', db.raw('amount_usd::text AS amount_usd'))
      .orderBy('source_txn_id');
    expect(fees).to.deep.equal([
      { source: 'usbroker', source_txn_id: 'ORD-1', amount_usd: '4.50' },
      { source: 'usbroker', source_txn_id: 'ORD-21', amount_usd: '0.33' },
    ]);
  });

  it('run twice writes nothing new', async () => {
    fakeBroker(broker());
    await runSyncUsbrokerLedger(RANGE, depsOf(db, brokerClient()));
    const before = await rowCounts(db);
    const again = await runSyncUsbrokerLedger(RANGE, depsOf(db, brokerClient()));
    expect(again.records.dividends).to.deep.include({ inserted: 0, duplicate: 2 });
    expect(again.records.withholdings).to.deep.include({ inserted: 0, duplicate: 2 });
    expect(again.records.fees).to.deep.include({ inserted: 0, duplicate: 1 });
    expect(again.dividend_events).to.deep.equal({ ...none, offered: 2, duplicate: 2 });
    expect(again.broker_fees).to.deep.equal({ ...none, offered: 2, duplicate: 2, repending: 0 });
    expect(await rowCounts(db)).to.deep.equal(before);
  });

  it('a 1-for-10 reverse split with cash in lieu, and a row of an unknown code: the split recorded, the fraction sold, the unknown row an exception naming it, the rest of the day posted; run twice, the same books (worked by hand)', async () => {
    const policy = { feeSchedule: new FeeSchedule(new Decimal(22)) };
    await postTransactions(db, [
      draftFromEntry(
        {
          txn_type: 'buy_security',
          customer_id: 'IND-1',
          source: 'usbroker',
          source_txn_id: 'ORD-XYZ',
          symbol: 'XYZ',
          quantity: '25',
          amount_usd: '500.00',
          txn_date: '2026-01-05',
        },
        '0194a0a0-0000-7000-8000-000000000001',
        policy,
      ),
    ]);
    await recost(db, { policy, limit: null });
    const day = '2026-01-12';
    const split = { account_no: 'USB-1', symbol: 'XYZ', trade_date: day };
    fakeBroker({
      wires: [],
      orders: {},
      ledger: {
        [day]: [
          {
            ...split,
            txn_no: 'TXN-SPLIT',
            row_code: 'SPLIT',
            quantity: '-22.5',
            per_share: '0.1',
            amount: '0.00',
            description: 'SPLIT 1:10 XYZ',
          },
          {
            ...split,
            txn_no: 'TXN-CIL',
            row_code: 'CIL',
            quantity: '-0.5',
            price: '30.00',
            amount: '15.00',
            ref_txn_no: 'TXN-SPLIT',
          },
          {
            ...split,
            txn_no: 'TXN-MRG',
            row_code: 'MERGER',
            quantity: '-2',
            amount: '0.00',
          } as unknown as Partial<UsbrokerDailyLedgerRow>,
          { account_no: 'USB-1', txn_no: 'TXN-FEE', row_code: 'FEE', amount: '-1.00', description: 'Account fee' },
        ],
      },
    });
    const first = await runSyncUsbrokerLedger({ start: day }, depsOf(db, brokerClient()));
    syncUsbrokerLedgerResult.parse(first);
    expect(first).to.deep.include({
      dates_failed: [],
      customers_failed: [],
      rows_of_unknown_codes: { MERGER: 1 },
      // The pair's newest trade, the CIL sale posted just before, is pending already: nothing more to re-pend.
      stock_splits: { ...none, offered: 1, inserted: 1, repending: 0 },
    });
    expect(first.records.cash_in_lieu).to.include({ inserted: 1 });
    expect(first.records.unknown_rows).to.include({ rejected: 1 });
    expect(first.records.fees).to.include({ inserted: 1 });
    const exceptions = await db('exceptions').select('record_key', 'reason_code', 'reason', 'state', 'record');
    expect(exceptions).to.have.length(1);
    expect(exceptions[0]).to.deep.include({ record_key: 'TXN-MRG', reason_code: 'unknown_row_code', state: 'open' });
    expect(exceptions[0].reason).to.match(/row code MERGER/);
    expect(exceptions[0].record).to.deep.include({ code: 'MERGER', txn_no: 'TXN-MRG', account_no: 'USB-1' });
    // Cash in lieu is a sale of the fraction: 15.00 credited, no fee.
    expect(await linesOf(db, 'TXN-CIL')).to.deep.equal([
      ['1100', '15.00', '0.00', 'sale_proceeds'],
      ['2010', '0.00', '15.00', 'sale_proceeds'],
    ]);
    await recost(db, { policy, limit: null });
    // 25 shares become 2.5 at 500.00; the 0.5 sold relieves 500.00 × 0.5/2.5 = 100.00: 2 left at 400.00.
    expect(await derivationOf(db, 'TXN-CIL')).to.deep.equal([
      ['2100', '100.00', '0.00', 'cost_relief'],
      ['1200', '0.00', '100.00', 'cost_relief'],
    ]);
    expect(await customerPositions(db, 'IND-1')).to.deep.equal([
      { symbol: 'XYZ', quantity: '2', cost_usd: '400.00', pending_recost: 0 },
    ]);

    const before = await rowCounts(db);
    const again = await runSyncUsbrokerLedger({ start: day }, depsOf(db, brokerClient()));
    expect(again.stock_splits).to.deep.equal({ ...none, offered: 1, duplicate: 1, repending: 0 });
    expect(again.records.cash_in_lieu).to.include({ duplicate: 1 });
    expect(await recost(db, { policy, limit: null })).to.include({ derivations_posted: 0, superseded: 0 });
    expect(await rowCounts(db)).to.deep.equal(before);
  });

  it('a dry run writes nothing and reports what it would post and offer', async () => {
    fakeBroker(broker());
    const before = await rowCounts(db);
    const dry = await runSyncUsbrokerLedger({ ...RANGE, dry_run: true }, depsOf(db, brokerClient()));
    expect(await rowCounts(db)).to.deep.equal(before);
    expect(dry.records.dividends).to.deep.include({ inserted: 2 });
    expect(dry.dividend_events).to.deep.equal({ ...none, offered: 2 });
    expect(dry.broker_fees).to.deep.equal({ ...none, offered: 2, repending: 0 });
  });

  it('recost after the ledger sync uses the itemised fee: the broker cost of a recosted buy is superseded by the TRD row’s 4.50', async () => {
    fakeBroker(broker());
    await runSyncUsbroker({ customer_ids: ['IND-1'] }, depsOf(db, brokerClient()));
    // Before the daily ledger: BROKER_COST_BPS, 4 bps of the shares' 1,870.39 = 0.75.
    expect(await derivationOf(db, 'ORD-1')).to.deep.equal([
      ['5010', '0.75', '0.00', 'broker_cost'],
      ['2340', '0.00', '0.75', 'broker_cost'],
      ['2340', '0.75', '0.00', 'broker_cost_settled'],
      ['1100', '0.00', '0.75', 'broker_cost_settled'],
    ]);
    const result = await runSyncUsbrokerLedger({ start: '2026-01-07' }, depsOf(db, brokerClient()));
    expect(result.broker_fees).to.deep.equal({ ...none, offered: 2, inserted: 2, repending: 1 });
    const recosted = await recost(db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    expect(recosted).to.include({ superseded: 1, derivations_posted: 1 });
    expect(await derivationOf(db, 'ORD-1')).to.deep.equal([
      ['5010', '4.50', '0.00', 'broker_cost'],
      ['2340', '0.00', '4.50', 'broker_cost'],
      ['2340', '4.50', '0.00', 'broker_cost_settled'],
      ['1100', '0.00', '4.50', 'broker_cost_settled'],
    ]);
    // A trade posted after its fee was recorded is costed with it at once.
    await runSyncUsbroker({ customer_ids: ['IND-2'] }, depsOf(db, brokerClient()));
    expect(await derivationOf(db, 'ORD-21')).to.deep.equal([
      ['5010', '0.33', '0.00', 'broker_cost'],
      ['2340', '0.00', '0.33', 'broker_cost'],
      ['2340', '0.33', '0.00', 'broker_cost_settled'],
      ['1100', '0.00', '0.33', 'broker_cost_settled'],
    ]);
  });

  it('a customer whose orders call fails is failed with the reason and nothing of it is written; the others are synced', async () => {
    fakeBroker({ ...broker(), failing: { '/v1/accounts/USB-2/orders': 500 } });
    const result = await runSyncUsbrokerLedger(RANGE, depsOf(db, brokerClient()));
    expect(result.customers_failed).to.have.length(1);
    expect(result.customers_failed[0]).to.include({ customer_id: 'IND-2' });
    expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({
      upstream: 'usbroker',
      method: 'GET',
      path: '/v1/accounts/USB-2/orders',
      status: 500,
    });
    expect(await linesOf(db, 'TXN-DIV2')).to.deep.equal([]);
    expect(await dividendEvents(db, 'IND-2')).to.deep.equal([]);
    expect(await linesOf(db, 'TXN-DIV')).to.have.length(2);
    expect(result.broker_fees).to.deep.include({ inserted: 1 });
  });

  it('broker down, an unknown firm, or usbroker not configured: every date failed with the reason, nothing written, the run ends', async () => {
    fakeBroker({ ...broker(), failing: { '/v1/reports/daily-ledger': 503 } });
    const down = await runSyncUsbrokerLedger({ start: '2026-01-07', end: '2026-01-08' }, depsOf(db, brokerClient()));
    expect(down.dates_failed.map((d) => d.date)).to.deep.equal(['2026-01-07', '2026-01-08']);
    expect(down.dates_failed[0]!.reason).to.match(/503/);
    nock.cleanAll();
    fakeBroker(broker());
    const unknownFirm = await runSyncUsbrokerLedger({ start: '2026-01-07', code: 'OTHER' }, depsOf(db, brokerClient()));
    expect(unknownFirm.firm).to.equal('OTHER');
    expect(unknownFirm.dates_failed[0]!.reason).to.match(/unknown firm OTHER/);
    const off = await runSyncUsbrokerLedger({ start: '2026-01-07' }, depsOf(db, null));
    expect(off.dates_failed).to.deep.equal([
      { date: '2026-01-07', reason: 'upstream_unavailable: usbroker is not configured on this book' },
    ]);
    const noFirm = await runSyncUsbrokerLedger({ start: '2026-01-07' }, depsOf(db, brokerClient(), null));
    expect(noFirm.dates_failed[0]!.reason).to.equal('no_firm: give `code` or set USBROKER_FIRM_ID');
    expect(await rowCounts(db)).to.deep.equal({
      transactions: 0,
      journal_lines: 0,
      broker_fees: 0,
      dividend_events: 0,
      stock_splits: 0,
      exceptions: 0,
    });
  });

  it('a withholding arriving after its dividend’s run fills the event in; a later run without it never blanks it', async () => {
    fakeBroker({
      ...broker(),
      ledger: {
        '2026-03-02': [{ ...DIV, txn_no: 'TXN-DIV3', pay_date: '2026-03-02' }],
        '2026-03-03': [{ ...DIVNRA, txn_no: 'TXN-NRA3', ref_txn_no: 'TXN-DIV3', pay_date: '2026-03-02' }],
      },
    });
    await runSyncUsbrokerLedger({ start: '2026-03-02' }, depsOf(db, brokerClient()));
    expect((await dividendEvents(db, 'IND-1'))[0]).to.include({ div_txn_no: 'TXN-DIV3', wht_txn_no: null });
    const late = await runSyncUsbrokerLedger({ start: '2026-03-03' }, depsOf(db, brokerClient()));
    expect(late.dividend_events).to.deep.equal({ ...none, offered: 0, updated: 1 });
    await runSyncUsbrokerLedger({ start: '2026-03-02' }, depsOf(db, brokerClient()));
    expect((await dividendEvents(db, 'IND-1'))[0]).to.include({ wht_txn_no: 'TXN-NRA3', wht_usd: '2.50' });
  });
});
