import { createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { SandboxDataConfig } from './data/config.js';
import { createDataset, type SandboxDataset } from './data/generate.js';
import { usbrokerFirmAccountOf } from './data/india-views.js';
import { createCustodianHandler } from './http/custodian.js';
import { FaultStore } from './http/faults.js';
import { createRegistryHandler } from './http/registry.js';
import { startUpstreamServer, type RunningServer, type ServerContext } from './http/server.js';
import { createUaefeedHandler } from './http/uaefeed.js';
import { createRemitHandler } from './http/remit.js';
import { createUsbrokerHandler } from './http/usbroker.js';
import { RemitWebhooks } from './webhooks.js';

export interface SandboxOptions extends Partial<SandboxDataConfig> {
  /** Interface to listen on; loopback unless told otherwise. */
  host?: string;
  /** Ports per server; 0 or absent: any free port. */
  ports?: { registry?: number; uaefeed?: number; custodian?: number; usbroker?: number; remit?: number };
  uaefeed?: {
    appKey?: string;
    appSecret?: string;
    instCode?: string;
    /** The only `userId` accepted; absent: any. */
    userId?: string;
    /** The app's RS256 key (PEM); absent: a fresh 2048-bit pair is generated. */
    privateKeyPem?: string;
    accessTokenTtlMs?: number;
    refreshTokenTtlMs?: number;
  };
  custodian?: { apiKey?: string };
  usbroker?: { clientId?: string; clientSecret?: string; firmId?: string; tokenTtlSeconds?: number };
  remit?: {
    apiKey?: string;
    /** Where webhooks are POSTed; absent: deliveries are recorded as not_configured. */
    webhookUrl?: string;
    /** The HMAC key of `X-Remit-Signature` (the api's REMIT_WEBHOOK_SECRET). */
    webhookSecret?: string;
    /** Attempts per delivery (default 3) and the first backoff (100 ms, doubling). */
    webhookAttempts?: number;
    webhookBackoffMs?: number;
  };
  /** The clock of token expiry (epoch ms); tests pass a fake one. */
  now?: () => number;
}

/** What a client of the sandbox is configured with (they are sandbox credentials: nothing secret). */
export interface SandboxCredentials {
  uaefeed: { appKey: string; appSecret: string; instCode: string; userId: string | undefined; privateKeyPem: string };
  custodian: { apiKey: string };
  /** OAuth client id (USBROKER_API_KEY), secret (USBROKER_API_SECRET), and the daily ledger's firm. */
  usbroker: { apiKey: string; apiSecret: string; firmId: string };
  /** The bearer secret key (REMIT_API_KEY) and the webhook secret (REMIT_WEBHOOK_SECRET), null when not set. */
  remit: { apiKey: string; webhookSecret: string | null };
}

export interface Sandbox {
  /** Base URLs: registry (`api_global_base_url`), uaefeed, custodian, usbroker, remit (the origin: the client adds `/api/v1`). */
  urls: { registry: string; uaefeed: string; custodian: string; usbroker: string; remit: string };
  credentials: SandboxCredentials;
  faults: FaultStore;
  data: SandboxDataset;
  /** remit's webhook deliveries: advance orders, replay events, read the delivery log. */
  webhooks: RemitWebhooks;
  close(): Promise<void>;
}

export const SANDBOX_DEFAULT_CREDENTIALS = {
  uaefeed: { appKey: 'sandbox-app-key', appSecret: 'sandbox-app-secret', instCode: 'SANDBOX' },
  custodian: { apiKey: 'sandbox-custodian-key' },
  usbroker: { apiKey: 'sandbox-usbroker-client', apiSecret: 'sandbox-usbroker-secret', firmId: 'SBXFIRM' },
  remit: { apiKey: 'sandbox-remit-key' },
} as const;

/** usbroker tokens live an hour (`expires_in` 3600). */
export const USBROKER_TOKEN_TTL_SECONDS = 3_600;

export const SANDBOX_TOKEN_TTL_MS = { access: 15 * 60_000, refresh: 24 * 60 * 60_000 } as const;

async function privateKeyPemOf(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** What the sandbox's own settings pace remit calls at: far beyond any sync's rate, so never the limit. */
const SANDBOX_REMIT_REQUESTS_PER_MINUTE = 6_000_000;
/** The TCS collector's TAN the sandbox's env file names (a TAN's form: four letters, five digits, a letter). */
const SANDBOX_TCS_COLLECTOR_TAN = 'SBOX00000S';

/**
 * The settings a book's processes need to use this sandbox, by environment variable name: what
 * `pnpm sandbox` writes to its env file and the quickstart passes to both books.
 */
export function clientEnv(sandbox: Pick<Sandbox, 'urls' | 'credentials'>): Record<string, string> {
  const { uaefeed, custodian, usbroker, remit } = sandbox.credentials;
  return {
    API_GLOBAL_BASE_URL: sandbox.urls.registry,
    UAEFEED_BASE_URL: sandbox.urls.uaefeed,
    UAEFEED_API_KEY: uaefeed.appKey,
    UAEFEED_API_SECRET: uaefeed.appSecret,
    UAEFEED_INST_CODE: uaefeed.instCode,
    UAEFEED_PRIVATE_KEY: uaefeed.privateKeyPem.trim(),
    CUSTODIAN_BASE_URL: sandbox.urls.custodian,
    CUSTODIAN_API_KEY: custodian.apiKey,
    USBROKER_BASE_URL: sandbox.urls.usbroker,
    USBROKER_API_KEY: usbroker.apiKey,
    USBROKER_API_SECRET: usbroker.apiSecret,
    USBROKER_FIRM_ID: usbroker.firmId,
    // The firm's own account at the broker: the platform's part of every fee is credited to it.
    USBROKER_FIRM_ACCOUNT: usbrokerFirmAccountOf(usbroker.firmId),
    // Schedule FA's table A2 names the broker: here, the sandbox itself.
    SCHEDULE_FA_BROKER_NAME: 'usbroker sandbox (a test double, not an institution)',
    SCHEDULE_FA_BROKER_ADDRESS: sandbox.urls.usbroker,
    SCHEDULE_FA_BROKER_ZIP_CODE: '00000',
    // Remit gives no TCS collector's TAN: the sandbox's own, of the TAN's form and no real collector's.
    INDIA_TCS_COLLECTOR_TAN: SANDBOX_TCS_COLLECTOR_TAN,
    REMIT_BASE_URL: sandbox.urls.remit,
    REMIT_API_KEY: remit.apiKey,
    // The sandbox has no rate limit (the provider's ~3,000 a minute is the client's default pace): as fast as it answers.
    REMIT_REQUESTS_PER_MINUTE: String(SANDBOX_REMIT_REQUESTS_PER_MINUTE),
    ...(remit.webhookSecret === null ? {} : { REMIT_WEBHOOK_SECRET: remit.webhookSecret }),
  };
}

/**
 * Starts the sandbox in this process: the customer registry, uaefeed, custodian (UAE), usbroker
 * and remit (India), each on its own port, serving the data set of `seed`, with shared faults.
 * `close()` stops them all.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { host = '127.0.0.1', ports = {}, now = Date.now } = options;
  const data = createDataset(options);
  const faults = new FaultStore({ find: (id) => data.find(id) ?? data.india.find(id) });
  const privateKeyPem = await privateKeyPemOf(options.uaefeed?.privateKeyPem);
  const credentials = credentialsOf(options, privateKeyPem);
  const webhooks = new RemitWebhooks(
    data.india,
    {
      url: options.remit?.webhookUrl ?? null,
      secret: credentials.remit.webhookSecret,
      ...(options.remit?.webhookAttempts === undefined ? {} : { attempts: options.remit.webhookAttempts }),
      ...(options.remit?.webhookBackoffMs === undefined ? {} : { backoffMs: options.remit.webhookBackoffMs }),
    },
    data.config.seed,
    now,
  );
  const urls = { registry: '', uaefeed: '', custodian: '', usbroker: '', remit: '' };
  const context: ServerContext = {
    dataset: data,
    faults,
    info: () => ({
      ...data.config,
      period: data.period,
      records: data.recordCount,
      india_customers: data.india.customers.length,
      urls,
    }),
    moreAdmin: (req, _url, path) => webhooks.admin(req, path),
  };
  const handlers = upstreamHandlers(data, credentials, options, now);
  const running: RunningServer[] = [];
  try {
    for (const name of ['registry', 'uaefeed', 'custodian', 'usbroker', 'remit'] as const) {
      const server = await startUpstreamServer(handlers[name], context, host, ports[name] ?? 0);
      running.push(server);
      urls[name] = server.url;
    }
  } catch (error) {
    await Promise.all(running.map((server) => server.close()));
    throw error;
  }
  return {
    urls,
    credentials,
    faults,
    data,
    webhooks,
    close: async () => {
      await Promise.all(running.map((server) => server.close()));
    },
  };
}

/** Each upstream's credentials: the options' where given, else the sandbox's defaults. */
function credentialsOf(options: SandboxOptions, privateKeyPem: string): SandboxCredentials {
  return {
    uaefeed: {
      appKey: options.uaefeed?.appKey ?? SANDBOX_DEFAULT_CREDENTIALS.uaefeed.appKey,
      appSecret: options.uaefeed?.appSecret ?? SANDBOX_DEFAULT_CREDENTIALS.uaefeed.appSecret,
      instCode: options.uaefeed?.instCode ?? SANDBOX_DEFAULT_CREDENTIALS.uaefeed.instCode,
      userId: options.uaefeed?.userId,
      privateKeyPem,
    },
    custodian: { apiKey: options.custodian?.apiKey ?? SANDBOX_DEFAULT_CREDENTIALS.custodian.apiKey },
    usbroker: {
      apiKey: options.usbroker?.clientId ?? SANDBOX_DEFAULT_CREDENTIALS.usbroker.apiKey,
      apiSecret: options.usbroker?.clientSecret ?? SANDBOX_DEFAULT_CREDENTIALS.usbroker.apiSecret,
      firmId: options.usbroker?.firmId ?? SANDBOX_DEFAULT_CREDENTIALS.usbroker.firmId,
    },
    remit: {
      apiKey: options.remit?.apiKey ?? SANDBOX_DEFAULT_CREDENTIALS.remit.apiKey,
      webhookSecret: options.remit?.webhookSecret ?? null,
    },
  };
}

/** The request handler of each upstream, checking the credentials it was given. */
function upstreamHandlers(
  data: SandboxDataset,
  credentials: SandboxCredentials,
  options: SandboxOptions,
  now: () => number,
) {
  return {
    registry: createRegistryHandler(data),
    uaefeed: createUaefeedHandler(
      data,
      {
        appKey: credentials.uaefeed.appKey,
        appSecret: credentials.uaefeed.appSecret,
        instCode: credentials.uaefeed.instCode,
        userId: credentials.uaefeed.userId ?? null,
        publicKey: createPublicKey(createPrivateKey(credentials.uaefeed.privateKeyPem)),
        accessTokenTtlMs: options.uaefeed?.accessTokenTtlMs ?? SANDBOX_TOKEN_TTL_MS.access,
        refreshTokenTtlMs: options.uaefeed?.refreshTokenTtlMs ?? SANDBOX_TOKEN_TTL_MS.refresh,
      },
      now,
    ),
    custodian: createCustodianHandler(data, credentials.custodian.apiKey),
    usbroker: createUsbrokerHandler(
      data,
      {
        clientId: credentials.usbroker.apiKey,
        clientSecret: credentials.usbroker.apiSecret,
        firmId: credentials.usbroker.firmId,
        tokenTtlSeconds: options.usbroker?.tokenTtlSeconds ?? USBROKER_TOKEN_TTL_SECONDS,
      },
      now,
    ),
    remit: createRemitHandler(data, credentials.remit.apiKey),
  };
}
