import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Decimal } from '@ledger/core/posting';
import { recordBrokerFees, recost, upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
  brokerFeesReport,
  capitalGainsReport,
  dividendsReport,
  indiaSettingsOf,
  indiaSettingsSchema,
  loadCostInflationIndex,
  loadFxRates,
  loadIssuers,
  lrsReport,
  parseFinancialYear,
  scheduleFaReport,
  settlementAuditReport,
  shippedCiiCsv,
  shippedIssuersCsv,
  type IndiaReportContext,
} from '../src/index.js';
import { RECOST, setRates, trade } from './book.js';

const SETTINGS = indiaSettingsOf(
  indiaSettingsSchema.parse({
    FX_SPREAD_BPS: '75',
    SCHEDULE_FA_BROKER_NAME: 'Example Securities LLC',
    SCHEDULE_FA_BROKER_ADDRESS: '1 Broker Plaza, Jersey City, New Jersey, United States',
    SCHEDULE_FA_BROKER_ZIP_CODE: '07302',
  }),
  RECOST.policy.feeSchedule,
);
const FY = parseFinancialYear('2024-25');
const PAGE = { limit: 50, offset: 0 };
const csv = readFileSync(new URL('../data/sbi-usd-inr-rates.csv', import.meta.url), 'utf8');

