#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DATA_CONFIG } from './data/config.js';
import { writeEnvFile } from './env-file.js';
import { clientEnv, startSandbox, type Sandbox } from './sandbox.js';

/**
 * `pnpm sandbox [flags]`: the sandbox (UAE and India upstreams) on fixed ports until Ctrl-C. Every flag has an
 * environment variable; a flag wins. This is the one place the sandbox reads process.env.
 */

const USAGE = `usage: pnpm sandbox [flags]   (each flag also as the environment variable in brackets)
  --host HOST                  interface to listen on [SANDBOX_HOST] (127.0.0.1)
  --registry-port N            customer registry [SANDBOX_REGISTRY_PORT] (9100)
  --uaefeed-port N             uaefeed [SANDBOX_UAEFEED_PORT] (9101)
  --custodian-port N           custodian [SANDBOX_CUSTODIAN_PORT] (9102)
  --usbroker-port N            usbroker [SANDBOX_USBROKER_PORT] (9103)
  --remit-port N               remit [SANDBOX_REMIT_PORT] (9104)
  --remit-webhook-url URL      where remit webhooks are POSTed [SANDBOX_REMIT_WEBHOOK_URL] (none: not sent)
  --remit-webhook-secret S     their HMAC key, the api's REMIT_WEBHOOK_SECRET [SANDBOX_REMIT_WEBHOOK_SECRET] (none)
  --seed N                     data seed [SANDBOX_SEED] (${DEFAULT_DATA_CONFIG.seed})
  --customers N                customers [SANDBOX_CUSTOMERS] (${DEFAULT_DATA_CONFIG.customers})
  --records-per-customer N     transfers + orders per customer [SANDBOX_RECORDS_PER_CUSTOMER] (${DEFAULT_DATA_CONFIG.recordsPerCustomer})
  --start-month YYYY-MM        first month of activity [SANDBOX_START_MONTH] (${DEFAULT_DATA_CONFIG.startMonth})
  --months N                   months of activity [SANDBOX_MONTHS] (${DEFAULT_DATA_CONFIG.months})
  --planted-mismatch BOOL      customer 7 of each book holds one share more upstream [SANDBOX_PLANTED_MISMATCH] (false)
  --planted-exception BOOL     UAE customer 4's last transfer is a EUR deposit sync-uaefeed refuses [SANDBOX_PLANTED_EXCEPTION] (false)
  --uaefeed-private-key FILE   the app's RS256 key, PEM [SANDBOX_UAEFEED_PRIVATE_KEY_FILE] (generated)
  --client-env-file FILE       where the client settings are written [SANDBOX_CLIENT_ENV_FILE]
                               ($XDG_CONFIG_HOME/ledger-service/sandbox.env, ~/.config if unset)
  --help`;

const FLAGS = {
  host: 'SANDBOX_HOST',
  'registry-port': 'SANDBOX_REGISTRY_PORT',
  'uaefeed-port': 'SANDBOX_UAEFEED_PORT',
  'custodian-port': 'SANDBOX_CUSTODIAN_PORT',
  'usbroker-port': 'SANDBOX_USBROKER_PORT',
  'remit-port': 'SANDBOX_REMIT_PORT',
  'remit-webhook-url': 'SANDBOX_REMIT_WEBHOOK_URL',
  'remit-webhook-secret': 'SANDBOX_REMIT_WEBHOOK_SECRET',
  seed: 'SANDBOX_SEED',
  customers: 'SANDBOX_CUSTOMERS',
  'records-per-customer': 'SANDBOX_RECORDS_PER_CUSTOMER',
  'start-month': 'SANDBOX_START_MONTH',
  months: 'SANDBOX_MONTHS',
  'planted-mismatch': 'SANDBOX_PLANTED_MISMATCH',
  'planted-exception': 'SANDBOX_PLANTED_EXCEPTION',
  'uaefeed-private-key': 'SANDBOX_UAEFEED_PRIVATE_KEY_FILE',
  'client-env-file': 'SANDBOX_CLIENT_ENV_FILE',
} as const;
type Flag = keyof typeof FLAGS;

class UsageError extends Error {}

