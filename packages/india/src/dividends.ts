import { Decimal, roundToCents, ZERO } from '@ledger/core/posting';
import { groupBy, money, moneyOrNull, ratio, sum, toInr } from './figures.js';
import type { FinancialYear } from './fy.js';
import type { RateBook } from './rates.js';
import { ruleOn, US_DIVIDEND_WHT } from './rules.js';

/** A US dividend as dividend_events keeps it. */
export interface DividendEvent {
  divTxnNo: string;
  customerId: string;
  symbol: string;
  exDate: string;
  payDate: string;
  grossUsd: Decimal;
  whtUsd: Decimal | null;
}

/** Schedule FSI / TR and Form 67: the United States' country code and the treaty article on dividends. */
const US_DIVIDEND_TREATY = { country: 'United States of America', country_code: '2', article: '10' } as const;

/**
 * One dividend's foreign tax credit inputs (Rule 128, the India–US treaty): the tax paid, the
 * treaty's cap (its rate × the gross), the credit available (the lower of the two: the Indian
 * tax on the income at the filer's slab is the other bound, and the book does not know the slab)
 * and the excess, not creditable in India (reclaimed from the US), with why. USD; INR by the caller.
 */
function foreignTaxCredit(grossUsd: Decimal, withheldUsd: Decimal, payDate: string) {
  const treatyRate = ruleOn(US_DIVIDEND_WHT, payDate)!.value.treaty;
  const capUsd = roundToCents(grossUsd.times(treatyRate));
  const availableUsd = Decimal.min(withheldUsd, capUsd);
  const excessUsd = withheldUsd.minus(availableUsd);
  return {
    treatyRate,
    capUsd,
    availableUsd,
    excessUsd,
    reason: excessUsd.isZero()
      ? null
      : `withheld ${ratio(withheldUsd.dividedBy(grossUsd))} of the gross, above the India–US treaty rate of ${ratio(treatyRate)} (Article 10(2)(b), with a W-8BEN on file): the excess is not creditable in India (Rule 128); it is reclaimed from the US`,
  };
}

/**
 * DividendSummary: per customer, each dividend paid in the FY, gross, withheld and net, in USD and
 * INR. India taxes the gross at slab (Rule 115: the TT buying rate of the last day of the month
 * before the pay date). The US withholding is the foreign tax paid; the credit available under
 * Rule 128 and the treaty is at most the treaty rate of the gross (foreignTaxCredit), converted at
 * the TT buying rate of the last day of the month before the month it was deducted (the pay date:
 * the same rate). The slab-bound is left to the filer: never an assumed slab.
 */
export function dividendSummary(fy: FinancialYear, events: DividendEvent[], rates: RateBook) {
  const customers = groupBy(events, (e) => e.customerId);
  return {
    fy: fy.label,
    basis:
      'INR at the SBI TT buying rate of the last day of the month before the pay date (Rule 115 for the income; Rule 128 for the tax withheld, deducted on the pay date). ' +
      'The credit available is the US tax paid up to the treaty rate of the gross (India–US DTAA Article 10(2)(b), 25 % with a W-8BEN); the excess is not creditable. ' +
      'The credit is also capped at the Indian tax on the income at the filer’s slab, which the book does not know: the filer applies that bound (Form 67).',
    treaty: { ...US_DIVIDEND_TREATY },
    customers: [...customers.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([customerId, list]) => customerDividends(customerId, list, rates)),
    warnings: rates.warnings(),
  };
}

/** The share of the gross withheld. */
const rateOf = (gross: Decimal, withheld: Decimal) => (gross.isZero() ? '0' : ratio(withheld.dividedBy(gross)));

/** One customer's dividends of the FY (pay date order) and their totals; a total is null when any of its figures is. */
function customerDividends(customer_id: string, list: DividendEvent[], rates: RateBook) {
  const rows = list
    .sort((a, b) => a.payDate.localeCompare(b.payDate) || a.divTxnNo.localeCompare(b.divTxnNo))
    .map((e) => dividendOf(e, rates));
  const gross = sum(list.map((e) => e.grossUsd));
  const withheld = sum(list.map((e) => e.whtUsd ?? ZERO));
  const total = (values: Array<Decimal | null>) => (values.includes(null) ? null : sum(values as Decimal[]));
  const of = (field: keyof (typeof rows)[number]['figures']) => total(rows.map((r) => r.figures[field]));
  const [grossInr, withheldInr] = [of('grossInr'), of('withheldInr')];
  return {
    customer_id,
    gross_usd: money(gross),
    withheld_usd: money(withheld),
    net_usd: money(gross.minus(withheld)),
    effective_rate: rateOf(gross, withheld),
    gross_inr: moneyOrNull(grossInr),
    withheld_inr: moneyOrNull(withheldInr),
    net_inr: grossInr === null || withheldInr === null ? null : money(grossInr.minus(withheldInr)),
    treaty_cap_inr: moneyOrNull(of('capInr')),
    credit_available_inr: moneyOrNull(of('availableInr')),
    not_creditable_inr: moneyOrNull(of('excessInr')),
    events: rows.map(({ figures: _f, ...row }) => row),
  };
}

/** One dividend: gross, withheld and net, and the foreign tax credit, in USD and INR (`figures`: the INR ones, for the totals). */
function dividendOf(e: DividendEvent, rates: RateBook) {
  const withheld = e.whtUsd ?? ZERO;
  const rate = rates.rule115(e.payDate);
  const credit = foreignTaxCredit(e.grossUsd, withheld, e.payDate);
  const inr = (usd: Decimal) => toInr(usd, rate?.rate);
  const [grossInr, withheldInr, capInr, availableInr] = [
    inr(e.grossUsd),
    inr(withheld),
    inr(credit.capUsd),
    inr(credit.availableUsd),
  ];
  const excessInr = withheldInr === null || availableInr === null ? null : withheldInr.minus(availableInr);
  return {
    div_txn_no: e.divTxnNo,
    symbol: e.symbol,
    ex_date: e.exDate,
    pay_date: e.payDate,
    gross_usd: money(e.grossUsd),
    withheld_usd: money(withheld),
    net_usd: money(e.grossUsd.minus(withheld)),
    effective_rate: rateOf(e.grossUsd, withheld),
    rate: rate === null ? null : { rate: rate.rate.toFixed(), rate_date: rate.rateDate },
    gross_inr: moneyOrNull(grossInr),
    withheld_inr: moneyOrNull(withheldInr),
    net_inr: grossInr === null || withheldInr === null ? null : money(grossInr.minus(withheldInr)),
    treaty_rate: ratio(credit.treatyRate),
    treaty_cap_inr: moneyOrNull(capInr),
    credit_available_inr: moneyOrNull(availableInr),
    not_creditable_inr: moneyOrNull(excessInr),
    not_creditable_reason: credit.reason,
    figures: { grossInr, withheldInr, capInr, availableInr, excessInr },
  };
}
