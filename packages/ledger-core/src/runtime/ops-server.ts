import http, { type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { isAtHead } from '../store/migrate.js';
import type { Db } from '../store/db.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/** Why a process is not ready, or null when it is. */
export type ReadyCheck = () => Promise<string | null>;

/** How long /health/ready waits for the database (the api's default READY_TIMEOUT_MS). */
export const READY_TIMEOUT_MS_DEFAULT = 2_000;

/** Resolves with `work`'s answer, or with `late` once `timeoutMs` have passed (work goes on, unobserved). */
export async function settleWithin<T, L = T>(work: Promise<T>, timeoutMs: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the database answers and its schema is at head, within `timeoutMs`: null when it
 * does, else why not. Every process's readiness starts here (spec: health).
 */
export function databaseReady(db: Db, timeoutMs: number = READY_TIMEOUT_MS_DEFAULT): Promise<string | null> {
  const check = (async () => {
    await db.raw('SELECT 1');
    return (await isAtHead(db)) ? null : 'migrations are not at head';
  })().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  return settleWithin(check, timeoutMs, `no answer within ${timeoutMs} ms`);
}

/** The first reason any check gives, or null when every check passes. */
export async function readiness(checks: readonly ReadyCheck[]): Promise<string | null> {
  for (const reason of await Promise.all(checks.map((check) => check()))) if (reason !== null) return reason;
  return null;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

export interface OpsServerOptions {
  /** The address to bind (`OPS_HOST`): the listener has no token, so this is what keeps it private. */
  host: string;
  port: number;
  metrics: Metrics;
  ready: () => Promise<string | null>;
  logger: Logger;
}

/**
 * The operations listener (OPS_PORT, on OPS_HOST): `GET /metrics` (Prometheus text), `GET /health/live` and
 * `GET /health/ready`, without a token, on a port of its own that no Service exposes to clients
 * (docs/adr/0012-metrics-on-an-operations-port.md). The worker and recon have no other HTTP.
 */
export async function startOpsServer({ host, port, metrics, ready, logger }: OpsServerOptions): Promise<Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, JSON_TYPE, JSON.stringify({ error: { code: 'method_not_allowed', message: 'only GET' } }));
    if (path === '/health/live') return send(res, 200, JSON_TYPE, JSON.stringify({ status: 'ok' }));
    if (path === '/health/ready') {
      void ready().then((reason) => {
        if (reason === null) return send(res, 200, JSON_TYPE, JSON.stringify({ status: 'ok' }));
        logger.warn('not ready', { reason });
        send(res, 503, JSON_TYPE, JSON.stringify({ error: { code: 'not_ready', message: reason } }));
      });
      return;
    }
    if (path === '/metrics') {
      void metrics.metrics().then(
        (text) => send(res, 200, metrics.contentType, text),
        (error: unknown) =>
          send(
            res,
            500,
            'text/plain; charset=utf-8',
            `metrics failed: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      );
      return;
    }
    send(
      res,
      404,
      JSON_TYPE,
      JSON.stringify({ error: { code: 'not_found', message: 'GET /metrics, /health/live or /health/ready' } }),
    );
  });
  // Scrapes and probes are short: an idle keep-alive socket must not hold a shutdown up.
  server.keepAliveTimeout = 1_000;
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  logger.info('operations listener up', {
    ops_host: address.address,
    ops_port: address.port,
    paths: ['/metrics', '/health/live', '/health/ready'],
  });
  return server;
}

/**
 * Stops accepting and resolves once the requests in flight are answered. Node closes the idle
 * keep-alive sockets, but a busy client's socket is never idle: each request that arrives on it
 * from now on is answered with `Connection: close`, so every connection ends after one more answer
 * and none is cut mid-request (a drain under load ends, tested by the api's graceful-shutdown test).
 */
export function closeServer(server: Server): Promise<void> {
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) =>
    res.setHeader('Connection', 'close'),
  );
  return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