function readSettings(argv: string[], env: NodeJS.ProcessEnv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])),
      help: { type: 'boolean' },
    },
    strict: true,
    // `pnpm sandbox -- --seed 1` passes the `--` through.
    allowPositionals: true,
  });
  if (values.help === true) return null;
  const given = values as Record<string, string | boolean | undefined>;
  const text = (flag: Flag): string | undefined => (given[flag] as string | undefined) ?? env[FLAGS[flag]];
  const integer = (flag: Flag, fallback: number, min: number, max: number): number => {
    const raw = text(flag);
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new UsageError(`--${flag} (${FLAGS[flag]}) must be an integer from ${min} to ${max}`);
    }
    return value;
  };
  const boolean = (flag: Flag): boolean => {
    const raw = text(flag);
    if (raw === undefined || raw === '' || raw === 'false') return false;
    if (raw === 'true') return true;
    throw new UsageError(`--${flag} (${FLAGS[flag]}) must be true or false`);
  };
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const keyFile = text('uaefeed-private-key');
  return {
    host: text('host') || '127.0.0.1',
    ports: {
      registry: integer('registry-port', 9100, 0, 65535),
      uaefeed: integer('uaefeed-port', 9101, 0, 65535),
      custodian: integer('custodian-port', 9102, 0, 65535),
      usbroker: integer('usbroker-port', 9103, 0, 65535),
      remit: integer('remit-port', 9104, 0, 65535),
    },
    remit: remitSettings(text('remit-webhook-url'), text('remit-webhook-secret')),
    seed: integer('seed', DEFAULT_DATA_CONFIG.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    customers: integer('customers', DEFAULT_DATA_CONFIG.customers, 1, Number.MAX_SAFE_INTEGER),
    recordsPerCustomer: integer(
      'records-per-customer',
      DEFAULT_DATA_CONFIG.recordsPerCustomer,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    startMonth: text('start-month') || DEFAULT_DATA_CONFIG.startMonth,
    months: integer('months', DEFAULT_DATA_CONFIG.months, 1, Number.MAX_SAFE_INTEGER),
    plantedMismatch: boolean('planted-mismatch'),
    plantedException: boolean('planted-exception'),
    privateKeyPem: keyFile ? readFileSync(keyFile, 'utf8') : undefined,
    envFile: text('client-env-file') || join(configHome, 'ledger-service', 'sandbox.env'),
  };
}

function remitSettings(
  url: string | undefined,
  secret: string | undefined,
): { webhookUrl?: string; webhookSecret?: string } {
  if (url !== undefined && url !== '' && !URL.canParse(url))
    throw new UsageError('--remit-webhook-url (SANDBOX_REMIT_WEBHOOK_URL) must be a URL');
  return { ...(url ? { webhookUrl: url } : {}), ...(secret ? { webhookSecret: secret } : {}) };
}

async function main(): Promise<number> {
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (settings === null) {
    console.log(USAGE);
    return 0;
  }
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...settings,
      uaefeed: settings.privateKeyPem === undefined ? {} : { privateKeyPem: settings.privateKeyPem },
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message =
      code === 'EADDRINUSE'
        ? `a port is already in use (${(error as { port?: number }).port ?? '?'}): choose others with --registry-port, --uaefeed-port, --custodian-port, --usbroker-port, --remit-port`
        : error instanceof Error
          ? error.message
          : String(error);
    console.error(`sandbox: ${message}`);
    return 1;
  }
  writeEnvFile(settings.envFile, clientEnv(sandbox));
  const { config, period, recordCount } = sandbox.data;
  console.log(
    `sandbox: registry ${sandbox.urls.registry}/v1/uae/customers (and /v1/india/customers), uaefeed ${sandbox.urls.uaefeed}, custodian ${sandbox.urls.custodian}`,
  );
  console.log(
    `sandbox: usbroker ${sandbox.urls.usbroker}, remit ${sandbox.urls.remit}/api/v1; remit webhooks ${sandbox.webhooks.config.url ?? 'not sent (no --remit-webhook-url)'}`,
  );
  console.log(
    `sandbox: seed ${config.seed}, ${config.customers} customers, ${recordCount} records (${config.recordsPerCustomer} each), ${period.from} to ${period.to}`,
  );
  console.log(
    `sandbox: client settings in ${settings.envFile} (API_GLOBAL_BASE_URL, UAEFEED_*, CUSTODIAN_*, USBROKER_*, REMIT_*)`,
  );
  console.log(`sandbox: faults: POST ${sandbox.urls.registry}/__sandbox/faults (docs/sandbox.md); Ctrl-C stops`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  return 0;
}

process.exitCode = await main();
