import got, { RequestError, type Got } from 'got';
import pThrottle from 'p-throttle';

/** How a client waits and retries: every client's options carry these and hand them on as they are. */
export interface UpstreamRetryOptions {
  /** Limit of one attempt, connect to last byte. */
  timeoutMs?: number;
  /**
   * Retries of a GET after a 5xx or 429 answer or a network error; other methods are never
   * retried. A 429's `Retry-After` is waited out when it is within the timeout, else it is not retried.
   */
  retryLimit?: number;
  /** Wait before the first retry; doubles with each retry up to `backoffMaxMs`. */
  backoffMs?: number;
  backoffMaxMs?: number;
  /**
   * The most requests (retries included) the client starts in a minute, spread a second at a time
   * (a sixtieth of it each second): an upstream's published rate limit, with a margin. Unset: unpaced.
   */
  requestsPerMinute?: number;
}

/** The retry options of a client's options and nothing else of them (no credential travels with them). */
export function retryOptionsOf({
  timeoutMs,
  retryLimit,
  backoffMs,
  backoffMaxMs,
  requestsPerMinute,
}: UpstreamRetryOptions): UpstreamRetryOptions {
  return { timeoutMs, retryLimit, backoffMs, backoffMaxMs, requestsPerMinute };
}

export interface UpstreamHttpOptions extends UpstreamRetryOptions {
  /** The upstream's name (`usbroker`, `remit`, `uaefeed`, `custodian`): named in every error. */
  upstream: string;
  /** Base URL every request path is resolved against (got's `prefixUrl`). */
  baseUrl: string;
  /** Sent with every request (credentials go here). Never copied into an error. */
  headers?: Record<string, string>;
  /**
   * Reads an error answer's body (parsed JSON when it is JSON, else the text) into the few
   * fields worth keeping, which become `UpstreamError.detail`. It must return nothing secret:
   * the raw body is never kept. Unset: errors carry no detail.
   */
  readErrorDetail?: (body: unknown) => UpstreamErrorDetail | null;
  /**
   * Network error codes after which a request is retried (got's `retry.errorCodes`). Unset: got's
   * own list (timeouts, resets, refusals, DNS failures); `['ETIMEDOUT']`: timeouts (and 5xx) only.
   */
  retryErrorCodes?: readonly string[];
}

/** Per-request options, on top of the client's. */
export interface UpstreamRequestOptions {
  /** Headers for this request only (a bearer token that changes, `accept: text/csv`). Never copied into an error. */
  headers?: Record<string, string>;
  /**
   * The POST is safe to repeat (a token exchange changes nothing upstream): retry it like a
   * GET. Other POSTs are never retried: they may have taken effect.
   */
  idempotent?: boolean;
}

/** What an upstream said about an error, as `readErrorDetail` extracted it: short strings, nothing secret. */
export type UpstreamErrorDetail = Readonly<Record<string, string>>;

export const UPSTREAM_HTTP_DEFAULTS = {
  timeoutMs: 10_000,
  retryLimit: 2,
  backoffMs: 500,
  backoffMaxMs: 5_000,
} as const;

/** Answers worth another GET: the upstream failed (5xx) or asked us to slow down (429), not the request. */
const RETRIED_STATUS_CODES = [429, 500, 502, 503, 504];

export type UpstreamFailure = 'http_status' | 'timeout' | 'network' | 'bad_response';

