import { cashRequests } from './cash-requests/index.js';
import { customers } from './customers/index.js';
import { consoleFeature } from './console/index.js';
import { docs } from './docs/index.js';
import type { Feature } from './feature.js';
import { firm } from './firm/index.js';
import { health } from './health/index.js';
import { importFeature } from './import/index.js';
import { indiaLive } from './india-live/index.js';
import { india } from './india/index.js';
import { jobs } from './jobs/index.js';
import { journal } from './journal/index.js';
import { exceptions } from './exceptions/index.js';
import { periods } from './periods/index.js';
import { queues } from './queues/index.js';
import { reconciliation } from './reconciliation/index.js';
import { transactions } from './transactions/index.js';
import { webhooks } from './webhooks/index.js';

/**
 * Every resource of the API. The OpenAPI document (openapi/index.ts) and the routes
 * (http/operations.ts) are both built from this list: adding an endpoint is one contract
 * entry, one handler and one presenter in its feature's folder.
 */
export const FEATURES: readonly Feature[] = [
  health,
  docs,
  consoleFeature,
  queues,
  transactions,
  journal,
  firm,
  customers,
  jobs,
  cashRequests,
  importFeature,
  webhooks,
  reconciliation,
  india,
  indiaLive,
  periods,
  exceptions,
];
