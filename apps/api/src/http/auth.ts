import { hash, timingSafeEqual } from 'node:crypto';
import { assert } from '@ledger/core/posting';
import type { Request, RequestHandler } from 'express';
import type { ApiConfig } from '../config.js';
import { BODY_SIGNED_SCHEMES, SECURITY_SCHEMES, type SchemeName } from '../openapi/security.js';
import type { ApiDocument, SecurityRequirement } from '../openapi/types.js';
import { ApiError } from './errors.js';
import { operationOf } from './request-context.js';

interface Credential {
  /** Lower-case header name, as Node keys `req.headers`. */
  header: string;
  headerName: string;
  envName: string;
  /** SHA-256 of the configured token; undefined when the token is not configured. */
  digest: Buffer | undefined;
}

/** One-shot (per request, for every token presented): half the cost of a Hash object. */
const digestOf = (value: string) => hash('sha256', value, 'buffer');

function credentials(config: ApiConfig): Record<SchemeName, Credential> {
  const credential = (scheme: SchemeName, envName: string, token: string | undefined): Credential => ({
    header: SECURITY_SCHEMES[scheme].name.toLowerCase(),
    headerName: SECURITY_SCHEMES[scheme].name,
    envName,
    digest: token === undefined ? undefined : digestOf(token),
  });
  return {
    ledgerToken: credential('ledgerToken', 'LEDGER_TOKEN', config.ledgerToken),
    adminToken: credential('adminToken', 'LEDGER_ADMIN_TOKEN', config.adminToken),
    // Body-signed: no token to match here; the JSON parser checks it against the body.
    remitSignature: credential('remitSignature', 'REMIT_WEBHOOK_SECRET', undefined),
  };
}

/**
 * Whether a request presents the configured token of a scheme: compared as SHA-256 digests with
 * `timingSafeEqual` (constant time, equal lengths); an unset token matches nothing.
 */
export function tokenCheck(config: ApiConfig): (req: Request, scheme: SchemeName) => boolean {
  const byScheme = credentials(config);
  return (req, scheme) => {
    const { digest, header } = byScheme[scheme];
    const value = req.headers[header];
    return (
      digest !== undefined && typeof value === 'string' && value.length > 0 && timingSafeEqual(digestOf(value), digest)
    );
  };
}

/** The schemes an operation accepts (any one suffices), or null when it is open. */
function acceptedSchemes(requirements: SecurityRequirement[]): SchemeName[] | null {
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return null;
  return requirements.map((r) => {
    const names = Object.keys(r);
    assert(names.length === 1, 'a security requirement names exactly one scheme');
    const name = names[0] as SchemeName;
    assert(name in SECURITY_SCHEMES, `unknown security scheme ${name}`);
    return name;
  });
}

/** Refuses at start a document whose security this module could not enforce. */
function assertEnforceable(document: ApiDocument): void {
  acceptedSchemes(document.security ?? []);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item)) {
      assert(operation.security !== undefined || document.security !== undefined, `${path} has no security`);
      acceptedSchemes(operation.security ?? []);
    }
  }
}

/**
 * Enforces the `security` of the OpenAPI operation the request matched, so that what the
 * document says and what the server does cannot disagree:
 * - an operation with `security: []` is open;
 * - any accepted token that matches lets the request through;
 * - no configured token for the operation, or a presented token whose variable is unset: 503
 *   `not_configured` (fail closed, never open);
 * - a valid token of a scheme the operation does not accept (the ledger token on an admin
 *   endpoint): 403 `forbidden`;
 * - otherwise (missing or unknown token): 401 `unauthorized`.
 * Tokens are compared as SHA-256 digests with `timingSafeEqual`: constant time, equal lengths.
 * Runs after the validator matched the operation and before the body is read or validated.
 */
export function authenticate(config: ApiConfig, document: ApiDocument): RequestHandler {
  assertEnforceable(document);
  const byScheme = credentials(config);
  const presents = tokenCheck(config);
  const schemes = Object.keys(byScheme) as SchemeName[];
  // Per operation (the validator hands out the document's own operation objects): worked out once.
  const acceptedByOperation = new WeakMap<object, SchemeName[] | null>();
  const acceptedFor = (schema: { security?: SecurityRequirement[] }): SchemeName[] | null => {
    let accepted = acceptedByOperation.get(schema);
    if (accepted === undefined) {
      accepted = acceptedSchemes(schema.security ?? document.security ?? []);
      acceptedByOperation.set(schema, accepted);
    }
    return accepted;
  };

  return (req, _res, next) => {
    const operation = operationOf(req);
    // Fail closed: the validator answers unknown routes itself; nothing unmatched gets past here.
    if (!operation) return next(new ApiError('not_found', 'no such route'));
    const accepted = acceptedFor(operation.schema);
    if (accepted === null) return next();

    const presented = (scheme: SchemeName): string | undefined => {
      const value = req.headers[byScheme[scheme].header];
      return typeof value === 'string' && value.length > 0 ? value : undefined;
    };
    const matches = (scheme: SchemeName): boolean => presents(req, scheme);
    const configured = (scheme: SchemeName) => byScheme[scheme].digest !== undefined;

    const bodySigned = accepted.filter((s) => BODY_SIGNED_SCHEMES.includes(s));
    if (bodySigned.length > 0) {
      assert(
        bodySigned.length === accepted.length && bodySigned.length === 1,
        'a body-signed operation accepts that one scheme',
      );
      // The secret first: unset, every payload is refused, signed or not (spec, Authentication §3).
      if (config.remitWebhookSecret === undefined)
        return next(
          new ApiError(
            'not_configured',
            'the webhook secret is not configured on the server (REMIT_WEBHOOK_SECRET is unset)',
          ),
        );
      if (presented(bodySigned[0]!) === undefined)
        return next(new ApiError('invalid_signature', `a ${byScheme[bodySigned[0]!].headerName} header is required`));
      return next();
    }
    if (accepted.some(matches)) return next();
    const unset = accepted.filter((s) => !configured(s));
    if (unset.length === accepted.length || unset.some((s) => presented(s) !== undefined)) {
      const names = unset.map((s) => byScheme[s].envName).join(' or ');
      return next(
        new ApiError(
          'not_configured',
          `this endpoint's credential is not configured on the server (${names} is unset)`,
        ),
      );
    }
    if (schemes.some((s) => !accepted.includes(s) && matches(s))) {
      const needed = accepted.map((s) => byScheme[s].headerName).join(' or ');
      return next(new ApiError('forbidden', `this endpoint needs ${needed}; the token presented does not grant it`));
    }
    const needed = accepted.map((s) => byScheme[s].headerName).join(' or ');
    return next(new ApiError('unauthorized', `a valid ${needed} header is required`));
  };
}
