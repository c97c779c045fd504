import type { ApiKeyScheme, SecurityRequirement } from './types.js';

/**
 * The credentials: two headers carrying a token configured in the environment, and the remit
 * webhook's signature, an HMAC of the raw body (checked once the body is read: http/auth.ts).
 */
export const SECURITY_SCHEMES = {
  ledgerToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Ledger-Token',
    description: 'The read token (`LEDGER_TOKEN`). Accepted on every GET below /v1.',
  },
  adminToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Ledger-Admin-Token',
    description:
      'The admin token (`LEDGER_ADMIN_TOKEN`). Required on every write; also accepted on every GET below /v1.',
  },
  remitSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Remit-Signature',
    description:
      '`sha256=<hex>`: HMAC-SHA256 of the raw request body with `REMIT_WEBHOOK_SECRET`, compared in constant time. Unset secret: 503 for every payload. Missing or wrong: 401 `invalid_signature`.',
  },
} as const satisfies Record<string, ApiKeyScheme>;

export type SchemeName = keyof typeof SECURITY_SCHEMES;

/** No credential: health, ping and the docs. */
export const OPEN: SecurityRequirement[] = [];
/** Reads: the ledger token or the admin token. */
export const READ: SecurityRequirement[] = [{ ledgerToken: [] }, { adminToken: [] }];
/** Writes: the admin token only (a valid ledger token gets 403). */
export const ADMIN: SecurityRequirement[] = [{ adminToken: [] }];
/** The remit webhook: its signature only. */
export const REMIT_SIGNATURE: SecurityRequirement[] = [{ remitSignature: [] }];
/** Schemes whose check needs the body: authenticate only checks they can be checked; the JSON parser checks them. */
export const BODY_SIGNED_SCHEMES: readonly SchemeName[] = ['remitSignature'];
