/*
 * @ledger/core/runtime: what a process of the ledger runs on, not the ledger itself: its
 * configuration (schemas, `commonConfigOf`, the books), logger, metrics, ops server and readiness,
 * its start and shutdown (`startProcess`), and the actor the work in hand is done for (carried
 * across awaits, which the store records with each change). The apps, the job runner and the
 * reconciliation runner use it; the pure rules (./posting) never do.
 */

// Configuration.
export {
  BOOKS,
  bpsSetting,
  commonConfigOf,
  commonConfigSchema,
  ConfigError,
  feeScheduleConfigSchema,
  feeScheduleOf,
  FISCAL_YEAR_START_MONTH_DEFAULT,
  flagSetting,
  parseConfig,
  queueConfigOf,
  redisConfigSchema,
  type Book,
  type CommonConfig,
} from '../runtime/config.js';

// A process: start, shutdown, logs, metrics, the ops server.
export { startProcess } from '../runtime/process.js';
export { createLogger, type Logger } from '../runtime/logger.js';
export {
  createMetrics,
  observeBookTotals,
  observeHttpRequests,
  observeJobs,
  observeQueues,
  observeReconciliation,
  type HttpObserver,
  type Metrics,
  type ReconObserver,
} from '../runtime/metrics.js';
export { closeServer, databaseReady, settleWithin, type ReadyCheck } from '../runtime/ops-server.js';

// Who the work in hand is done for: set per request or job, read where a change is recorded.
export { currentActor, withActor } from '../runtime/actor.js';
