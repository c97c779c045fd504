import { ZERO, type Book, type Db, type Decimal, type Page } from '@ledger/core';
import { RemitPageCapError, UpstreamError, UpstreamPayloadError, type RemitClient } from '@ledger/upstream-clients';
import { brokerFeeSummary, FEE_DRIFT_TOLERANCE_USD, type FeeFigures } from './broker-fees.js';
import { capitalGainsSummary, type CapitalGainsOptions } from './capital-gains.js';
import { costInflationIndex } from './cii.js';
import { issuersOf } from './issuers.js';
import { dividendSummary } from './dividends.js';
import { fxMarginSummary } from './fx-margin.js';
import type { FinancialYear } from './fy.js';
import { money, ratio } from './figures.js';
import { lrsSummary, lrsUse, type TcsCollector } from './lrs.js';
import { priorLrsUsage } from './prior-usage.js';
import * as q from './queries.js';
import { RateBook } from './rates.js';
import { scheduleFa, type BrokerInstitution } from './schedule-fa.js';
import { settlementAudit } from './settlement-audit.js';

/** The India reports' settings (the api's config module reads them once). */
export interface IndiaSettings {
  /** How capital gains are taken where the law leaves a choice (INDIA_CG_COST_RATE, INDIA_SECTION_50AA). */
  capitalGains: CapitalGainsOptions;
  /** Apply budget proposals not yet law (INDIA_TCS_UNCONFIRMED_RULES; default true, as stated). */
  unconfirmedRules: boolean;
  /** Who collected the TCS (INDIA_TCS_COLLECTOR_TAN). */
  tcsCollector: TcsCollector;
  /** The configured broker cost (BROKER_COST_BPS). */
  brokerCostBps: Decimal;
  /** The configured FX spread (FX_SPREAD_BPS). */
  fxSpreadBps: Decimal;
  /** The broker as Schedule FA's table A2 names it (SCHEDULE_FA_BROKER_*). */
  brokerInstitution: BrokerInstitution;
}

/** What each report reads with: the book (the UAE book answers every report zero-valued), its database, the settings. */
export interface IndiaReportContext {
  book: Book;
  db: Db;
  settings: IndiaSettings;
}

/** India-only data: the UAE book reads none (its trades are not India tax events). */
const india = (context: IndiaReportContext) => context.book === 'ENTITY_IND_IFSC';
const noRates = () => new RateBook([]);

/**
 * A report's reads, one after another on one connection: one read-only snapshot (its figures
 * agree with each other), without JIT, with room to hash and sort in memory, in one process.
 * These statements are priced far past jit_above_cost on a large book, and compiling them took
 * longer than running them (seconds per report under load). With the default 4 MB, broker-fees'
 * pass over 200,000 trades spilled its hash and its rows to disk in batches (1.1 s of its 1.9 s).
 * Parallel workers each built the same hashes again on 2 busy cores (Schedule FA's lots: 3.6 s
 * with two workers, 2.6 s without).
 */
