import { randomUUID } from 'node:crypto';
import type { HttpObserver, Logger } from '@ledger/core/runtime';
import type { RequestHandler } from 'express';
import { operationOf, operatorOf, requestIdOf, routeOf, setRequestId } from './request-context.js';

/** A caller's `X-Request-Id` is kept only if it is short and plain: it goes into logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The metrics' route of a request that matched no operation (a 404, the docs' files): never the path sent. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * One JSON line per request when it ends: request_id, method, route path, status, duration_ms.
 * Deliberately nothing else: no header values (tokens live there) but the operator a write
 * names (`X-Ledger-Actor`, validated), no query string, no body.
 * The same moment is observed in the request metrics, by route template (`observe`).
 */
export function requestLog(logger: Logger, observe?: HttpObserver): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const offered = req.get('x-request-id');
    const requestId = offered !== undefined && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    setRequestId(res, requestId);
    res.set('X-Request-Id', requestId);

    // One listener, on 'close': Node emits it after 'finish' (a tick later) and also when the
    // client goes away first, which is the one case where the response is not finished.
    res.on('close', () => {
      const aborted = !res.writableFinished;
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      observe?.(
        req.method,
        operationOf(req)?.openApiRoute ?? UNMATCHED_ROUTE,
        aborted ? 'aborted' : String(res.statusCode),
        durationMs / 1e3,
      );
      logger.info('request', {
        request_id: requestIdOf(res),
        method: req.method,
        path: routeOf(req),
        status: res.statusCode,
        duration_ms: Math.round(durationMs * 100) / 100,
        ...(operatorOf(req) !== null && { actor: operatorOf(req) }),
        ...(aborted && { aborted: true }),
      });
    });
    next();
  };
}
