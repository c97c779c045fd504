import { Decimal, roundToCents, ZERO } from '@ledger/core/posting';
import { indexationYears } from './cii.js';
import { addMonths, wholeMonthsBetween } from './dates.js';
import { allocate, groupBy, money, moneyOrNull, ratio, sum, toInr } from './figures.js';
import type { FinancialYear } from './fy.js';
import type { RateBook, RateUsed } from './rates.js';
import type { InstrumentType } from './issuers.js';
import { LONG_TERM_MONTHS, LTCG_RULES, ruleOn, SECTION_50AA_ACQUIRED_FROM, type LtcgRule } from './rules.js';

/** A stored FIFO match (lot_matches, in effect) with the trades it joins. */
export interface StoredMatch {
  customerId: string;
  symbol: string;
  sellTxnId: string;
  lotTxnId: string;
  acquiredOn: string;
  transferredOn: string;
  quantity: Decimal;
  /** The lot's cost of these shares as the ledger relieved it (fees excluded). */
  costUsd: Decimal;
  /** The buy's whole quantity and the customer's fee on it. */
  buyQuantity: Decimal;
  buyFeeUsd: Decimal;
  /** The sale's proceeds and the customer's fee on it. */
  sellAmountUsd: Decimal;
  sellFeeUsd: Decimal;
}

/** A lot: what is left of it (open lots), or the whole of it (Schedule FA). */
export interface OpenLot {
  customerId: string;
  symbol: string;
  lotTxnId: string;
  acquiredOn: string;
  quantity: Decimal;
  costUsd: Decimal;
}

/** A sale recost left flagged (an oversell): shown, never given a cost. */
export interface FlaggedSale {
  customerId: string;
  symbol: string;
  txnId: string;
  txnDate: string;
  quantity: Decimal | null;
  reason: string;
}

/** How cost converts to INR (unsettled in law: a setting). */
export type CostRateMethod = 'acquisition_month' | 'transfer_month';

export type Term = 'short' | 'long';

/** Long-term when the transfer comes after acquisition + the instrument's months then in force (held MORE than them). */
export function termOf(acquiredOn: string, transferredOn: string, instrument: InstrumentType): Term {
  const months = ruleOn(LONG_TERM_MONTHS, transferredOn)!.value[instrument];
  return transferredOn > addMonths(acquiredOn, months) ? 'long' : 'short';
}

/** How capital gains are taken where the law leaves a choice (settings). */
export interface CapitalGainsOptions {
  /** How cost converts to INR (INDIA_CG_COST_RATE). */
  costRate: CostRateMethod;
  /** Apply section 50AA to fund units bought from 2023-04-01 (INDIA_SECTION_50AA; default false). */
  section50aa: boolean;
}

/** What one sale took from one lot, as the report answers it. */
export type CapitalGainMatch = {
  lot_txn_id: string;
  acquired_on: string;
  transferred_on: string;
  quantity: string;
  cost_usd: string;
  buy_fee_usd: string;
  cost_of_acquisition_usd: string;
  proceeds_usd: string;
  sell_fee_usd: string;
  consideration_usd: string;
  gain_usd: string;
  cost_rate: { rate: string; rate_date: string } | null;
  sale_rate: { rate: string; rate_date: string } | null;
  cost_of_acquisition_inr: string | null;
  consideration_inr: string | null;
  gain_inr: string | null;
  months_held: number;
  instrument_type: InstrumentType | null;
  term: Term;
  section_50aa: 'applied' | 'not_applied' | null;
  rate_era: LtcgRule['era'];
  ltcg_rate: string | null;
  indexation: boolean;
  indexed: ReturnType<typeof indexed>['figures'] | null;
};

/** A sale of the FY and the lots it took. */
export type CapitalGainDisposal = {
  sell_txn_id: string;
  transferred_on: string;
  quantity: string;
  matches: CapitalGainMatch[];
};

