/**
 * usbroker's access token: OAuth client credentials, no refresh token. One token serves every
 * call until shortly before `expires_in` runs out; then the next call asks for a new one.
 * Concurrent callers share one token request.
 */

/** How long before expiry a token is replaced; at most half its lifetime, for short-lived tokens. */
export const USBROKER_TOKEN_RENEW_MARGIN_MS = 60_000;

export interface IssuedToken {
  accessToken: string;
  expiresInMs: number;
}

export interface TokenSource {
  /** A token valid for a while yet: the held one, or a new one. */
  get(): Promise<string>;
  /** Forgets `token` (the broker refused it), so the next `get` asks for a new one. */
  invalidate(token: string): void;
  /** The held token, for redaction; null when none. */
  held(): string | null;
}

export function createTokenSource(issue: () => Promise<IssuedToken>, now: () => number): TokenSource {
  let held: { token: string; renewAtMs: number } | null = null;
  let pending: Promise<string> | null = null;

  const request = async (): Promise<string> => {
    // Counted from before the request: the token's clock started no earlier than this.
    const requestedAtMs = now();
    const issued = await issue();
    const marginMs = Math.min(USBROKER_TOKEN_RENEW_MARGIN_MS, issued.expiresInMs / 2);
    held = { token: issued.accessToken, renewAtMs: requestedAtMs + issued.expiresInMs - marginMs };
    return issued.accessToken;
  };

  return {
    get: () => {
      if (held !== null && now() < held.renewAtMs) return Promise.resolve(held.token);
      pending ??= request().finally(() => {
        pending = null;
      });
      return pending;
    },
    invalidate: (token) => {
      if (held?.token === token) held = null;
    },
    held: () => held?.token ?? null,
  };
}
