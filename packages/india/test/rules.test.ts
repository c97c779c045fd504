import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Decimal, LedgerError } from '@ledger/core/posting';
import {
  addDays,
  addMonths,
  capitalGainsSummary,
  dividendSummary,
  estimateTcs,
  financialYearOf,
  fxMarginSummary,
  indexationYears,
  lagStatistics,
  lrsSummary,
  noPanRate,
  FY_RULE,
  parseFinancialYear,
  parseSbiRates,
  RateBook,
  scheduleFa,
  settlementAudit,
  tcsRules,
  termOf,
  tradingDays,
  wholeMonthsBetween,
  type A2Nature,
  type LrsRemittance,
} from '../src/index.js';

const d = (v: string) => new Decimal(v);
const remittance = (
  orderId: string,
  remittedOn: string,
  amountInr: string,
  extra: Partial<LrsRemittance> = {},
): LrsRemittance => ({
  orderId,
  customerId: 'IND-1',
  pan: 'ABCDE1234F',
  remittedOn,
  amountInr: d(amountInr),
  amountUsd: d(amountInr).dividedBy(80).decimalPlaces(2),
  tcsInr: null,
  refunded: false,
  ...extra,
});
const NO_TAN = { tan: null };
const RULES = tcsRules({ unconfirmedRules: true });
const rates = (entries: Record<string, string>) =>
  new RateBook(
    Object.entries(entries).map(([date, rate]) => ({
      date,
      ttBuy: d(rate),
      mid: d(rate),
      publishedAt: `${date} 09:00`,
    })),
  );

describe('financial years', () => {
  it('parses YYYY-YY of consecutive years, the century turning too', () => {
    expect(parseFinancialYear('2024-25')).to.deep.equal({
      label: '2024-25',
      start: '2024-04-01',
      end: '2025-03-31',
      calendarYear: 2024,
      calendarPeriod: { from: '2024-01-01', to: '2024-12-31' },
    });
    expect(parseFinancialYear('2099-00').end).to.equal('2100-03-31');
  });

  it('refuses anything else as a validation error naming the field', () => {
    for (const bad of ['2024-26', '2024-2025', '24-25', '2024', '2024-24', '']) {
      expect(() => parseFinancialYear(bad), bad).to.throw(LedgerError, /fy must be a financial year YYYY-YY/);
    }
  });

  it('answers only the years the rules and ledger dates cover: the first under the LRS limit to the last ending by 2199', () => {
    expect(parseFinancialYear('2015-16').start).to.equal('2015-04-01');
    expect(parseFinancialYear('2198-99').end).to.equal('2199-03-31');
    for (const outside of ['1900-01', '2014-15', '2199-00', '9999-00']) {
      expect(() => parseFinancialYear(outside), outside)
        .to.throw(LedgerError, 'fy must be a financial year YYYY-YY of two consecutive years, from 2015-16 to 2198-99')
        .with.property('details')
        .deep.equal([{ path: 'fy', message: `must be ${FY_RULE}` }]);
    }
  });

  it('a date falls in the FY that starts on the 1 April on or before it', () => {
    expect(financialYearOf('2025-03-31').label).to.equal('2024-25');
    expect(financialYearOf('2025-04-01').label).to.equal('2025-26');
  });
});

