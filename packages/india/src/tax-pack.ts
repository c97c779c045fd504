import { Decimal, ZERO } from '@ledger/core/posting';
import type { capitalGainsSummary, CapitalGainMatch } from './capital-gains.js';
import type { dividendSummary } from './dividends.js';
import { money } from './figures.js';
import type { FinancialYear } from './fy.js';
import type { lrsSummary, TcsCollector } from './lrs.js';
import type { RateBook, RateUsed } from './rates.js';
import type { A2Nature, scheduleFa } from './schedule-fa.js';

/**
 * The tax pack: one PAN's figures for one FY, in the ITR utility's schedule and field names
 * (the ITR-2/ITR-3 JSON schema of AY 2025-26), reshaped from the summaries the India reports
 * answer: never computed a second time. Every figure says its INR and USD amounts, the SBI rate
 * it took and that rate's date (null when it sums figures of several dates: its lines carry
 * theirs), and the rule it follows (a key of TAX_PACK_RULES).
 */

/** The rules a figure of the pack follows, with their source: docs/india-reports.md states each. */
export const TAX_PACK_RULES = {
  fa_initial_value: {
    rule: 'Schedule FA A3 initial value: the cost, buy fee included, of the shares of the holding still held on 1 January of the calendar year (or bought in it); each lot at the SBI TT buying rate of its acquisition date.',
    source: 'ITR-2 instructions, Schedule FA (values at the TT buying rate of the date they refer to; Rule 26)',
  },
  fa_peak: {
    rule: 'Schedule FA peak value: the highest of shares held × close × SBI TT buying rate over the trading days of the calendar year held. With a trading day held without a close it is only a lower bound: PeakBalanceDuringPeriod is then null and the lower bound is given apart, with the days missing.',
    source: 'ITR-2 instructions, Schedule FA; Rule 26',
  },
  fa_closing: {
    rule: 'Schedule FA closing value: shares held at 31 December × the last close of the year (within a week) × the SBI TT buying rate of 31 December.',
    source: 'ITR-2 instructions, Schedule FA; Rule 26',
  },
  fa_credit: {
    rule: 'Schedule FA gross amounts paid or credited (dividends, sale proceeds): gross, each at the SBI TT buying rate of the day it was paid or credited.',
    source: 'ITR-2 instructions, Schedule FA; Rule 26',
  },
  fa_a2_balance: {
    rule: 'Schedule FA A2: the broker USD wallet’s peak and 31 December balances at the SBI TT buying rate of their dates; credits by nature (D dividend, I interest, S proceeds from sale or redemption, O other income; N none): the holder’s own transfers in are none of them.',
    source: 'ITR-2 instructions, Schedule FA table A2; Rule 26',
  },
  cg_consideration: {
    rule: 'Schedule CG full value of consideration: the sale’s proceeds net of its broker fee (the fee, an expenditure on transfer, netted), at the Rule 115 rate of the transfer month (the SBI TT buying rate of the last day of the month before).',
    source: 'Income-tax Act s. 48; Income-tax Rules, Rule 115',
  },
  cg_cost: {
    rule: 'Schedule CG cost of acquisition: the lot’s cost plus its share of the buy’s fee, at the Rule 115 rate of the acquisition month (INDIA_CG_COST_RATE=acquisition_month, the default) or of the transfer month.',
    source: 'Income-tax Act s. 48; Rule 115 (how cost converts is unsettled: a setting)',
  },
  cg_indexed_cost: {
    rule: 'Long-term transfers before 2024-07-23: the INR cost × CII(FY of transfer) / CII(FY of acquisition, 2001-02 at the earliest); taxed at 20 %.',
    source: 'Income-tax Act s. 48 second proviso and s. 112; CBDT Cost Inflation Index notifications',
  },
  cg_gain: {
    rule: 'Schedule CG gain: consideration − cost (indexed cost for long-term transfers before 2024-07-23). Long-term when held more than 24 calendar months (fund units transferred before 2024-07-23: 36), by trade dates; section 50AA per INDIA_SECTION_50AA.',
    source: 'Income-tax Act s. 2(42A), s. 45, s. 48, s. 50AA, s. 112 (Finance (No. 2) Act 2024)',
  },
  cg_quarters: {
    rule: 'Schedule CG, accrual of capital gains by the periods of s. 234C (up to 15 June, 16 June–15 September, 16 September–15 December, 16 December–15 March, 16 March–31 March): each transfer’s gain in the period of its trade date, before any set-off of losses.',
    source: 'Income-tax Act s. 234C; ITR-2 Schedule CG table F',
  },
  os_dividend: {
    rule: 'Schedule OS dividends: gross (before US withholding), at the Rule 115 rate of the pay month; by the s. 234C periods of the pay date.',
    source: 'Income-tax Act s. 56(2)(i), s. 234C; Rule 115',
  },
  ftc_dividend: {
    rule: 'Foreign tax credit on a dividend (Schedule FSI, TR, Form 67): tax paid is the US withholding; the credit available is at most the treaty rate of the gross (25 %, Article 10(2)(b)), the rest not creditable; the Indian tax on the income at the filer’s slab bounds it further, which the book does not know. At the Rule 115 rate of the pay month (Rule 128: the month it was deducted).',
    source: 'Income-tax Act s. 90; Income-tax Rules, Rule 128; India–US DTAA Article 10',
  },
  fsi_capital_gains: {
    rule: 'Capital gains on US shares: taxable in India only (no US tax withheld), so no tax paid and no relief. The gain is the short-term and long-term gains of Schedule CG (indexed before 2024-07-23).',
    source: 'India–US DTAA Article 13; Income-tax Act s. 90',
  },
  tcs_collected: {
    rule: 'Schedule TCS: the TCS the provider reports collected on the PAN’s LRS remittances of the FY, those refunded later included (the credit stays the payer’s), claimed in the FY collected; the collector’s TAN from INDIA_TCS_COLLECTOR_TAN.',
    source: 'Income-tax Act s. 206C(1G), s. 206C(4); Form 27D; Form 26AS',
  },
  al_cost: {
    rule: 'Schedule AL shares and securities: the cost (ledger cost, fees excluded) of the lots open at 31 March, at the Rule 115 rate of each lot’s acquisition month.',
    source: 'ITR-2 instructions, Schedule AL (assets at cost); Rule 115 by analogy (the schedule names no rate)',
  },
} as const satisfies Record<string, { rule: string; source: string }>;
export type TaxPackRule = keyof typeof TAX_PACK_RULES;