/**
 * What is left of a lot at the FY's end: the ledger's cost (fees excluded) and, for Schedule AL,
 * that cost in INR at the Rule 115 rate of its acquisition month (null when the rate is missing).
 */
export interface CapitalGainOpenLot {
  lot_txn_id: string;
  acquired_on: string;
  quantity: string;
  cost_usd: string;
  cost_rate: { rate: string; rate_date: string } | null;
  cost_inr: string | null;
}

type Totals = {
  short: Decimal;
  long: Decimal;
  longBefore: Decimal;
  longFrom: Decimal;
  inrComplete: boolean;
  /** The era before 2024-07-23's long-term gains with the cost indexed, and whether every one could be. */
  longBeforeIndexed: Decimal;
  indexedComplete: boolean;
};

/**
 * Indexation (s. 48, second proviso) of a long-term transfer before 2024-07-23: the INR cost ×
 * CII(FY of transfer) / CII(FY of acquisition, 2001-02 at the earliest). A year missing from the
 * index (`missing` collects it) leaves the indexed figures null: never a guess.
 */
function indexed(
  costInr: Decimal | null,
  considerationInr: Decimal | null,
  acquiredOn: string,
  transferredOn: string,
  cii: ReadonlyMap<string, number>,
  missing: Set<string>,
) {
  const years = indexationYears(acquiredOn, transferredOn);
  const [from, to] = [cii.get(years.acquisition), cii.get(years.transfer)];
  for (const [year, index] of [
    [years.acquisition, from],
    [years.transfer, to],
  ] as const)
    if (index === undefined) missing.add(year);
  const cost =
    costInr === null || from === undefined || to === undefined ? null : roundToCents(costInr.times(to).dividedBy(from));
  const gain = cost === null || considerationInr === null ? null : considerationInr.minus(cost);
  return {
    figures: {
      acquisition_fy: years.acquisition,
      acquisition_cii: from ?? null,
      transfer_fy: years.transfer,
      transfer_cii: to ?? null,
      indexed_cost_of_acquisition_inr: moneyOrNull(cost),
      indexed_gain_inr: moneyOrNull(gain),
    },
    gain,
  };
}

/** One customer's holding of one symbol in the report: its disposals and their totals, its open lots, its flagged sales. */
type SymbolGains = {
  customer_id: string;
  symbol: string;
  disposals: CapitalGainDisposal[];
  totals: Totals;
  open_lots: CapitalGainOpenLot[];
  flagged_sales: Array<{ txn_id: string; txn_date: string; quantity: string | null; reason: string }>;
};

const noGains = (customerId: string, symbol: string): SymbolGains => ({
  customer_id: customerId,
  symbol,
  disposals: [],
  totals: {
    short: ZERO,
    long: ZERO,
    longBefore: ZERO,
    longFrom: ZERO,
    inrComplete: true,
    longBeforeIndexed: ZERO,
    indexedComplete: true,
  },
  open_lots: [],
  flagged_sales: [],
});

/** What each match is taken with, and what the summary learns is missing on the way (for its warnings). */
interface GainsContext {
  rates: RateBook;
  cii: ReadonlyMap<string, number>;
  options: CapitalGainsOptions;
  instruments: ReadonlyMap<string, InstrumentType | null>;
  /** FYs the Cost Inflation Index lacks. */
  ciiMissing: Set<string>;
  /** Symbols sold whose instrument type is unknown. */
  untyped: Set<string>;
}

/**
 * CapitalGainsSummary from stored matches (never re-running FIFO), over a page of customers (the
 * list envelope: `items` of `total` customers). Basis: cost of acquisition is
 * the lot's cost plus its share of the buy's fee; consideration is the sale's proceeds net of its
 * fee, spread over the lots it took by shares. INR by Rule 115 (the TT buying rate of the last
 * day of the month before): proceeds at the transfer month's, cost per `costRate`.
 */
