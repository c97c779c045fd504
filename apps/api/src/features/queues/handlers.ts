import { tokenCheck } from '../../http/auth.js';
import type { FeatureContext, Handler } from '../feature.js';
import { SESSION_COOKIE, SESSION_PATH, SESSION_TTL_MS, sessionKey, signSession } from './session.js';

const cookieOptions = (secure: boolean) =>
  ({ httpOnly: true, sameSite: 'strict', path: SESSION_PATH, secure }) as const;

export function handlers({ config, logger }: FeatureContext): Record<string, Handler> {
  const key = sessionKey(config);
  const presents = tokenCheck(config);
  return {
    createQueuesSession: (req, res) => {
      // Authenticated already (ledger or admin token): the admin token, when it is the one presented, opens the board for writing.
      const role = presents(req, 'adminToken') ? 'admin' : 'read';
      const expiresAt = Date.now() + SESSION_TTL_MS;
      res.cookie(SESSION_COOKIE, signSession(key, role, expiresAt), {
        ...cookieOptions(req.secure),
        maxAge: SESSION_TTL_MS,
      });
      logger.info('queues board session opened', { role });
      res.json({ role, expires_at: new Date(expiresAt).toISOString() });
    },

    endQueuesSession: (req, res) => {
      res.clearCookie(SESSION_COOKIE, cookieOptions(req.secure));
      res.status(204).end();
    },
  };
}
