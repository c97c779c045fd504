import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { BODY_SIGNED_SCHEMES, SECURITY_SCHEMES, type SchemeName } from '../openapi/security.js';
import { ApiError } from './errors.js';
import { operationOf } from './request-context.js';

const SIGNATURE_FORMAT = /^sha256=([0-9a-f]{64})$/i;

/** The body-signed scheme an operation requires, or null (ADR 0007: the webhook). */
export function bodySignedSchemeOf(req: Request): SchemeName | null {
  const security = operationOf(req)?.schema.security ?? [];
  const names = security.flatMap((requirement) => Object.keys(requirement)) as SchemeName[];
  return names.find((name) => BODY_SIGNED_SCHEMES.includes(name)) ?? null;
}

/**
 * Checks `X-Remit-Signature: sha256=<hex>` against HMAC-SHA256(secret, raw body), in constant
 * time (equal-length digests). Runs on the raw bytes before the body is parsed, so a bad
 * signature is 401 whatever the body is, and only a signed body can be answered 400 for not
 * being JSON. Answers the refusal, or null when the signature is good.
 */
export function checkBodySignature(req: Request, secret: string, raw: Buffer): ApiError | null {
  const header = req.headers[SECURITY_SCHEMES.remitSignature.name.toLowerCase()];
  const match = typeof header === 'string' ? SIGNATURE_FORMAT.exec(header.trim()) : null;
  const expected = createHmac('sha256', secret).update(raw).digest();
  if (match && timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected)) return null;
  return new ApiError(
    'invalid_signature',
    `${SECURITY_SCHEMES.remitSignature.name} must be sha256=<hex> of the HMAC-SHA256 of the raw body`,
  );
}
