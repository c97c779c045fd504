import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { UpstreamHttp } from '../http.js';
import { readEnvelope } from './envelope.js';
import { tokenSchema } from './schemas.js';

export const UAEFEED_TOKEN_PATH = 'trade/auth/token';
export const UAEFEED_REFRESH_PATH = 'trade/auth/token/refresh';
/** The assertion's lifetime, as upstreams.md gives it. */
export const UAEFEED_ASSERTION_LIFETIME_S = 24 * 60 * 60;
/** Refresh an access token at most this long before it expires, and at most a fifth of its lifetime. */
export const UAEFEED_REFRESH_MARGIN_MS = 60_000;

export interface UaefeedCredentials {
  appKey: string;
  appSecret: string;
  privateKeyPem: string;
  instCode: string;
  userId: string;
}

interface Token {
  accessToken: string;
  /** When to stop using it and refresh: before it expires, by the margin. */
  accessRenewAt: number;
  /** Single use: taken (set to null) by the refresh that spends it. */
  refreshToken: string | null;
  refreshRenewAt: number;
}

/** The private key, parsed once. Its error names the option, never the key material. */
export function readPrivateKey(pem: string): KeyObject {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return key;
  } catch {
    throw new Error('uaefeed: privateKeyPem is not a PEM RSA private key');
  }
}

/** When to renew a token that expires at `expiresAt`, received at `now`. */
function renewAt(now: number, expiresAt: number, marginMs: number): number {
  return expiresAt - Math.min(marginMs, Math.max(0, (expiresAt - now) / 5));
}

/**
 * The uaefeed token chain: a signed RS256 assertion exchanged for an access token (Basic
 * appKey:appSecret), renewed before expiry with the single-use refresh token, or with a new
 * assertion when the refresh token is spent, near expiry or refused. One token serves every
 * customer; concurrent callers share one exchange, so a refresh token is never sent twice.
 */
export class UaefeedTokens {
  #token: Token | null = null;
  #pending: Promise<string> | null = null;
  readonly #http: UpstreamHttp;
  readonly #credentials: UaefeedCredentials;
  readonly #privateKey: KeyObject;
  readonly #basic: string;
  readonly #now: () => number;
  readonly #marginMs: number;

  constructor(http: UpstreamHttp, credentials: UaefeedCredentials, now: () => number, marginMs: number) {
    this.#http = http;
    this.#credentials = credentials;
    this.#privateKey = readPrivateKey(credentials.privateKeyPem);
    this.#basic = `Basic ${Buffer.from(`${credentials.appKey}:${credentials.appSecret}`).toString('base64')}`;
    this.#now = now;
    this.#marginMs = marginMs;
  }

  /** A usable access token: the current one, or a renewed one. */
  async accessToken(): Promise<string> {
    const token = this.#token;
    if (token !== null && this.#now() < token.accessRenewAt) return token.accessToken;
    this.#pending ??= this.#renew().finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  /** The upstream refused `accessToken` (401): renew it at the next call, by refresh if possible. */
  expire(accessToken: string): void {
    if (this.#token?.accessToken === accessToken) this.#token.accessRenewAt = Number.NEGATIVE_INFINITY;
  }

  async #renew(): Promise<string> {
    const refreshToken = this.#takeRefreshToken();
    if (refreshToken !== null) {
      try {
        return await this.#request(UAEFEED_REFRESH_PATH, { refreshToken }, false);
      } catch {
        // Spent, expired or refused, or the refresh failed in flight (it may have been spent):
        // a fresh assertion does not depend on it. An error of that exchange is the one reported.
      }
    }
    return this.#request(UAEFEED_TOKEN_PATH, { assertion: await this.#assertion() }, true);
  }

  #takeRefreshToken(): string | null {
    const token = this.#token;
    if (token === null || token.refreshToken === null || this.#now() >= token.refreshRenewAt) return null;
    const refreshToken = token.refreshToken;
    token.refreshToken = null;
    return refreshToken;
  }

  async #request(path: string, body: Record<string, string>, idempotent: boolean): Promise<string> {
    // A token exchange by assertion is safe to repeat; a refresh is not (its token is single use).
    const answer = await this.#http.postJson(path, body, { headers: { authorization: this.#basic }, idempotent });
    const token = readEnvelope(tokenSchema, answer, { upstream: 'uaefeed', method: 'POST', path });
    const now = this.#now();
    this.#token = {
      accessToken: token.accessToken,
      accessRenewAt: renewAt(now, token.accessTokenExpiresAt, this.#marginMs),
      refreshToken: token.refreshToken,
      refreshRenewAt: renewAt(now, token.refreshTokenExpiresAt, this.#marginMs),
    };
    return token.accessToken;
  }

  async #assertion(): Promise<string> {
    const nowS = Math.floor(this.#now() / 1000);
    const { appKey, instCode, userId } = this.#credentials;
    return new SignJWT({ instCode, userId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(appKey)
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + UAEFEED_ASSERTION_LIFETIME_S)
      .setJti(randomUUID())
      .sign(this.#privateKey);
  }
}