describe('TCS on LRS, worked by hand', () => {
  it('7-lakh era (FY 2024-25, 20 %): INR 6.5 lakh then 0.75 lakh: TCS on the 0.25 lakh above the threshold, 5,000.00', () => {
    const { rows, crossedOn } = estimateTcs(
      [remittance('order_a', '2024-05-10', '650000.00'), remittance('order_b', '2024-08-01', '75000.00')],
      RULES,
      true,
    );
    expect(
      rows.map((r) => [r.order_id, r.cumulative_inr, r.above_threshold_inr, r.tcs_rate, r.estimated_tcs_inr]),
    ).to.deep.equal([
      ['order_a', '650000.00', '0.00', '0.2', '0.00'],
      ['order_b', '725000.00', '25000.00', '0.2', '5000.00'],
    ]);
    expect(crossedOn).to.equal('2024-08-01');
  });

  it('10-lakh era (FY 2025-26): INR 9 lakh then 2 lakh: TCS on 1 lakh at 20 % = 20,000.00; 18,000.00 collected is 2,000.00 short', () => {
    const fy = parseFinancialYear('2025-26');
    const report = lrsSummary(
      fy,
      [
        remittance('order_c', '2025-06-02', '900000.00', { tcsInr: d('0') }),
        remittance('order_d', '2025-09-15', '200000.00', { tcsInr: d('18000.00') }),
      ],
      { unconfirmedRules: true },
      NO_TAN,
    );
    const [pan] = report.pans;
    expect(pan).to.deep.include({
      pan: 'ABCDE1234F',
      threshold_crossed_on: '2025-09-15',
      estimated_tcs_inr: '20000.00',
      actual_tcs_inr: '18000.00',
      difference_inr: '-2000.00',
    });
    expect(pan!.remittances.map((r) => r.threshold_inr)).to.deep.equal(['1000000.00', '1000000.00']);
  });

  it('the rate changes on 2023-10-01 inside FY 2023-24: 8 lakh in August (1 lakh above at 5 %), 1 lakh in November (all above at 20 %): 25,000.00', () => {
    const { rows } = estimateTcs(
      [remittance('order_e', '2023-08-01', '800000.00'), remittance('order_f', '2023-11-01', '100000.00')],
      RULES,
      true,
    );
    expect(rows.map((r) => [r.above_threshold_inr, r.tcs_rate, r.estimated_tcs_inr])).to.deep.equal([
      ['100000.00', '0.05', '5000.00'],
      ['100000.00', '0.2', '20000.00'],
    ]);
  });

  it('a PAN’s declared use elsewhere counts first: 5 lakh declared, then 3 lakh here in the 7-lakh era: TCS on 1 lakh at 20 % = 20,000.00; the limit counts both; a PAN that only declared is listed', () => {
    const declared = (pan: string, amountUsd: string, amountInr: string) => ({
      pan,
      amountUsd: d(amountUsd),
      amountInr: d(amountInr),
      note: null,
      declaredAt: '2024-05-01T00:00:00.000Z',
      declaredBy: 'api:ops',
    });
    const report = lrsSummary(
      parseFinancialYear('2024-25'),
      [remittance('order_g', '2024-06-01', '300000.00', { amountUsd: d('3600.00'), tcsInr: d('0') })],
      { unconfirmedRules: true },
      NO_TAN,
      [declared('ABCDE1234F', '197000.00', '500000.00'), declared('FGHIJ5678K', '250000.00', '20000000.00')],
    );
    const [here, elsewhere] = report.pans;
    expect(here).to.deep.include({
      pan: 'ABCDE1234F',
      remitted_usd: '3600.00',
      lrs_used_share: '0.8024',
      lrs_headroom_usd: '49400.00',
      status: 'warn',
      threshold_crossed_on: '2024-06-01',
      estimated_tcs_inr: '20000.00',
      difference_inr: '-20000.00',
    });
    expect(here!.declared_prior_usage).to.deep.include({ amount_usd: '197000.00', amount_inr: '500000.00' });
    expect(here!.remittances.map((r) => [r.cumulative_inr, r.above_threshold_inr, r.estimated_tcs_inr])).to.deep.equal([
      ['800000.00', '100000.00', '20000.00'],
    ]);
    expect(elsewhere).to.deep.include({
      pan: 'FGHIJ5678K',
      customer_ids: [],
      remittance_count: 0,
      remitted_usd: '0.00',
      lrs_headroom_usd: '0.00',
      status: 'breach',
      estimated_tcs_inr: '0.00',
    });
    expect(report.totals).to.deep.include({ pans: 2, warn: 1, breach: 1, declared_prior_usd: '447000.00' });
  });

  it('a remittance refunded after payment: no LRS use, but its TCS stays (marked refunded) and counts; the collector’s TAN from the setting, a warning without it', () => {
    // 8 lakh paid 2024-05-10 (TCS 20 % on the 1 lakh above 7 lakh = 20,000.00), refunded in June; 1 lakh paid 2024-06-10, all above: 20,000.00.
    const remittances = [
      remittance('order_r', '2024-05-10', '800000.00', {
        amountUsd: d('9600.00'),
        tcsInr: d('20000.00'),
        refunded: true,
      }),
      remittance('order_s', '2024-06-10', '100000.00', { amountUsd: d('1200.00'), tcsInr: d('20000.00') }),
    ];
    const fy = parseFinancialYear('2024-25');
    const report = lrsSummary(fy, remittances, { unconfirmedRules: true }, { tan: 'MUMS12345A' });
    expect(report.tcs_collector_tan).to.equal('MUMS12345A');
    const [pan] = report.pans;
    expect(pan).to.deep.include({
      remittance_count: 2,
      refunded_count: 1,
      remitted_usd: '1200.00',
      remitted_inr: '100000.00',
      refunded_inr: '800000.00',
      refunded_tcs_inr: '20000.00',
      estimated_tcs_inr: '40000.00',
      actual_tcs_inr: '40000.00',
      difference_inr: '0.00',
    });
    expect(pan!.remittances.map((r) => [r.order_id, r.estimated_tcs_inr, r.actual_tcs_inr, r.refunded])).to.deep.equal([
      ['order_r', '20000.00', '20000.00', true],
      ['order_s', '20000.00', '20000.00', false],
    ]);
    expect(report.totals).to.deep.include({
      remitted_inr: '100000.00',
      refunded_inr: '800000.00',
      actual_tcs_inr: '40000.00',
    });
    expect(report.warnings).to.deep.equal([]);
    expect(lrsSummary(fy, remittances, { unconfirmedRules: true }, NO_TAN).warnings).to.deep.equal([
      "the TCS collector's TAN (Schedule TCS) is unknown: remit does not give it; set INDIA_TCS_COLLECTOR_TAN",
    ]);
  });

  it('without a PAN: the higher of twice the rate or 5 %, capped at 20 %', () => {
    expect(noPanRate(d('0.05')).toFixed()).to.equal('0.1');
    expect(noPanRate(d('0.02')).toFixed()).to.equal('0.05');
    expect(noPanRate(d('0.20')).toFixed()).to.equal('0.2');
  });

  it('LRS use per PAN: warn from 80 % of USD 250,000, breach from 100 %', () => {
    const fy = parseFinancialYear('2024-25');
    const usd = (pan: string, amountUsd: string) =>
      remittance(`order_${pan}`, '2024-05-01', '100.00', { pan, amountUsd: d(amountUsd) });
    const report = lrsSummary(
      fy,
      [usd('AAAAA0000A', '199999.99'), usd('BBBBB0000B', '200000.00'), usd('CCCCC0000C', '250000.00')],
      { unconfirmedRules: true },
      NO_TAN,
    );
    expect(report.pans.map((p) => [p.pan, p.status, p.lrs_headroom_usd])).to.deep.equal([
      ['AAAAA0000A', 'ok', '50000.01'],
      ['BBBBB0000B', 'warn', '50000.00'],
      ['CCCCC0000C', 'breach', '0.00'],
    ]);
  });
});

