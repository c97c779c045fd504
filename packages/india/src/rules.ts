import { Decimal } from '@ledger/core/posting';
import type { InstrumentType } from './issuers.js';

/**
 * The India book's tax and compliance rules as dated tables (effective from → value): a new budget
 * is one new row here, not a code change. Sources and dates: docs/india-reports.md.
 */

/** A rule in effect from `from` (inclusive) until the next row's `from`. */
export interface Dated<T> {
  from: string;
  value: T;
  /** Why the row is believed (the source), shown on the docs page. */
  source: string;
  /** A budget proposal not yet law: applied by default, switchable off (IndiaSettings). */
  unconfirmed?: boolean;
}

/** The row in effect on `date`, or null before the table starts. Rows are in `from` order. */
export function ruleOn<T>(table: ReadonlyArray<Dated<T>>, date: string): Dated<T> | null {
  let found: Dated<T> | null = null;
  for (const row of table) if (row.from <= date) found = row;
  return found;
}

/** TCS on LRS remittances (section 206C(1G)): the rate on the part of a PAN's FY total above the threshold. */
export interface TcsRule {
  /** Investment (purpose S0001, S0002) and other purposes. */
  rate: Decimal;
  /** Education or medical treatment, self-funded (not remitted on this book; kept for completeness). */
  educationRate: Decimal;
  thresholdInr: Decimal;
}

const tcs = (rate: string, educationRate: string, thresholdInr: string): TcsRule => ({
  rate: new Decimal(rate),
  educationRate: new Decimal(educationRate),
  thresholdInr: new Decimal(thresholdInr),
});

export const TCS_RULES: ReadonlyArray<Dated<TcsRule>> = [
  { from: '2020-10-01', value: tcs('0.05', '0.05', '700000'), source: 'Finance Act 2020, s. 206C(1G)' },
  {
    from: '2023-10-01',
    value: tcs('0.20', '0.05', '700000'),
    source: 'Finance Act 2023, as deferred by CBDT press release of 28 June 2023',
  },
  { from: '2025-04-01', value: tcs('0.20', '0.05', '1000000'), source: 'Finance Act 2025' },
  {
    from: '2026-04-01',
    value: tcs('0.20', '0.02', '1000000'),
    source: 'Union Budget 2026 proposal',
    unconfirmed: true,
  },
];

/** Without a (operative) PAN: the higher of twice the rate or 5 %, capped at 20 % (s. 206CC). */
export function noPanRate(rate: Decimal): Decimal {
  return Decimal.min(Decimal.max(rate.times(2), new Decimal('0.05')), new Decimal('0.20'));
}

/** The LRS limit per resident individual (PAN) per financial year, USD, all purposes and banks together. */
export const LRS_LIMIT_USD: ReadonlyArray<Dated<Decimal>> = [
  {
    from: '2015-02-03',
    value: new Decimal(250_000),
    source: 'RBI A.P. (DIR Series) Circular No. 106 of 3 February 2015',
  },
];
/** Share of the LRS limit from which a PAN is `warn` (and `breach` at 1). */
export const LRS_WARN_SHARE = new Decimal('0.8');

/** Long-term capital gains on shares unlisted in India (US shares): rate and indexation, by transfer date. */
export interface LtcgRule {
  rate: Decimal;
  indexation: boolean;
  /** The era's name in reports. */
  era: 'before_2024_07_23' | 'from_2024_07_23';
}

export const LTCG_RULES: ReadonlyArray<Dated<LtcgRule>> = [
  {
    from: '1900-01-01',
    value: { rate: new Decimal('0.20'), indexation: true, era: 'before_2024_07_23' },
    source: 'Income-tax Act 1961, s. 112',
  },
  {
    from: '2024-07-23',
    value: { rate: new Decimal('0.125'), indexation: false, era: 'from_2024_07_23' },
    source: 'Finance (No. 2) Act 2024, s. 112 as amended',
  },
];

/**
 * Long-term when held MORE than this many calendar months, by transfer date and instrument (s.
 * 2(42A)): a share unlisted in India 24; units of a fund (an ETF's among them) 36 before
 * 2024-07-23, 24 on and after.
 */
export const LONG_TERM_MONTHS: ReadonlyArray<Dated<Record<InstrumentType, number>>> = [
  {
    from: '1900-01-01',
    value: { share: 24, fund_unit: 36 },
    source: 'Income-tax Act 1961, s. 2(42A) and its first proviso (unlisted shares 24 months; units 36)',
  },
  {
    from: '2024-07-23',
    value: { share: 24, fund_unit: 24 },
    source:
      'Finance (No. 2) Act 2024, s. 2(42A) as amended (any capital asset other than listed securities: 24 months)',
  },
];

/**
 * Section 50AA: gains on units of a "specified mutual fund" acquired on or after this day are
 * short-term whatever the holding. Whether foreign ETF units are such units is unsettled: a
 * setting (INDIA_SECTION_50AA, default not applied), and every disposal it would change is flagged.
 */
export const SECTION_50AA_ACQUIRED_FROM = '2023-04-01';

/** US withholding on dividends to an Indian resident: the statutory rate, and the treaty rate with a W-8BEN. */
export const US_DIVIDEND_WHT: ReadonlyArray<Dated<{ statutory: Decimal; treaty: Decimal }>> = [
  {
    from: '1991-12-18',
    value: { statutory: new Decimal('0.30'), treaty: new Decimal('0.25') },
    source: 'US IRC s. 1441; India–US DTAA art. 10(2)(b)',
  },
];
