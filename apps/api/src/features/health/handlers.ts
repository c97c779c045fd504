import { isAtHead, type Db } from '@ledger/core';
import { ApiError } from '../../http/errors.js';
import { requestIdOf } from '../../http/request-context.js';
import type { FeatureContext, Handler } from '../feature.js';

/** Whether the database answers and its schema is at head, within `timeoutMs` (false when not). */
async function databaseReady(db: Db, timeoutMs: number): Promise<{ ready: boolean; reason?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ ready: false; reason: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const check = (async () => {
    await db.raw('SELECT 1');
    return (await isAtHead(db)) ? { ready: true } : { ready: false, reason: 'migrations are not at head' };
  })().catch((error: unknown) => ({ ready: false, reason: error instanceof Error ? error.message : String(error) }));
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function handlers({ config, db, logger }: FeatureContext): Record<string, Handler> {
  return {
    getServiceIndex: (_req, res) => {
      res.json({ service: 'ledger', book: config.book, docs: '/docs', openapi: '/docs/openapi.json', health: '/health/ready', console: '/console/', peer_console: config.peerConsoleUrl });
    },

    getLiveness: (_req, res) => {
      res.json({ status: 'ok' });
    },

    ping: (_req, res) => {
      res.json({ status: 'ok' });
    },

    getReadiness: async (_req, res) => {
      const { ready, reason } = await databaseReady(db, config.readyTimeoutMs);
      if (!ready) {
        logger.warn('not ready', { request_id: requestIdOf(res), reason });
        throw new ApiError('not_ready', 'the database is unreachable or its schema is not at head');
      }
      res.json({ status: 'ok' });
    },
  };
}