describe('holding period', () => {
  it('is long-term only when the transfer comes after acquisition + 24 calendar months', () => {
    expect(termOf('2022-03-15', '2024-03-14', 'share')).to.equal('short');
    expect(termOf('2022-03-15', '2024-03-15', 'share')).to.equal('short');
    expect(termOf('2022-03-15', '2024-03-16', 'share')).to.equal('long');
    expect(wholeMonthsBetween('2022-03-15', '2024-03-14')).to.equal(23);
    expect(wholeMonthsBetween('2022-03-15', '2024-03-16')).to.equal(24);
  });

  it('counts months to a shorter month’s last day', () => {
    expect(addMonths('2022-01-31', 25)).to.equal('2024-02-29');
    expect(termOf('2022-01-31', '2024-01-31', 'share')).to.equal('short');
    expect(termOf('2022-01-31', '2024-02-01', 'share')).to.equal('long');
  });
});

describe('capital gains: indexation before 2024-07-23', () => {
  const match = {
    customerId: 'IND-1',
    symbol: 'AAPL',
    sellTxnId: 'sell-1',
    lotTxnId: 'lot-1',
    acquiredOn: '2019-05-10',
    transferredOn: '2023-11-15',
    quantity: d('10'),
    costUsd: d('1000.00'),
    buyQuantity: d('10'),
    buyFeeUsd: d('0'),
    sellAmountUsd: d('1500.00'),
    sellFeeUsd: d('0'),
  };
  const CII = new Map([
    ['2001-02', 100],
    ['2019-20', 289],
    ['2023-24', 348],
  ]);
  const report = (cii: Map<string, number>) =>
    capitalGainsSummary(
      parseFinancialYear('2023-24'),
      { matches: [match], openLots: [], flagged: [], instruments: new Map([['AAPL', 'share' as const]]) },
      rates({ '2019-04-30': '69.50', '2023-10-31': '83.00' }),
      cii,
      { costRate: 'acquisition_month', section50aa: false },
      { total: 1, limit: 50, offset: 0 },
    );

  it('an FY 2023-24 long-term sale: cost × CII 348 (2023-24) / 289 (2019-20), both figures shown with the index years', () => {
    // Cost 1,000.00 × 69.50 (2019-04-30) = 69,500.00; consideration 1,500.00 × 83.00 (2023-10-31) = 124,500.00; gain 55,000.00.
    // Indexed cost 69,500.00 × 348 / 289 = 83,688.58; indexed gain 124,500.00 − 83,688.58 = 40,811.42.
    const gains = report(CII);
    const symbol = gains.items[0]!.symbols[0]!;
    const row = (symbol.disposals[0] as { matches: Array<Record<string, unknown>> }).matches[0]!;
    expect(row).to.deep.include({
      cost_of_acquisition_inr: '69500.00',
      consideration_inr: '124500.00',
      gain_inr: '55000.00',
      months_held: 54,
      term: 'long',
      rate_era: 'before_2024_07_23',
      ltcg_rate: '0.2',
      indexation: true,
      indexed: {
        acquisition_fy: '2019-20',
        acquisition_cii: 289,
        transfer_fy: '2023-24',
        transfer_cii: 348,
        indexed_cost_of_acquisition_inr: '83688.58',
        indexed_gain_inr: '40811.42',
      },
    });
    expect(symbol).to.deep.include({
      long_term_gain_before_2024_07_23_inr: '55000.00',
      long_term_gain_before_2024_07_23_indexed_inr: '40811.42',
    });
    expect(gains.warnings).to.deep.equal([]);
  });

  it('a year missing from the index leaves the indexed figures null with a warning, never a guess; before 2001-02 the base year is taken', () => {
    const gains = report(new Map([['2001-02', 100]]));
    const symbol = gains.items[0]!.symbols[0]!;
    const row = (symbol.disposals[0] as { matches: Array<Record<string, unknown>> }).matches[0]!;
    expect(row.indexed).to.deep.include({ acquisition_cii: null, transfer_cii: null, indexed_gain_inr: null });
    expect(symbol.long_term_gain_before_2024_07_23_indexed_inr).to.equal(null);
    expect(gains.warnings).to.deep.equal([
      'no Cost Inflation Index for FY 2019-20: the indexed cost and gain of the long-term transfers that need it are null; load it with POST /v1/jobs/load-cost-inflation-index',
      'no Cost Inflation Index for FY 2023-24: the indexed cost and gain of the long-term transfers that need it are null; load it with POST /v1/jobs/load-cost-inflation-index',
    ]);
    expect(indexationYears('1998-06-01', '2023-11-15')).to.deep.equal({ acquisition: '2001-02', transfer: '2023-24' });
  });
});

