/**
 * What this package's own tests reach beyond its public index (index.ts). No other package
 * imports it (it is not in package.json's exports).
 */
export * from './index.js';
export type { JobCatalog } from './catalog.js';
export { jobIdOf } from './queues.js';
export type { JobStatus } from './status.js';
