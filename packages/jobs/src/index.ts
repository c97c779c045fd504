export { JOBS } from './jobs.js';
export { DEFAULT_JOB_SETTINGS, type JobDeps, type JobSettings } from './job-settings.js';
export { RECOST_LIMIT_MAX, recostInput, recostJob, type RecostInput } from './book/recost.js';
export {
  runSyncRemit,
  syncRemitInput,
  syncRemitJob,
  type SyncRemitInput,
  type SyncRemitResult,
} from './india/sync-remit.js';
export {
  SYNC_REMIT_WEBHOOK,
  syncRemitWebhookInput,
  syncRemitWebhookJob,
  type SyncRemitWebhookInput,
} from './india/sync-remit-webhook.js';
export {
  provisionIndiaInput,
  provisionIndiaJob,
  runProvisionIndia,
  type ProvisionIndiaInput,
  type ProvisionIndiaResult,
} from './india/provision-india.js';
export {
  provisionUaeInput,
  provisionUaeJob,
  type ProvisionUaeInput,
  type ProvisionUaeResult,
} from './uae/provision-uae.js';
export {
  refundReversalIndiaInput,
  refundReversalIndiaJob,
  type RefundReversalIndiaInput,
  type RefundReversalIndiaResult,
  type SweptReversal,
} from './india/refund-reversal-india.js';
export { CUSTOMER_CONCURRENCY, CUSTOMER_IDS_MAX, customerIdsField, type CustomerFailure } from './kit/per-customer.js';
export {
  BROKERAGE_BPS_MAX,
  runSyncUsbroker,
  runSyncUsbrokerTrades,
  syncUsbrokerInput,
  syncUsbrokerJob,
  syncUsbrokerTradesJob,
  type SyncUsbrokerInput,
  type SyncUsbrokerResult,
} from './india/sync-usbroker.js';
export {
  LEDGER_DAYS_MAX,
  runSyncUsbrokerLedger,
  syncUsbrokerLedgerInput,
  syncUsbrokerLedgerJob,
  type SyncUsbrokerLedgerInput,
  type SyncUsbrokerLedgerResult,
} from './india/sync-usbroker-ledger.js';
export {
  draftOf,
  PostingRun,
  RECORD_OUTCOMES,
  type Mapped,
  type OutcomeCounts,
  type Reason,
  type RecordIssue,
  type RecordOutcome,
  type RecordOutcomeName,
  type SyncResult,
} from './kit/posting-kit.js';
export { inPostingOrder, mapCashTransfer, mapOrder, type UaefeedCustomer } from './uae/mapping.js';
export {
  syncUaefeedInput,
  syncUaefeedJob,
  UAEFEED_KINDS,
  type SyncUaefeedInput,
  type SyncUaefeedResult,
  type UaefeedKind,
} from './uae/sync-uaefeed.js';
export {
  holdingsSnapshotOf,
  syncHoldingsInput,
  syncHoldingsJob,
  type SyncHoldingsInput,
  type SyncHoldingsResult,
} from './uae/sync-holdings.js';
export {
  refreshSnapshotsInput,
  refreshSnapshotsJob,
  type RefreshSnapshotsInput,
  type RefreshSnapshotsResult,
} from './uae/refresh-snapshots.js';
export {
  syncCashStatementsInput,
  syncCashStatementsJob,
  type CashStatementComparison,
  type SyncCashStatementsInput,
  type SyncCashStatementsResult,
} from './uae/sync-cash-statements.js';
export {
  syncUaefeedStatementsInput,
  syncUaefeedStatementsJob,
  type SyncUaefeedStatementsInput,
  type SyncUaefeedStatementsResult,
} from './uae/sync-uaefeed-statements.js';
export {
  IMPORT_RECORDS_MAX,
  importUaefeedBatch,
  uaefeedImportBatch,
  type ImportAnswer,
  type ImportedRecord,
  type ImportProblem,
  type UaefeedImportBatch,
} from './uae/import.js';
