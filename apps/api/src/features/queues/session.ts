import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { ApiConfig } from '../../config.js';

/**
 * The queues board (/console/queues) is a browser page: a navigation cannot carry the token
 * headers. The console trades the tab's tokens for this cookie (POST /console/queues/session):
 * short-lived, HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it),
 * scoped to the board's path, and signed, so it names its role and expiry without a store.
 */
export const SESSION_COOKIE = 'ledger_queues';
export const SESSION_PATH = '/console/queues';
export const SESSION_TTL_MS = 15 * 60_000;

/** `admin`: the board can retry, remove, pause; `read`: it only shows. */
export type QueuesRole = 'admin' | 'read';

/**
 * The signing key, from the configured tokens: every api process of the book agrees on it, and
 * changing either token ends every session signed before.
 */
export function sessionKey(config: ApiConfig): Buffer {
  return createHash('sha256')
    .update(`ledger-queues-session\0${config.ledgerToken ?? ''}\0${config.adminToken ?? ''}`)
    .digest();
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export function signSession(key: Buffer, role: QueuesRole, expiresAt: number): string {
  const payload = `${role}.${expiresAt}`;
  return `${payload}.${mac(key, payload)}`;
}

/** The role of the request's session cookie, or null: none, forged, or expired at `now`. */
export function sessionRole(key: Buffer, req: Request, now: number): QueuesRole | null {
  const cookie = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`));
  const match = /^(admin|read)\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(cookie?.slice(SESSION_COOKIE.length + 1) ?? '');
  if (!match) return null;
  const [, role, expires, signature] = match as unknown as [string, QueuesRole, string, string];
  const expected = Buffer.from(mac(key, `${role}.${expires}`));
  if (!timingSafeEqual(Buffer.from(signature), expected)) return null;
  return Number(expires) > now ? role : null;
}
