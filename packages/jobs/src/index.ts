export { JOBS } from './jobs.js';
export { DEFAULT_JOB_SETTINGS, recostPolicyOf, type JobDeps, type JobSettings } from './job-settings.js';
export { recostInput, recostJob } from './book/recost.js';
export { runSyncRemit } from './india/sync-remit.js';
export { SYNC_REMIT_WEBHOOK } from './india/sync-remit-webhook.js';
export { runProvisionIndia } from './india/provision-india.js';
export { runSyncUsbroker, runSyncUsbrokerTrades } from './india/sync-usbroker.js';
export { LEDGER_DAYS_MAX, runSyncUsbrokerLedger } from './india/sync-usbroker-ledger.js';
export { draftOf } from './kit/posting-kit.js';
export {
  CUSTOMER_FAILURE_CODES,
  JOB_REASON_CODES,
  RECORD_OUTCOMES,
  RECORD_REASON_CODES,
  RESULT_SCHEMAS,
  type CustomerFailureCode,
  type RecordOutcomeName,
} from './kit/results.js';
export { mapCashTransfer, mapOrder } from './uae/mapping.js';
export { syncUaefeedJob } from './uae/sync-uaefeed.js';
export { syncHoldingsJob } from './uae/sync-holdings.js';
export { IMPORT_RECORDS_MAX, importUaefeedBatch, uaefeedImportBatch, type UaefeedImportBatch } from './uae/import.js';
