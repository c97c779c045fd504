import { jobCatalog } from '@ledger/job-runtime';
import {
  loadClosePricesJob,
  loadCostInflationIndexJob,
  loadFxRatesJob,
  loadIssuersJob,
} from './book/load-reference-data.js';
import { provisionIndiaJob } from './india/provision-india.js';
import { provisionUaeJob } from './uae/provision-uae.js';
import { recostJob } from './book/recost.js';
import { refundReversalIndiaJob } from './india/refund-reversal-india.js';
import { syncRemitJob } from './india/sync-remit.js';
import { syncRemitWebhookJob } from './india/sync-remit-webhook.js';
import { syncUsbrokerJob, syncUsbrokerTradesJob } from './india/sync-usbroker.js';
import { syncUsbrokerLedgerJob } from './india/sync-usbroker-ledger.js';
import { refreshSnapshotsJob } from './uae/refresh-snapshots.js';
import { syncCashStatementsJob } from './uae/sync-cash-statements.js';
import { syncHoldingsJob } from './uae/sync-holdings.js';
import { syncUaefeedStatementsJob } from './uae/sync-uaefeed-statements.js';
import { syncUaefeedJob } from './uae/sync-uaefeed.js';

/**
 * Every job the service runs, by kind: one line a job; each job's mode, family, books, payload
 * and logic are in its own module. In docs/jobs.md's order. The api's job endpoints and the worker are both built from it.
 */
export const JOBS = jobCatalog([
  recostJob,
  syncUaefeedJob,
  syncHoldingsJob,
  syncCashStatementsJob,
  syncUaefeedStatementsJob,
  refreshSnapshotsJob,
  syncUsbrokerJob,
  syncUsbrokerTradesJob,
  syncUsbrokerLedgerJob,
  syncRemitJob,
  syncRemitWebhookJob,
  provisionIndiaJob,
  provisionUaeJob,
  refundReversalIndiaJob,
  loadFxRatesJob,
  loadClosePricesJob,
  loadIssuersJob,
  loadCostInflationIndexJob,
]);