/**
 * An upstream call that failed, after any retries. It carries the upstream's name, the status
 * (null when no answer came), the method and the request path: never headers, query strings or
 * bodies, which may hold credentials.
 */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    readonly upstream: string,
    readonly failure: UpstreamFailure,
    readonly status: number | null,
    readonly method: string,
    readonly path: string,
    readonly attempts: number,
    /** The network or parser error code, e.g. `ECONNREFUSED`, `ETIMEDOUT`. */
    readonly code: string | null,
  ) {
    super(UpstreamError.describe(upstream, failure, status, method, path, attempts, code));
  }

  /** The upstream's own account of the error (its error code, message), when its client reads one. */
  detail: UpstreamErrorDetail | null = null;

  private static describe(
    upstream: string,
    failure: UpstreamFailure,
    status: number | null,
    method: string,
    path: string,
    attempts: number,
    code: string | null,
  ): string {
    const what =
      failure === 'http_status'
        ? `answered ${status}`
        : failure === 'timeout'
          ? 'timed out'
          : failure === 'bad_response'
            ? 'answered with a body that is not JSON'
            : `failed (${code ?? 'network error'})`;
    return `${upstream} ${method} /${path} ${what} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  }
}

export type SearchParams = Record<string, string | number | boolean>;

/**
 * An upstream's HTTP client: JSON in and out, an explicit timeout, bounded retries, and errors
 * that are UpstreamError. Answers come back as `unknown`: each client validates what it reads.
 */
export interface UpstreamHttp {
  readonly upstream: string;
  getJson(path: string, searchParams?: SearchParams, request?: UpstreamRequestOptions): Promise<unknown>;
  getText(path: string, searchParams?: SearchParams, request?: UpstreamRequestOptions): Promise<string>;
  postJson(path: string, body: unknown, request?: UpstreamRequestOptions): Promise<unknown>;
  /** POSTs an `application/x-www-form-urlencoded` body (an OAuth token request) and parses the JSON answer. */
  postForm(path: string, form: Record<string, string>, request?: UpstreamRequestOptions): Promise<unknown>;
}

/** A hook that waits for the next request slot of `requestsPerMinute`, or null (unpaced). */
function pacing(requestsPerMinute: number | undefined): (() => Promise<void>) | null {
  if (requestsPerMinute === undefined) return null;
  if (!Number.isSafeInteger(requestsPerMinute) || requestsPerMinute < 1)
    throw new RangeError(`requestsPerMinute must be a whole number ≥ 1, not ${requestsPerMinute}`);
  // A sixtieth each second rather than the whole minute at once: no burst at a minute's start.
  const perSecond = Math.max(1, Math.floor(requestsPerMinute / 60));
  // strict: no second-long window ever holds more than its share (the windowed default may hold twice it across a boundary).
  const slot = pThrottle({ limit: perSecond, interval: 1_000, strict: true })(() => undefined);
  return async () => {
    await slot();
  };
}

function createGot(options: UpstreamHttpOptions): Got {
  const backoffMs = options.backoffMs ?? UPSTREAM_HTTP_DEFAULTS.backoffMs;
  const backoffMaxMs = options.backoffMaxMs ?? UPSTREAM_HTTP_DEFAULTS.backoffMaxMs;
  const paced = pacing(options.requestsPerMinute);
  return got.extend({
    // Every attempt waits for its slot, a retry too.
    ...(paced !== null && { hooks: { beforeRequest: [paced] } }),
    prefixUrl: options.baseUrl,
    headers: { accept: 'application/json', ...options.headers },
    timeout: { request: options.timeoutMs ?? UPSTREAM_HTTP_DEFAULTS.timeoutMs },
    retry: {
      limit: options.retryLimit ?? UPSTREAM_HTTP_DEFAULTS.retryLimit,
      methods: ['GET'],
      statusCodes: RETRIED_STATUS_CODES,
      ...(options.retryErrorCodes === undefined ? {} : { errorCodes: [...options.retryErrorCodes] }),
      // got's own rules (limit, method, status, error code, a Retry-After beyond the timeout) decide
      // whether; this decides when: when the upstream says (429, 503 with Retry-After), else backoff.
      enforceRetryRules: true,
      calculateDelay: ({ attemptCount, retryAfter }) =>
        retryAfter ?? Math.min(backoffMs * 2 ** (attemptCount - 1), backoffMaxMs),
    },
  });
}

function errorDetail(error: RequestError, read: UpstreamHttpOptions['readErrorDetail']): UpstreamErrorDetail | null {
  const raw: unknown = error.response?.body;
  if (read === undefined || raw === undefined) return null;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
  let body: unknown = text;
  if (typeof text === 'string') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return read(body);
}

function toUpstreamError(
  upstream: string,
  method: string,
  path: string,
  error: unknown,
  options?: UpstreamHttpOptions,
): Error {
  if (!(error instanceof RequestError)) return error instanceof Error ? error : new Error(String(error));
  const attempts = (error.request?.retryCount ?? 0) + 1;
  const status = error.response?.statusCode ?? null;
  const failure: UpstreamFailure =
    error.code === 'ETIMEDOUT'
      ? 'timeout'
      : error.code === 'ERR_BODY_PARSE_FAILURE'
        ? 'bad_response'
        : status !== null
          ? 'http_status'
          : 'network';
  // A fresh error, not a wrapper: got's error holds the request options, headers included.
  const upstreamError = new UpstreamError(upstream, failure, status, method, path, attempts, error.code ?? null);
  if (status !== null) upstreamError.detail = errorDetail(error, options?.readErrorDetail);
  return upstreamError;
}

/** Paths are relative to the base URL: `v1/orders`, not `/v1/orders` (got's prefixUrl rule). */
function relative(path: string): string {
  return path.replace(/^\/+/, '');
}

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const client = createGot(options);
  const call = async <T>(method: string, path: string, send: (p: string) => Promise<T>): Promise<T> => {
    const p = relative(path);
    try {
      return await send(p);
    } catch (error) {
      // The path without its query string, which may carry a key.
      throw toUpstreamError(options.upstream, method, p.split('?')[0] ?? '', error, options);
    }
  };
  // Only what was asked for: got merges these over the client's defaults.
  const perRequest = (request?: UpstreamRequestOptions) => ({
    ...(request?.headers === undefined ? {} : { headers: request.headers }),
    ...(request?.idempotent === true ? { retry: { methods: ['GET' as const, 'POST' as const] } } : {}),
  });
  return {
    upstream: options.upstream,
    getJson: (path, searchParams, request) =>
      call('GET', path, (p) => client.get(p, { searchParams, ...perRequest(request) }).json<unknown>()),
    getText: (path, searchParams, request) =>
      call('GET', path, (p) => client.get(p, { searchParams, ...perRequest(request) }).text()),
    postJson: (path, body, request) =>
      call('POST', path, (p) => client.post(p, { json: body, ...perRequest(request) }).json<unknown>()),
    postForm: (path, form, request) =>
      call('POST', path, (p) => client.post(p, { form, ...perRequest(request) }).json<unknown>()),
  };
}
