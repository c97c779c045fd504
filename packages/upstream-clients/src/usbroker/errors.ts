import { UpstreamError, type UpstreamErrorDetail } from '../http.js';

/**
 * usbroker's typed errors. Each is an UpstreamError (same upstream, status, method, path and
 * attempts), so a caller that handles UpstreamError handles these; none carries a credential,
 * a token or a query string.
 */

/** The broker refused our credentials: the token request, or a call still refused with a fresh token. */
export class UsbrokerAuthError extends UpstreamError {
  override name = 'UsbrokerAuthError';
  constructor(cause: UpstreamError) {
    super(cause.upstream, cause.failure, cause.status, cause.method, cause.path, cause.attempts, cause.code);
    this.detail = cause.detail;
    this.message = `${this.message}: credentials refused${describeDetail(cause.detail)}`;
  }
}

export type UsbrokerResource = 'account' | 'firm';

/** 404: the account (by `account_no`) or the firm (daily ledger's `firm`) is unknown to the broker. */
export class UsbrokerNotFoundError extends UpstreamError {
  override name = 'UsbrokerNotFoundError';
  constructor(
    cause: UpstreamError,
    readonly resource: UsbrokerResource,
    readonly id: string,
  ) {
    super(cause.upstream, cause.failure, cause.status, cause.method, cause.path, cause.attempts, cause.code);
    this.detail = cause.detail;
    this.message = `${this.message}: unknown ${resource} ${id}`;
  }
}

/** A cursor walk met more pages than the cap allows: the walk stops instead of running on. */
export class UsbrokerPageCapError extends Error {
  override name = 'UsbrokerPageCapError';
  constructor(
    readonly path: string,
    readonly pageCap: number,
    /** The last id read: a walk resumed with `after_id` = this continues where this one stopped. */
    readonly lastId: string,
  ) {
    super(`usbroker GET /${path}: more than ${pageCap} pages; stopped after id ${lastId}`);
  }
}

function describeDetail(detail: UpstreamErrorDetail | null): string {
  const code = detail?.error;
  return code === undefined ? '' : ` (${code})`;
}

/** Longest upstream message kept on an error. */
const DETAIL_MESSAGE_MAX_CHARS = 200;

/**
 * Reads usbroker's error body: ours is `{error, message}`, the token endpoint's is OAuth's
 * `{error, error_description}` (RFC 6749 §5.2). Keeps the error code and a short message with
 * every secret in `secrets()` blanked out: an upstream may echo what it was sent.
 */
export function usbrokerErrorDetail(secrets: () => readonly string[]) {
  return (body: unknown): UpstreamErrorDetail | null => {
    if (typeof body !== 'object' || body === null) return null;
    const fields = body as Record<string, unknown>;
    const detail: Record<string, string> = {};
    // A code that echoes a secret is redacted, then fails the pattern, and is dropped.
    const error = typeof fields.error === 'string' ? redact(fields.error, secrets()) : null;
    if (error !== null && /^[A-Za-z0-9_.-]{1,64}$/.test(error)) detail.error = error;
    const message = typeof fields.message === 'string' ? fields.message : fields.error_description;
    if (typeof message === 'string') detail.message = redact(message, secrets()).slice(0, DETAIL_MESSAGE_MAX_CHARS);
    return Object.keys(detail).length === 0 ? null : detail;
  };
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}
