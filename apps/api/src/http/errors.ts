import { LedgerError, type LedgerErrorCode } from '@ledger/core/posting';
import type { Logger } from '@ledger/core/runtime';
import { JobEnqueueUnconfirmed, JobQueueUnavailable } from '@ledger/job-runtime';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import OpenApiValidator from 'express-openapi-validator';
import { ruleInWords } from '../openapi/patterns.js';
import { requestIdOf, routeOf } from './request-context.js';

/**
 * Every error code the API answers with, and its HTTP status: the one place statuses are
 * decided. The OpenAPI document builds its error responses from this table too, so the
 * documented codes and the answered ones cannot drift apart.
 */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  undecodable_body: 400,
  unauthorized: 401,
  invalid_signature: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  idempotency_conflict: 409,
  invalid_state_transition: 409,
  wrong_book: 409,
  derived_entry: 409,
  payload_too_large: 413,
  expectation_failed: 417,
  unsupported_media_type: 415,
  unbalanced_transaction: 422,
  unknown_account: 422,
  unknown_customer: 422,
  insufficient_funds: 422,
  source_reserved: 422,
  aed_off_peg: 422,
  operating_bank_credit_unconfirmed: 422,
  entry_refused: 422,
  customer_required: 422,
  invalid_records: 422,
  period_closed: 422,
  request_header_fields_too_large: 431,
  internal_error: 500,
  not_configured: 503,
  not_ready: 503,
  enqueue_unconfirmed: 503,
  overloaded: 503,
  upstream_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

// Every code the ledger can raise has a status: adding one to core without mapping it fails here.
const LEDGER_CODES_MAPPED: Record<LedgerErrorCode, number> = ERROR_STATUS;
void LEDGER_CODES_MAPPED;

/** The codes answered with one status, in table order (what the document lists per response). */
export function codesForStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
}

/** An expected failure decided by the HTTP layer itself (credentials, readiness). */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Problem {
  code: ErrorCode;
  message: string;
  details?: unknown[];
  headers?: Record<string, string>;
  /** Whether this is our fault (logged with its cause) rather than the caller's. */
  internal: boolean;
}

/** What an overloaded process asks callers to wait before retrying. */
const OVERLOADED_RETRY_AFTER_S = 1;

const INTERNAL_MESSAGE = 'internal error; quote the request_id when reporting it';

/** What body-parser (express.json) raises, by its `type`. */
const BODY_PARSER_CODES: Record<string, ErrorCode> = {
  'entity.parse.failed': 'invalid_json',
  'entity.too.large': 'payload_too_large',
  'encoding.unsupported': 'unsupported_media_type',
  'charset.unsupported': 'unsupported_media_type',
};

const BODY_PARSER_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'the request body is not valid JSON',
  undecodable_body: 'the request body cannot be decoded as its Content-Encoding says',
  payload_too_large: 'the request body is larger than this server accepts',
  unsupported_media_type: 'the request body has an unsupported encoding or charset',
};

const VALIDATOR_ERRORS = OpenApiValidator.error;

/** Validator errors by status; anything else from it (a response that breaks the schema) is ours. */
const VALIDATOR_CODES: Array<[new (...args: never[]) => Error, ErrorCode]> = [
  [VALIDATOR_ERRORS.BadRequest, 'validation_error'],
  [VALIDATOR_ERRORS.Unauthorized, 'unauthorized'],
  [VALIDATOR_ERRORS.Forbidden, 'forbidden'],
  [VALIDATOR_ERRORS.NotFound, 'not_found'],
  [VALIDATOR_ERRORS.MethodNotAllowed, 'method_not_allowed'],
  [VALIDATOR_ERRORS.NotAcceptable, 'not_acceptable'],
  [VALIDATOR_ERRORS.RequestEntityTooLarge, 'payload_too_large'],
  [VALIDATOR_ERRORS.UnsupportedMediaType, 'unsupported_media_type'],
];

interface ValidatorError extends Error {
  status: number;
  errors?: Array<{ path?: string; message?: string }>;
  headers?: Record<string, string>;
}

interface BodyParserError extends Error {
  type: string;
  status: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  const e = error as Partial<BodyParserError> | null;
  return typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.status === 'number';
}

