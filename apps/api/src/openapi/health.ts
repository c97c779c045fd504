import { errorResponses, json, ref } from './components.js';
import { OPEN } from './security.js';
import type { Paths } from './types.js';

const ok = { '200': { description: 'OK.', content: json(ref('Status'), { status: 'ok' }) } };

/** Health, ping and the documentation itself: open, outside /v1. */
export const healthPaths: Paths = {
  '/': {
    get: {
      operationId: 'getServiceIndex',
      summary: 'What this service is and where to go next',
      description: 'The book this deployment serves, and links to the docs, the raw document and the health checks.',
      tags: ['docs'],
      security: OPEN,
      responses: { '200': { description: 'The service index.', content: json(ref('ServiceIndex')) }, ...errorResponses('BadRequest', 'InternalError') },
    },
  },
  '/health/live': {
    get: {
      operationId: 'getLiveness',
      summary: 'The process is up',
      tags: ['health'],
      security: OPEN,
      responses: { ...ok, ...errorResponses('BadRequest', 'InternalError') },
    },
  },
  '/health/ready': {
    get: {
      operationId: 'getReadiness',
      summary: 'The database answers and its schema is at head',
      description: 'Bounded by a short timeout (`READY_TIMEOUT_MS`, 2 s by default): an unreachable database answers 503, never hangs.',
      tags: ['health'],
      security: OPEN,
      responses: { ...ok, ...errorResponses('BadRequest', 'InternalError', 'NotReady') },
    },
  },
  '/ping': {
    get: {
      operationId: 'ping',
      summary: 'No-op',
      tags: ['health'],
      security: OPEN,
      responses: { ...ok, ...errorResponses('BadRequest', 'InternalError') },
    },
  },
  '/docs': {
    get: {
      operationId: 'getDocs',
      summary: 'Interactive API documentation (Swagger UI, served from local assets)',
      description: '`/docs` redirects to `/docs/`, where the page lives.',
      tags: ['docs'],
      security: OPEN,
      responses: {
        '200': { description: 'The documentation page.', content: { 'text/html': { schema: { type: 'string' } } } },
        '301': { description: 'To `/docs/`.' },
      },
    },
  },
  '/docs/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['docs'],
      security: OPEN,
      responses: { '200': { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) } },
    },
  },
};
