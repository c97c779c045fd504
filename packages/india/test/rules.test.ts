import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Decimal, LedgerError } from '@ledger/core';
import {
  addMonths,
  estimateTcs,
  financialYearOf,
  fxMarginSummary,
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
  wholeMonthsBetween,
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
  ...extra,
});
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
    expect(termOf('2022-03-15', '2024-03-14')).to.equal('short');
    expect(termOf('2022-03-15', '2024-03-15')).to.equal('short');
    expect(termOf('2022-03-15', '2024-03-16')).to.equal('long');
    expect(wholeMonthsBetween('2022-03-15', '2024-03-14')).to.equal(23);
    expect(wholeMonthsBetween('2022-03-15', '2024-03-16')).to.equal(24);
  });

  it('counts months to a shorter month’s last day', () => {
    expect(addMonths('2022-01-31', 25)).to.equal('2024-02-29');
    expect(termOf('2022-01-31', '2024-01-31')).to.equal('short');
    expect(termOf('2022-01-31', '2024-02-01')).to.equal('long');
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

  it('Rule 115 takes the last day of the previous month, or the nearest earlier sheet; beyond a week it is missing, never guessed', () => {
    const book = new RateBook(parseSbiRates(csv).rates);
    expect(book.rule115('2024-08-15')).to.deep.equal({ rate: d('83.32'), rateDate: '2024-07-31' });
    // 2024-06-30 is a Sunday: the Saturday's sheet.
    expect(book.rule115('2024-07-23')).to.deep.equal({ rate: d('83.00'), rateDate: '2024-06-29' });
    expect(book.rule115('2019-06-10')).to.equal(null);
    expect(book.warnings()).to.deep.equal([
      'no USD/INR rate for 2019-05-31 (nor the 7 days before): load it with POST /v1/jobs/load-fx-rates',
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
              { date: '2024-03-01', net: d('1000.00'), credited: d('1000.00') },
              { date: '2024-06-14', net: d('-1200.00'), credited: d('0') },
              { date: '2024-09-02', net: d('560.00'), credited: d('560.00') },
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
        peak_value_date: '2024-06-14',
        peak_value_usd: '1500.00',
        peak_value_inr: '125250.00',
        closing_shares: '6',
        closing_value_usd: '720.00',
        closing_value_inr: '61632.00',
        gross_dividends_usd: '5.00',
        gross_dividends_inr: '420.00',
        gross_sale_proceeds_usd: '560.00',
        gross_sale_proceeds_inr: '46984.00',
      },
    ]);
    // Cash: 500 → 1,500 (1 Mar, the peak) → 300 → 860; credited 1,000 × 82.90 + 560 × 83.90.
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
        closing_balance_usd: '860.00',
        closing_balance_inr: '73616.00',
        gross_credited_usd: '1560.00',
        gross_credited_inr: '129884.00',
      },
    ]);
    expect(report.warnings).to.deep.equal([]);
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
      peak_value_date: '2024-02-01',
      peak_value_usd: '1000.00',
      peak_value_inr: '83000.00',
      closing_shares: '2',
      closing_value_usd: '240.00',
      closing_value_inr: '20544.00',
    });
    expect(report.warnings).to.deep.equal([
      'no USD/INR rate for 2024-07-20 (nor the 7 days before): load it with POST /v1/jobs/load-fx-rates',
    ]);
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