/** One figure of the pack: INR (paise; the utility rounds to rupees), USD, the rate and its date, the rule. */
export interface Figure {
  inr: string | null;
  usd: string | null;
  rate: string | null;
  rate_date: string | null;
  rule: TaxPackRule;
}

const figure = (
  inr: string | null,
  usd: string | null,
  rate: RateUsed | { rate: string; rate_date: string } | null,
  rule: TaxPackRule,
): Figure => ({
  inr,
  usd,
  rate: rate === null ? null : 'rateDate' in rate ? rate.rate.toFixed() : rate.rate,
  rate_date: rate === null ? null : 'rateDate' in rate ? rate.rateDate : rate.rate_date,
  rule,
});

/** The ITR utility's country code (Schedule FA, FSI, TR) of the countries the book's issuers and broker are in. */
export const ITR_COUNTRY_CODES: Readonly<Record<string, string>> = { 'United States of America': '2' };
const US = 'United States of America';

/** Table A2's nature codes (NatureOfAmount) of A2_NATURES. */
const NATURE_CODES: Record<A2Nature, string> = { dividend: 'D', interest: 'I', proceeds: 'S', other_income: 'O' };

/** The s. 234C periods: Schedule CG's keys, Schedule OS's (the second named differently), the last day of each. */
const PERIODS = [
  { cg: 'Upto15Of6', os: 'Upto15Of6', to: (y: number) => `${y}-06-15` },
  { cg: 'Upto15Of9', os: 'Up16Of6To15Of9', to: (y: number) => `${y}-09-15` },
  { cg: 'Up16Of9To15Of12', os: 'Up16Of9To15Of12', to: (y: number) => `${y}-12-15` },
  { cg: 'Up16Of12To15Of3', os: 'Up16Of12To15Of3', to: (y: number) => `${y + 1}-03-15` },
  { cg: 'Up16Of3To31Of3', os: 'Up16Of3To31Of3', to: (y: number) => `${y + 1}-03-31` },
] as const;

