import type { z } from 'zod';
import type { UpstreamErrorDetail } from '../http.js';
import { parsePayload, type PayloadSource } from '../payload-error.js';
import { UaefeedRejectedError } from './errors.js';
import { envelopeSchema } from './schemas.js';

/**
 * Every uaefeed answer carries `{status, reason, rejectCode}` beside its data. FAILED is a
 * business refusal (UaefeedRejectedError); SUCCESS is then validated against `schema`.
 */
export function readEnvelope<S extends z.ZodType>(schema: S, body: unknown, source: PayloadSource): z.output<S> {
  const envelope = parsePayload(envelopeSchema, body, source);
  if (envelope.status === 'FAILED') {
    throw new UaefeedRejectedError(
      source.method,
      source.path,
      envelope.rejectCode ?? 'UNKNOWN',
      envelope.reason ?? null,
    );
  }
  return parsePayload(schema, body, source);
}

const DETAIL_LENGTH_MAX = 200;

/** The envelope of an error answer (a 401's `rejectCode`, say), for UpstreamError.detail. */
export function readEnvelopeDetail(body: unknown): UpstreamErrorDetail | null {
  if (typeof body !== 'object' || body === null) return null;
  const detail: Record<string, string> = {};
  for (const key of ['rejectCode', 'reason'] as const) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === 'string') detail[key] = value.slice(0, DETAIL_LENGTH_MAX);
  }
  return Object.keys(detail).length === 0 ? null : detail;
}