describe('capital gains: the instrument decides the holding period', () => {
  const sale = (sellTxnId: string, acquiredOn: string, transferredOn: string) => ({
    customerId: 'IND-1',
    symbol: 'SPY',
    sellTxnId,
    lotTxnId: `lot-${sellTxnId}`,
    acquiredOn,
    transferredOn,
    quantity: d('1'),
    costUsd: d('400.00'),
    buyQuantity: d('1'),
    buyFeeUsd: d('0'),
    sellAmountUsd: d('500.00'),
    sellFeeUsd: d('0'),
  });
  const terms = (
    fy: string,
    matches: ReturnType<typeof sale>[],
    instrument: 'share' | 'fund_unit' | null,
    section50aa = false,
  ) => {
    const report = capitalGainsSummary(
      parseFinancialYear(fy),
      { matches, openLots: [], flagged: [], instruments: new Map(instrument === null ? [] : [['SPY', instrument]]) },
      rates({}),
      new Map(),
      { costRate: 'acquisition_month', section50aa },
      { total: 1, limit: 50, offset: 0 },
    );
    const rows = report.items[0]!.symbols[0]!.disposals.flatMap(
      (dsp) => (dsp as { matches: Array<Record<string, unknown>> }).matches,
    );
    return {
      rows: rows.map((r) => [r.transferred_on, r.months_held, r.instrument_type, r.term, r.section_50aa, r.ltcg_rate]),
      warnings: report.warnings.filter((w) => w.startsWith('the instrument type')),
    };
  };

  it('ETF units held 30 months, sold in June 2024: short-term (units needed more than 36 months before 2024-07-23); sold in August 2024 after 31 months: long (24)', () => {
    const matches = [sale('s-june', '2021-12-10', '2024-06-14'), sale('s-aug', '2022-01-10', '2024-08-12')];
    expect(terms('2024-25', matches, 'fund_unit').rows).to.deep.equal([
      ['2024-06-14', 30, 'fund_unit', 'short', null, null],
      ['2024-08-12', 31, 'fund_unit', 'long', null, '0.125'],
    ]);
    // The same as shares: 30 months is long-term (more than 24).
    expect(terms('2024-25', matches, 'share').rows[0]).to.deep.equal(['2024-06-14', 30, 'share', 'long', null, '0.2']);
    // Unknown: taken as a share, and said.
    const unknown = terms('2024-25', matches, null);
    expect(unknown.rows[0]).to.deep.equal(['2024-06-14', 30, null, 'long', null, '0.2']);
    expect(unknown.warnings).to.deep.equal([
      "the instrument type of SPY (share or fund units) is unknown: its holding period is taken as a share's; load the issuers file with POST /v1/jobs/load-issuers",
    ]);
  });

  it('section 50AA: units bought from 2023-04-01 held 26 months are flagged on the disposal; not applied by default (long), applied when set (short)', () => {
    const matches = [sale('s-50aa', '2023-04-10', '2025-06-12'), sale('s-before', '2023-03-10', '2025-06-12')];
    expect(terms('2025-26', matches, 'fund_unit').rows).to.deep.equal([
      ['2025-06-12', 26, 'fund_unit', 'long', 'not_applied', '0.125'],
      ['2025-06-12', 27, 'fund_unit', 'long', null, '0.125'],
    ]);
    expect(terms('2025-26', matches, 'fund_unit', true).rows[0]).to.deep.equal([
      '2025-06-12',
      26,
      'fund_unit',
      'short',
      'applied',
      null,
    ]);
  });
});

describe('the SBI rates file', () => {
  const csv = readFileSync(new URL('../data/sbi-usd-inr-rates.csv', import.meta.url), 'utf8');

  it('skips the Saturday zeros and keeps the later sheet of a day revised; mid is the mean of TT buy and sell', () => {
    const { rates, skipped } = parseSbiRates(csv);
    const reasons = skipped.reduce<Record<string, number>>(
      (c, s) => ({ ...c, [s.reason]: (c[s.reason] ?? 0) + 1 }),
      {},
    );
    // 1,625 rows: 54 without a TT rate (all Saturdays), 12 earlier sheets of a revised day.
    expect(reasons).to.deep.equal({ no_tt_rate_saturday: 54, revised_same_day: 12 });
    expect(rates).to.have.length(1625 - 54 - 12);
    expect(skipped[0]).to.deep.equal({ line: 2, date: '2020-01-04', reason: 'no_tt_rate_saturday' });
    // 2024-06-04: 11:30 at 83.05/83.90, revised at 16:00 to 83.15/84.00.
    const june4 = rates.find((r) => r.date === '2024-06-04')!;
    expect([june4.ttBuy.toFixed(), june4.mid.toFixed(), june4.publishedAt]).to.deep.equal([
      '83.15',
      '83.575',
      '2024-06-04 16:00',
    ]);
    expect(skipped).to.deep.include({ line: 1021, date: '2024-06-04', reason: 'revised_same_day' });
  });

  it('a later sheet listed before an earlier one still wins; malformed rows are named', () => {
    const { rates, skipped } = parseSbiRates(
      'DATE,TT BUY,TT SELL\r\n2024-06-04 16:00,83.15,84.00\r\n2024-06-04 11:30,83.05,83.90\r\n2024-06-05,83.1,84\r\n',
    );
    expect(rates.map((r) => [r.date, r.ttBuy.toFixed()])).to.deep.equal([['2024-06-04', '83.15']]);
    expect(skipped).to.deep.equal([
      { line: 3, date: '2024-06-04', reason: 'revised_same_day' },
      { line: 4, date: null, reason: 'malformed' },
    ]);
  });

  it('Rule 115 takes the last day of the previous month, or the nearest earlier sheet (a warning naming both days); beyond a week it is missing, never guessed', () => {
    const book = new RateBook(parseSbiRates(csv).rates);
    expect(book.rule115('2024-08-15')).to.deep.equal({ rate: d('83.32'), rateDate: '2024-07-31' });
    // 2024-06-30 is a Sunday: the Saturday's sheet.
    expect(book.rule115('2024-07-23')).to.deep.equal({ rate: d('83.00'), rateDate: '2024-06-29' });
    expect(book.rule115('2019-06-10')).to.equal(null);
    // The fallback is named: the day the rule asks for and the day taken.
    expect(book.warnings()).to.deep.equal([
      'no USD/INR rate for 2019-05-31 (nor the 7 days before): load it with POST /v1/jobs/load-fx-rates',
      "the rule asks for the USD/INR rate of 2024-06-30; SBI published none that day, so the figures take 2024-06-29's, the nearest earlier sheet",
    ]);
  });
});