/** The s. 234C period (0–4) of a date of the FY. */
function periodOf(fy: FinancialYear, date: string): number {
  const year = Number(fy.start.slice(0, 4));
  return PERIODS.findIndex((p) => date <= p.to(year));
}

/** A running INR total that turns null once any part is (a missing rate): never a partial sum called whole. */
class Total {
  private value: Decimal | null = ZERO;
  add(amount: string | null): void {
    this.value = this.value === null || amount === null ? null : this.value.plus(amount);
  }
  get inr(): string | null {
    return this.value === null ? null : money(this.value);
  }
}

/** Five period totals, keyed by Schedule CG's or OS's names. */
class Periods {
  private readonly totals = PERIODS.map(() => new Total());
  constructor(private readonly fy: FinancialYear) {}
  add(date: string, amount: string | null): void {
    this.totals[periodOf(this.fy, date)]!.add(amount);
  }
  ranges(names: 'cg' | 'os', rule: TaxPackRule): Record<string, Figure> {
    return Object.fromEntries(PERIODS.map((p, i) => [p[names], figure(this.totals[i]!.inr, null, null, rule)]));
  }
}

interface Parts {
  capitalGains: { report: ReturnType<typeof capitalGainsSummary>; rates: RateBook };
  scheduleFa: { report: ReturnType<typeof scheduleFa>; rates: RateBook };
  dividends: { report: ReturnType<typeof dividendSummary>; rates: RateBook };
  /** The LRS summary of this PAN alone. */
  lrs: ReturnType<typeof lrsSummary>;
  tcsCollector: TcsCollector;
}

/** Schedule CG's four sections: term × the era of 2024-07-23. */
type Section =
  | 'short_term_before_2024_07_23'
  | 'short_term_from_2024_07_23'
  | 'long_term_before_2024_07_23'
  | 'long_term_from_2024_07_23';
const sectionOf = (m: CapitalGainMatch): Section =>
  `${m.term}_term_${m.rate_era === 'before_2024_07_23' ? 'before' : 'from'}_2024_07_23` as Section;

/** One section's running totals; the unindexed ones are given apart for long-term before 2024-07-23. */
interface SectionTotals {
  consideration: Total;
  cost: Total;
  unindexedCost: Total;
  gain: Total;
  unindexedGain: Total;
  transfers: number;
}

const sectionTotals = (): SectionTotals => ({
  consideration: new Total(),
  cost: new Total(),
  unindexedCost: new Total(),
  gain: new Total(),
  unindexedGain: new Total(),
  transfers: 0,
});

type CgReport = Parts['capitalGains']['report'];
type CgCustomer = CgReport['items'][number];
type CgSymbol = CgCustomer['symbols'][number];
type CgDisposal = CgSymbol['disposals'][number];

/** One line of Schedule CG's detail: a sale's match with one lot, `gain` the one the section sums. */
function cgLine(
  customer: CgCustomer,
  symbol: CgSymbol,
  disposal: CgDisposal,
  m: CapitalGainMatch,
  section: Section,
  gain: string | null,
) {
  return {
    customer_id: customer.customer_id,
    symbol: symbol.symbol,
    sell_txn_id: disposal.sell_txn_id,
    lot_txn_id: m.lot_txn_id,
    section,
    acquired_on: m.acquired_on,
    transferred_on: m.transferred_on,
    quantity: m.quantity,
    months_held: m.months_held,
    instrument_type: m.instrument_type,
    section_50aa: m.section_50aa,
    FullConsideration: figure(m.consideration_inr, m.consideration_usd, m.sale_rate, 'cg_consideration'),
    AquisitCost: figure(m.cost_of_acquisition_inr, m.cost_of_acquisition_usd, m.cost_rate, 'cg_cost'),
    IndexedAquisitCost: m.indexed
      ? {
          ...figure(m.indexed.indexed_cost_of_acquisition_inr, null, null, 'cg_indexed_cost'),
          acquisition_fy: m.indexed.acquisition_fy,
          acquisition_cii: m.indexed.acquisition_cii,
          transfer_fy: m.indexed.transfer_fy,
          transfer_cii: m.indexed.transfer_cii,
        }
      : null,
    CapgainonAssets: figure(gain, m.gain_usd, null, 'cg_gain'),
  };
}

