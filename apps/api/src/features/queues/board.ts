import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Book, Logger } from '@ledger/core/runtime';
import { JOB_FAMILIES, queueName, type JobFamily } from '@ledger/job-runtime';
import { Queue } from 'bullmq';
import { Router, type RequestHandler, type Response } from 'express';
import { Redis } from 'ioredis';
import type { ApiConfig } from '../../config.js';
import { ApiError } from '../../http/errors.js';
import { SESSION_PATH, sessionKey, sessionRole, type QueuesRole } from './session.js';

/**
 * The board's page is Bull Board's, kept to this origin like the console's: its one outside
 * reference (a web font stylesheet) is cut from the page, and the policy refuses anything else.
 * Its page sets `<base href>` to its own path, hence `base-uri 'self'`.
 */
const CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
const WEB_FONTS = /<link[^>]*href="https:\/\/fonts\.googleapis\.com[^>]*>/g;

export interface QueueBoardOptions {
  book: Book;
  redisUrl: string;
  queuePrefix: string;
  logger: Logger;
}

export interface QueueBoard {
  /** What `/console/queues` serves: the board of the session's role, or 401 without a session. */
  handler(config: ApiConfig): RequestHandler;
  close(): Promise<void>;
}

/**
 * Bull Board's page leaves its icon buttons (full screen, settings, the links menu, a queue's
 * actions) and its Redis logo without a name, names a rate-limited queue's badge by its tooltip
 * alone (axe: label-content-name-mismatch), and its light theme's muted text (the search shortcut, a
 * queue's flags, and the red of a queue's failed-jobs flag, shown once a job has failed) falls
 * below 4.5:1 (axe: button-name, svg-img-alt, color-contrast). A script of this origin (the policy
 * allows no other) names each from its icon as the page renders, and two rules darken the light
 * theme's muted text and that red (the dark theme's are left as they are).
 */
const A11Y_PATH = '/ledger-a11y.js';
const A11Y_SCRIPT = `// Names Bull Board's unnamed icon buttons and images (served by the ledger api, board.ts).
const NAMES = { maximize: 'Full screen', settings: 'Settings', 'circle-user': 'Links', 'ellipsis-vertical': 'More actions' };
const name = () => {
  for (const button of document.querySelectorAll('button:not([aria-label])')) {
    if (button.textContent.trim() !== '') continue;
    const icon = [...(button.querySelector('svg.lucide')?.classList ?? [])].find((c) => c.startsWith('lucide-'));
    const key = icon?.slice('lucide-'.length);
    if (key) button.setAttribute('aria-label', NAMES[key] ?? key.replace(/-/g, ' '));
  }
  for (const image of document.querySelectorAll('svg[role="img"]:not([aria-label])')) image.setAttribute('aria-label', 'Redis');
  // A rate-limited queue's badge reads "rate limited 12s" but is named by its tooltip: its name leads with what it shows.
  for (const badge of document.querySelectorAll('button[class*="badge-"][aria-label]')) {
    const text = badge.textContent.trim();
    const label = badge.getAttribute('aria-label');
    if (text !== '' && !label.startsWith(text)) badge.setAttribute('aria-label', text + ': ' + label);
  }
};
new MutationObserver(name).observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributeFilter: ['aria-label'] });
name();
`;
const A11Y_TAGS = `<style>:root:not(.dark-mode) { --muted-foreground: #4d5863; } :root:not(.dark-mode) [class*="flagAlert-"] { color: #a3150f; }</style><script src="${SESSION_PATH}${A11Y_PATH}" defer></script></head>`;

/** Renders Bull Board's page without its web font link, with the accessibility script (the rest is its own). */
const withoutWebFonts: RequestHandler = (_req, res, next) => {
  const render = res.render.bind(res) as (
    view: string,
    options: object,
    done: (e: Error | null, html?: string) => void,
  ) => void;
  (res as Response & { render: (view: string, options?: object) => void }).render = (view, options = {}) =>
    render(view, options, (error, html) =>
      error ? next(error) : res.send(html!.replace(WEB_FONTS, '').replace('</head>', A11Y_TAGS)),
    );
  next();
};

/**
 * Bull Board over the book's queues (one per job family), twice: read-only for the ledger
 * token's sessions, with retry, remove and pause for the admin token's. Both share the queues
 * and one Redis connection, made at the first request (an api whose board is never opened
 * never connects for it).
 */
export function createQueueBoard({ book, redisUrl, queuePrefix, logger }: QueueBoardOptions): QueueBoard {
  let opened: { connection: Redis; queues: Queue[]; boards: Record<QueuesRole, RequestHandler> } | null = null;
  const open = () => {
    if (opened) return opened;
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null, connectionName: `ledger-api-${book}-board` });
    connection.on('error', (error: Error) => logger.debug('queues board connection error', { error: error.message }));
    const queues = (Object.keys(JOB_FAMILIES) as JobFamily[]).map((family) => {
      const queue = new Queue(queueName(book, family), { connection, prefix: queuePrefix });
      queue.on('error', (error: Error) => logger.debug('queues board queue error', { error: error.message }));
      return queue;
    });
    const board = (readOnlyMode: boolean): RequestHandler => {
      const server = new ExpressAdapter();
      server.setBasePath(SESSION_PATH);
      createBullBoard({
        // No retry of a failed job here: its run ended `error`, final in the book (job_runs), so
        // the same job id would only answer that failure again. The console's "Run again" starts
        // a new job with the run's input.
        queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode, allowRetries: false })),
        serverAdapter: server,
        options: {
          uiConfig: {
            boardTitle: `${book} queues${readOnlyMode ? ' (read only)' : ''}`,
            miscLinks: [{ text: 'Back to the console', url: '/console/' }],
          },
        },
      });
      return server.getRouter() as RequestHandler;
    };
    opened = { connection, queues, boards: { admin: board(false), read: board(true) } };
    return opened;
  };
  return {
    handler(config) {
      const key = sessionKey(config);
      const router = Router();
      router.use((req, res, next) => {
        // The session's own endpoint is an API operation, served after the validator.
        if (req.path === '/session') return next('router');
        const role = sessionRole(key, req, Date.now());
        if (role === null)
          return next(
            new ApiError('unauthorized', 'the queues board needs a session: open it from the console (Jobs, Queues)'),
          );
        res.set({
          'Content-Security-Policy': CSP,
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
        });
        if (req.path === A11Y_PATH) return void res.type('text/javascript').send(A11Y_SCRIPT);
        return withoutWebFonts(req, res, (error?: unknown) =>
          error === undefined ? open().boards[role](req, res, next) : next(error),
        );
      });
      return router;
    },
    async close() {
      if (!opened) return;
      // No blocking command and nothing in flight once the server has closed: dropped at once, even with Redis down.
      opened.connection.disconnect();
      await Promise.all(opened.queues.map((queue) => queue.close().catch(() => undefined)));
    },
  };
}
