import { generateKeyPairSync } from 'node:crypto';
import {
  createCustodianClient,
  createUaefeedClient,
  type CustodianClientConfig,
  type UaefeedClientConfig,
} from '@ledger/upstream-clients';
import type { Sandbox } from '../src/index.js';

/** One RSA key for every sandbox of a test run: generating one takes a while. */
export const PRIVATE_KEY_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

export function uaefeedClient(sandbox: Sandbox, overrides: Partial<UaefeedClientConfig> = {}) {
  const { appKey, appSecret, instCode, privateKeyPem } = sandbox.credentials.uaefeed;
  return createUaefeedClient({
    baseUrl: sandbox.urls.uaefeed,
    appKey,
    appSecret,
    instCode,
    privateKeyPem,
    timeoutMs: 2_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

export function custodianClient(sandbox: Sandbox, overrides: Partial<CustodianClientConfig> = {}) {
  return createCustodianClient({
    baseUrl: sandbox.urls.custodian,
    apiKey: sandbox.credentials.custodian.apiKey,
    timeoutMs: 2_000,
    retryLimit: 2,
    backoffMs: 5,
    ...overrides,
  });
}

/** The rejection of `promise`, which must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value).slice(0, 200)}`);
  if (!(outcome.error instanceof Error)) throw new Error('expected an Error');
  return outcome.error;
}

/** uaefeed statement dates `YYYY/MM/DD` → what the client returns, `YYYY-MM-DD`. */
export function dashDates<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/"(\d{4})\/(\d{2})\/(\d{2})"/g, '"$1-$2-$3"')) as T;
}
