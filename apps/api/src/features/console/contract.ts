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
  '/console/queues/': {
    get: {
      operationId: 'getQueuesBoard',
      summary: "The job queues board (Bull Board over the book's queues), with a session cookie",
      description:
        "Bull Board over the book's job queues (one per family): counts per state, each job with its data, result or error, retry and remove (admin), job schedulers. A browser page, so no token header: it needs the `ledger_queues` cookie that `POST /console/queues/session` sets (the console does so from its Jobs page), read-only unless that session was opened with the admin token; without it, 401 in the error shape. Its page and its own calls (`/console/queues/api/*`) are Bull Board's, served before the validator like the console's files.",
      tags: ['console'],
      // The cookie is checked by the board's own mount (features/queues/board.ts), not by a header scheme.
      security: OPEN,
      responses: {
        '200': { description: "The board's page.", content: { 'text/html': { schema: { type: 'string' } } } },
        '401': { description: 'No valid session cookie.' },
      },
    },
  },
};
