import type { Db, Logger } from '@ledger/core';
import type { ApiConfig } from '../config.js';

/** What every route module is built with. */
export interface RouteContext {
  config: ApiConfig;
  db: Db;
  logger: Logger;
}
