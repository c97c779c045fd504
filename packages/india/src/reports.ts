import { LedgerError, ZERO, type Decimal, type Page } from '@ledger/core/posting';
import type { Book } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
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
import { taxPack } from './tax-pack.js';

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
  return reading(context, (db) => lrsOf(db, context.settings, fy, null));
}

/** The LRS summary of one PAN's remittances and declaration (null: every PAN's) read in `db`. */
async function lrsOf(db: Db, settings: IndiaSettings, fy: FinancialYear, pan: string | null) {
  const remittances = await q.paidRemittances(db, fy, pan);
  const declared = await priorLrsUsage(db, fy, pan === null ? null : [pan]);
  return lrsSummary(fy, remittances, { unconfirmedRules: settings.unconfirmedRules }, settings.tcsCollector, declared);
}

/**
 * TaxPack: everything the return needs from this book for one PAN and FY, built from the same
 * summaries the reports answer (capitalGainsOf, dividendsOf, scheduleFaOf, lrsOf over the PAN's
 * customers, in one snapshot), reshaped by taxPack. A PAN no customer nor remittance of the book
 * names is not found (the UAE book names none).
 */
export async function taxPackReport(context: IndiaReportContext, fy: FinancialYear, pan: string) {
  const unknown = () => new LedgerError('not_found', `no customer or remittance of this book has PAN ${pan}`);
  if (!india(context)) throw unknown();
  const { settings } = context;
  return reading(context, async (db) => {
    const customers = await q.customersOfPan(db, pan);
    if (customers.length === 0) throw unknown();
    const page = { total: customers.length, limit: customers.length, offset: 0 };
    const capitalGains = await capitalGainsOf(db, settings, fy, customers, page);
    const scheduleFaOfPan = await scheduleFaOf(db, settings, fy, customers, page);
    const dividends = await dividendsOf(db, fy, customers);
    const lrs = await lrsOf(db, settings, fy, pan);
    return taxPack(fy, pan, customers, {
      capitalGains,
      scheduleFa: scheduleFaOfPan,
      dividends,
      lrs,
      tcsCollector: settings.tcsCollector,
    });
  });
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
  const { report } = await reading(context, async (db) => {
    const { customers, total } = await q.capitalGainsCustomers(db, fy, customerId, page);
    return capitalGainsOf(db, context.settings, fy, customers, { total, ...page });
  });
  return report;
}

/**
 * The capital-gains summary of `customers` (each whole) read in `db`, and the rates it took: the
 * report's pages and the tax pack's PAN both come through here.
 */
async function capitalGainsOf(
  db: Db,
  settings: IndiaSettings,
  fy: FinancialYear,
  customers: string[],
  page: { total: number; limit: number; offset: number },
) {
  const matches = await q.storedMatches(db, fy.start, fy.end, customers);
  const openLots = await q.openLots(db, fy.end, customers);
  const flagged = await q.flaggedSales(db, fy.start, fy.end, customers);
  const unmatched = await q.unmatchedSales(db, fy.start, fy.end, customers);
  // Rates from the earliest acquisition a figure converts: a lot sold, or one still open (its INR cost).
  const earliest = [...matches, ...openLots].reduce((d, m) => (m.acquiredOn < d ? m.acquiredOn : d), fy.start);
  const rates = await q.rateBook(db, earliest.slice(0, 8) + '01', fy.end);
  const issuers = await issuersOf(db, [...new Set(matches.map((m) => m.symbol))]);
  const instruments = new Map(issuers.map((i) => [i.symbol, i.instrumentType]));
  const report = capitalGainsSummary(
    fy,
    { matches, openLots, flagged, instruments },
    rates,
    await costInflationIndex(db),
    settings.capitalGains,
    page,
  );
  report.warnings.push(
    ...unmatched.map((id) => `sale ${id} has no stored lot matches yet (pending recost): run POST /v1/jobs/recost`),
  );
  return { report, rates };
}

export async function dividendsReport(context: IndiaReportContext, fy: FinancialYear, customerId: string | null) {
  if (!india(context)) return dividendSummary(fy, [], noRates());
  return (await reading(context, (db) => dividendsOf(db, fy, customerId === null ? null : [customerId]))).report;
}

/** The dividend summary of `customers` (null: every one) read in `db`, and the rates it took. */
async function dividendsOf(db: Db, fy: FinancialYear, customers: string[] | null) {
  const events = await q.dividendEvents(db, fy.start, fy.end, customers);
  const rates = await q.rateBook(db, `${fy.start.slice(0, 4)}-03-01`, fy.end);
  return { report: dividendSummary(fy, events, rates), rates };
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
  const { report } = await reading(context, async (db) => {
    const { customers, total } = await q.scheduleFaCustomers(db, fy, customerId, page);
    return scheduleFaOf(db, context.settings, fy, customers, { total, ...page });
  });
  return report;
}

/** Schedule FA of `customers` read in `db`, and the rates it took (the report's pages, the tax pack's PAN). */
async function scheduleFaOf(
  db: Db,
  settings: IndiaSettings,
  fy: FinancialYear,
  customers: string[],
  page: { total: number; limit: number; offset: number },
) {
  const input = await q.scheduleFaInput(db, fy, customers);
  const earliest = input.lots.reduce((d, l) => (l.acquiredOn < d ? l.acquiredOn : d), fy.calendarPeriod.from);
  const rates = await q.rateBook(db, earliest, fy.calendarPeriod.to);
  return { report: scheduleFa(fy, input, rates, settings.brokerInstitution, page), rates };
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
