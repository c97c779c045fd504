import { databaseReady } from '@ledger/core/runtime';
import { ApiError } from '../../http/errors.js';
import { requestIdOf } from '../../http/request-context.js';
import type { FeatureContext, Handler } from '../feature.js';

export function handlers({ config, db, logger }: FeatureContext): Record<string, Handler> {
  return {
    getServiceIndex: (_req, res) => {
      res.json({
        service: 'ledger',
        book: config.book,
        docs: '/docs',
        openapi: '/docs/openapi.json',
        health: '/health/ready',
        console: '/console/',
        peer_console: config.peerConsoleUrl,
      });
    },

    getLiveness: (_req, res) => {
      res.json({ status: 'ok' });
    },

    ping: (_req, res) => {
      res.json({ status: 'ok' });
    },

    getReadiness: async (_req, res) => {
      const reason = await databaseReady(db, config.readyTimeoutMs);
      if (reason !== null) {
        logger.warn('not ready', { request_id: requestIdOf(res), reason });
        throw new ApiError('not_ready', 'the database is unreachable or its schema is not at head');
      }
      res.json({ status: 'ok' });
    },
  };
}
