import { OPEN } from '../../openapi/security.js';
import { errorResponses, json, object, ref } from '../../openapi/components.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';

const ok = { '200': { description: 'OK.', content: json(ref('Status'), { status: 'ok' }) } };

/** Health, ping and the documentation itself: open, outside /v1. */

/** The schemas of health and the service index. */
export const schemas: Record<string, JsonSchema> = {
  Status: object({ status: { type: 'string', const: 'ok' } }, 'The process (or its dependencies) is fine.'),
  ServiceIndex: object(
    {
      service: { type: 'string', const: 'ledger' },
      book: { type: 'string', enum: ['ENTITY_UAE', 'ENTITY_IND_IFSC'] },
      docs: { type: 'string', const: '/docs', description: 'Interactive API documentation.' },
      openapi: { type: 'string', const: '/docs/openapi.json', description: 'The OpenAPI 3.1 document.' },
      health: { type: 'string', const: '/health/ready' },
      console: { type: 'string', const: '/console/', description: 'The ops console.' },
      peer_console: {
        type: ['string', 'null'],
        description: "The other book's console (`CONSOLE_PEER_URL`), or null when not configured.",
      },
    },
    'Where to go from here: every business endpoint is under /v1 and needs a token (see the docs).',
  ),
};

export const paths: Paths = {
  '/': {
    get: {
      operationId: 'getServiceIndex',
      summary: 'What this service is and where to go next',
      description: 'The book this deployment serves, and links to the docs, the raw document and the health checks.',
      tags: ['docs'],
      security: OPEN,
      responses: {
        '200': { description: 'The service index.', content: json(ref('ServiceIndex')) },
        ...errorResponses('BadRequest', 'InternalError'),
      },
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
      description:
        'Bounded by a short timeout (`READY_TIMEOUT_MS`, 2 s by default): an unreachable database answers 503, never hangs.',
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
};
