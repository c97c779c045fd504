import { assert, withActor } from '@ledger/core';
import { Router } from 'express';
import type { Feature, FeatureContext, Handler } from '../features/feature.js';
import type { ApiDocument } from '../openapi/types.js';
import { actorOf } from './request-context.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Route {
  method: (typeof METHODS)[number];
  template: string;
  operationId: string;
  handler: Handler;
}

/** `/v1/transactions/{txn_id}` as Express writes it: `/v1/transactions/:txn_id`. */
const expressPath = (template: string) => template.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

/** Literal segments before parameters, so `/v1/transactions/grouped` is never taken for a `{txn_id}`. */
const routeOrder = (template: string) =>
  template.split('/').map((segment) => (segment.startsWith('{') ? '\uffff' : segment));

function compareTemplates(a: string, b: string): number {
  const [x, y] = [routeOrder(a), routeOrder(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return (x[i] as string) < (y[i] as string) ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * The one table from operationId to handler, checked complete at start: every operation of the
 * document is served by a feature's handler (or by a feature mounted before the validator, the
 * docs), and every handler serves an operation of the document. A missing or stray one stops
 * the process before it listens. The routes are built from the document's own paths, so a
 * path is written once, in its feature's contract.
 */
export function operationRouter(document: ApiDocument, features: readonly Feature[], context: FeatureContext): Router {
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

  const routes: Route[] = [];
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
      routes.push({ method, template, operationId, handler });
    }
  }
  for (const operationId of handlers.keys())
    assert(served.has(operationId), `handler ${operationId} serves no operation of the document`);

  const router = Router();
  for (const route of routes.sort((a, b) => compareTemplates(a.template, b.template))) {
    // Whatever the handler writes records the request's actor (api, or api:<X-Ledger-Actor>).
    router[route.method](expressPath(route.template), (req, res) =>
      withActor(actorOf(req), () => route.handler(req, res)),
    );
  }
  return router;
}
