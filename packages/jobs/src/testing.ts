/**
 * What this package's own tests reach beyond its public index (index.ts): the jobs and types
 * they call directly. No other package imports it (it is not in package.json's exports).
 */
export * from './index.js';
export { syncRemitInput, syncRemitJob, syncRemitResult, type SyncRemitResult } from './india/sync-remit.js';
export { syncRemitWebhookJob } from './india/sync-remit-webhook.js';
export { provisionIndiaInput, provisionIndiaJob, provisionIndiaResult } from './india/provision-india.js';
export { provisionUaeInput, provisionUaeJob } from './uae/provision-uae.js';
export { refundReversalIndiaJob, type SweptReversal } from './india/refund-reversal-india.js';
export {
  syncUsbrokerJob,
  syncUsbrokerResult,
  syncUsbrokerTradesJob,
  syncUsbrokerTradesResult,
} from './india/sync-usbroker.js';
export { syncUsbrokerLedgerJob, syncUsbrokerLedgerResult } from './india/sync-usbroker-ledger.js';
export { type Mapped } from './kit/posting-kit.js';
export { noOutcomes } from './kit/results.js';
export { type SyncUaefeedResult } from './uae/sync-uaefeed.js';
export { type SyncHoldingsResult } from './uae/sync-holdings.js';
export { refreshSnapshotsJob } from './uae/refresh-snapshots.js';
export { syncCashStatementsJob } from './uae/sync-cash-statements.js';
export { syncUaefeedStatementsJob } from './uae/sync-uaefeed-statements.js';