export function capitalGainsSummary(
  fy: FinancialYear,
  input: {
    matches: StoredMatch[];
    openLots: OpenLot[];
    flagged: FlaggedSale[];
    /** What each symbol sold is (the issuers table); null or absent: unknown, taken as a share with a warning. */
    instruments: ReadonlyMap<string, InstrumentType | null>;
  },
  rates: RateBook,
  cii: ReadonlyMap<string, number>,
  options: CapitalGainsOptions,
  page: { total: number; limit: number; offset: number },
) {
  const context: GainsContext = {
    rates,
    cii,
    options,
    instruments: input.instruments,
    ciiMissing: new Set(),
    untyped: new Set(),
  };
  const symbols = new Map<string, SymbolGains>();
  const symbolOf = (customerId: string, symbol: string) => {
    const key = `${customerId}\u0000${symbol}`;
    let entry = symbols.get(key);
    if (!entry) {
      entry = noGains(customerId, symbol);
      symbols.set(key, entry);
    }
    return entry;
  };

  const sales = [...groupBy(input.matches, (m) => m.sellTxnId).values()].sort(
    (a, b) => a[0]!.transferredOn.localeCompare(b[0]!.transferredOn) || a[0]!.sellTxnId.localeCompare(b[0]!.sellTxnId),
  );
  for (const matches of sales) {
    const entry = symbolOf(matches[0]!.customerId, matches[0]!.symbol);
    entry.disposals.push(disposalOf(matches, entry.totals, context));
  }
  for (const lot of input.openLots) symbolOf(lot.customerId, lot.symbol).open_lots.push(openLotOf(lot, rates));
  for (const f of input.flagged) {
    symbolOf(f.customerId, f.symbol).flagged_sales.push({
      txn_id: f.txnId,
      txn_date: f.txnDate,
      quantity: f.quantity?.toFixed() ?? null,
      reason: f.reason,
    });
  }

  const customers = groupBy(
    [...symbols.values()].sort(
      (a, b) => a.customer_id.localeCompare(b.customer_id) || a.symbol.localeCompare(b.symbol),
    ),
    (e) => e.customer_id,
  );
  return {
    fy: fy.label,
    basis: capitalGainsBasis(options),
    items: [...customers.entries()].map(([customer_id, syms]) => ({ customer_id, symbols: syms.map(presentSymbol) })),
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    // After every match: the rate book's warnings are of the rates the matches looked up.
    warnings: capitalGainsWarnings(input.flagged, context),
  };
}

/** One sale's disposal: its proceeds and fee spread over the lots it took by shares (its matches cover all its shares). */
function disposalOf(matches: StoredMatch[], totals: Totals, context: GainsContext): CapitalGainDisposal {
  matches.sort((a, b) => a.acquiredOn.localeCompare(b.acquiredOn) || a.lotTxnId.localeCompare(b.lotTxnId));
  const sale = matches[0]!;
  const weights = matches.map((m) => m.quantity);
  const proceeds = allocate(sale.sellAmountUsd, weights);
  const sellFees = allocate(sale.sellFeeUsd, weights);
  const saleRate = context.rates.rule115(sale.transferredOn);
  return {
    sell_txn_id: sale.sellTxnId,
    transferred_on: sale.transferredOn,
    quantity: sum(weights).toFixed(),
    matches: matches.map((m, i) =>
      gainOf(m, { proceeds: proceeds[i]!, sellFee: sellFees[i]!, saleRate }, totals, context),
    ),
  };
}

