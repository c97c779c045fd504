import { createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { createDataset, type SandboxDataConfig, type SandboxDataset } from './data/generate.js';
import { createCustodianHandler } from './http/custodian.js';
import { FaultStore } from './http/faults.js';
import { createRegistryHandler } from './http/registry.js';
import { startUpstreamServer, type RunningServer, type ServerContext } from './http/server.js';
import { createUaefeedHandler } from './http/uaefeed.js';

export interface SandboxOptions extends Partial<SandboxDataConfig> {
  /** Interface to listen on; loopback unless told otherwise. */
  host?: string;
  /** Ports per server; 0 or absent: any free port. */
  ports?: { registry?: number; uaefeed?: number; custodian?: number };
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
  /** The clock of token expiry (epoch ms); tests pass a fake one. */
  now?: () => number;
}

/** What a client of the sandbox is configured with (they are sandbox credentials: nothing secret). */
export interface SandboxCredentials {
  uaefeed: { appKey: string; appSecret: string; instCode: string; userId: string | undefined; privateKeyPem: string };
  custodian: { apiKey: string };
}

export interface Sandbox {
  /** Base URLs: registry (`api_global_base_url`), uaefeed, custodian. */
  urls: { registry: string; uaefeed: string; custodian: string };
  credentials: SandboxCredentials;
  faults: FaultStore;
  data: SandboxDataset;
  close(): Promise<void>;
}

export const SANDBOX_DEFAULT_CREDENTIALS = {
  uaefeed: { appKey: 'sandbox-app-key', appSecret: 'sandbox-app-secret', instCode: 'SANDBOX' },
  custodian: { apiKey: 'sandbox-custodian-key' },
} as const;

export const SANDBOX_TOKEN_TTL_MS = { access: 15 * 60_000, refresh: 24 * 60 * 60_000 } as const;

async function privateKeyPemOf(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * Starts the UAE sandbox in this process: the customer registry, uaefeed and custodian, each on
 * its own port, serving the data set of `seed`, with shared faults. `close()` stops all three.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { host = '127.0.0.1', ports = {}, now = Date.now } = options;
  const data = createDataset(options);
  const faults = new FaultStore(data);
  const privateKeyPem = await privateKeyPemOf(options.uaefeed?.privateKeyPem);
  const credentials: SandboxCredentials = {
    uaefeed: {
      appKey: options.uaefeed?.appKey ?? SANDBOX_DEFAULT_CREDENTIALS.uaefeed.appKey,
      appSecret: options.uaefeed?.appSecret ?? SANDBOX_DEFAULT_CREDENTIALS.uaefeed.appSecret,
      instCode: options.uaefeed?.instCode ?? SANDBOX_DEFAULT_CREDENTIALS.uaefeed.instCode,
      userId: options.uaefeed?.userId,
      privateKeyPem,
    },
    custodian: { apiKey: options.custodian?.apiKey ?? SANDBOX_DEFAULT_CREDENTIALS.custodian.apiKey },
  };
  const urls = { registry: '', uaefeed: '', custodian: '' };
  const context: ServerContext = {
    dataset: data,
    faults,
    info: () => ({ ...data.config, period: data.period, records: data.recordCount, urls }),
  };
  const handlers = {
    registry: createRegistryHandler(data),
    uaefeed: createUaefeedHandler(
      data,
      {
        appKey: credentials.uaefeed.appKey,
        appSecret: credentials.uaefeed.appSecret,
        instCode: credentials.uaefeed.instCode,
        userId: credentials.uaefeed.userId ?? null,
        publicKey: createPublicKey(createPrivateKey(privateKeyPem)),
        accessTokenTtlMs: options.uaefeed?.accessTokenTtlMs ?? SANDBOX_TOKEN_TTL_MS.access,
        refreshTokenTtlMs: options.uaefeed?.refreshTokenTtlMs ?? SANDBOX_TOKEN_TTL_MS.refresh,
      },
      now,
    ),
    custodian: createCustodianHandler(data, credentials.custodian.apiKey),
  };
  const running: RunningServer[] = [];
  try {
    for (const name of ['registry', 'uaefeed', 'custodian'] as const) {
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
    close: async () => {
      await Promise.all(running.map((server) => server.close()));
    },
  };
}