describe('India reports on stored data (real Postgres)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let db: Db;
  let india: IndiaReportContext;

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    db = t.runtime!.db;
    india = { book: 'ENTITY_IND_IFSC', db, settings: SETTINGS };
  });
  after(async () => {
    await t?.drop();
  });

  describe('load-fx-rates', () => {
    it('loads the shipped file: Saturday zeros and earlier sheets of a revised day skipped; a second load changes nothing', async () => {
      const first = await loadFxRates(db, csv, 'sbi-usd-inr-rates');
      expect(first).to.deep.include({
        loaded: 1559,
        replaced: 0,
        unchanged: 0,
        skipped: 66,
        skipped_by_reason: { no_tt_rate_saturday: 54, revised_same_day: 12 },
      });
      const second = await loadFxRates(db, csv, 'sbi-usd-inr-rates');
      expect(second).to.deep.include({ loaded: 0, replaced: 0, unchanged: 1559, skipped: 66 });
      const { rows } = await db.raw("SELECT tt_buy::text, mid::text FROM inr_rates WHERE rate_date = '2024-06-04'");
      expect(rows).to.deep.equal([{ tt_buy: '83.15', mid: '83.575' }]);
    });

    it('a later sheet of a loaded day replaces it; an earlier one is skipped as older than stored', async () => {
      const header = 'DATE,TT BUY,TT SELL\r\n';
      const later = await loadFxRates(db, `${header}2024-06-04 18:00,83.25,84.10\r\n`, 'revision');
      expect(later).to.deep.include({ loaded: 0, replaced: 1, unchanged: 0, skipped: 0 });
      const earlier = await loadFxRates(db, `${header}2024-06-04 10:00,80.00,81.00\r\n`, 'stale');
      expect(earlier).to.deep.include({ replaced: 0, skipped: 1, skipped_by_reason: { older_than_stored: 1 } });
      const { rows } = await db.raw("SELECT tt_buy::text FROM inr_rates WHERE rate_date = '2024-06-04'");
      expect(rows).to.deep.equal([{ tt_buy: '83.25' }]);
    });
  });

  describe('capital gains, from the matches recost stored', () => {
    it('FIFO with a lot consumed in part, sales a day either side of 24 months, and the 2024-07-23 change, worked by hand', async () => {
      await upsertCustomer(db, 'IND-CG', {});
      const c = { customer_id: 'IND-CG', symbol: 'AAPL' };
      // Customer fee 22 bps: 1,500.00 → 3.30; 1,800.00 → 3.96; sales 1,000.00 → 2.20, 1,800.00 → 3.96, 500.00 → 1.10.
      const l1 = await trade(db, {
        ...c,
        txn_type: 'buy_security',
        quantity: '10',
        amount_usd: '1500.00',
        txn_date: '2022-04-15',
      });
      const l2 = await trade(db, {
        ...c,
        txn_type: 'buy_security',
        quantity: '10',
        amount_usd: '1800.00',
        txn_date: '2022-06-10',
      });
      const s1 = await trade(db, {
        ...c,
        txn_type: 'sell_security',
        quantity: '5',
        amount_usd: '1000.00',
        txn_date: '2024-04-14',
      });
      const s2 = await trade(db, {
        ...c,
        txn_type: 'sell_security',
        quantity: '8',
        amount_usd: '1800.00',
        txn_date: '2024-04-16',
      });
      const s3 = await trade(db, {
        ...c,
        txn_type: 'sell_security',
        quantity: '2',
        amount_usd: '500.00',
        txn_date: '2024-07-23',
      });
      await recost(db, RECOST);
      // Rule 115: the last day of the month before. June 2024 ends on a Sunday: no sheet that day, the 28th's is taken.
      await setRates(db, {
        '2022-03-31': '75.00',
        '2022-05-31': '77.00',
        '2024-03-31': '83.00',
        '2024-06-28': '83.40',
      });
      // The shipped file (loaded above) has the Saturday's sheet: removed (as the owner) to show the look-back.
      await t.db.raw("DELETE FROM inr_rates WHERE rate_date IN ('2024-06-29', '2024-06-30')");
      await loadCostInflationIndex(db, await shippedCiiCsv('cost-inflation-index'), 'cost-inflation-index');
      // AAPL is a share (the issuers file): its holding period is 24 months.
      await loadIssuers(db, await shippedIssuersCsv('us-issuers'), 'us-issuers');

      const report = await capitalGainsReport({ ...india, db: t.db }, FY, 'IND-CG', PAGE);
      const [symbol] = report.items[0]!.symbols;
      const line = (m: Record<string, unknown>) => [
        m.lot_txn_id,
        m.quantity,
        m.cost_of_acquisition_usd,
        m.consideration_usd,
        m.cost_of_acquisition_inr,
        m.consideration_inr,
        m.gain_inr,
        m.months_held,
        m.term,
        m.rate_era,
        m.ltcg_rate,
      ];
      const disposals = (
        symbol!.disposals as Array<{ sell_txn_id: string; matches: Array<Record<string, unknown>> }>
      ).map((dsp) => [dsp.sell_txn_id, dsp.matches.map(line)]);
      expect(disposals).to.deep.equal([
        // 5 of L1's 10: cost 750.00 + fee 1.65 = 751.65 × 75 = 56,373.75; 1,000.00 − 2.20 = 997.80 × 83 = 82,817.40. 23 months: short.
        [
          s1,
          [[l1, '5', '751.65', '997.80', '56373.75', '82817.40', '26443.65', 23, 'short', 'before_2024_07_23', null]],
        ],
        // The other 5 of L1 (24 months and a day: long, 20 % with indexation) and 3 of L2 (540.00 + 1.19, 22 months: short).
        // Proceeds 1,800.00 by shares 5:3 = 1,125.00 and 675.00; the fee 3.96 = 2.48 and 1.48.
        [
          s2,
          [
            [l1, '5', '751.65', '1122.52', '56373.75', '93169.16', '36795.41', 24, 'long', 'before_2024_07_23', '0.2'],
            [l2, '3', '541.19', '673.52', '41671.63', '55902.16', '14230.53', 22, 'short', 'before_2024_07_23', null],
          ],
        ],
        // 2 more of L2 on 2024-07-23: 900.00 − 540.00 = 360.00 + 0.79; 498.90 × 83.40; long at 12.5 % without indexation.
        [
          s3,
          [[l2, '2', '360.79', '498.90', '27780.83', '41608.26', '13827.43', 25, 'long', 'from_2024_07_23', '0.125']],
        ],
      ]);
      expect(symbol).to.deep.include({
        short_term_gain_inr: '40674.18',
        long_term_gain_inr: '50622.84',
        long_term_gain_before_2024_07_23_inr: '36795.41',
        // L1's 5 long-term shares indexed: 56,373.75 × 363 (2024-25) / 331 (2022-23) = 61,823.78; 93,169.16 − 61,823.78.
        long_term_gain_before_2024_07_23_indexed_inr: '31345.38',
        long_term_gain_from_2024_07_23_inr: '13827.43',
      });
      // L2 keeps 5 shares at 900.00 (1,800.00 less 540.00 and 360.00); Schedule AL's INR cost at the
      // Rule 115 rate of June 2022 (2022-05-31: 77.00): 900.00 × 77 = 69,300.00.
      expect(symbol!.open_lots).to.deep.equal([
        {
          lot_txn_id: l2,
          acquired_on: '2022-06-10',
          quantity: '5',
          cost_usd: '900.00',
          cost_rate: { rate: '77', rate_date: '2022-05-31' },
          cost_inr: '69300.00',
        },
      ]);
      expect(report.warnings).to.deep.equal([
        "the rule asks for the USD/INR rate of 2024-06-30; SBI published none that day, so the figures take 2024-06-28's, the nearest earlier sheet",
      ]);
    });

    it('an oversell is flagged, never given a zero cost', async () => {
      await upsertCustomer(db, 'IND-OVER', {});
      const c = { customer_id: 'IND-OVER', symbol: 'MSFT' };
      await trade(db, { ...c, txn_type: 'buy_security', quantity: '1', amount_usd: '400.00', txn_date: '2024-05-01' });
      const sale = await trade(db, {
        ...c,
        txn_type: 'sell_security',
        quantity: '2',
        amount_usd: '900.00',
        txn_date: '2024-06-03',
      });
      await recost(db, RECOST);
      const report = await capitalGainsReport(india, FY, 'IND-OVER', PAGE);
      const [symbol] = report.items[0]!.symbols;
      expect(symbol!.disposals).to.deep.equal([]);
      expect(symbol!.flagged_sales).to.deep.equal([
        { txn_id: sale, txn_date: '2024-06-03', quantity: '2', reason: 'insufficient_lots' },
      ]);
      expect(report.warnings[0]).to.match(/is flagged by recost \(insufficient_lots\): no cost is given/);
    });

    it('pages by customer in id order, each customer whole: a page is the unpaged report’s slice, counted over every customer', async () => {
      await upsertCustomer(db, 'IND-PG', {});
      const c = { customer_id: 'IND-PG', symbol: 'NVDA' };
      await trade(db, { ...c, txn_type: 'buy_security', quantity: '4', amount_usd: '400.00', txn_date: '2023-01-10' });
      await trade(db, { ...c, txn_type: 'sell_security', quantity: '1', amount_usd: '150.00', txn_date: '2024-05-10' });
      await trade(db, { ...c, txn_type: 'sell_security', quantity: '1', amount_usd: '160.00', txn_date: '2024-09-10' });
      await recost(db, RECOST);
      const whole = await capitalGainsReport(india, FY, null, PAGE);
      const ids = whole.items.map((customer) => customer.customer_id);
      expect(ids).to.include.members(['IND-CG', 'IND-OVER', 'IND-PG']);
      expect(ids).to.deep.equal([...ids].sort());
      expect(whole).to.deep.include({ total: ids.length, limit: 50, offset: 0 });
      const at = ids.indexOf('IND-PG');
      const page = await capitalGainsReport(india, FY, null, { limit: 1, offset: at });
      expect(page).to.deep.include({ items: [whole.items[at]], total: ids.length, limit: 1, offset: at });
      // Both sales of IND-PG on the one page, with their sum in the customer's totals.
      expect(page.items[0]!.symbols[0]!.disposals).to.have.length(2);
      const past = await capitalGainsReport(india, FY, null, { limit: 1, offset: ids.length });
      expect(past).to.deep.include({ items: [], total: ids.length });
    });
  });

  describe('broker fees', () => {
    it('modelled, configured (4 bps, half up to the cent) and actual per trade, drift beyond a cent flagged; counts and totals over every trade, not the page', async () => {
      await upsertCustomer(db, 'IND-FEE', {});
      const c = { customer_id: 'IND-FEE', quantity: '1' };
      const buy = await trade(db, {
        ...c,
        symbol: 'AAPL',
        txn_type: 'buy_security',
        amount_usd: '1000.00',
        txn_date: '2024-05-02',
      });
      const sell = await trade(db, {
        ...c,
        symbol: 'AAPL',
        txn_type: 'sell_security',
        amount_usd: '1234.56',
        txn_date: '2024-05-03',
      });
      const other = await trade(db, {
        ...c,
        symbol: 'MSFT',
        txn_type: 'buy_security',
        amount_usd: '1012.50',
        txn_date: '2024-05-06',
      });
      await recost(db, RECOST);
      // The daily ledger itemises the two buys' fees after recost (recost modelled 4 bps of each):
      // the first buy's broker kept 0.45 of its 2.20; the other's itemised fee is 2.21 where the book charged 2.23.
      const fee = (txnId: string, broker: string, platform: string) => ({
        source: 'usbroker' as const,
        sourceTxnId: `o-${txnId}`,
        amountUsd: broker,
        platformFeeUsd: platform,
        sourceRow: {},
      });
      await recordBrokerFees(db, [fee(buy, '0.45', '1.75'), fee(other, '0.41', '1.80')]);
      const filter = { from: null, to: null, customerId: 'IND-FEE' };
      const money = (value: string | null) => (value === null ? null : new Decimal(value).toFixed(2));
      const less = (a: string | null, b: string | null) =>
        a === null || b === null ? null : new Decimal(a).minus(b).toFixed(2);
      const row = (
        txnId: string,
        side: string,
        notional: string,
        figures: {
          modelled: string;
          configured: string;
          actual: string | null;
          customerFee: string;
          itemised: string | null;
        },
      ) => {
        const drift = less(figures.actual, figures.modelled);
        const feeDrift = less(figures.itemised, figures.customerFee);
        return {
          txn_id: txnId,
          customer_id: 'IND-FEE',
          symbol: txnId === other ? 'MSFT' : 'AAPL',
          side,
          txn_date: { [buy]: '2024-05-02', [sell]: '2024-05-03', [other]: '2024-05-06' }[txnId],
          notional_usd: notional,
          modelled_usd: figures.modelled,
          configured_usd: figures.configured,
          actual_usd: money(figures.actual),
          drift_usd: drift,
          configured_drift_usd: less(figures.actual, figures.configured),
          customer_fee_usd: figures.customerFee,
          itemised_fee_usd: money(figures.itemised),
          customer_fee_drift_usd: feeDrift,
          flagged: [drift, feeDrift].some((d) => d !== null && new Decimal(d).abs().isGreaterThan('0.01')),
        };
      };
      // 4 bps: 1,000.00 → 0.40; 1,234.56 → 0.493824 → 0.49; 1,012.50 → 0.405 → 0.41. The customer's
      // 22 bps: 2.20, 2.716… → 2.72 (recost's, on the sale), 2.2275 → 2.23.
      const rows = [
        row(buy, 'buy', '1000.00', {
          modelled: '0.40',
          configured: '0.40',
          actual: '0.45',
          customerFee: '2.20',
          itemised: '2.20',
        }),
        row(sell, 'sell', '1234.56', {
          modelled: '0.49',
          configured: '0.49',
          actual: null,
          customerFee: '2.72',
          itemised: null,
        }),
        row(other, 'buy', '1012.50', {
          modelled: '0.41',
          configured: '0.41',
          actual: '0.41',
          customerFee: '2.23',
          itemised: '2.21',
        }),
      ];
      // The first buy: the broker kept 0.05 more than the book posted; the other: the customer was charged 0.02 less than posted.
      expect(rows.map((r) => r.flagged)).to.deep.equal([true, false, true]);
      const figures = {
        configured_bps: '4',
        trades: 3,
        matched: 2,
        matched_share: '0.666667',
        flagged: 2,
        totals: {
          notional_usd: '3247.06',
          modelled_usd: '1.30',
          configured_usd: '1.30',
          actual_usd: '0.86',
          drift_usd: '0.05',
          configured_drift_usd: '0.05',
          customer_fee_usd: '7.15',
          itemised_fee_usd: '4.41',
          customer_fee_drift_usd: '-0.02',
        },
        total: 3,
        warnings: [],
      };
      expect(await brokerFeesReport(india, filter, PAGE)).to.deep.equal({ ...figures, items: rows, ...PAGE });
      expect(await brokerFeesReport(india, filter, { limit: 2, offset: 1 })).to.deep.equal({
        ...figures,
        items: rows.slice(1),
        limit: 2,
        offset: 1,
      });
      // The firm's modelled total (the broker cost recost posted) is its trades' modelled, summed.
      const book = await brokerFeesReport(india, { from: null, to: null, customerId: null }, { limit: 500, offset: 0 });
      expect(book.items).to.have.length(book.trades);
      expect(book.totals.modelled_usd).to.equal(
        book.items.reduce((total, r) => total.plus(r.modelled_usd ?? 0), new Decimal(0)).toFixed(2),
      );
      // The window narrows the trades and their totals alike.
      expect(await brokerFeesReport(india, { ...filter, from: '2024-05-03', to: '2024-05-03' }, PAGE)).to.deep.include({
        trades: 1,
        matched: 0,
        flagged: 0,
        total: 1,
        items: [rows[1]],
      });
      // Recording the fees re-pended the buys: recost posts the broker's actual cost, and only the
      // customer-fee drift, which no recost can remove, stays flagged.
      await recost(db, RECOST);
      const after = await brokerFeesReport(india, filter, PAGE);
      expect(after.items.map((r) => [r.modelled_usd, r.drift_usd, r.flagged])).to.deep.equal([
        ['0.45', '0.00', false],
        ['0.49', null, false],
        ['0.41', '0.00', true],
      ]);
      expect(after).to.deep.include({ flagged: 1 });
      expect(after.totals).to.deep.include({ modelled_usd: '1.35', drift_usd: '0.00' });
    });
  });

  describe('schedule FA', () => {
    it('a lot sold out before the calendar year is not held in it: the holding starts at the year’s lot, with its fee in the initial value; A2 names the configured broker and the linked account, opened with its first line', async () => {
      await upsertCustomer(db, 'IND-FA', { references: { usbroker_account_no: 'ACC-FA' } });
      const c = { customer_id: 'IND-FA', symbol: 'AMZN' };
      await trade(db, { ...c, txn_type: 'buy_security', quantity: '2', amount_usd: '300.00', txn_date: '2023-03-01' });
      await trade(db, { ...c, txn_type: 'sell_security', quantity: '2', amount_usd: '320.00', txn_date: '2023-06-01' });
      await trade(db, { ...c, txn_type: 'buy_security', quantity: '1', amount_usd: '100.00', txn_date: '2024-02-01' });
      await recost(db, RECOST);
      await loadIssuers(db, await shippedIssuersCsv('us-issuers'), 'us-issuers');
      const report = await scheduleFaReport(india, FY, 'IND-FA', PAGE);
      // 100.00 + its 22 bps fee 0.22; one share held from 2024-02-01 to the year's end.
      const { a3, a2 } = report.items[0]!;
      // The broker as configured; the account as linked, opened (in the book) with its first buy.
      expect(a2).to.have.length(1);
      expect(a2[0]).to.deep.include({
        institution_name: 'Example Securities LLC',
        institution_zip_code: '07302',
        account_number: 'ACC-FA',
        status: 'Owner',
        account_opening_date: '2023-03-01',
      });
      expect(a3).to.have.length(1);
      expect(a3[0]).to.deep.include({
        symbol: 'AMZN',
        entity_name: 'Amazon.com, Inc.',
        address: '410 Terry Avenue North, Seattle, Washington, United States',
        zip_code: '98109-5210',
        country: 'United States of America',
        date_of_acquiring: '2024-02-01',
        initial_value_usd: '100.22',
        closing_shares: '1',
      });
    });

    it('table A2 counts as paid or credited only the wallet’s dividends and sale proceeds, net of reversals: never the holder’s own wire in', async () => {
      await upsertCustomer(db, 'IND-A2', {});
      const c = { customer_id: 'IND-A2', symbol: 'AMZN' };
      await trade(db, { customer_id: 'IND-A2', txn_type: 'wire_in', amount_usd: '1000.00', txn_date: '2024-03-01' });
      await trade(db, { ...c, txn_type: 'buy_security', quantity: '2', amount_usd: '300.00', txn_date: '2023-03-01' });
      await trade(db, { ...c, txn_type: 'sell_security', quantity: '2', amount_usd: '320.00', txn_date: '2024-06-03' });
      await recost(db, RECOST);
      await loadFxRates(db, csv, 'sbi-usd-inr-rates');
      const { a2 } = (await scheduleFaReport(india, FY, 'IND-A2', PAGE)).items[0]!;
      // Proceeds 320.00 × 82.61 (2024-06-03's TT buy) = 26,435.20; the 1,000.00 wired in is no income.
      expect(a2[0]).to.deep.include({
        gross_dividend_usd: '0.00',
        gross_proceeds_usd: '320.00',
        gross_proceeds_inr: '26435.20',
        gross_credited_usd: '320.00',
        gross_credited_inr: '26435.20',
      });
    });

    it('pages by customer in id order, each customer whole: a customer whose first trade is after the year is not in it', async () => {
      for (const [customer_id, txn_date] of [
        ['IND-FA-1', '2024-03-01'],
        ['IND-FA-2', '2023-12-01'],
        ['IND-FA-3', '2025-01-02'],
      ] as const) {
        await upsertCustomer(db, customer_id, {});
        for (const symbol of ['AAPL', 'MSFT'])
          await trade(db, {
            customer_id,
            symbol,
            txn_type: 'buy_security',
            quantity: '1',
            amount_usd: '50.00',
            txn_date,
          });
      }
      await recost(db, RECOST);
      const whole = await scheduleFaReport(india, FY, null, { limit: 500, offset: 0 });
      const ids = whole.items.map((i) => i.customer_id);
      expect(ids).to.deep.equal([...ids].sort());
      expect(ids).to.include.members(['IND-FA-1', 'IND-FA-2']).and.not.include('IND-FA-3');
      const at = ids.indexOf('IND-FA-2');
      expect(whole.items[at]!.a3.map((h) => h.symbol)).to.deep.equal(['AAPL', 'MSFT']);
      const one = await scheduleFaReport(india, FY, null, { limit: 1, offset: at });
      expect(one).to.deep.include({ total: whole.total, limit: 1, offset: at });
      expect(one.items).to.deep.equal([whole.items[at]]);
      expect((await scheduleFaReport(india, FY, null, { limit: 1, offset: whole.total })).items).to.deep.equal([]);
    });
  });

  describe('dividends', () => {
    it('WHT at the 25 % treaty rate, with the foreign tax credit in INR at the rate of the last day of the month before payment', async () => {
      await upsertCustomer(db, 'IND-DIV', {});
      await t.db.raw(
        `INSERT INTO dividend_events (div_txn_no, customer_id, account_no, symbol, ex_date, pay_date, shares, per_share, gross_usd, wht_txn_no, wht_rate, wht_usd, report_date)
         VALUES ('DIV-1', 'IND-DIV', 'ACC-1', 'AAPL', '2024-08-12', '2024-08-15', 400, 0.25, 100.00, 'NRA-1', 0.25, 25.00, '2024-08-15')`,
      );
      await loadFxRates(db, csv, 'sbi-usd-inr-rates');
      const report = await dividendsReport(india, FY, 'IND-DIV');
      // 2024-07-31: TT buy 83.32. Gross 100.00 → 8,332.00; withheld 25.00 → 2,083.00 (the credit); net 6,249.00.
      expect(report.customers).to.deep.equal([
        {
          customer_id: 'IND-DIV',
          gross_usd: '100.00',
          withheld_usd: '25.00',
          net_usd: '75.00',
          effective_rate: '0.25',
          gross_inr: '8332.00',
          withheld_inr: '2083.00',
          net_inr: '6249.00',
          treaty_cap_inr: '2083.00',
          credit_available_inr: '2083.00',
          not_creditable_inr: '0.00',
          events: [
            {
              div_txn_no: 'DIV-1',
              symbol: 'AAPL',
              ex_date: '2024-08-12',
              pay_date: '2024-08-15',
              gross_usd: '100.00',
              withheld_usd: '25.00',
              net_usd: '75.00',
              effective_rate: '0.25',
              rate: { rate: '83.32', rate_date: '2024-07-31' },
              gross_inr: '8332.00',
              withheld_inr: '2083.00',
              net_inr: '6249.00',
              treaty_rate: '0.25',
              treaty_cap_inr: '2083.00',
              credit_available_inr: '2083.00',
              not_creditable_inr: '0.00',
              not_creditable_reason: null,
            },
          ],
        },
      ]);
    });
  });

  describe('lrs', () => {
    it('a remittance refunded after payment is read with its TCS, marked refunded; a failed one that never took the money is not', async () => {
      await upsertCustomer(db, 'IND-LRS', {});
      const remittance = (orderId: string, status: string, errorCode: string | null) =>
        t.db.raw(
          `INSERT INTO remittances (order_id, customer_id, remit_customer_id, pan, status, purpose_code, amount_inr, amount_usd, quote_id, fx_rate, tcs_inr,
                                    payment_error_code, remitted_on, order_created_at, order_updated_at, status_history)
           VALUES (?, 'IND-LRS', 'cust_lrs', 'LRSPA1234N', ?, 'S0001', 800000.00, 9600.00, 'quote_1', 0.012, 20000.00, ?, '2024-05-10', now(), now(), '[]')`,
          [orderId, status, errorCode],
        );
      await remittance('order_refunded', 'failed', 'REFUNDED');
      await remittance('order_declined', 'failed', 'DECLINED');
      const pan = (await lrsReport(india, FY)).pans.find((p) => p.pan === 'LRSPA1234N');
      expect(pan).to.deep.include({
        remittance_count: 1,
        refunded_count: 1,
        remitted_inr: '0.00',
        refunded_tcs_inr: '20000.00',
      });
      expect(pan!.remittances.map((r) => [r.order_id, r.actual_tcs_inr, r.refunded])).to.deep.equal([
        ['order_refunded', '20000.00', true],
      ]);
    });
  });

  describe('on the UAE book', () => {
    it('every stored-data report answers its shape, zero-valued, whatever the database holds', async () => {
      const uae: IndiaReportContext = { ...india, book: 'ENTITY_UAE' };
      expect((await lrsReport(uae, FY)).pans).to.deep.equal([]);
      expect(await capitalGainsReport(uae, FY, null, PAGE)).to.deep.include({ items: [], total: 0 });
      expect((await dividendsReport(uae, FY, null)).customers).to.deep.equal([]);
      expect(await scheduleFaReport(uae, FY, null, PAGE)).to.deep.include({ items: [], total: 0, warnings: [] });
      expect((await settlementAuditReport(uae, FY)).lag.count).to.equal(0);
      expect(await brokerFeesReport(uae, { from: null, to: null, customerId: null }, PAGE)).to.deep.include({
        trades: 0,
        items: [],
        total: 0,
        matched: 0,
        matched_share: '0',
      });
    });
  });
});
