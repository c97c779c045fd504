import type { JobCatalog } from './catalog.js';
import { recostJob } from './recost.js';
import { syncUaefeedJob } from './uae/sync-uaefeed.js';

/**
 * Every job the service runs, by kind: the one place that says each job's mode, family, books,
 * payload and logic. The api's job endpoints and the worker are both built from it.
 */
export const JOBS: JobCatalog = {
  recost: recostJob,
  'sync-uaefeed': syncUaefeedJob,
};
