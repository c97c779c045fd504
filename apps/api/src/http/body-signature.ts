import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { BODY_SIGNED_SCHEMES, SECURITY_SCHEMES, type SchemeName } from '../openapi/security.js';
import { ApiError } from './errors.js';
import { operationOf } from './request-context.js';

const SIGNATURE_FORMAT = /^sha256=([0-9a-f]{64})$/i;

/** Per operation (the validator hands out the document's own operation objects): worked out once. */
const bodySignedByOperation = new WeakMap<object, SchemeName | null>();

/** The body-signed scheme an operation requires, or null (ADR 0007: the webhook). */
export function bodySignedSchemeOf(req: Request): SchemeName | null {
  const operation = operationOf(req)?.schema;
  if (operation === undefined) return null;
  let scheme = bodySignedByOperation.get(operation);
  if (scheme === undefined) {
    const names = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)) as SchemeName[];
    scheme = names.find((name) => BODY_SIGNED_SCHEMES.includes(name)) ?? null;
    bodySignedByOperation.set(operation, scheme);
  }
  return scheme;
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