/**
 * Schedule CG's sums over the report's matches: each section's totals, table F's s. 234C periods
 * (short term, long term at 20 %, long term at 12.5 %) and the lines.
 */
function accrueCg(fy: FinancialYear, cg: CgReport) {
  const sections = new Map<Section, SectionTotals>();
  const quarters = { short: new Periods(fy), longBefore: new Periods(fy), longFrom: new Periods(fy) };
  const lines: ReturnType<typeof cgLine>[] = [];
  for (const customer of cg.items)
    for (const symbol of customer.symbols)
      for (const disposal of symbol.disposals)
        for (const m of disposal.matches) {
          const section = sectionOf(m);
          let s = sections.get(section);
          if (!s) sections.set(section, (s = sectionTotals()));
          // Long-term before 2024-07-23 is taxed with indexation: its cost and gain are the indexed ones.
          const [cost, gain] = m.indexed
            ? [m.indexed.indexed_cost_of_acquisition_inr, m.indexed.indexed_gain_inr]
            : [m.cost_of_acquisition_inr, m.gain_inr];
          s.consideration.add(m.consideration_inr);
          s.cost.add(cost);
          s.unindexedCost.add(m.cost_of_acquisition_inr);
          s.gain.add(gain);
          s.unindexedGain.add(m.gain_inr);
          s.transfers += 1;
          (m.term === 'short'
            ? quarters.short
            : m.rate_era === 'before_2024_07_23'
              ? quarters.longBefore
              : quarters.longFrom
          ).add(m.transferred_on, gain);
          lines.push(cgLine(customer, symbol, disposal, m, section, gain));
        }
  return { sections, quarters, lines };
}

function scheduleCg(fy: FinancialYear, cg: CgReport) {
  const { sections, quarters, lines } = accrueCg(fy, cg);
  const of = (t: Total | undefined, rule: TaxPackRule) => figure(t ? t.inr : '0.00', null, null, rule);
  const present = (section: Section) => {
    const s = sections.get(section);
    return {
      transfers: s?.transfers ?? 0,
      FullConsideration: of(s?.consideration, 'cg_consideration'),
      AquisitCost: of(s?.cost, section === 'long_term_before_2024_07_23' ? 'cg_indexed_cost' : 'cg_cost'),
      CapgainonAssets: of(s?.gain, 'cg_gain'),
    };
  };
  const longBefore = sections.get('long_term_before_2024_07_23');
  return {
    ShortTermCapGain: {
      before_2024_07_23: present('short_term_before_2024_07_23'),
      from_2024_07_23: present('short_term_from_2024_07_23'),
    },
    LongTermCapGain: {
      before_2024_07_23: {
        ...present('long_term_before_2024_07_23'),
        tax_rate: '0.20',
        indexation: true,
        unindexed: {
          AquisitCost: of(longBefore?.unindexedCost, 'cg_cost'),
          CapgainonAssets: of(longBefore?.unindexedGain, 'cg_gain'),
        },
      },
      from_2024_07_23: { ...present('long_term_from_2024_07_23'), tax_rate: '0.125', indexation: false },
    },
    AccruOrRecOfCG: {
      ShortTermUnderAppRate: { DateRange: quarters.short.ranges('cg', 'cg_quarters') },
      LongTermUnder20Per: { DateRange: quarters.longBefore.ranges('cg', 'cg_quarters') },
      LongTermUnder12_5Per: { DateRange: quarters.longFrom.ranges('cg', 'cg_quarters') },
    },
    flagged_sales: cg.items.flatMap((c) =>
      c.symbols.flatMap((s) => s.flagged_sales.map((f) => ({ customer_id: c.customer_id, symbol: s.symbol, ...f }))),
    ),
    lines,
  };
}

