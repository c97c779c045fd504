import { UpstreamError, type UpstreamErrorDetail } from '../http.js';
import { errorBodySchema } from './schemas.js';

/**
 * remit's typed errors. Remit answers an error with a flat body `{error, message, code?}`;
 * RemitApiError carries those (with any credential blanked out) beside the UpstreamError
 * fields, so a caller that handles UpstreamError handles these too.
 */
export class RemitApiError extends UpstreamError {
  override name = 'RemitApiError';
  /** Remit's `error` (e.g. `invalid_request`), null when the body said none. */
  readonly apiError: string | null;
  /** Remit's optional `code`. */
  readonly apiCode: string | null;
  /** Remit's `message`, shortened, credentials blanked out. */
  readonly apiMessage: string | null;

  constructor(cause: UpstreamError) {
    super(cause.upstream, cause.failure, cause.status, cause.method, cause.path, cause.attempts, cause.code);
    this.detail = cause.detail;
    this.apiError = cause.detail?.error ?? null;
    this.apiCode = cause.detail?.code ?? null;
    this.apiMessage = cause.detail?.message ?? null;
    const said = [this.apiError, this.apiMessage].filter((part) => part !== null).join(': ');
    if (said !== '') this.message = `${this.message}: ${said}`;
  }
}

/** 401/403: the API key was refused. */
export class RemitAuthError extends RemitApiError {
  override name = 'RemitAuthError';
}

export type RemitResource = 'order' | 'quote' | 'payment' | 'settlement' | 'customer';

/** 404 on a call that names one object. */
export class RemitNotFoundError extends RemitApiError {
  override name = 'RemitNotFoundError';
  constructor(
    cause: UpstreamError,
    readonly resource: RemitResource,
    readonly id: string,
  ) {
    super(cause);
    this.message = `${this.message} (unknown ${resource} ${id})`;
  }
}

/** A page loop met more pages than the cap allows: it stops instead of running on. */
export class RemitPageCapError extends Error {
  override name = 'RemitPageCapError';
  constructor(
    readonly path: string,
    readonly pageCap: number,
  ) {
    super(`remit GET /${path}: more than ${pageCap} pages; stopped`);
  }
}

/** Longest upstream message kept on an error. */
const DETAIL_MESSAGE_MAX_CHARS = 200;

/** Reads remit's flat error body into `UpstreamError.detail`, every secret in `secrets` blanked out. */
export function remitErrorDetail(secrets: readonly string[]) {
  return (body: unknown): UpstreamErrorDetail | null => {
    const parsed = errorBodySchema.safeParse(body);
    if (!parsed.success) return null;
    const detail: Record<string, string> = {};
    // A code that echoes a secret is redacted, then fails the pattern, and is dropped.
    for (const key of ['error', 'code'] as const) {
      const value = parsed.data[key];
      if (value !== undefined && /^[A-Za-z0-9_.-]{1,64}$/.test(redact(value, secrets))) detail[key] = value;
    }
    if (parsed.data.message !== undefined)
      detail.message = redact(parsed.data.message, secrets).slice(0, DETAIL_MESSAGE_MAX_CHARS);
    return Object.keys(detail).length === 0 ? null : detail;
  };
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}
