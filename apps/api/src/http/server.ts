import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@ledger/core/runtime';
import type { Express } from 'express';
import { ERROR_STATUS, type ErrorCode } from './errors.js';

export interface ServerLimits {
  /** Headers and body must have arrived within this; past it the request is answered 408 and cut. */
  requestTimeoutMs: number;
}

/** How often Node looks for requests past their timeout: the timeout's precision. */
const TIMEOUT_CHECK_INTERVAL_MS_MAX = 1_000;

/** What Node's HTTP parser refuses before any route sees the request, answered in the error shape. */
const CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'request_header_fields_too_large',
    message: 'the request line and headers are larger than this server accepts',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'the request did not arrive in time: headers and body must be sent within the request timeout',
  },
};
const MALFORMED = { code: 'validation_error', message: 'the request is not valid HTTP/1.1' } as const;

const REASONS: Partial<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The error shape of the API, as the raw body of an answer Express never gave. */
function errorBody(code: ErrorCode, message: string, requestId: string): string {
  return JSON.stringify({ error: { code, message }, request_id: requestId });
}

/**
 * The raw answer to a request Node refused before Express saw it: the same error shape, a
 * request id, and the connection closed (Node's own answer would be an empty body).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, logger: Logger): void {
  const { code, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const status = ERROR_STATUS[code];
  const requestId = randomUUID();
  logger.info('request refused by the HTTP parser', { request_id: requestId, status, reason: error.code ?? 'unknown' });
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
  const body = errorBody(code, message, requestId);
  socket.end(
    [
      `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

/**
 * The HTTP server of the app, with real limits: a request whose headers and body have not
 * arrived within `requestTimeoutMs` is answered 408 and cut (Node checks only every 30 s by
 * default; here at least every second), and what the parser refuses (headers over the limit,
 * malformed HTTP, an Expect it cannot meet) is answered in the API's error shape.
 */
export function createServer(app: Express, limits: ServerLimits, logger: Logger): Server {
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS_MAX, Math.ceil(limits.requestTimeoutMs / 4)),
      // Node would answer a request without Host with an empty 400; the API answers what it can.
      requireHostHeader: false,
    },
    app,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, logger));
  // An `Expect` other than 100-continue: refused (Node's own answer would be an empty 417).
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const requestId = randomUUID();
    const body = errorBody('expectation_failed', 'the only Expect this server meets is 100-continue', requestId);
    res.writeHead(ERROR_STATUS.expectation_failed, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    res.end(body);
  });
  return server;
}
