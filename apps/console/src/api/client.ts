import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';
import { readTokens } from '../session.js';

export type Schemas = components['schemas'];

/** An answer in the API's error shape (or none at all), kept in words with its request id. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** Called when the API refuses the token: the app returns to sign-in. */
let onUnauthorized: (message: string) => void = () => {};
export function whenUnauthorized(handler: (message: string) => void): void {
  onUnauthorized = handler;
}

/** Reads carry the read token, writes the admin token: each header only where it is needed. */
const tokens: Middleware = {
  onRequest({ request }) {
    const session = readTokens();
    if (session === null) return request;
    if (request.method === 'GET') request.headers.set('X-Ledger-Token', session.ledger);
    else if (session.admin !== '') request.headers.set('X-Ledger-Admin-Token', session.admin);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(tokens);

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer, or an ApiFailure; a refused token also signs out. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as Partial<Schemas['Error']>;
  const failure = new ApiFailure(
    response.status,
    body.error?.code ?? 'http_error',
    body.error?.message ?? `${response.status} ${response.statusText}`,
    body.request_id ?? response.headers.get('x-request-id'),
  );
  if (response.status === 401) onUnauthorized(`The API refused the token: ${failure.message}`);
  return Promise.reject(failure);
}

/** A download that needs the token in a header: fetched, then handed to the browser as a file. */
export async function download(path: string, filename: string): Promise<void> {
  const session = readTokens();
  const response = await fetch(path, { headers: { 'X-Ledger-Token': session?.ledger ?? '' } });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Partial<Schemas['Error']>;
    throw new ApiFailure(
      response.status,
      body.error?.code ?? 'http_error',
      body.error?.message ?? response.statusText,
      body.request_id ?? null,
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}