type FaReport = Parts['scheduleFa']['report'];
type FaCustomer = FaReport['items'][number];

/** What table A2's and A3's rows share: the rate of a date, the ITR country code (warned when unknown), 31 December. */
function faContext(fa: Parts['scheduleFa'], warnings: string[]) {
  return {
    rateOn: (date: string | null) => (date === null ? null : fa.rates.findTtBuy(date)),
    countryCode: (country: string | null, what: string) => {
      const code = country === null ? undefined : ITR_COUNTRY_CODES[country];
      if (country !== null && code === undefined)
        warnings.push(`no ITR country code known for ${country} (${what}): CountryCodeExcludingIndia is null`);
      return code ?? null;
    },
    last: fa.report.period.to,
    warnings,
  };
}
type FaContext = ReturnType<typeof faContext>;

/** Schedule FA table A3: a customer's foreign equity holdings. */
function faA3(c: FaCustomer, { rateOn, countryCode, last }: FaContext) {
  return c.a3.map((h) => ({
    customer_id: c.customer_id,
    symbol: h.symbol,
    CountryName: h.country,
    CountryCodeExcludingIndia: countryCode(h.country, h.symbol),
    NameOfEntity: h.entity_name,
    AddressOfEntity: h.address,
    ZipCode: h.zip_code,
    NatureOfEntity: h.nature_of_entity,
    InterestAcquiringDate: h.date_of_acquiring,
    InitialValOfInvstmnt: figure(h.initial_value_inr, h.initial_value_usd, null, 'fa_initial_value'),
    PeakBalanceDuringPeriod: {
      ...figure(h.peak_value_inr, h.peak_value_usd, rateOn(h.peak_value_date), 'fa_peak'),
      date: h.peak_value_date,
    },
    peak_lower_bound:
      h.peak_lower_bound_date === null
        ? null
        : {
            ...figure(h.peak_lower_bound_inr, h.peak_lower_bound_usd, rateOn(h.peak_lower_bound_date), 'fa_peak'),
            date: h.peak_lower_bound_date,
          },
    missing_close_days: h.missing_close_days,
    ClosingBalance: {
      ...figure(h.closing_value_inr, h.closing_value_usd, rateOn(last), 'fa_closing'),
      shares: h.closing_shares,
    },
    TotGrossAmtPaidCredited: figure(h.gross_dividends_inr, h.gross_dividends_usd, null, 'fa_credit'),
    TotGrossProceeds: figure(h.gross_sale_proceeds_inr, h.gross_sale_proceeds_usd, null, 'fa_credit'),
  }));
}

/** Table A2's amounts credited to an account, one entry per nature credited (none: an empty list). */
function a2Natures(a: FaCustomer['a2'][number]) {
  // The natures' fields are named from A2_NATURES (gross_<nature>_usd, _inr).
  const credited = a as unknown as Record<string, string | null>;
  return (Object.keys(NATURE_CODES) as A2Nature[])
    .filter((n) => !new Decimal(credited[`gross_${n}_usd`]!).isZero())
    .map((n) => ({
      NatureOfAmount: NATURE_CODES[n],
      GrossAmtPaidCredited: figure(credited[`gross_${n}_inr`]!, credited[`gross_${n}_usd`]!, null, 'fa_a2_balance'),
    }));
}

/** Schedule FA table A2: a customer's foreign custodial accounts (the broker's). */
function faA2(c: FaCustomer, { rateOn, countryCode, last, warnings }: FaContext) {
  return c.a2.map((a) => {
    const natures = a2Natures(a);
    if (natures.length > 1)
      warnings.push(
        `customer ${c.customer_id}'s broker account was credited amounts of ${natures.length} natures (${natures.map((n) => n.NatureOfAmount).join(', ')}): table A2 takes one nature per row, so NatureOfAmount is null and by_nature lists each`,
      );
    return {
      customer_id: c.customer_id,
      CountryName: a.country,
      CountryCodeExcludingIndia: countryCode(a.country, 'the broker'),
      FinancialInstName: a.institution_name,
      FinancialInstAddress: a.institution_address,
      ZipCode: a.institution_zip_code,
      AccountNumber: a.account_number,
      Status: a.status,
      AccOpenDate: a.account_opening_date,
      PeakBalanceDuringPeriod: {
        ...figure(a.peak_balance_inr, a.peak_balance_usd, rateOn(a.peak_balance_date), 'fa_a2_balance'),
        date: a.peak_balance_date,
      },
      ClosingBalance: figure(a.closing_balance_inr, a.closing_balance_usd, rateOn(last), 'fa_a2_balance'),
      NatureOfAmount: natures.length === 0 ? 'N' : natures.length === 1 ? natures[0]!.NatureOfAmount : null,
      GrossAmtPaidCredited: figure(a.gross_credited_inr, a.gross_credited_usd, null, 'fa_a2_balance'),
      by_nature: natures,
    };
  });
}