/** At most this many broken rules are listed: enough to fix a request, bounded for a hostile one. */
const DETAILS_MAX = 20;

/** Every rule the request broke (each once), with its path and a message in words. */
function validationProblem(error: ValidatorError): Problem {
  const seen = new Set<string>();
  const details: Array<{ path: string; message: string }> = [];
  for (const e of error.errors ?? []) {
    const detail = { path: e.path ?? '', message: ruleInWords(e.message ?? '') };
    const key = `${detail.path}\u0000${detail.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
  }
  const [first] = details;
  const message =
    first === undefined
      ? 'the request does not match the API contract'
      : details.length === 1
        ? `${first.path} ${first.message}`
        : `${details.length} rules of the API contract are broken; the first: ${first.path} ${first.message}`;
  return { code: 'validation_error', message, details: details.slice(0, DETAILS_MAX), internal: false };
}

function fromValidator(error: ValidatorError, code: ErrorCode): Problem {
  if (code === 'validation_error') return validationProblem(error);
  const headers = code === 'method_not_allowed' && error.headers?.Allow ? { Allow: error.headers.Allow } : undefined;
  const messages: Partial<Record<ErrorCode, string>> = {
    not_found: 'no such route',
    method_not_allowed: 'this route does not accept that method',
    unsupported_media_type: 'the request body must be application/json',
  };
  return { code, message: messages[code] ?? error.message, ...(headers && { headers }), internal: false };
}

/** Turns anything thrown while serving a request into the one error shape. */
export function toProblem(error: unknown): Problem {
  if (error instanceof ApiError || error instanceof LedgerError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.details && { details: error.details }),
      ...(error.code === 'overloaded' && { headers: { 'Retry-After': String(OVERLOADED_RETRY_AFTER_S) } }),
      internal: false,
    };
  }
  if (error instanceof JobQueueUnavailable) {
    return {
      code: 'not_ready',
      message: 'the job queue is unreachable; nothing was queued, retry shortly',
      internal: false,
    };
  }
  if (error instanceof JobEnqueueUnconfirmed) {
    return {
      code: 'enqueue_unconfirmed',
      message: `the job queue did not confirm job ${error.jobId}: it may have been queued and will run if it was; poll GET /v1/jobs/status/${error.jobId} (404 means it was not) before starting it again`,
      details: [{ job_id: error.jobId, kind: error.kind }],
      internal: false,
    };
  }
  const validatorMatch = VALIDATOR_CODES.find(([type]) => error instanceof type);
  if (validatorMatch) return fromValidator(error as ValidatorError, validatorMatch[1]);
  if (isBodyParserError(error) && error.status >= 400 && error.status < 500) {
    const code = BODY_PARSER_CODES[error.type] ?? 'validation_error';
    return { code, message: BODY_PARSER_MESSAGES[code] ?? 'the request body could not be read', internal: false };
  }
  return { code: 'internal_error', message: INTERNAL_MESSAGE, internal: true };
}

export function sendError(req: Request, res: Response, problem: Problem): void {
  if (problem.headers) res.set(problem.headers);
  res.status(ERROR_STATUS[problem.code]).json({
    error: { code: problem.code, message: problem.message, ...(problem.details && { details: problem.details }) },
    request_id: requestIdOf(res),
  });
}

function describeCause(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const extra = error as Error & { code?: unknown; errors?: unknown };
    return {
      error_name: error.name,
      error_message: error.message,
      error_code: extra.code,
      errors: extra.errors,
      stack: error.stack,
    };
  }
  return { error_message: String(error) };
}

/** The last middleware: maps every error to its status and shape; internal causes are logged, never sent. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const problem = toProblem(error);
    if (problem.internal) {
      logger.error('request failed', {
        request_id: requestIdOf(res),
        method: req.method,
        path: routeOf(req),
        ...describeCause(error),
      });
    }
    // Too late for a status: let Express cut the connection rather than send a second response.
    if (res.headersSent) return next(error);
    sendError(req, res, problem);
  };
}

/** Requests no route answered: 404 in the same shape. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(req, res, { code: 'not_found', message: 'no such route', internal: false });
};
