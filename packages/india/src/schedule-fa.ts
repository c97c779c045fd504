import { assert, Decimal, roundToCents, ZERO } from '@ledger/core/posting';
import { addDays } from './dates.js';
import { groupBy, money, moneyOrNull, sum, toInr } from './figures.js';
import type { FinancialYear } from './fy.js';
import { RATE_LOOKBACK_DAYS, type RateBook } from './rates.js';
import type { OpenLot } from './capital-gains.js';
import type { Issuer } from './issuers.js';
import { tradingDays } from './trading-days.js';

/** A lot held at some time of the calendar year, with its sales up to the year's end. */
export interface FaLot extends OpenLot {
  /** Cost of acquisition: the whole lot's cost and its buy fee (of all `quantity` shares). */
  costUsd: Decimal;
  sold: Array<{ transferredOn: string; quantity: Decimal }>;
}

export interface FaInput {
  /** The customers reported (a page of them), in order. */
  customers: string[];
  lots: FaLot[];
  /** Sales of the calendar year: gross proceeds. */
  sales: Array<{ customerId: string; symbol: string; txnDate: string; amountUsd: Decimal }>;
  /** Dividends paid in the calendar year: gross. */
  dividends: Array<{ customerId: string; symbol: string; payDate: string; grossUsd: Decimal }>;
  /** Who stands behind each symbol held (the issuers table): name, address, ZIP, country, nature. */
  issuers: Issuer[];
  /** Close prices per symbol, the year's days in date order. */
  prices: Map<string, Array<{ date: string; closeUsd: Decimal }>>;
  /**
   * Broker cash per customer (the USD wallet, 2010): the broker account number (null: not
   * linked), the day of the wallet's first line in the book, the balance before the year, and
   * each day's movement in it, with what was credited to it that day by nature (A2_NATURES).
   */
  cash: Array<{
    customerId: string;
    accountNo: string | null;
    firstLineOn: string;
    opening: Decimal;
    days: Array<{ date: string; net: Decimal; credited: Record<A2Nature, Decimal> }>;
  }>;
}

/**
 * Table A2's natures of the gross amount paid or credited to the account, and the wallet postings
 * (posting kinds, net of their reversals) that are each. The book posts no interest nor other
 * income to the wallet: those are zero. The holder's own transfers in (wires, deposits), fees and
 * adjustments are none of them: never counted as credited; a reversal nets against what it reverses.
 */
export const A2_NATURES = {
  dividend: ['dividend'],
  interest: [],
  proceeds: ['sale_proceeds'],
  other_income: [],
} as const satisfies Record<string, readonly string[]>;
export type A2Nature = keyof typeof A2_NATURES;
const NATURES = Object.keys(A2_NATURES) as A2Nature[];

/** The broker as table A2 names the institution: set by configuration (null: not set). */
export interface BrokerInstitution {
  name: string | null;
  address: string | null;
  zipCode: string | null;
  country: string;
}

const key = (customerId: string, symbol: string) => `${customerId}\u0000${symbol}`;

/** A holding's share count over time: each day it changed and the count at its end, in date order. */
function shareSteps(lots: FaLot[]): Array<{ date: string; shares: Decimal }> {
  const changes = new Map<string, Decimal>();
  const add = (date: string, quantity: Decimal) => changes.set(date, (changes.get(date) ?? ZERO).plus(quantity));
  for (const lot of lots) {
    add(lot.acquiredOn, lot.quantity);
    for (const s of lot.sold) add(s.transferredOn, s.quantity.negated());
  }
  let shares = ZERO;
  return [...changes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, change]) => ({ date, shares: (shares = shares.plus(change)) }));
}

/** Shares held at the end of `date`. */
function sharesOn(steps: Array<{ date: string; shares: Decimal }>, date: string): Decimal {
  let shares = ZERO;
  for (const step of steps) if (step.date <= date) shares = step.shares;
  return shares;
}

