import type { z } from 'zod';

/**
 * An upstream answered, but its payload is not the documented format: a missing or mistyped
 * field, a float where integer minor units belong, an unknown status, a CSV row that breaks its
 * row code's rules. Not worth retrying: the same call gives the same payload.
 *
 * It names the upstream, the call (method and path, without the query string) and the field
 * (`data[3].amount`, `rows[2].wht_rate`, `page_meta.next`); never the value received, which may
 * be personal data (a PAN) or echo a credential.
 */
export class UpstreamPayloadError extends Error {
  override name = 'UpstreamPayloadError';
  constructor(
    readonly upstream: string,
    readonly method: string,
    /** Relative to the base URL, without the query string: `api/v1/orders`. */
    readonly path: string,
    /** Where in the payload: `data[3].amount`; `(body)` when the payload as a whole is unusable. */
    readonly field: string,
    /** What is wrong, in words, without the value. */
    readonly problem: string,
  ) {
    super(`${upstream} ${method} /${path} answered a payload that fails validation at ${field}: ${problem}`);
  }
}

/** The call a payload came from, as UpstreamPayloadError names it. */
export interface PayloadSource {
  upstream: string;
  method: string;
  path: string;
}

/** `['data', 3, 'amount']` → `data[3].amount`; the empty path is the body itself, `(body)`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

/**
 * Validates `payload` against `schema` at the boundary: the parsed value, or an
 * UpstreamPayloadError naming the first failing field (zod messages state the expected type or
 * pattern, never the received value).
 */
export function parsePayload<S extends z.ZodType>(
  schema: S,
  payload: unknown,
  source: PayloadSource,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = fieldPath([...prefix, ...(issue?.path ?? [])]);
  throw new UpstreamPayloadError(source.upstream, source.method, source.path, field, issue?.message ?? 'invalid');
}
