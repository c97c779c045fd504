import { assert } from '@ledger/core/posting';
import { withActor } from '@ledger/core/runtime';
import type { RequestHandler } from 'express';
import type { Feature, FeatureContext, Handler } from '../features/feature.js';
import type { ApiDocument } from '../openapi/types.js';
import { actorOf, operationOf } from './request-context.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The one table from operationId to handler, checked complete at start: every operation of the
 * document is served by a feature's handler (or by a feature mounted before the validator, the
 * docs), and every handler serves an operation of the document. A missing or stray one stops
 * the process before it listens.
 * A request goes to the handler of the operation the validator matched it to and validated it
 * against, looked up by operationId: the path is matched once, by the validator, not again by an
 * Express router testing each route in turn (a scan per request that grew with the document).
 */
export function operationRouter(
  document: ApiDocument,
  features: readonly Feature[],
  context: FeatureContext,
): RequestHandler {
  const handlers = new Map<string, Handler>();
  const mounted = new Set<string>();
  for (const feature of features) {
    assert(
      (feature.handlers === undefined) !== (feature.mount === undefined),
      `feature ${feature.tag.name} has handlers or a mount, not both`,
    );
    for (const item of Object.values(feature.paths)) {
      for (const operation of Object.values(item)) if (feature.mount) mounted.add(operation.operationId);
    }
    for (const [operationId, handler] of Object.entries(feature.handlers?.(context) ?? {})) {
      assert(!handlers.has(operationId), `operation ${operationId} has two handlers`);
      handlers.set(operationId, handler);
    }
  }

  const byOperation = new Map<string, Handler>();
  const served = new Set<string>();
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const { operationId } = operation;
      assert(!served.has(operationId), `operationId ${operationId} is used twice in the document`);
      served.add(operationId);
      if (mounted.has(operationId)) continue;
      const handler = handlers.get(operationId);
      assert(handler, `operation ${operationId} (${method.toUpperCase()} ${template}) has no handler`);
      byOperation.set(operationId, handler);
    }
  }
  for (const operationId of handlers.keys())
    assert(served.has(operationId), `handler ${operationId} serves no operation of the document`);

  return (req, res, next) => {
    const operation = operationOf(req);
    const operationId = operation?.schema.operationId;
    const handler = operationId === undefined ? undefined : byOperation.get(operationId);
    // Authentication lets nothing unmatched this far; if it did, the answer is a 404.
    if (operation === undefined || handler === undefined) return next();
    // Each middleware layer resets req.params: the operation's path parameters, as the validator decoded them.
    req.params = operation.pathParams;
    try {
      // Whatever the handler writes records the request's actor (api, or api:<X-Ledger-Actor>).
      const handled = withActor(actorOf(req), () => handler(req, res));
      if (handled instanceof Promise) handled.catch(next);
    } catch (error) {
      next(error);
    }
  };
}
