import { observeHttpRequests, observeReconciliation, type Logger, type Metrics } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import type { JobProducer } from '@ledger/job-runtime';
import { OnDemandRuns } from '@ledger/reconciliation';
import express, { type Express, type RequestHandler } from 'express';
import type { ApiConfig } from './config.js';
import { authenticate } from './http/auth.js';
import { bodyGuard, jsonBody } from './http/body-guard.js';
import { ApiError, errorHandler, notFoundHandler } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { validatorStages } from './http/validator.js';
import { apiDocument } from './openapi/index.js';
import { FEATURES } from './features/index.js';
import { operationRouter } from './http/operations.js';
import type { QueueBoard } from './features/queues/board.js';

export interface AppOptions {
  config: ApiConfig;
  db: Db;
  logger: Logger;
  /** The book's job queues (the api only adds jobs and reads their status). */
  jobs: JobProducer;
  /**
   * The process's metrics: request durations by route template and status are observed into it,
   * and the results of the reconciliation runs asked for (as recon's scheduled ones are).
   */
  metrics?: Metrics;
  /** The queues board at /console/queues (Bull Board); absent: not served (404). */
  queueBoard?: QueueBoard;
  /** The reconciliation runs asked for; the process closes it on shutdown. Default: one of the app's own. */
  recon?: OnDemandRuns;
  /** Check every response against the document (tests); off in production, where it costs per request. */
  validateResponses?: boolean;
}

/** API answers are data about money: never cached, never sniffed. */
const apiHeaders: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  next();
};

/**
 * HTTP/1.1 requires a Host header and a server must refuse a request without one (RFC 9112
 * §3.2). Node's parser would answer with an empty body (http/server.ts turns that off): here
 * it is refused in the error shape, before anything else runs.
 */
const requireHost: RequestHandler = (req, _res, next) => {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host) {
    return next(
      new ApiError('validation_error', 'an HTTP/1.1 request needs a Host header', [
        { path: '/headers/host', message: 'is required' },
      ]),
    );
  }
  next();
};

/**
 * The HTTP app, without listening. Order matters:
 * log → docs (open, static) → match the operation → authenticate (from its `security`) →
 * parse JSON → refuse what the database could not store → validate → route → errors.
 */
export function createApp({
  config,
  db,
  logger,
  jobs,
  metrics,
  queueBoard,
  recon,
  validateResponses = false,
}: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  app.use(requestLog(logger, metrics && observeHttpRequests(metrics)));
  app.use(requireHost);
  // Before the console's own files: the board sets its own page policy.
  if (queueBoard) app.use('/console/queues', queueBoard.handler(config));
  for (const feature of FEATURES) feature.mount?.(app, apiDocument);

  const validator = validatorStages(apiDocument, validateResponses);
  app.use(apiHeaders);
  app.use(validator.match);
  app.use(authenticate(config, apiDocument));
  app.use(jsonBody(config.bodyLimitBytes, config.remitWebhookSecret));
  app.use(bodyGuard);
  app.use(validator.validate);

  app.use(
    operationRouter(apiDocument, FEATURES, {
      config,
      db,
      logger,
      jobs,
      recon: recon ?? onDemandRuns({ config, db, logger, metrics }),
    }),
  );

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

/**
 * The reconciliation runs this api is asked for, on the book's pool, their results counted in
 * `metrics` (ledger_recon_check_results_total: a `fail` asked for raises LedgerReconFail as a
 * scheduled one does).
 */
export function onDemandRuns({
  config,
  db,
  logger,
  metrics,
}: Pick<AppOptions, 'config' | 'db' | 'logger' | 'metrics'>): OnDemandRuns {
  return new OnDemandRuns(
    { db, book: config.book, settings: config.recon, upstreams: config.upstreams, logger },
    metrics && observeReconciliation(metrics),
  );
}