describe('settlement audit', () => {
  it('lag mean, median, p95 (nearest rank) and max over 20 settlements of 1..20 hours; missing UTR; uncoded purposes', () => {
    const paid = new Date('2024-05-01T00:00:00Z');
    const rows = Array.from({ length: 20 }, (_, i) => ({
      orderId: `order_${i + 1}`,
      customerId: 'IND-1',
      purposeCode: i === 0 ? null : 'S0001',
      utr: i === 1 ? null : `UTR${i}`,
      amountUsd: d('100.00'),
      paidAt: paid,
      settledAt: new Date(paid.getTime() + (i + 1) * 3_600_000),
    }));
    const report = settlementAudit(parseFinancialYear('2024-25'), [
      ...rows,
      { ...rows[0]!, orderId: 'order_unsettled', settledAt: null, purposeCode: 'S0002' },
    ]);
    expect(report.lag).to.deep.equal({
      count: 20,
      mean_hours: '10.50',
      median_hours: '10.50',
      p95_hours: '19.00',
      max_hours: '20.00',
    });
    expect(report.missing_utr).to.deep.equal({ count: 1, orders: [{ order_id: 'order_2', customer_id: 'IND-1' }] });
    expect(report.purpose_codes).to.deep.equal([
      { purpose_code: 'S0001', count: 19, amount_usd: '1900.00' },
      { purpose_code: 'S0002', count: 1, amount_usd: '100.00' },
      { purpose_code: 'uncoded', count: 1, amount_usd: '100.00' },
    ]);
    expect(lagStatistics([d('3'), d('1')]).median_hours).to.equal('2.00');
  });
});

