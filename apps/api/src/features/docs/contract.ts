import { json } from '../../openapi/components.js';
import { OPEN } from '../../openapi/security.js';
import type { Paths } from '../../openapi/types.js';

/** The documentation itself: open, and served before the validator (its assets are not operations). */
export const paths: Paths = {
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
