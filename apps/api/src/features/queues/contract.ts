import { errorResponses, json, object, READ_ERRORS, ref } from '../../openapi/components.js';
import { OPEN, READ } from '../../openapi/security.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from './session.js';

const TAG = ['queues'];

export const schemas: Record<string, JsonSchema> = {
  QueuesSession: object(
    {
      role: {
        type: 'string',
        enum: ['admin', 'read'],
        description:
          '`admin` (the admin token was presented): the board retries, removes and pauses; `read`: it only shows.',
      },
      expires_at: { type: 'string', format: 'date-time' },
    },
    `A session of the queues board, held in the \`${SESSION_COOKIE}\` cookie.`,
  ),
};

export const paths: Paths = {
  '/console/queues/session': {
    post: {
      operationId: 'createQueuesSession',
      summary: 'Open the queues board for this browser: a short-lived signed cookie (console)',
      description:
        `The board at \`/console/queues/\` is a page a browser navigates to, where no token header can be set: the console trades its tokens for the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Strict, path \`/console/queues\`, ${SESSION_TTL_MS / 60_000} minutes, signed with a key derived from the configured tokens). ` +
        'With a valid `X-Ledger-Admin-Token` the board can retry, remove and pause; with the ledger token alone it is read-only. Without the cookie the board answers 401.',
      tags: TAG,
      security: READ,
      responses: {
        '200': { description: 'The session, its cookie set.', content: json(ref('QueuesSession')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
    delete: {
      operationId: 'endQueuesSession',
      summary: 'Close the queues board for this browser (the console signs out)',
      description: `Clears the \`${SESSION_COOKIE}\` cookie; no credential needed, there is nothing to end but this browser's.`,
      tags: TAG,
      security: OPEN,
      responses: { '204': { description: 'The cookie cleared.' }, ...errorResponses('BadRequest', 'InternalError') },
    },
  },
};