describe('Schedule FA', () => {
  const credited = (natures: Partial<Record<A2Nature, string>>) =>
    ({
      dividend: d('0'),
      interest: d('0'),
      proceeds: d('0'),
      other_income: d('0'),
      ...Object.fromEntries(Object.entries(natures).map(([k, v]) => [k, d(v)])),
    }) as Record<A2Nature, Decimal>;
  const PAGE_OF_ONE = { total: 1, limit: 50, offset: 0 };
  const BROKER = {
    name: 'Example Securities LLC',
    address: '1 Broker Plaza, Jersey City, New Jersey, United States',
    zipCode: '07302',
    country: 'United States of America',
  };
  const ISSUER = {
    symbol: 'X',
    entityName: 'X Inc.',
    address: '1 Main Street, Wilmington, Delaware, United States',
    zipCode: '19801',
    country: 'United States of America',
    natureOfEntity: 'Company (listed equity shares)',
    instrumentType: 'share' as const,
  };

  it('FY 2024-25 reports calendar 2024: the peak in June, the closing at 31 December, dividends and proceeds, broker cash (A2)', () => {
    const book = rates({
      '2023-11-10': '83.00',
      '2024-01-02': '83.20',
      '2024-03-01': '82.90',
      '2024-06-14': '83.50',
      '2024-08-15': '84.00',
      '2024-09-02': '83.90',
      '2024-12-31': '85.60',
    });
    const report = scheduleFa(
      parseFinancialYear('2024-25'),
      {
        customers: ['IND-1'],
        issuers: [
          {
            symbol: 'AAPL',
            entityName: 'Apple Inc.',
            address: 'One Apple Park Way, Cupertino, California, United States',
            zipCode: '95014',
            country: 'United States of America',
            natureOfEntity: 'Company (listed equity shares)',
            instrumentType: 'share',
          },
        ],
        lots: [
          {
            customerId: 'IND-1',
            symbol: 'AAPL',
            lotTxnId: 'lot-1',
            acquiredOn: '2023-11-10',
            quantity: d('10'),
            costUsd: d('1002.20'),
            sold: [{ transferredOn: '2024-09-02', quantity: d('4') }],
          },
        ],
        sales: [{ customerId: 'IND-1', symbol: 'AAPL', txnDate: '2024-09-02', amountUsd: d('560.00') }],
        dividends: [{ customerId: 'IND-1', symbol: 'AAPL', payDate: '2024-08-15', grossUsd: d('5.00') }],
        prices: new Map([
          [
            'AAPL',
            [
              { date: '2024-01-02', closeUsd: d('100') },
              { date: '2024-06-14', closeUsd: d('150') },
              { date: '2024-12-31', closeUsd: d('120') },
            ],
          ],
        ]),
        cash: [
          {
            customerId: 'IND-1',
            accountNo: 'ACC-1',
            firstLineOn: '2023-11-02',
            opening: d('500.00'),
            days: [
              // The customer's own wire in: no income.
              { date: '2024-03-01', net: d('1000.00'), credited: credited({}) },
              { date: '2024-06-14', net: d('-1200.00'), credited: credited({}) },
              // The dividend, 5.00 gross less 1.25 withheld.
              { date: '2024-08-15', net: d('3.75'), credited: credited({ dividend: '5.00' }) },
              { date: '2024-09-02', net: d('560.00'), credited: credited({ proceeds: '560.00' }) },
            ],
          },
        ],
      },
      book,
      BROKER,
      PAGE_OF_ONE,
    );
    // Peak: 2 Jan 10 × 100 × 83.20 = 83,200.00; 14 Jun 10 × 150 × 83.50 = 125,250.00 (the peak); 31 Dec 6 × 120 × 85.60 = 61,632.00.
    const { customer_id, a3, a2 } = report.items[0]!;
    expect(customer_id).to.equal('IND-1');
    expect(a3).to.deep.equal([
      {
        symbol: 'AAPL',
        entity_name: 'Apple Inc.',
        address: 'One Apple Park Way, Cupertino, California, United States',
        zip_code: '95014',
        country: 'United States of America',
        nature_of_entity: 'Company (listed equity shares)',
        date_of_acquiring: '2023-11-10',
        initial_value_usd: '1002.20',
        initial_value_inr: '83182.60',
        peak_value_date: null,
        peak_value_usd: null,
        peak_value_inr: null,
        // Three closes in the year: the highest of them is only a lower bound of the peak.
        peak_lower_bound_date: '2024-06-14',
        peak_lower_bound_usd: '1500.00',
        peak_lower_bound_inr: '125250.00',
        missing_close_days: tradingDays('2024-01-01', '2024-12-31').filter(
          (day) => !['2024-01-02', '2024-06-14', '2024-12-31'].includes(day),
        ),
        closing_shares: '6',
        closing_value_usd: '720.00',
        closing_value_inr: '61632.00',
        gross_dividends_usd: '5.00',
        gross_dividends_inr: '420.00',
        gross_sale_proceeds_usd: '560.00',
        gross_sale_proceeds_inr: '46984.00',
      },
    ]);
    // Cash: 500 → 1,500 (1 Mar, the peak) → 300 → 303.75 → 863.75. Paid or credited: the dividend 5.00 × 84.00 = 420.00 and the
    // proceeds 560.00 × 83.90 = 46,984.00; the 1,000.00 wired in is the holder's own money, no income.
    // Table A2's gross amounts by nature (ITR-2 Schedule FA A2): only the wallet's dividends and sale proceeds; interest and other income zero.
    expect(a2).to.deep.equal([
      {
        country: 'United States of America',
        institution_name: 'Example Securities LLC',
        institution_address: '1 Broker Plaza, Jersey City, New Jersey, United States',
        institution_zip_code: '07302',
        account_number: 'ACC-1',
        status: 'Owner',
        account_opening_date: '2023-11-02',
        peak_balance_date: '2024-03-01',
        peak_balance_usd: '1500.00',
        peak_balance_inr: '124350.00',
        closing_balance_usd: '863.75',
        closing_balance_inr: '73937.00',
        gross_dividend_usd: '5.00',
        gross_dividend_inr: '420.00',
        gross_interest_usd: '0.00',
        gross_interest_inr: '0.00',
        gross_proceeds_usd: '560.00',
        gross_proceeds_inr: '46984.00',
        gross_other_income_usd: '0.00',
        gross_other_income_inr: '0.00',
        gross_credited_usd: '565.00',
        gross_credited_inr: '47404.00',
      },
    ]);
    expect(report.warnings).to.deep.equal([
      'no close of AAPL on 249 trading day(s) of 2024 that customer IND-1 held it (2024-01-03, 2024-01-04, 2024-01-05, 2024-01-08, 2024-01-09, …: missing_close_days lists them): its peak value is unknown; the highest value on the days with a close is a lower bound (peak_lower_bound_*)',
    ]);
  });

  it('the peak is the highest of shares × close × rate over every stretch held: 10 shares at 100 beat 2 at 400 after a sale; a held day without a rate is named, a day before the buy is not', () => {
    const report = scheduleFa(
      parseFinancialYear('2024-25'),
      {
        customers: ['IND-1'],
        issuers: [{ ...ISSUER, symbol: 'NVDA', entityName: 'NVIDIA Corporation' }],
        lots: [
          {
            customerId: 'IND-1',
            symbol: 'NVDA',
            lotTxnId: 'lot-1',
            acquiredOn: '2024-01-15',
            quantity: d('10'),
            costUsd: d('1000.00'),
            sold: [{ transferredOn: '2024-04-01', quantity: d('8') }],
          },
        ],
        sales: [],
        dividends: [],
        prices: new Map([
          [
            'NVDA',
            [
              { date: '2024-01-02', closeUsd: d('500') },
              { date: '2024-02-01', closeUsd: d('100') },
              { date: '2024-03-01', closeUsd: d('90') },
              { date: '2024-05-02', closeUsd: d('400') },
              { date: '2024-07-20', closeUsd: d('130') },
              { date: '2024-12-31', closeUsd: d('120') },
            ],
          ],
        ]),
        cash: [],
      },
      rates({
        '2024-01-15': '83.10',
        '2024-02-01': '83.00',
        '2024-03-01': '82.90',
        '2024-05-02': '84.00',
        '2024-12-31': '85.60',
      }),
      BROKER,
      PAGE_OF_ONE,
    );
    // 1 Feb 10 × 100 × 83.00 = 83,000.00 (the peak); 1 Mar 10 × 90 × 82.90 = 74,610.00; 2 May 2 × 400 × 84.00 = 67,200.00.
    expect(report.items[0]!.a3[0]).to.deep.include({
      initial_value_inr: '83100.00',
      peak_value_inr: null,
      peak_lower_bound_date: '2024-02-01',
      peak_lower_bound_usd: '1000.00',
      peak_lower_bound_inr: '83000.00',
      closing_shares: '2',
      closing_value_usd: '240.00',
      closing_value_inr: '20544.00',
    });
    expect(report.warnings).to.deep.equal([
      'no close of NVDA on 239 trading day(s) of 2024 that customer IND-1 held it (2024-01-16, 2024-01-17, 2024-01-18, 2024-01-19, 2024-01-22, …: missing_close_days lists them): its peak value is unknown; the highest value on the days with a close is a lower bound (peak_lower_bound_*)',
      'no USD/INR rate for 2024-07-20 (nor the 7 days before): load it with POST /v1/jobs/load-fx-rates',
    ]);
  });

  it('initial value of a lot sold in part before the year: only the shares still held on 1 January, at their share of the cost with fee', () => {
    // 10 shares bought 2023-03-10 for 1,000.00 + 2.20 fee; 4 sold 2023-09-01 (before 2024), 2 sold 2024-05-02.
    // Held on 2024-01-01: 6 shares: 1,002.20 × 6 / 10 = 601.32 USD × 82.00 (the acquisition day's TT buy) = 49,308.24.
    const report = scheduleFa(
      parseFinancialYear('2024-25'),
      {
        customers: ['IND-1'],
        issuers: [ISSUER],
        lots: [
          {
            customerId: 'IND-1',
            symbol: 'X',
            lotTxnId: 'lot-1',
            acquiredOn: '2023-03-10',
            quantity: d('10'),
            costUsd: d('1002.20'),
            sold: [
              { transferredOn: '2023-09-01', quantity: d('4') },
              { transferredOn: '2024-05-02', quantity: d('2') },
            ],
          },
        ],
        sales: [],
        dividends: [],
        prices: new Map([['X', [{ date: '2024-12-31', closeUsd: d('100') }]]]),
        cash: [],
      },
      rates({ '2023-03-10': '82.00', '2024-12-31': '85.60' }),
      BROKER,
      PAGE_OF_ONE,
    );
    expect(report.items[0]!.a3[0]).to.deep.include({
      date_of_acquiring: '2023-03-10',
      initial_value_usd: '601.32',
      initial_value_inr: '49308.24',
      closing_shares: '4',
    });
  });

  it('the peak needs a close on every trading day held: two days missing make the highest value a lower bound, the days listed; complete, it is the peak', () => {
    // 10 shares held all 2024; every trading day closes at 100 but 14 June at 150; every day's TT buy 83.00.
    // Highest: 14 June, 10 × 150 × 83.00 = 124,500.00. 14 March and 5 August without a close: a lower bound only.
    const held = {
      customerId: 'IND-1',
      symbol: 'X',
      lotTxnId: 'lot-1',
      acquiredOn: '2023-06-01',
      quantity: d('10'),
      costUsd: d('900.00'),
      sold: [],
    };
    const everyDay: Record<string, string> = { '2023-06-01': '82.00' };
    for (let day = '2024-01-01'; day <= '2024-12-31'; day = addDays(day, 1)) everyDay[day] = '83.00';
    const report = (missing: string[]) =>
      scheduleFa(
        parseFinancialYear('2024-25'),
        {
          customers: ['IND-1'],
          issuers: [ISSUER],
          lots: [held],
          sales: [],
          dividends: [],
          prices: new Map([
            [
              'X',
              tradingDays('2024-01-01', '2024-12-31')
                .filter((day) => !missing.includes(day))
                .map((day) => ({ date: day, closeUsd: d(day === '2024-06-14' ? '150' : '100') })),
            ],
          ]),
          cash: [],
        },
        rates(everyDay),
        BROKER,
        PAGE_OF_ONE,
      );
    const partial = report(['2024-03-14', '2024-08-05']);
    expect(partial.items[0]!.a3[0]).to.deep.include({
      peak_value_date: null,
      peak_value_inr: null,
      peak_lower_bound_date: '2024-06-14',
      peak_lower_bound_usd: '1500.00',
      peak_lower_bound_inr: '124500.00',
      missing_close_days: ['2024-03-14', '2024-08-05'],
    });
    expect(partial.warnings).to.deep.equal([
      'no close of X on 2 trading day(s) of 2024 that customer IND-1 held it (2024-03-14, 2024-08-05: missing_close_days lists them): its peak value is unknown; the highest value on the days with a close is a lower bound (peak_lower_bound_*)',
    ]);
    const complete = report([]);
    expect(complete.items[0]!.a3[0]).to.deep.include({
      peak_value_date: '2024-06-14',
      peak_value_inr: '124500.00',
      peak_lower_bound_inr: null,
      missing_close_days: [],
    });
    expect(complete.warnings).to.deep.equal([]);
    // The exchanges' 2024: 252 trading days (weekdays less ten holidays, Good Friday 29 March among them).
    expect(tradingDays('2024-01-01', '2024-12-31')).to.have.length(252);
    expect(tradingDays('2024-03-28', '2024-04-01')).to.deep.equal(['2024-03-28', '2024-04-01']);
  });

  it('table A2 without the broker configured or the account linked: those fields null, each named in warnings', () => {
    const report = scheduleFa(
      parseFinancialYear('2024-25'),
      {
        customers: ['IND-2'],
        issuers: [],
        lots: [],
        sales: [],
        dividends: [],
        prices: new Map(),
        cash: [{ customerId: 'IND-2', accountNo: null, firstLineOn: '2024-05-06', opening: d('0'), days: [] }],
      },
      rates({ '2023-12-29': '83.10', '2024-12-31': '85.60' }),
      { name: null, address: null, zipCode: null, country: 'United States of America' },
      PAGE_OF_ONE,
    );
    expect(report.items[0]!.a2[0]).to.deep.include({
      institution_name: null,
      institution_address: null,
      institution_zip_code: null,
      account_number: null,
      account_opening_date: '2024-05-06',
      closing_balance_usd: '0.00',
    });
    expect(report.warnings).to.deep.equal([
      'customer IND-2 has no usbroker account number (table A2): link it with PUT /v1/customers/IND-2',
      "the broker's name, address or ZIP code for table A2 is not configured: set SCHEDULE_FA_BROKER_NAME, SCHEDULE_FA_BROKER_ADDRESS and SCHEDULE_FA_BROKER_ZIP_CODE",
      // The opening balance is valued on 1 January, a holiday without a sheet.
      "the rule asks for the USD/INR rate of 2024-01-01; SBI published none that day, so the figures take 2023-12-29's, the nearest earlier sheet",
    ]);
  });

  it('a holding without prices or issuer has no peak or closing value, nor entity details, and says so', () => {
    const report = scheduleFa(
      parseFinancialYear('2024-25'),
      {
        customers: ['IND-1'],
        issuers: [],
        lots: [
          {
            customerId: 'IND-1',
            symbol: 'MSFT',
            lotTxnId: 'lot-1',
            acquiredOn: '2024-02-01',
            quantity: d('1'),
            costUsd: d('400.00'),
            sold: [],
          },
        ],
        sales: [],
        dividends: [],
        prices: new Map(),
        cash: [],
      },
      rates({ '2024-02-01': '83.00', '2024-12-31': '85.60' }),
      BROKER,
      PAGE_OF_ONE,
    );
    expect(report.items[0]!.a3[0]).to.deep.include({
      symbol: 'MSFT',
      entity_name: null,
      address: null,
      zip_code: null,
      country: null,
      nature_of_entity: null,
      peak_value_inr: null,
      closing_value_inr: null,
      initial_value_inr: '33200.00',
    });
    expect(report.warnings).to.deep.equal([
      "no close prices of MSFT in 2024: peak and closing values of customer IND-1's holding are missing",
      'no issuer details of MSFT (entity name, address, ZIP code, country, nature of entity): load them with POST /v1/jobs/load-issuers',
    ]);
  });
});