function scheduleFaOfPan(fa: Parts['scheduleFa'], warnings: string[]) {
  const context = faContext(fa, warnings);
  // A3 before A2: the order their warnings come in.
  const a3 = fa.report.items.flatMap((c) => faA3(c, context));
  const a2 = fa.report.items.flatMap((c) => faA2(c, context));
  return {
    calendar_year: fa.report.calendar_year,
    period: fa.report.period,
    DtlsForeignCustodialAcc: a2,
    DtlsForeignEquityDebtInterest: a3,
  };
}

function dividendSchedules(fy: FinancialYear, dividends: Parts['dividends']['report']) {
  const [gross, withheld, credit, notCreditable] = [new Total(), new Total(), new Total(), new Total()];
  const periods = new Periods(fy);
  const form67 = dividends.customers.flatMap((c) =>
    c.events.map((e) => {
      gross.add(e.gross_inr);
      withheld.add(e.withheld_inr);
      credit.add(e.credit_available_inr);
      notCreditable.add(e.not_creditable_inr);
      periods.add(e.pay_date, e.gross_inr);
      return {
        customer_id: c.customer_id,
        div_txn_no: e.div_txn_no,
        symbol: e.symbol,
        pay_date: e.pay_date,
        CountryName: dividends.treaty.country,
        CountryCode: dividends.treaty.country_code,
        nature_of_income: 'Dividend',
        treaty_article: dividends.treaty.article,
        withholding_rate: e.effective_rate,
        treaty_rate: e.treaty_rate,
        income: figure(e.gross_inr, e.gross_usd, e.rate, 'os_dividend'),
        tax_paid: figure(e.withheld_inr, e.withheld_usd, e.rate, 'ftc_dividend'),
        credit_available: figure(e.credit_available_inr, null, e.rate, 'ftc_dividend'),
        not_creditable: {
          ...figure(e.not_creditable_inr, null, e.rate, 'ftc_dividend'),
          reason: e.not_creditable_reason,
        },
      };
    }),
  );
  return {
    gross,
    withheld,
    credit,
    os: {
      DividendGross: figure(gross.inr, null, null, 'os_dividend'),
      DateRange: periods.ranges('os', 'os_dividend'),
    },
    form67: {
      lines: form67,
      totals: {
        income: figure(gross.inr, null, null, 'os_dividend'),
        tax_paid: figure(withheld.inr, null, null, 'ftc_dividend'),
        credit_available: figure(credit.inr, null, null, 'ftc_dividend'),
        not_creditable: figure(notCreditable.inr, null, null, 'ftc_dividend'),
      },
    },
  };
}

/** The INR sum of figures: null when any is. */
const sumOf = (...figures: Figure[]) => {
  const t = new Total();
  for (const f of figures) t.add(f.inr);
  return t.inr;
};

const US_CODES = { CountryName: US, CountryCodeExcludingIndia: ITR_COUNTRY_CODES[US]! };

type Cg = ReturnType<typeof scheduleCg>;
type Dividends = ReturnType<typeof dividendSchedules>;

