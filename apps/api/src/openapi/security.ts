import type { ApiKeyScheme, SecurityRequirement } from './types.js';

/** The two API credentials, each a header carrying a token configured in the environment. */
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
    description: 'The admin token (`LEDGER_ADMIN_TOKEN`). Required on every write; also accepted on every GET below /v1.',
  },
} as const satisfies Record<string, ApiKeyScheme>;

export type SchemeName = keyof typeof SECURITY_SCHEMES;

/** No credential: health, ping and the docs. */
export const OPEN: SecurityRequirement[] = [];
/** Reads: the ledger token or the admin token. */
export const READ: SecurityRequirement[] = [{ ledgerToken: [] }, { adminToken: [] }];
/** Writes: the admin token only (a valid ledger token gets 403). */
export const ADMIN: SecurityRequirement[] = [{ adminToken: [] }];
