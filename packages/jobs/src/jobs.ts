import type { JobCatalog } from './catalog.js';
import { recostJob } from './recost.js';

/**
 * Every job the service runs, by kind: the one place that says each job's mode, family, books,
 * payload and logic. The api's job endpoints and the worker are both built from it.
 */
export const JOBS: JobCatalog = {
  recost: recostJob,
};
