import { OPEN } from '../../openapi/security.js';
import type { Paths } from '../../openapi/types.js';

/** The ops console (apps/console): open static files, served before the validator like the docs. */
export const paths: Paths = {
  '/console': {
    get: {
      operationId: 'getConsole',
      summary: 'The ops console (static files built from apps/console, all served from here)',
      description:
        '`/console` redirects to `/console/`, the page, whose routes live after `#`; its files are under `/console/assets/`. The page asks for the tokens and keeps them in the tab (sessionStorage); it calls this API on the same origin and nothing else (its Content-Security-Policy allows only this origin). Not built (`pnpm build` builds it): 404.',
      tags: ['console'],
      security: OPEN,
      responses: {
        '200': { description: 'The console page.', content: { 'text/html': { schema: { type: 'string' } } } },
        '301': { description: 'To `/console/`.' },
      },
    },
  },
};