/** Schedule FSI: the dividends (other sources) and the capital gains (Schedule CG's four sections) from the US. */
function scheduleFsi(cg: Cg, dividends: Dividends, treatyArticle: string) {
  const gains = sumOf(
    cg.ShortTermCapGain.before_2024_07_23.CapgainonAssets,
    cg.ShortTermCapGain.from_2024_07_23.CapgainonAssets,
    cg.LongTermCapGain.before_2024_07_23.CapgainonAssets,
    cg.LongTermCapGain.from_2024_07_23.CapgainonAssets,
  );
  return [
    {
      ...US_CODES,
      head: 'IncOthSrc',
      nature_of_income: 'Dividend',
      treaty_article: treatyArticle,
      IncFrmOutsideInd: figure(dividends.gross.inr, null, null, 'os_dividend'),
      TaxPaidOutsideInd: figure(dividends.withheld.inr, null, null, 'ftc_dividend'),
      TaxPayableinInd: null,
      TaxReliefinInd: figure(dividends.credit.inr, null, null, 'ftc_dividend'),
      DTAAReliefUs90or91: '90',
    },
    {
      ...US_CODES,
      head: 'IncCapGain',
      nature_of_income: 'Capital gains on shares',
      treaty_article: '13',
      IncFrmOutsideInd: figure(gains, null, null, 'fsi_capital_gains'),
      TaxPaidOutsideInd: figure('0.00', null, null, 'fsi_capital_gains'),
      TaxPayableinInd: null,
      TaxReliefinInd: figure('0.00', null, null, 'fsi_capital_gains'),
      DTAAReliefUs90or91: '90',
    },
  ];
}

/** Schedule TR: the US tax withheld on dividends and the relief claimed for it. */
const scheduleTr = (dividends: Dividends) => [
  {
    ...US_CODES,
    TaxPaidOutsideIndia: figure(dividends.withheld.inr, null, null, 'ftc_dividend'),
    TaxReliefOutsideIndia: figure(dividends.credit.inr, null, null, 'ftc_dividend'),
    ReliefClaimedUsSection: '90',
  },
];

/** Schedule TCS: the TCS collected on the PAN's LRS remittances; warns when a claim lacks the collector's TAN. */
function scheduleTcs(pan: string, parts: Parts, warnings: string[]) {
  const ofPan = parts.lrs.pans.find((p) => p.pan === pan);
  const lines = (ofPan?.remittances ?? []).map((r) => ({
    order_id: r.order_id,
    customer_id: r.customer_id,
    remitted_on: r.remitted_on,
    refunded: r.refunded,
    collected: figure(r.actual_tcs_inr, null, null, 'tcs_collected'),
    estimated_inr: r.estimated_tcs_inr,
  }));
  const total = figure(ofPan?.actual_tcs_inr ?? '0.00', null, null, 'tcs_collected');
  if (parts.tcsCollector.tan === null && !new Decimal(total.inr ?? '0').isZero())
    warnings.push("Schedule TCS needs the collector's TAN: set INDIA_TCS_COLLECTOR_TAN (remit does not give it)");
  return { TAN: parts.tcsCollector.tan, TotalTCS: total, AmtTCSClaimedThisYear: total, lines };
}

/** Schedule AL's shares and securities: the lots open at 31 March, at cost. */
function scheduleAl(fy: FinancialYear, cg: CgReport) {
  const lots = cg.items.flatMap((c) =>
    c.symbols.flatMap((s) =>
      s.open_lots.map((l) => ({
        customer_id: c.customer_id,
        symbol: s.symbol,
        lot_txn_id: l.lot_txn_id,
        acquired_on: l.acquired_on,
        quantity: l.quantity,
        cost: figure(l.cost_inr, l.cost_usd, l.cost_rate, 'al_cost'),
      })),
    ),
  );
  return { SharesAndSecurities: figure(sumOf(...lots.map((l) => l.cost)), null, null, 'al_cost'), as_of: fy.end, lots };
}

