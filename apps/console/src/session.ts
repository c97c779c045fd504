// The tokens live in this tab only (sessionStorage): never in a URL, a cookie or a log.
const KEY = 'ledger-console-tokens';

export interface Tokens {
  ledger: string;
  /** Empty: no admin actions are offered. */
  admin: string;
}

export function readTokens(): Tokens | null {
  const raw = sessionStorage.getItem(KEY);
  return raw === null ? null : (JSON.parse(raw) as Tokens);
}

export function saveTokens(tokens: Tokens): void {
  sessionStorage.setItem(KEY, JSON.stringify(tokens));
}

export function clearTokens(): void {
  sessionStorage.removeItem(KEY);
}
