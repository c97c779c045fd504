import { ACTOR_NAME_PATTERN_SOURCE, apiActor } from '@ledger/core/posting';
import type { Request, Response } from 'express';
import type { OpenApiRequest, OpenApiRequestMetadata } from 'express-openapi-validator/dist/framework/types.js';

/** What the request log and the error mapper know of a request, kept on `res.locals`. */
interface RequestLocals {
  requestId?: string;
}

const PATH_LOGGED_LENGTH_MAX = 200;

export function setRequestId(res: Response, requestId: string): void {
  (res.locals as RequestLocals).requestId = requestId;
}

export function requestIdOf(res: Response): string {
  return (res.locals as RequestLocals).requestId ?? 'unknown';
}

/** The OpenAPI operation the validator matched this request to, if any. */
export function operationOf(req: Request): OpenApiRequestMetadata | undefined {
  return (req as OpenApiRequest).openapi;
}

/**
 * The route template (`/v1/transactions/{txn_id}`) when the request matched one, else the bare
 * path, cut short: never the query string, which may carry anything a caller typed.
 */
export function routeOf(req: Request): string {
  return operationOf(req)?.openApiRoute ?? (req.originalUrl.split('?')[0] ?? '').slice(0, PATH_LOGGED_LENGTH_MAX);
}

const ACTOR_NAME = new RegExp(ACTOR_NAME_PATTERN_SOURCE);

/** The operator a caller named in `X-Ledger-Actor`, if it is a valid name (the validator refuses any other on the operations that take it). */
export function operatorOf(req: Request): string | null {
  const named = req.get('x-ledger-actor');
  return named !== undefined && ACTOR_NAME.test(named) ? named : null;
}

/** Who an admin write is recorded as: `api`, or `api:<operator>`. */
export const actorOf = (req: Request): string => apiActor(operatorOf(req));
