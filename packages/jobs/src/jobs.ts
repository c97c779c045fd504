import type { JobCatalog } from './catalog.js';
import { recostJob } from './recost.js';
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
  'sync-uaefeed': syncUaefeedJob,
  'sync-holdings': syncHoldingsJob,
  'sync-cash-statements': syncCashStatementsJob,
  'sync-uaefeed-statements': syncUaefeedStatementsJob,
  'refresh-snapshots': refreshSnapshotsJob,
};