/** What one sale took from one lot: cost and consideration in USD and INR, its term and rate era; added to `totals`. */
function gainOf(
  m: StoredMatch,
  sold: { proceeds: Decimal; sellFee: Decimal; saleRate: RateUsed | null },
  totals: Totals,
  context: GainsContext,
): CapitalGainMatch {
  const { saleRate } = sold;
  const buyFee = roundToCents(m.buyFeeUsd.times(m.quantity).dividedBy(m.buyQuantity));
  const cost = m.costUsd.plus(buyFee);
  const consideration = sold.proceeds.minus(sold.sellFee);
  const costRateUsed =
    context.options.costRate === 'acquisition_month' ? context.rates.rule115(m.acquiredOn) : saleRate;
  const costInr = toInr(cost, costRateUsed?.rate);
  const considerationInr = toInr(consideration, saleRate?.rate);
  const gainInr = costInr === null || considerationInr === null ? null : considerationInr.minus(costInr);
  const instrument = context.instruments.get(m.symbol) ?? null;
  if (instrument === null) context.untyped.add(m.symbol);
  const { term, s50aa } = termWithSection50aa(m, instrument, context.options.section50aa);
  const ltcg = ruleOn(LTCG_RULES, m.transferredOn)!.value;
  const index =
    term === 'long' && ltcg.indexation
      ? indexed(costInr, considerationInr, m.acquiredOn, m.transferredOn, context.cii, context.ciiMissing)
      : null;
  addGain(totals, { term, era: ltcg.era, gainInr, index });
  return {
    lot_txn_id: m.lotTxnId,
    acquired_on: m.acquiredOn,
    transferred_on: m.transferredOn,
    quantity: m.quantity.toFixed(),
    cost_usd: money(m.costUsd),
    buy_fee_usd: money(buyFee),
    cost_of_acquisition_usd: money(cost),
    proceeds_usd: money(sold.proceeds),
    sell_fee_usd: money(sold.sellFee),
    consideration_usd: money(consideration),
    gain_usd: money(consideration.minus(cost)),
    cost_rate: costRateUsed === null ? null : { rate: costRateUsed.rate.toFixed(), rate_date: costRateUsed.rateDate },
    sale_rate: saleRate === null ? null : { rate: saleRate.rate.toFixed(), rate_date: saleRate.rateDate },
    cost_of_acquisition_inr: moneyOrNull(costInr),
    consideration_inr: moneyOrNull(considerationInr),
    gain_inr: moneyOrNull(gainInr),
    months_held: wholeMonthsBetween(m.acquiredOn, m.transferredOn),
    instrument_type: instrument,
    term,
    section_50aa: s50aa,
    rate_era: ltcg.era,
    ltcg_rate: term === 'long' ? ratio(ltcg.rate) : null,
    indexation: term === 'long' ? ltcg.indexation : false,
    indexed: index?.figures ?? null,
  };
}

/**
 * The match's term: by its holding period, unless section 50AA makes it short-term (fund units
 * bought from 2023-04-01 held long): that is flagged on the match, applied only when set.
 */
function termWithSection50aa(
  m: StoredMatch,
  instrument: InstrumentType | null,
  section50aa: boolean,
): { term: Term; s50aa: CapitalGainMatch['section_50aa'] } {
  const ordinary = termOf(m.acquiredOn, m.transferredOn, instrument ?? 'share');
  const s50aa =
    instrument === 'fund_unit' && m.acquiredOn >= SECTION_50AA_ACQUIRED_FROM && ordinary === 'long'
      ? section50aa
        ? 'applied'
        : 'not_applied'
      : null;
  return { term: s50aa === 'applied' ? 'short' : ordinary, s50aa };
}

/** Adds a match's INR gain to its term's and era's totals; a gain not known in INR leaves them incomplete (null). */
function addGain(
  totals: Totals,
  gain: { term: Term; era: LtcgRule['era']; gainInr: Decimal | null; index: ReturnType<typeof indexed> | null },
) {
  const { term, era, gainInr, index } = gain;
  if (index !== null) {
    if (index.gain === null) totals.indexedComplete = false;
    else totals.longBeforeIndexed = totals.longBeforeIndexed.plus(index.gain);
  }
  if (gainInr === null) totals.inrComplete = false;
  else if (term === 'short') totals.short = totals.short.plus(gainInr);
  else {
    totals.long = totals.long.plus(gainInr);
    if (era === 'before_2024_07_23') totals.longBefore = totals.longBefore.plus(gainInr);
    else totals.longFrom = totals.longFrom.plus(gainInr);
  }
}