/** The pack's headline figures, each taken from its schedule. */
function packTotals(
  cg: Cg,
  dividends: Dividends,
  tcs: ReturnType<typeof scheduleTcs>,
  al: ReturnType<typeof scheduleAl>,
) {
  return {
    short_term_gain_inr: sumOf(
      cg.ShortTermCapGain.before_2024_07_23.CapgainonAssets,
      cg.ShortTermCapGain.from_2024_07_23.CapgainonAssets,
    ),
    long_term_gain_before_2024_07_23_inr: cg.LongTermCapGain.before_2024_07_23.unindexed.CapgainonAssets.inr,
    long_term_gain_before_2024_07_23_indexed_inr: cg.LongTermCapGain.before_2024_07_23.CapgainonAssets.inr,
    long_term_gain_from_2024_07_23_inr: cg.LongTermCapGain.from_2024_07_23.CapgainonAssets.inr,
    dividends_gross_inr: dividends.gross.inr,
    foreign_tax_paid_inr: dividends.withheld.inr,
    foreign_tax_credit_available_inr: dividends.credit.inr,
    tcs_inr: tcs.TotalTCS.inr,
    open_lots_cost_inr: al.SharesAndSecurities.inr,
  };
}

/** The assessment year of an FY: 2024-25's is 2025-26. */
function assessmentYear(fy: FinancialYear): string {
  const start = Number(fy.start.slice(0, 4));
  return `${start + 1}-${String((start + 2) % 100).padStart(2, '0')}`;
}

/**
 * TaxPack of `pan` for `fy`: Schedule FA (A2, A3; the calendar year ending in the FY), Schedule
 * CG (short and long term, before and from 2024-07-23; the s. 234C periods), Schedule OS
 * dividends by period, Schedules FSI and TR and the Form 67 lines, Schedule TCS, and Schedule
 * AL's cost of the lots open at 31 March; the reports' warnings and its own.
 */
export function taxPack(fy: FinancialYear, pan: string, customers: string[], parts: Parts) {
  const warnings: string[] = [];
  const cg = scheduleCg(fy, parts.capitalGains.report);
  const fa = scheduleFaOfPan(parts.scheduleFa, warnings);
  const dividends = dividendSchedules(fy, parts.dividends.report);
  const tcs = scheduleTcs(pan, parts, warnings);
  const al = scheduleAl(fy, parts.capitalGains.report);
  return {
    pan,
    fy: fy.label,
    assessment_year: assessmentYear(fy),
    customer_ids: customers,
    ScheduleFA: fa,
    ScheduleCG: cg,
    ScheduleOS: dividends.os,
    ScheduleFSI: scheduleFsi(cg, dividends, parts.dividends.report.treaty.article),
    ScheduleTR: scheduleTr(dividends),
    Form67: dividends.form67,
    ScheduleTCS: tcs,
    ScheduleAL: al,
    totals: packTotals(cg, dividends, tcs, al),
    rules: TAX_PACK_RULES,
    warnings: [
      ...new Set([
        ...parts.capitalGains.report.warnings,
        ...parts.scheduleFa.report.warnings,
        ...parts.dividends.report.warnings,
        ...parts.lrs.warnings,
        ...warnings,
      ]),
    ],
  };
}

export type TaxPack = ReturnType<typeof taxPack>;

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
const field = (value: string | number | boolean | null) => {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const isFigure = (value: object): value is Figure => 'rule' in value && 'inr' in value && 'rate_date' in value;

/**
 * The pack as CSV: one row per figure (its path in the JSON answer as `field`, INR, USD, rate, rate
 * date, rule) and per other value (`value`), in the JSON's order: the same answer, flattened.
 */
export function taxPackCsv(pack: TaxPack): string {
  const rows: string[] = ['field,value,inr,usd,rate,rate_date,rule'];
  const walk = (path: string, value: unknown): void => {
    if (value === null || typeof value !== 'object') {
      rows.push([path, value as string | number | boolean | null, null, null, null, null, null].map(field).join(','));
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(`${path}[${i}]`, v));
      return;
    }
    if (isFigure(value)) {
      const { inr, usd, rate, rate_date, rule, ...rest } = value as Figure & Record<string, unknown>;
      rows.push([path, null, inr, usd, rate, rate_date, rule].map(field).join(','));
      for (const [k, v] of Object.entries(rest)) walk(`${path}.${k}`, v);
      return;
    }
    for (const [k, v] of Object.entries(value)) walk(path === '' ? k : `${path}.${k}`, v);
  };
  walk('', pack);
  return rows.join('\r\n') + '\r\n';
}
