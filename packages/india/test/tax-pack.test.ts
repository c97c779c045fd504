import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Decimal, LedgerError } from '@ledger/core/posting';
import { recost, upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import {
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
  shippedCiiCsv,
  shippedIssuersCsv,
  taxPackCsv,
  taxPackReport,
  type IndiaReportContext,
} from '../src/index.js';
import { RECOST, trade } from './book.js';

const SETTINGS = indiaSettingsOf(
  indiaSettingsSchema.parse({
    SCHEDULE_FA_BROKER_NAME: 'Example Securities LLC',
    SCHEDULE_FA_BROKER_ADDRESS: '1 Broker Plaza, Jersey City, New Jersey, United States',
    SCHEDULE_FA_BROKER_ZIP_CODE: '07302',
    INDIA_TCS_COLLECTOR_TAN: 'MUMR12345A',
  }),
  RECOST.policy.feeSchedule,
);
const FY = parseFinancialYear('2024-25');
const PAN = 'PACKP1234K';
const csv = readFileSync(new URL('../data/sbi-usd-inr-rates.csv', import.meta.url), 'utf8');
const PAGE = { limit: 50, offset: 0 };
const sum = (values: Array<string | null>) => values.reduce((s, v) => s.plus(v!), new Decimal(0)).toFixed(2);

describe('the tax pack of one PAN (real Postgres)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let db: Db;
  let india: IndiaReportContext;

  before(async () => {
    t = await createTestDatabase();
    db = t.db;
    india = { book: 'ENTITY_IND_IFSC', db, settings: SETTINGS };
    await loadFxRates(db, csv, 'sbi-usd-inr-rates');
    await loadCostInflationIndex(db, await shippedCiiCsv('cost-inflation-index'), 'cost-inflation-index');
    await loadIssuers(db, await shippedIssuersCsv('us-issuers'), 'us-issuers');
    // One person, two accounts under the PAN; a third customer under another PAN is no part of it.
    await upsertCustomer(db, 'PACK-1', { references: { pan: PAN, usbroker_account_no: 'ACC-PACK-1' } });
    await upsertCustomer(db, 'PACK-2', { references: { pan: PAN } });
    await upsertCustomer(db, 'PACK-X', { references: { pan: 'OTHER1234X' } });
    const buy = (customer_id: string, symbol: string, quantity: string, amount_usd: string, txn_date: string) =>
      trade(db, { customer_id, symbol, quantity, amount_usd, txn_date, txn_type: 'buy_security' });
    const sell = (customer_id: string, symbol: string, quantity: string, amount_usd: string, txn_date: string) =>
      trade(db, { customer_id, symbol, quantity, amount_usd, txn_date, txn_type: 'sell_security' });
    // Long-term before 2024-07-23 (indexed), short-term after it, long-term after it, and a lot open at 31 March.
    await buy('PACK-1', 'AAPL', '10', '1000.00', '2022-01-10');
    await sell('PACK-1', 'AAPL', '10', '1900.00', '2024-06-20');
    await buy('PACK-1', 'MSFT', '5', '2000.00', '2024-05-02');
    await sell('PACK-1', 'MSFT', '5', '2100.00', '2024-08-05');
    await buy('PACK-2', 'AAPL', '4', '400.00', '2021-03-01');
    await sell('PACK-2', 'AAPL', '4', '900.00', '2025-03-20');
    await buy('PACK-2', 'AAPL', '2', '400.00', '2025-01-10');
    await buy('PACK-X', 'AAPL', '1', '100.00', '2024-05-02');
    await sell('PACK-X', 'AAPL', '1', '200.00', '2024-06-03');
    await recost(db, RECOST);
    // Dividends: one at 30 % (no W-8BEN), one at 25 %.
    await db.raw(
      `INSERT INTO dividend_events (div_txn_no, customer_id, account_no, symbol, ex_date, pay_date, shares, per_share, gross_usd, wht_txn_no, wht_rate, wht_usd, report_date)
       VALUES ('PDIV-1', 'PACK-1', 'ACC-PACK-1', 'AAPL', '2024-05-10', '2024-05-16', 10, 0.25, 2.50, 'PNRA-1', 0.30, 0.75, '2024-05-16'),
              ('PDIV-2', 'PACK-2', 'ACC-PACK-2', 'AAPL', '2024-11-08', '2024-11-14', 400, 0.25, 100.00, 'PNRA-2', 0.25, 25.00, '2024-11-14'),
              ('PDIV-X', 'PACK-X', 'ACC-PACK-X', 'AAPL', '2024-11-08', '2024-11-14', 400, 0.25, 100.00, 'PNRA-X', 0.25, 25.00, '2024-11-14')`,
    );
    // A remittance refunded after payment (its TCS stays the PAN's credit) and one kept.
    const remittance = (orderId: string, status: string, errorCode: string | null, on: string, tcs: string) =>
      db.raw(
        `INSERT INTO remittances (order_id, customer_id, remit_customer_id, pan, status, purpose_code, amount_inr, amount_usd, quote_id, fx_rate, tcs_inr,
                                  payment_error_code, remitted_on, order_created_at, order_updated_at, status_history)
         VALUES (?, 'PACK-1', 'cust_pack', ?, ?, 'S0001', 800000.00, 9600.00, 'quote_1', 0.012, ?, ?, ?, now(), now(), '[]')`,
        [orderId, PAN, status, tcs, errorCode, on],
      );
    await remittance('order_pack_1', 'paid', null, '2024-05-10', '20000.00');
    await remittance('order_pack_2', 'failed', 'REFUNDED', '2024-06-10', '160000.00');
  });
  after(async () => {
    await t?.drop();
  });

  it('its totals equal the capital-gains, dividends, Schedule FA and LRS reports’ for the same PAN and FY', async () => {
    const pack = await taxPackReport(india, FY, PAN);
    expect(pack.customer_ids).to.deep.equal(['PACK-1', 'PACK-2']);
    expect(pack.assessment_year).to.equal('2025-26');

    const cg = await Promise.all(['PACK-1', 'PACK-2'].map((c) => capitalGainsReport(india, FY, c, PAGE)));
    const symbols = cg.flatMap((r) => r.items.flatMap((i) => i.symbols));
    expect(pack.totals).to.deep.include({
      short_term_gain_inr: sum(symbols.map((s) => s.short_term_gain_inr)),
      long_term_gain_before_2024_07_23_inr: sum(symbols.map((s) => s.long_term_gain_before_2024_07_23_inr)),
      long_term_gain_before_2024_07_23_indexed_inr: sum(
        symbols.map((s) => s.long_term_gain_before_2024_07_23_indexed_inr),
      ),
      long_term_gain_from_2024_07_23_inr: sum(symbols.map((s) => s.long_term_gain_from_2024_07_23_inr)),
      open_lots_cost_inr: sum(symbols.flatMap((s) => s.open_lots.map((l) => l.cost_inr))),
    });
    // Each of the three kinds happened once, so no total is trivially zero.
    for (const total of [
      pack.totals.short_term_gain_inr,
      pack.totals.long_term_gain_before_2024_07_23_indexed_inr,
      pack.totals.long_term_gain_from_2024_07_23_inr,
      pack.totals.open_lots_cost_inr,
    ])
      expect(new Decimal(total!).isZero(), String(total)).to.equal(false);

    const dividends = await Promise.all(['PACK-1', 'PACK-2'].map((c) => dividendsReport(india, FY, c)));
    const customers = dividends.flatMap((d) => d.customers);
    expect(pack.totals).to.deep.include({
      dividends_gross_inr: sum(customers.map((c) => c.gross_inr)),
      foreign_tax_paid_inr: sum(customers.map((c) => c.withheld_inr)),
      foreign_tax_credit_available_inr: sum(customers.map((c) => c.credit_available_inr)),
    });
    expect(pack.Form67.totals.not_creditable.inr).to.equal(sum(customers.map((c) => c.not_creditable_inr)));
    expect(pack.ScheduleTR[0]!.TaxReliefOutsideIndia.inr).to.equal(pack.totals.foreign_tax_credit_available_inr);

    const lrs = (await lrsReport(india, FY)).pans.find((p) => p.pan === PAN)!;
    expect(pack.totals.tcs_inr).to.equal(lrs.actual_tcs_inr);
    // The refunded remittance's 1,60,000.00 stays the PAN's credit beside the kept one's 20,000.00.
    expect(pack.ScheduleTCS).to.deep.include({ TAN: 'MUMR12345A' });
    expect(pack.ScheduleTCS.TotalTCS.inr).to.equal('180000.00');
    expect(pack.ScheduleTCS.lines.map((l) => [l.order_id, l.refunded, l.collected.inr])).to.deep.equal([
      ['order_pack_1', false, '20000.00'],
      ['order_pack_2', true, '160000.00'],
    ]);

    const fa = await Promise.all(['PACK-1', 'PACK-2'].map((c) => scheduleFaReport(india, FY, c, PAGE)));
    const a3 = fa.flatMap((r) => r.items.flatMap((i) => i.a3));
    expect(
      pack.ScheduleFA.DtlsForeignEquityDebtInterest.map((h) => [h.symbol, h.InitialValOfInvstmnt.inr]),
    ).to.deep.equal(a3.map((h) => [h.symbol, h.initial_value_inr]));
    expect(pack.ScheduleFA.DtlsForeignEquityDebtInterest.map((h) => h.CountryCodeExcludingIndia)).to.deep.equal(
      a3.map(() => '2'),
    );
  });

  it('the s. 234C periods add up to each section’s gain, each transfer in the period of its trade date', async () => {
    const pack = await taxPackReport(india, FY, PAN);
    const cg = pack.ScheduleCG;
    const periods = (ranges: Record<string, { inr: string | null }>) =>
      Object.fromEntries(Object.entries(ranges).map(([k, v]) => [k, v.inr]));
    const zero = '0.00';
    // The AAPL sale of 2024-06-20 (long-term, indexed) falls in 16 June–15 September; the MSFT sale of
    // 2024-08-05 (short-term) too; PACK-2's AAPL sale of 2025-03-20 (long-term, 12.5 %) in 16–31 March.
    expect(periods(cg.AccruOrRecOfCG.LongTermUnder20Per.DateRange)).to.deep.equal({
      Upto15Of6: zero,
      Upto15Of9: cg.LongTermCapGain.before_2024_07_23.CapgainonAssets.inr,
      Up16Of9To15Of12: zero,
      Up16Of12To15Of3: zero,
      Up16Of3To31Of3: zero,
    });
    expect(periods(cg.AccruOrRecOfCG.ShortTermUnderAppRate.DateRange)).to.deep.equal({
      Upto15Of6: zero,
      Upto15Of9: cg.ShortTermCapGain.from_2024_07_23.CapgainonAssets.inr,
      Up16Of9To15Of12: zero,
      Up16Of12To15Of3: zero,
      Up16Of3To31Of3: zero,
    });
    expect(periods(cg.AccruOrRecOfCG.LongTermUnder12_5Per.DateRange)).to.deep.equal({
      Upto15Of6: zero,
      Upto15Of9: zero,
      Up16Of9To15Of12: zero,
      Up16Of12To15Of3: zero,
      Up16Of3To31Of3: cg.LongTermCapGain.from_2024_07_23.CapgainonAssets.inr,
    });
    // Dividends by pay date: 16 May in the first period, 14 November in the third (Schedule OS's names).
    const os = periods(pack.ScheduleOS.DateRange);
    expect(Object.keys(os)).to.deep.equal([
      'Upto15Of6',
      'Up16Of6To15Of9',
      'Up16Of9To15Of12',
      'Up16Of12To15Of3',
      'Up16Of3To31Of3',
    ]);
    expect([os.Up16Of6To15Of9, os.Up16Of12To15Of3, os.Up16Of3To31Of3]).to.deep.equal([zero, zero, zero]);
    expect(sum([os.Upto15Of6!, os.Up16Of9To15Of12!])).to.equal(pack.ScheduleOS.DividendGross.inr);
  });

  it('each line carries its rate, the rate’s date and its rule; the 30 % dividend’s 5 % is not creditable, with why', async () => {
    const pack = await taxPackReport(india, FY, PAN);
    const line = pack.ScheduleCG.lines.find((l) => l.section === 'long_term_before_2024_07_23')!;
    // Sold 2024-06-20: Rule 115 takes 2024-05-31's TT buying rate; bought 2022-01-10: 2021-12-31's.
    expect(line.FullConsideration).to.include({ rate_date: '2024-05-31', rule: 'cg_consideration' });
    expect(line.AquisitCost).to.include({ rate_date: '2021-12-31', rule: 'cg_cost' });
    expect(line.IndexedAquisitCost).to.include({
      acquisition_fy: '2021-22',
      acquisition_cii: 317,
      transfer_fy: '2024-25',
      transfer_cii: 363,
    });
    const thirty = pack.Form67.lines.find((l) => l.div_txn_no === 'PDIV-1')!;
    expect(thirty).to.deep.include({ CountryCode: '2', treaty_article: '10', withholding_rate: '0.3' });
    // Paid in May: Rule 115 asks for 2024-04-30, which has no SBI sheet in the shipped file: 2024-04-26's is taken.
    expect(thirty.tax_paid).to.include({ usd: '0.75', rate_date: '2024-04-26' });
    // 0.75 withheld on 2.50: 25 % of the gross (0.625 → 0.63 USD) is creditable, the rest not.
    expect(new Decimal(thirty.credit_available.inr!).plus(thirty.not_creditable.inr!).toFixed(2)).to.equal(
      thirty.tax_paid.inr,
    );
    expect(thirty.not_creditable.reason).to.match(/above the India–US treaty rate/);
    for (const rule of [line.FullConsideration.rule, thirty.tax_paid.rule, pack.ScheduleAL.SharesAndSecurities.rule])
      expect(pack.rules[rule].source).to.be.a('string').and.not.equal('');
  });

  it('answers CSV: one row per figure with its path, INR, USD, rate, rate date and rule', async () => {
    const text = taxPackCsv(await taxPackReport(india, FY, PAN));
    const rows = text.trimEnd().split('\r\n');
    expect(rows[0]).to.equal('field,value,inr,usd,rate,rate_date,rule');
    expect(rows).to.include('pan,PACKP1234K,,,,,');
    expect(rows).to.include('ScheduleTCS.TotalTCS,,180000.00,,,,tcs_collected');
    expect(rows.filter((r) => r.startsWith('ScheduleCG.lines[')).length).to.be.greaterThan(0);
  });

  it('a PAN no customer or remittance of the book names is not found; on the UAE book none is', async () => {
    for (const [context, pan] of [
      [india, 'NOONE1234Z'],
      [{ ...india, book: 'ENTITY_UAE' as const }, PAN],
    ] as const) {
      const error = await taxPackReport(context, FY, pan).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(LedgerError);
      expect((error as LedgerError).code).to.equal('not_found');
    }
  });
});
