export {
  DEFAULT_JOB_SETTINGS,
  defineJob,
  type JobCatalog,
  type JobDefinition,
  type JobDeps,
  type JobSettings,
  type ProgressReporter,
} from './catalog.js';
export {
  createJobProducer,
  JobEnqueueUnconfirmed,
  JobQueueUnavailable,
  type JobProducer,
  type JobProducerOptions,
} from './producer.js';
export { JobRunStore, type Claim, type JobRun, type JobRunFilter } from './runs.js';
export {
  DEFAULT_JOB_OPTIONS,
  JOB_FAMILIES,
  JOB_RETENTION,
  JOB_STATUS_RETENTION_SECONDS,
  jobIdOf,
  queueName,
  type JobFamily,
} from './queues.js';
export { createJobProcessor, type RunnerContext } from './runner.js';
export {
  fieldsOfRun,
  JobStatusStore,
  statusKeyPrefix,
  statusOf,
  type JobProgress,
  type JobState,
  type JobStatus,
} from './status.js';
export { createJobWorkers, type JobWorkers, type JobWorkersOptions } from './worker.js';
export { JOBS } from './jobs.js';
export { RECOST_LIMIT_MAX, recostInput, recostJob, type RecostInput } from './recost.js';
export { JOB_MODES, type JobKind, type JobMode } from './modes.js';
export { runSyncRemit, syncRemitInput, syncRemitJob, type SyncRemitInput, type SyncRemitResult } from './sync-remit.js';
export {
  SYNC_REMIT_WEBHOOK,
  syncRemitWebhookInput,
  syncRemitWebhookJob,
  type SyncRemitWebhookInput,
} from './sync-remit-webhook.js';
export {
  provisionIndiaInput,
  provisionIndiaJob,
  runProvisionIndia,
  type ProvisionIndiaInput,
  type ProvisionIndiaResult,
} from './provision-india.js';
export {
  provisionUaeInput,
  provisionUaeJob,
  type ProvisionUaeInput,
  type ProvisionUaeResult,
} from './provision-uae.js';
export {
  refundReversalIndiaInput,
  refundReversalIndiaJob,
  type RefundReversalIndiaInput,
  type RefundReversalIndiaResult,
  type SweptReversal,
} from './refund-reversal-india.js';
export { CUSTOMER_CONCURRENCY, CUSTOMER_IDS_MAX, customerIdsField, type CustomerFailure } from './per-customer.js';
export {
  BROKERAGE_BPS_MAX,
  runSyncUsbroker,
  runSyncUsbrokerTrades,
  syncUsbrokerInput,
  syncUsbrokerJob,
  syncUsbrokerTradesJob,
  type SyncUsbrokerInput,
  type SyncUsbrokerResult,
} from './sync-usbroker.js';
export {
  LEDGER_DAYS_MAX,
  runSyncUsbrokerLedger,
  syncUsbrokerLedgerInput,
  syncUsbrokerLedgerJob,
  type SyncUsbrokerLedgerInput,
  type SyncUsbrokerLedgerResult,
} from './sync-usbroker-ledger.js';
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
} from './posting-kit.js';
export { inPostingOrder, mapCashTransfer, mapOrder } from './uae/mapping.js';
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