const reading = <T>(context: IndiaReportContext, work: (db: Db) => Promise<T>): Promise<T> =>
  context.db.transaction(
    async (trx) => {
      await trx.raw("SET LOCAL jit = off; SET LOCAL work_mem = '64MB'; SET LOCAL max_parallel_workers_per_gather = 0");
      return work(trx);
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );

export async function lrsReport(context: IndiaReportContext, fy: FinancialYear) {
  const { unconfirmedRules, tcsCollector } = context.settings;
  if (!india(context)) return lrsSummary(fy, [], { unconfirmedRules }, tcsCollector);
  const [remittances, declared] = await reading(context, async (db) => [
    await q.paidRemittances(db, fy),
    await priorLrsUsage(db, fy),
  ]);
  return lrsSummary(fy, remittances, { unconfirmedRules }, tcsCollector, declared);
}

/**
 * Each of `pans`' LRS use in `fy` as the compliance report shows it: the book's paid remittances
 * and the declared use elsewhere, against the limit (the UAE book: none).
 */
export async function lrsUsePerPan(context: IndiaReportContext, fy: FinancialYear, pans: readonly string[]) {
  const [remitted, declared] = india(context)
    ? await reading(
        context,
        async (db) => [await q.remittedUsdPerPan(db, fy), await priorLrsUsage(db, fy, pans)] as const,
      )
    : [new Map<string, Decimal>(), []];
  const priorOf = new Map(declared.map((p) => [p.pan, p.amountUsd]));
  return new Map(pans.map((pan) => [pan, presentLrsUse(fy, remitted.get(pan) ?? ZERO, priorOf.get(pan) ?? ZERO)]));
}

function presentLrsUse(fy: FinancialYear, remittedUsd: Decimal, declaredPriorUsd: Decimal) {
  const use = lrsUse(fy, remittedUsd.plus(declaredPriorUsd));
  return {
    fy: fy.label,
    remitted_usd: money(remittedUsd),
    declared_prior_usd: money(declaredPriorUsd),
    lrs_used_share: ratio(use.share),
    lrs_headroom_usd: money(use.headroomUsd),
    status: use.status,
  };
}

/** A page of the capital-gains report's customers (id order), each whole: its totals are over all its sales. */
export async function capitalGainsReport(
  context: IndiaReportContext,
  fy: FinancialYear,
  customerId: string | null,
  page: Page,
) {
  if (!india(context))
    return capitalGainsSummary(
      fy,
      { matches: [], openLots: [], flagged: [], instruments: new Map() },
      noRates(),
      new Map(),
      context.settings.capitalGains,
      {
        total: 0,
        ...page,
      },
    );
  const { total, matches, openLots, flagged, unmatched, rates, cii, instruments } = await reading(
    context,
    async (db) => {
      const { customers, total } = await q.capitalGainsCustomers(db, fy, customerId, page);
      const matches = await q.storedMatches(db, fy.start, fy.end, customers);
      const openLots = await q.openLots(db, fy.end, customers);
      const flagged = await q.flaggedSales(db, fy.start, fy.end, customers);
      const unmatched = await q.unmatchedSales(db, fy.start, fy.end, customers);
      const earliest = matches.reduce((d, m) => (m.acquiredOn < d ? m.acquiredOn : d), fy.start);
      const rates = await q.rateBook(db, earliest.slice(0, 8) + '01', fy.end);
      const issuers = await issuersOf(db, [...new Set(matches.map((m) => m.symbol))]);
      const instruments = new Map(issuers.map((i) => [i.symbol, i.instrumentType]));
      return { total, matches, openLots, flagged, unmatched, rates, cii: await costInflationIndex(db), instruments };
    },
  );
  const report = capitalGainsSummary(
    fy,
    { matches, openLots, flagged, instruments },
    rates,
    cii,
    context.settings.capitalGains,
    {
      total,
      ...page,
    },
  );
  report.warnings.push(
    ...unmatched.map((id) => `sale ${id} has no stored lot matches yet (pending recost): run POST /v1/jobs/recost`),
  );
  return report;
}

export async function dividendsReport(context: IndiaReportContext, fy: FinancialYear, customerId: string | null) {
  if (!india(context)) return dividendSummary(fy, [], noRates());
  const [events, rates] = await reading(
    context,
    async (db) =>
      [
        await q.dividendEvents(db, fy.start, fy.end, customerId === null ? null : [customerId]),
        await q.rateBook(db, `${fy.start.slice(0, 4)}-03-01`, fy.end),
      ] as const,
  );
  return dividendSummary(fy, events, rates);
}

export async function scheduleFaReport(
  context: IndiaReportContext,
  fy: FinancialYear,
  customerId: string | null,
  page: Page,
) {
  if (!india(context)) {
    const empty = { customers: [], issuers: [], lots: [], sales: [], dividends: [], prices: new Map(), cash: [] };
    return scheduleFa(fy, empty, noRates(), context.settings.brokerInstitution, { total: 0, ...page });
  }
  const { input, total, rates } = await reading(context, async (db) => {
    const { customers, total } = await q.scheduleFaCustomers(db, fy, customerId, page);
    const input = await q.scheduleFaInput(db, fy, customers);
    const earliest = input.lots.reduce((d, l) => (l.acquiredOn < d ? l.acquiredOn : d), fy.calendarPeriod.from);
    return { input, total, rates: await q.rateBook(db, earliest, fy.calendarPeriod.to) };
  });
  return scheduleFa(fy, input, rates, context.settings.brokerInstitution, { total, ...page });
}

export async function settlementAuditReport(context: IndiaReportContext, fy: FinancialYear) {
  return settlementAudit(fy, india(context) ? await reading(context, (db) => q.settledRemittances(db, fy)) : []);
}

export async function brokerFeesReport(
  context: IndiaReportContext,
  filter: { from: string | null; to: string | null; customerId: string | null },
  page: Page,
) {
  const { brokerCostBps } = context.settings;
  const figures = india(context)
    ? await reading(context, (db) =>
        q.feeFigures(db, filter, { configuredBps: brokerCostBps, tolerance: FEE_DRIFT_TOLERANCE_USD }, page),
      )
    : NO_FEES;
  return brokerFeeSummary(figures, brokerCostBps, page);
}

const NO_FEES: FeeFigures = {
  trades: 0,
  matched: 0,
  flagged: 0,
  totals: {
    notional_usd: '0.00',
    modelled_usd: '0.00',
    configured_usd: '0.00',
    actual_usd: '0.00',
    drift_usd: '0.00',
    configured_drift_usd: '0.00',
    customer_fee_usd: '0.00',
    itemised_fee_usd: '0.00',
    customer_fee_drift_usd: '0.00',
  },
  rows: [],
};

/**
 * The FY's margins; one live call to remit (the FY's paid orders) says which are confirmed paid.
 * Unreachable or not configured: `realized` null, the assumed accrual still shown.
 */
export async function fxMarginReport(context: IndiaReportContext, fy: FinancialYear, remit: RemitClient | null) {
  if (!india(context)) return fxMarginSummary(fy, [], new Set(), context.settings.fxSpreadBps);
  const remittances = await reading(context, (db) => q.marginRemittances(db, fy));
  let confirmed: Set<string> | null = null;
  if (remit !== null) {
    try {
      // The window is of creation: an order paid in the FY may have been created a little before it.
      const orders = await remit.listOrders({
        status: 'paid',
        after: `${fy.start.slice(0, 4)}-01-01T00:00:00Z`,
        before: `${fy.end}T23:59:59Z`,
      });
      confirmed = new Set(orders.map((o) => o.id));
    } catch (error) {
      // Remit down, refusing, or answering garbage: nothing is confirmed. Anything else is ours: thrown.
      if (!(
        error instanceof UpstreamError ||
        error instanceof UpstreamPayloadError ||
        error instanceof RemitPageCapError
      ))
        throw error;
    }
  }
  return fxMarginSummary(fy, remittances, confirmed, context.settings.fxSpreadBps);
}
