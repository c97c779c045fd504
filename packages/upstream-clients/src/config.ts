import { z } from 'zod';
import { createCustodianClient } from './custodian/client.js';
import type { CustodianClient } from './custodian/types.js';
import { createRemitClient, type RemitClient } from './remit/client.js';
import { createUaefeedClient } from './uaefeed/client.js';
import type { UaefeedClient } from './uaefeed/types.js';
import { createUsbrokerClient, type UsbrokerClient } from './usbroker/client.js';

/** REMIT_REQUESTS_PER_MINUTE unset: four fifths of remit's ~3,000 a minute. */
export const REMIT_REQUESTS_PER_MINUTE_DEFAULT = 2_400;

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));
const optionalUrl = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
  .refine((value) => value === undefined || URL.canParse(value), 'must be an http(s) URL');

/**
 * The upstreams' settings of a book (contract: Books and configuration), read by each app's
 * config module with the rest of its environment. An upstream whose base URL is unset is not
 * configured: its client is null and callers answer as for an unreachable one.
 */
export const upstreamConfigSchema = z.object({
  UAEFEED_BASE_URL: optionalUrl,
  UAEFEED_API_KEY: optionalText,
  UAEFEED_API_SECRET: optionalText,
  /** PEM; in an env file `\n` may stand for the line breaks. */
  UAEFEED_PRIVATE_KEY: optionalText,
  UAEFEED_INST_CODE: optionalText,
  CUSTODIAN_BASE_URL: optionalUrl,
  CUSTODIAN_API_KEY: optionalText,
  USBROKER_BASE_URL: optionalUrl,
  USBROKER_API_KEY: optionalText,
  USBROKER_API_SECRET: optionalText,
  USBROKER_FIRM_ID: optionalText,
  /** The firm's own account at the broker, credited the platform's part of each fee (contract, Recost revised). */
  USBROKER_FIRM_ACCOUNT: optionalText,
  REMIT_BASE_URL: optionalUrl,
  REMIT_API_KEY: optionalText,
  REMIT_API_SECRET: optionalText,
  /**
   * The most remit requests a process starts in a minute: the provider allows about 3,000 a
   * minute per IP, so the default keeps a fifth in hand (divide it among processes sharing an IP).
   */
  REMIT_REQUESTS_PER_MINUTE: z
    .string()
    .optional()
    .transform((value) =>
      value === undefined || value.trim() === '' ? REMIT_REQUESTS_PER_MINUTE_DEFAULT : Number(value),
    )
    .refine((value) => Number.isSafeInteger(value) && value >= 1, 'must be a whole number ≥ 1'),
});
export type UpstreamEnv = z.infer<typeof upstreamConfigSchema>;
/** The settings that are text: credentials and ids. */
type CredentialName = {
  [K in keyof UpstreamEnv]: UpstreamEnv[K] extends string | undefined ? K : never;
}[keyof UpstreamEnv];

/** Each upstream's client, or null where the book does not configure it. */
export interface UpstreamClients {
  uaefeed: UaefeedClient | null;
  custodian: CustodianClient | null;
  usbroker: UsbrokerClient | null;
  remit: RemitClient | null;
  /** The broker's firm id: the `firm` of its daily ledger (`USBROKER_FIRM_ID`). */
  usbrokerFirmId: string | null;
  /**
   * The firm's own account at the broker (`USBROKER_FIRM_ACCOUNT`): the broker credits it the
   * platform's part of each trade's fee; its balance is read like a customer's (`getBalance`).
   */
  usbrokerFirmAccount: string | null;
}

/** No upstream configured: what a book without upstream settings, or a test of pure logic, runs with. */
export const NO_UPSTREAMS: UpstreamClients = {
  uaefeed: null,
  custodian: null,
  usbroker: null,
  remit: null,
  usbrokerFirmId: null,
  usbrokerFirmAccount: null,
};

/**
 * The clients of the configured upstreams. A base URL set without its credentials is a
 * configuration error (thrown, naming the variable), not a client that fails at its first call.
 */
export function createUpstreamClients(env: UpstreamEnv): UpstreamClients {
  const need = (name: CredentialName, baseUrlName: keyof UpstreamEnv): string => {
    const value = env[name];
    if (value === undefined) throw new Error(`configuration error: ${name} is required when ${baseUrlName} is set`);
    return value;
  };
  const { UAEFEED_BASE_URL, CUSTODIAN_BASE_URL, USBROKER_BASE_URL, REMIT_BASE_URL } = env;
  return {
    uaefeed:
      UAEFEED_BASE_URL === undefined
        ? null
        : createUaefeedClient({
            baseUrl: UAEFEED_BASE_URL,
            appKey: need('UAEFEED_API_KEY', 'UAEFEED_BASE_URL'),
            appSecret: need('UAEFEED_API_SECRET', 'UAEFEED_BASE_URL'),
            privateKeyPem: need('UAEFEED_PRIVATE_KEY', 'UAEFEED_BASE_URL').replace(/\\n/g, '\n'),
            instCode: need('UAEFEED_INST_CODE', 'UAEFEED_BASE_URL'),
          }),
    custodian:
      CUSTODIAN_BASE_URL === undefined
        ? null
        : createCustodianClient({
            baseUrl: CUSTODIAN_BASE_URL,
            apiKey: need('CUSTODIAN_API_KEY', 'CUSTODIAN_BASE_URL'),
          }),
    usbroker:
      USBROKER_BASE_URL === undefined
        ? null
        : createUsbrokerClient({
            baseUrl: USBROKER_BASE_URL,
            apiKey: need('USBROKER_API_KEY', 'USBROKER_BASE_URL'),
            apiSecret: need('USBROKER_API_SECRET', 'USBROKER_BASE_URL'),
          }),
    remit:
      REMIT_BASE_URL === undefined
        ? null
        : createRemitClient({
            baseUrl: REMIT_BASE_URL,
            apiKey: need('REMIT_API_KEY', 'REMIT_BASE_URL'),
            ...(env.REMIT_API_SECRET !== undefined && { apiSecret: env.REMIT_API_SECRET }),
            requestsPerMinute: env.REMIT_REQUESTS_PER_MINUTE,
          }),
    usbrokerFirmId: env.USBROKER_FIRM_ID ?? null,
    usbrokerFirmAccount: env.USBROKER_FIRM_ACCOUNT ?? null,
  };
}
