import got, { RequestError, type Got } from 'got';

export interface UpstreamHttpOptions {
  /** The upstream's name (`usbroker`, `remit`, `uaefeed`, `custodian`): named in every error. */
  upstream: string;
  /** Base URL every request path is resolved against (got's `prefixUrl`). */
  baseUrl: string;
  /** Limit of one attempt, connect to last byte. */
  timeoutMs?: number;
  /** Retries of a GET after a 5xx answer or a network error; other methods are never retried. */
  retryLimit?: number;
  /** Wait before the first retry; doubles with each retry up to `backoffMaxMs`. */
  backoffMs?: number;
  backoffMaxMs?: number;
  /** Sent with every request (credentials go here). Never copied into an error. */
  headers?: Record<string, string>;
}

export const UPSTREAM_HTTP_DEFAULTS = { timeoutMs: 10_000, retryLimit: 2, backoffMs: 500, backoffMaxMs: 5_000 } as const;

/** 5xx answers worth another GET: the upstream failed, not the request. */
const RETRIED_STATUS_CODES = [500, 502, 503, 504];

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
  getJson(path: string, searchParams?: SearchParams): Promise<unknown>;
  getText(path: string, searchParams?: SearchParams): Promise<string>;
  postJson(path: string, body: unknown): Promise<unknown>;
}

function createGot(options: UpstreamHttpOptions): Got {
  const backoffMs = options.backoffMs ?? UPSTREAM_HTTP_DEFAULTS.backoffMs;
  const backoffMaxMs = options.backoffMaxMs ?? UPSTREAM_HTTP_DEFAULTS.backoffMaxMs;
  return got.extend({
    prefixUrl: options.baseUrl,
    headers: { accept: 'application/json', ...options.headers },
    timeout: { request: options.timeoutMs ?? UPSTREAM_HTTP_DEFAULTS.timeoutMs },
    retry: {
      limit: options.retryLimit ?? UPSTREAM_HTTP_DEFAULTS.retryLimit,
      methods: ['GET'],
      statusCodes: RETRIED_STATUS_CODES,
      // got's own rules (limit, method, status, error code) decide whether; this decides when.
      enforceRetryRules: true,
      calculateDelay: ({ attemptCount }) => Math.min(backoffMs * 2 ** (attemptCount - 1), backoffMaxMs),
    },
  });
}

function toUpstreamError(upstream: string, method: string, path: string, error: unknown): Error {
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
  return new UpstreamError(upstream, failure, status, method, path, attempts, error.code ?? null);
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
      throw toUpstreamError(options.upstream, method, p.split('?')[0] ?? '', error);
    }
  };
  return {
    upstream: options.upstream,
    getJson: (path, searchParams) => call('GET', path, (p) => client.get(p, { searchParams }).json<unknown>()),
    getText: (path, searchParams) => call('GET', path, (p) => client.get(p, { searchParams }).text()),
    postJson: (path, body) => call('POST', path, (p) => client.post(p, { json: body }).json<unknown>()),
  };
}