describe('dividends: foreign tax credit', () => {
  it('30 % withheld without a W-8BEN: all of it is tax paid, 25 % of the gross is creditable, the 5 % above the treaty rate is not, with why', () => {
    // Paid 2024-06-20: Rule 115 and Rule 128 both take 2024-05-31's TT buy, 83.30.
    // Gross 200.00 → 16,660.00; withheld 60.00 (30 %) → 4,998.00; cap 25 % = 50.00 → 4,165.00 (available); 10.00 → 833.00 not creditable.
    const report = dividendSummary(
      parseFinancialYear('2024-25'),
      [
        {
          divTxnNo: 'DIV-30',
          customerId: 'IND-1',
          symbol: 'AAPL',
          exDate: '2024-06-10',
          payDate: '2024-06-20',
          grossUsd: d('200.00'),
          whtUsd: d('60.00'),
        },
      ],
      rates({ '2024-05-31': '83.30' }),
    );
    const customer = report.customers[0]!;
    expect(report.treaty).to.deep.equal({ country: 'United States of America', country_code: '2', article: '10' });
    expect(customer).to.deep.include({
      gross_inr: '16660.00',
      withheld_inr: '4998.00',
      treaty_cap_inr: '4165.00',
      credit_available_inr: '4165.00',
      not_creditable_inr: '833.00',
    });
    expect(customer.events[0]).to.deep.include({
      effective_rate: '0.3',
      rate: { rate: '83.3', rate_date: '2024-05-31' },
      treaty_rate: '0.25',
      credit_available_inr: '4165.00',
      not_creditable_inr: '833.00',
      not_creditable_reason:
        'withheld 0.3 of the gross, above the India–US treaty rate of 0.25 (Article 10(2)(b), with a W-8BEN on file): the excess is not creditable in India (Rule 128); it is reclaimed from the US',
    });
    expect(report.warnings).to.deep.equal([]);
  });
});

