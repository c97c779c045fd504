/* @ledger/india: the India book's tax and compliance rules, report builders and the reads they need. */
export { brokerFeeSummary, FEE_DRIFT_TOLERANCE_USD, type FeeFigures, type FeeTradeRow } from './broker-fees.js';
export {
  capitalGainsSummary,
  termOf,
  type CapitalGainDisposal,
  type CapitalGainMatch,
  type CapitalGainOpenLot,
  type CostRateMethod,
  type FlaggedSale,
  type OpenLot,
  type StoredMatch,
  type Term,
} from './capital-gains.js';
export { addDays, addMonths, lastDayOfPreviousMonth, wholeMonthsBetween } from './dates.js';
export { dividendSummary, type DividendEvent } from './dividends.js';
export { fxMarginSummary, type MarginRemittance } from './fx-margin.js';
export {
  financialYearOf,
  financialYearStarting,
  FY_PATTERN_SOURCE,
  FY_RULE,
  FY_YEARS,
  parseFinancialYear,
  type FinancialYear,
} from './fy.js';
export {
  heldSymbols,
  loadFxRates,
  parseClosePrices,
  recordClosePrices,
  type ClosePrice,
  type FxRatesLoad,
} from './load.js';
export {
  estimateTcs,
  lrsSummary,
  lrsUse,
  presentPriorUsage,
  tcsRules,
  type LrsRemittance,
  type LrsStatus,
  type PriorLrsUsage,
  type TcsCollector,
} from './lrs.js';
export { declarePriorLrsUsage, priorLrsUsage } from './prior-usage.js';
export { ISSUER_COLUMNS, loadIssuers, parseIssuers, type Issuer, type IssuersLoad } from './issuers.js';
export {
  parseSbiRates,
  RATE_LOOKBACK_DAYS,
  RateBook,
  type InrRate,
  type ParsedRates,
  type RateSkipReason,
} from './rates.js';
export {
  brokerFeesReport,
  capitalGainsReport,
  dividendsReport,
  fxMarginReport,
  lrsReport,
  lrsUsePerPan,
  scheduleFaReport,
  settlementAuditReport,
  taxPackReport,
  type IndiaReportContext,
  type IndiaSettings,
} from './reports.js';
export {
  LONG_TERM_MONTHS,
  LRS_LIMIT_USD,
  LRS_WARN_SHARE,
  LTCG_RULES,
  noPanRate,
  ruleOn,
  TCS_RULES,
  US_DIVIDEND_WHT,
  type Dated,
  type LtcgRule,
  type TcsRule,
} from './rules.js';
export { A2_NATURES, scheduleFa, type A2Nature, type FaInput, type FaLot } from './schedule-fa.js';
export {
  ITR_COUNTRY_CODES,
  TAX_PACK_RULES,
  taxPack,
  taxPackCsv,
  type Figure,
  type TaxPack,
  type TaxPackRule,
} from './tax-pack.js';
export { tradingDays } from './trading-days.js';
export { lagStatistics, settlementAudit, type SettledRemittance } from './settlement-audit.js';
export {
  SHIPPED_CII_FILES,
  SHIPPED_ISSUER_FILES,
  SHIPPED_RATE_FILES,
  shippedCiiCsv,
  shippedIssuersCsv,
  shippedRatesCsv,
} from './shipped.js';
export {
  CII_BASE_FY,
  indexationYears,
  loadCostInflationIndex,
  parseCostInflationIndex,
  type CostInflationIndex,
  type CostInflationIndexLoad,
} from './cii.js';
export { indiaSettingsOf, indiaSettingsSchema } from './settings.js';