/**
 * A lot's initial value: the cost (fee included) of its shares still held at the start of the
 * year, `first` (all of them when bought in the year): shares sold in earlier years are no part
 * of it. Its share of the cost by shares, to the cent.
 */
function initialCost(lot: FaLot, first: string): Decimal {
  const soldBefore = sum(lot.sold.filter((s) => s.transferredOn < first).map((s) => s.quantity));
  if (soldBefore.isZero()) return lot.costUsd;
  return roundToCents(lot.costUsd.times(lot.quantity.minus(soldBefore)).dividedBy(lot.quantity));
}

/**
 * A symbol's close prices of the year, each day's value of one share in INR (close × TT buying
 * rate) computed once for every holding, and a sparse table of range maxima over it: a holding's
 * peak is found per stretch of days its share count is constant, in O(1) per stretch, instead of
 * valuing every holding on every day.
 */
class PriceDays {
  readonly days: Array<{ date: string; closeUsd: Decimal; rate: Decimal | null; perShareInr: Decimal | null }>;
  /** best[k][i]: the day of [i, i + 2^k) with the highest per-share value (the earliest of equals), -1 if none valued. */
  private readonly best: number[][];

  constructor(prices: Array<{ date: string; closeUsd: Decimal }>, rates: RateBook) {
    this.days = prices.map((p) => {
      const rate = rates.findTtBuy(p.date)?.rate ?? null;
      return { ...p, rate, perShareInr: rate === null ? null : p.closeUsd.times(rate) };
    });
    this.best = [this.days.map((d, i) => (d.perShareInr === null ? -1 : i))];
    for (let width = 2; width <= this.days.length; width *= 2) {
      const previous = this.best.at(-1)!;
      const half = width / 2;
      this.best.push(
        Array.from({ length: this.days.length - width + 1 }, (_, i) => this.higher(previous[i]!, previous[i + half]!)),
      );
    }
  }

  /** The higher-valued of two days, the earlier of equals. */
  private higher(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    return this.days[b]!.perShareInr!.isGreaterThan(this.days[a]!.perShareInr!) ? b : a;
  }

