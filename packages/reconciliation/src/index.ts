export {
  BOTH_BOOKS,
  CATEGORIES,
  STATUSES,
  variance,
  worst,
  type Category,
  type Check,
  type CheckContext,
  type CheckOutcome,
  type CheckStatus,
  type Since,
  type Variance,
} from './check.js';
export { CHECKS } from './registry.js';
export { checkLockKey, runReconciliation, type ReconDeps, type RunOptions } from './runner.js';
export { OnDemandRuns, type RunRequest } from './on-demand.js';
export type { CheckResult, ReconciliationRun, RunSummary, RunVariance, SkippedCheck } from './run.js';
export {
  DEFAULT_RECON_SETTINGS,
  FULL_SWEEP_SETTINGS,
  reconSettingsOf,
  reconSettingsSchema,
  type ReconSettings,
} from './settings.js';
export { claimCycle, findRun, listRuns, saveRun, type RunFilter } from './store.js';
export { ALERT_TIMEOUT_MS, ALERT_VARIANCES_MAX, driftAlerts, sendDriftAlerts, type DriftAlert } from './alert.js';
export { readPerCustomer, UPSTREAM_CONCURRENCY, upstreamFailureReasonOf, type CustomerRead } from './upstream.js';
export { CASH_STATUSES, matchCash, type CashStatus } from './matchers/cash.js';
export {
  asOfDate,
  matchRemittancesToWires,
  REMITTANCE_TIE_OUT_STATUSES,
  subsetAddingUpTo,
  TIE_OUT_STATUSES,
  WIRE_TIE_OUT_STATUSES,
  type FundingWire,
  type RemittanceTieOut,
  type UnmatchedWire,
  type RemittanceToWire,
  type WireTieOut,
} from './matchers/lrs-wires.js';
export { ledgerCash, ledgerShares, paidRemittancesToWire } from './matchers/reads.js';
export { brokerShares, matchShares, SHARE_STATUSES, type ShareTieOut } from './matchers/shares.js';
export {
  getVariance,
  identityKey,
  identityOf,
  listVariances,
  SIGHTINGS_SHOWN,
  TRIAGE_EVENT_ACTIONS,
  TRIAGE_STATE_FILTERS,
  TRIAGE_STATES,
  triageOfRun,
  triageVariance,
  varianceCounts,
  type TrackedVariance,
  type TriageAction,
  type TriageEvent,
  type TriageState,
  type VarianceCounts,
  type VarianceDetail,
  type VarianceFilter,
  type VarianceIdentity,
} from './triage.js';
