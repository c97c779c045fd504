import type { Logger } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import type { JobProducer } from '@ledger/job-runtime';
import type { OnDemandRuns } from '@ledger/reconciliation';
import type { Express, Request, Response } from 'express';
import type { ApiConfig } from '../config.js';
import type { ApiDocument, JsonSchema, Paths } from '../openapi/types.js';

/** What every feature's handlers are built with. */
export interface FeatureContext {
  config: ApiConfig;
  db: Db;
  logger: Logger;
  /** Adds jobs to the book's queues and reads their status. */
  jobs: JobProducer;
  /** The reconciliation runs asked for (`POST /v1/reconciliation/run`): joined when repeated, stopped on shutdown. */
  recon: OnDemandRuns;
}

/** Serves one operation: parse (the validator has checked the request), call the core, present. */
export type Handler = (req: Request, res: Response) => void | Promise<void>;

/**
 * One resource of the API, in one folder: its contract (the document's paths and the schemas
 * only it uses), its handlers by operationId, and its presenters. The document and the routes
 * are both built from the list of features (features/index.ts), so an operation cannot exist
 * in one and not the other.
 */
export interface Feature {
  tag: { name: string; description: string };
  paths: Paths;
  schemas?: Record<string, JsonSchema>;
  /** Its handlers, by operationId: every operation of `paths` has exactly one. */
  handlers?(context: FeatureContext): Record<string, Handler>;
  /** Or, for what is served before the validator (the docs), how it is mounted: no handlers then. */
  mount?(app: Express, document: ApiDocument): void;
}