describe('FX margin', () => {
  it('realized from the mid rate net of provider fees, for orders remit confirms paid; assumed is the accrual; drift between them', () => {
    const remittance = {
      orderId: 'order_1',
      customerId: 'IND-1',
      remittedOn: '2024-05-10',
      amountInr: d('800000.00'),
      amountUsd: d('9600.00'),
      customerRate: d('0.012'),
      midRate: d('0.0121'),
      providerFeesUsd: d('20.00'),
      accruedUsd: d('72.00'),
    };
    const report = fxMarginSummary(
      parseFinancialYear('2024-25'),
      [remittance, { ...remittance, orderId: 'order_2', accruedUsd: null }],
      new Set(['order_1']),
      d('75'),
    );
    // At mid 800,000 × 0.0121 = 9,680.00: 80.00 above what the customer got, less 20.00 of fees = 60.00 (62.5 bps of 9,600.00); assumed 72.00 (75 bps).
    expect(report.remittances[0]).to.deep.include({
      margin_bps: '82.64',
      realized: { margin_usd: '60.00', margin_bps: '62.50' },
      assumed_usd: '72.00',
      drift_usd: '-12.00',
    });
    // Not confirmed paid by remit: nothing realized.
    expect(report.remittances[1]).to.deep.include({ realized: null, assumed_usd: null, drift_usd: null });
    expect(report.firm).to.deep.equal({
      remittances: 2,
      amount_usd: '19200.00',
      realized_usd: null,
      assumed_usd: '72.00',
      drift_usd: null,
    });
  });
});