/** An open lot for Schedule AL: its ledger cost in INR at the Rule 115 rate of its acquisition month. */
function openLotOf(lot: OpenLot, rates: RateBook): CapitalGainOpenLot {
  const costRate = rates.rule115(lot.acquiredOn);
  return {
    lot_txn_id: lot.lotTxnId,
    acquired_on: lot.acquiredOn,
    quantity: lot.quantity.toFixed(),
    cost_usd: money(lot.costUsd),
    cost_rate: costRate === null ? null : { rate: costRate.rate.toFixed(), rate_date: costRate.rateDate },
    cost_inr: moneyOrNull(toInr(lot.costUsd, costRate?.rate)),
  };
}

/** A symbol's totals as the report answers them: null where a figure could not be had in INR. */
const presentSymbol = (e: SymbolGains) => ({
  symbol: e.symbol,
  disposals: e.disposals,
  short_term_gain_inr: e.totals.inrComplete ? money(e.totals.short) : null,
  long_term_gain_inr: e.totals.inrComplete ? money(e.totals.long) : null,
  long_term_gain_before_2024_07_23_inr: e.totals.inrComplete ? money(e.totals.longBefore) : null,
  long_term_gain_before_2024_07_23_indexed_inr:
    e.totals.inrComplete && e.totals.indexedComplete ? money(e.totals.longBeforeIndexed) : null,
  long_term_gain_from_2024_07_23_inr: e.totals.inrComplete ? money(e.totals.longFrom) : null,
  open_lots: e.open_lots,
  flagged_sales: e.flagged_sales,
});

/** What the figures could not be given for: flagged sales, unknown instruments, missing CII years and rates. */
function capitalGainsWarnings(flagged: FlaggedSale[], context: GainsContext): string[] {
  return [
    ...flagged.map(
      (f) => `sale ${f.txnId} (${f.symbol}, ${f.txnDate}) is flagged by recost (${f.reason}): no cost is given`,
    ),
    ...[...context.untyped]
      .sort()
      .map(
        (symbol) =>
          `the instrument type of ${symbol} (share or fund units) is unknown: its holding period is taken as a share's; load the issuers file with POST /v1/jobs/load-issuers`,
      ),
    ...[...context.ciiMissing]
      .sort()
      .map(
        (year) =>
          `no Cost Inflation Index for FY ${year}: the indexed cost and gain of the long-term transfers that need it are null; load it with POST /v1/jobs/load-cost-inflation-index`,
      ),
    ...context.rates.warnings(),
  ];
}

/** The report's basis, in words, for the settings it was taken with. */
const capitalGainsBasis = (options: CapitalGainsOptions) =>
  'Cost of acquisition: the lot’s cost plus its share of the buy’s fee. Consideration: the sale’s proceeds net of its fee. ' +
  `INR by Rule 115 (SBI TT buying rate of the last day of the month before): consideration at the transfer month’s, cost at the ${options.costRate === 'acquisition_month' ? 'acquisition' : 'transfer'} month’s. ` +
  'Long-term when held more than 24 months (calendar months, trade dates); units of an ETF or other fund transferred before 2024-07-23, more than 36. ' +
  `Section 50AA (fund units bought from 2023-04-01 short-term whatever the holding): ${options.section50aa ? 'applied' : 'not applied'}; each disposal it would change is flagged. The ledger’s 1200 excludes fees. ` +
  'Long-term before 2024-07-23: 20 % with indexation, the INR cost × CII(FY of transfer) / CII(FY of acquisition, 2001-02 at the earliest), shown beside the unindexed figures. ' +
  'Open lots: the ledger cost (fees excluded) in INR at the Rule 115 rate of the acquisition month (Schedule AL).';
