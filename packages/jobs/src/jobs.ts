import type { JobCatalog } from './catalog.js';
import { loadClosePricesJob, loadFxRatesJob } from './load-reference-data.js';
import { provisionIndiaJob } from './provision-india.js';
import { provisionUaeJob } from './provision-uae.js';
import { recostJob } from './recost.js';
import { refundReversalIndiaJob } from './refund-reversal-india.js';
import { syncRemitJob } from './sync-remit.js';
import { syncRemitWebhookJob } from './sync-remit-webhook.js';
import { syncUsbrokerJob, syncUsbrokerTradesJob } from './sync-usbroker.js';
import { syncUsbrokerLedgerJob } from './sync-usbroker-ledger.js';
import { refreshSnapshotsJob } from './uae/refresh-snapshots.js';
import { syncCashStatementsJob } from './uae/sync-cash-statements.js';
import { syncHoldingsJob } from './uae/sync-holdings.js';
import { syncUaefeedStatementsJob } from './uae/sync-uaefeed-statements.js';
import { syncUaefeedJob } from './uae/sync-uaefeed.js';

/**
 * Every job the service runs, by kind: the one place that says each job's mode, family, books,
 * payload and logic. The api's job endpoints and the worker are both built from it.
 */
export const JOBS: JobCatalog = {
  recost: recostJob,
  'sync-remit': syncRemitJob,
  'sync-remit-webhook': syncRemitWebhookJob,
  'provision-india': provisionIndiaJob,
  'provision-uae': provisionUaeJob,
  'refund-reversal-india': refundReversalIndiaJob,
  'load-fx-rates': loadFxRatesJob,
  'load-close-prices': loadClosePricesJob,
  'sync-usbroker': syncUsbrokerJob,
  'sync-usbroker-trades': syncUsbrokerTradesJob,
  'sync-usbroker-ledger': syncUsbrokerLedgerJob,
  'sync-uaefeed': syncUaefeedJob,
  'sync-holdings': syncHoldingsJob,
  'sync-cash-statements': syncCashStatementsJob,
  'sync-uaefeed-statements': syncUaefeedStatementsJob,
  'refresh-snapshots': refreshSnapshotsJob,
};