  /** The first day on or after `date`. */
  indexOf(date: string): number {
    let [low, high] = [0, this.days.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.days[mid]!.date < date) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The highest-valued day of [from, to), or -1. */
  highest(from: number, to: number): number {
    if (from >= to) return -1;
    const level = Math.floor(Math.log2(to - from));
    return this.higher(this.best[level]![from]!, this.best[level]![to - (1 << level)]!);
  }

  /** The days of [from, to) without a rate: a holding held shares then, so they are wanted. */
  unrated(from: number, to: number): string[] {
    return this.days.slice(from, to).flatMap((d) => (d.rate === null ? [d.date] : []));
  }
}

/**
 * A holding's highest value: per stretch of constant shares, its best day; the highest of those by
 * exact value. It is the peak only when every trading day held (`trading`, the year's) has a
 * close: `missing` lists those without, and with any the value is a lower bound.
 */
function peakOf(steps: Array<{ date: string; shares: Decimal }>, days: PriceDays, rates: RateBook, trading: string[]) {
  let peak: { day: number; shares: Decimal; value: Decimal } | null = null;
  const closes = new Set(days.days.map((d) => d.date));
  const missing: string[] = [];
  for (const [k, step] of steps.entries()) {
    if (!step.shares.isGreaterThan(0)) continue;
    const next = steps[k + 1];
    missing.push(...trading.filter((d) => d >= step.date && (!next || d < next.date) && !closes.has(d)));
    const [from, to] = [days.indexOf(step.date), next ? days.indexOf(next.date) : days.days.length];
    for (const date of days.unrated(from, to)) rates.markMissing(date);
    const day = days.highest(from, to);
    if (day < 0) continue;
    const value = step.shares.times(days.days[day]!.perShareInr!);
    if (peak === null || value.isGreaterThan(peak.value)) peak = { day, shares: step.shares, value };
  }
  if (peak === null) return { highest: null, missing };
  const { date, closeUsd } = days.days[peak.day]!;
  const usd = roundToCents(peak.shares.times(closeUsd));
  // Asked again through ttBuyOn: the day's rate is now used, so a fallback to an earlier sheet is named.
  return { highest: { date, usd, inr: toInr(usd, rates.ttBuyOn(date)!.rate)! }, missing };
}

/**
 * ScheduleFaSummary: for the calendar year ending in the FY, per customer (a page of them: the
 * list envelope, `items` of `total` customers), table A3 per holding (symbol): the entity behind
 * it (name, address, ZIP code, country, nature: the issuers table), first acquisition,
 * initial value (the cost of the shares held at the year's start or bought in it), peak value (the highest of shares × close on each day a close is held;
 * with a trading day held without a close, no peak: the highest is a lower bound, and the days are listed), closing
 * value at 31 December, gross dividends and gross sale proceeds; and table A2 (broker cash: the
 * institution, the account, its first line in the book as its opening date, peak, closing, gross
 * paid or credited by nature: dividend, interest, proceeds from sale, other income, A2_NATURES). INR at the SBI TT buying rate of the day valued (acquisition, peak,
 * 31 December, credit or sale). A holding without prices, or a symbol without its issuer, is
 * listed in `warnings` with those fields null: never guessed.
 */
export function scheduleFa(
  fy: FinancialYear,
  input: FaInput,
  rates: RateBook,
  institution: BrokerInstitution,
  page: { total: number; limit: number; offset: number },
) {
  const { from: first, to: last } = fy.calendarPeriod;
  const context: FaContext = { year: fy.calendarYear, first, last, rates, warnings: [] };
  const { warnings } = context;
  const group = <T extends { customerId: string; symbol: string }>(rows: T[]) =>
    groupBy(rows, (r) => key(r.customerId, r.symbol));
  const [dividendsOf, salesOf, holdings] = [group(input.dividends), group(input.sales), group(input.lots)];
  const issuers = new Map(input.issuers.map((i) => [i.symbol, i]));
  const trading = tradingDays(first, last);
  const unnamed = new Set<string>();
  // A symbol's days are valued once, for every customer holding it.
  const priceDays = new Map<string, PriceDays>();
  const daysOf = (symbol: string) => {
    let days = priceDays.get(symbol);
    if (!days) {
      const prices = (input.prices.get(symbol) ?? []).filter((p) => p.date >= first && p.date <= last);
      priceDays.set(symbol, (days = new PriceDays(prices, rates)));
    }
    return days;
  };

  const a3 = [...holdings.values()].map((lots) => {
    const { customerId, symbol } = lots[0]!;
    const issuer = issuers.get(symbol);
    if (!issuer) unnamed.add(symbol);
    return holdingA3(lots, context, {
      days: daysOf(symbol),
      trading,
      dividends: dividendsOf.get(key(customerId, symbol)) ?? [],
      sales: salesOf.get(key(customerId, symbol)) ?? [],
      issuer,
    });
  });
  a3.sort((a, b) => a.symbol.localeCompare(b.symbol));
  for (const symbol of [...unnamed].sort())
    warnings.push(
      `no issuer details of ${symbol} (entity name, address, ZIP code, country, nature of entity): load them with POST /v1/jobs/load-issuers`,
    );

  const a2 = input.cash.map((c) => brokerAccountA2(c, institution, context));
  if (a2.length > 0 && [institution.name, institution.address, institution.zipCode].includes(null))
    warnings.push(
      "the broker's name, address or ZIP code for table A2 is not configured: set SCHEDULE_FA_BROKER_NAME, SCHEDULE_FA_BROKER_ADDRESS and SCHEDULE_FA_BROKER_ZIP_CODE",
    );
  const [a3Of, a2Of] = [groupBy(a3, (h) => h.customerId), groupBy(a2, (a) => a.customerId)];
  const reported = new Set(input.customers);
  for (const customerId of [...a3Of.keys(), ...a2Of.keys()])
    assert(reported.has(customerId), `Schedule FA read customer ${customerId}, who is not on the page`);
  const rows = <T extends { customerId: string }>(of: Map<string, T[]>, customerId: string) =>
    (of.get(customerId) ?? []).map(({ customerId: _, ...row }) => row);
  return {
    fy: fy.label,
    calendar_year: context.year,
    period: { from: first, to: last },
    items: input.customers.map((customerId) => ({
      customer_id: customerId,
      a3: rows(a3Of, customerId),
      a2: rows(a2Of, customerId),
    })),
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    warnings: [...warnings, ...rates.warnings()],
  };
}

/** The calendar year a schedule values, its rates, and the warnings its tables collect (in table order). */
interface FaContext {
  year: number;
  first: string;
  last: string;
  rates: RateBook;
  warnings: string[];
}

/** USD in INR at the TT buying rate of `date` (null: no rate). */
const inrOn = (rates: RateBook, usd: Decimal, date: string) => toInr(usd, rates.ttBuyOn(date)?.rate);
/** The sum, or null when any part is unknown. */
const sumInr = (values: Array<Decimal | null>) => (values.some((v) => v === null) ? null : sum(values as Decimal[]));

/** Table A3's row of one holding (a customer's lots of one symbol): the entity, its values, its income. */
function holdingA3(
  lots: FaLot[],
  context: FaContext,
  of: {
    days: PriceDays;
    trading: string[];
    dividends: FaInput['dividends'];
    sales: FaInput['sales'];
    issuer: Issuer | undefined;
  },
) {
  const { customerId, symbol } = lots[0]!;
  const { rates, first, last } = context;
  const { dividends, sales, issuer } = of;
  lots.sort((a, b) => a.acquiredOn.localeCompare(b.acquiredOn));
  const { peak, lowerBound, missing, closingShares, closingUsd } = holdingValues(lots, context, of.days, of.trading);
  const initial = lots.map((l) => ({ usd: initialCost(l, first), on: l.acquiredOn }));
  const initialInr = sumInr(initial.map((l) => inrOn(rates, l.usd, l.on)));
  return {
    customerId,
    symbol,
    entity_name: issuer?.entityName ?? null,
    address: issuer?.address ?? null,
    zip_code: issuer?.zipCode ?? null,
    country: issuer?.country ?? null,
    nature_of_entity: issuer?.natureOfEntity ?? null,
    date_of_acquiring: lots[0]!.acquiredOn,
    initial_value_usd: money(sum(initial.map((l) => l.usd))),
    initial_value_inr: moneyOrNull(initialInr),
    peak_value_date: peak?.date ?? null,
    peak_value_usd: peak === null ? null : money(peak.usd),
    peak_value_inr: peak === null ? null : money(peak.inr),
    peak_lower_bound_date: lowerBound?.date ?? null,
    peak_lower_bound_usd: lowerBound === null ? null : money(lowerBound.usd),
    peak_lower_bound_inr: lowerBound === null ? null : money(lowerBound.inr),
    missing_close_days: missing,
    closing_shares: closingShares.toFixed(),
    closing_value_usd: moneyOrNull(closingUsd),
    closing_value_inr: closingUsd === null ? null : moneyOrNull(inrOn(rates, closingUsd, last)),
    gross_dividends_usd: money(sum(dividends.map((d) => d.grossUsd))),
    gross_dividends_inr: moneyOrNull(sumInr(dividends.map((d) => inrOn(rates, d.grossUsd, d.payDate)))),
    gross_sale_proceeds_usd: money(sum(sales.map((s) => s.amountUsd))),
    gross_sale_proceeds_inr: moneyOrNull(sumInr(sales.map((s) => inrOn(rates, s.amountUsd, s.txnDate)))),
  };
}

/**
 * A holding's peak (or, with a trading day held without a close, only a lower bound of it) and
 * its closing shares and value at 31 December; what is missing for them is warned of.
 */
function holdingValues(lots: FaLot[], context: FaContext, days: PriceDays, trading: string[]) {
  const { customerId, symbol } = lots[0]!;
  const { year, last, warnings } = context;
  const steps = shareSteps(lots);
  const { highest, missing } = peakOf(steps, days, context.rates, trading);
  // A partial series is never called a peak: its highest value is only a lower bound.
  const [peak, lowerBound] = missing.length === 0 ? [highest, null] : [null, highest];
  if (missing.length > 0 && days.days.length > 0)
    warnings.push(
      `no close of ${symbol} on ${missing.length} trading day(s) of ${year} that customer ${customerId} held it (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}: missing_close_days lists them): its peak value is unknown; the highest value on the days with a close is a lower bound (peak_lower_bound_*)`,
    );
  const closingShares = sharesOn(steps, last);
  const lastDay = days.days.at(-1);
  const closingPrice =
    lastDay !== undefined && lastDay.date >= addDays(last, -RATE_LOOKBACK_DAYS) ? lastDay : undefined;
  if (days.days.length === 0)
    warnings.push(
      `no close prices of ${symbol} in ${year}: peak and closing values of customer ${customerId}'s holding are missing`,
    );
  else if (closingShares.isGreaterThan(0) && !closingPrice)
    warnings.push(
      `no close price of ${symbol} in the last days of ${year}: closing value of customer ${customerId}'s holding is missing`,
    );
  const closingUsd = closingShares.isZero()
    ? ZERO
    : closingPrice
      ? roundToCents(closingShares.times(closingPrice.closeUsd))
      : null;
  return { peak, lowerBound, missing, closingShares, closingUsd };
}

/** Table A2's row of one customer's broker cash: the institution, the account, peak and closing balances, what was credited by nature. */
function brokerAccountA2(c: FaInput['cash'][number], institution: BrokerInstitution, context: FaContext) {
  const { rates, first, last } = context;
  let balance = c.opening;
  let peak = { date: first, usd: c.opening };
  for (const d of c.days) {
    balance = balance.plus(d.net);
    if (balance.isGreaterThan(peak.usd)) peak = { date: d.date, usd: balance };
  }
  // Each nature's USD and INR (each day's at that day's rate), then their sum.
  const natures = NATURES.map((nature) => {
    const days = c.days.filter((d) => !d.credited[nature].isZero());
    return {
      nature,
      usd: sum(days.map((d) => d.credited[nature])),
      inr: sumInr(days.map((d) => inrOn(rates, d.credited[nature], d.date))),
    };
  });
  if (c.accountNo === null)
    context.warnings.push(
      `customer ${c.customerId} has no usbroker account number (table A2): link it with PUT /v1/customers/${c.customerId}`,
    );
  return {
    customerId: c.customerId,
    country: institution.country,
    institution_name: institution.name,
    institution_address: institution.address,
    institution_zip_code: institution.zipCode,
    account_number: c.accountNo,
    status: 'Owner',
    account_opening_date: c.firstLineOn,
    peak_balance_date: peak.date,
    peak_balance_usd: money(peak.usd),
    peak_balance_inr: moneyOrNull(inrOn(rates, peak.usd, peak.date)),
    closing_balance_usd: money(balance),
    closing_balance_inr: moneyOrNull(inrOn(rates, balance, last)),
    ...Object.fromEntries(
      natures.flatMap((n) => [
        [`gross_${n.nature}_usd`, money(n.usd)],
        [`gross_${n.nature}_inr`, moneyOrNull(n.inr)],
      ]),
    ),
    gross_credited_usd: money(sum(natures.map((n) => n.usd))),
    gross_credited_inr: moneyOrNull(sumInr(natures.map((n) => n.inr))),
  };
}
