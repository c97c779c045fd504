#!/usr/bin/env node
// `bash scripts/run.sh` with no book: both books with the sandbox and demo data, in the foreground
// (run.sh installs, makes sure Redis answers and builds first). Flags: --reset (drop both books'
// data, load again), --customers N (sandbox customers per book, default 200; a new number needs
// --reset). Ctrl-C or SIGTERM stops everything; the data stays in .data/ (ignored by git).
// Settings: LEDGER_DB_URL (a server to use instead of the embedded one), LEDGER_EMBEDDED_PG_PORT
// (5442), REDIS_URL (redis://127.0.0.1:6379), LOG_LEVEL (info).
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { opsUrls, QUICKSTART_PORTS } from './ports.js';
import { EMBEDDED_PORT_DEFAULT } from './postgres.js';
import { startStack, type Stack } from './stack.js';

const CUSTOMERS_DEFAULT = 200;
const CUSTOMERS_MAX = 10_000;

const log = (line: string) => console.log(`run: ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function settings() {
  const { values } = parseArgs({
    options: { reset: { type: 'boolean', default: false }, customers: { type: 'string' } },
    strict: true,
  });
  const customers = values.customers === undefined ? CUSTOMERS_DEFAULT : Number(values.customers);
  if (
    !/^\d+$/.test(values.customers ?? '1') ||
    !Number.isInteger(customers) ||
    customers < 1 ||
    customers > CUSTOMERS_MAX
  ) {
    throw new Error(`--customers must be a whole number 1-${CUSTOMERS_MAX}, not ${values.customers}`);
  }
  const embeddedPort = Number(process.env.LEDGER_EMBEDDED_PG_PORT ?? EMBEDDED_PORT_DEFAULT);
  if (!Number.isInteger(embeddedPort) || embeddedPort < 1 || embeddedPort > 65_535) {
    throw new Error(`LEDGER_EMBEDDED_PG_PORT must be a port number, not ${process.env.LEDGER_EMBEDDED_PG_PORT}`);
  }
  // The checkout's id, as scripts/run.sh computes it: its data, tokens and queues are its own.
  const root = realpathSync(fileURLToPath(new URL('../../..', import.meta.url)));
  const checkoutId = createHash('sha256').update(root).digest('hex').slice(0, 8);
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return {
    reset: values.reset,
    customers,
    embeddedPort,
    root,
    checkoutId,
    secretsFile: join(configHome, 'ledger-service', `stack-${checkoutId}.env`),
  };
}

/** One line per book and process: its metrics and readiness URLs. */
function opsTable(stack: Stack): string[] {
  return stack.books.flatMap(({ label, ops }) =>
    opsUrls(ops).map(({ process, metrics, ready }) => `${`${label} ${process}`.padEnd(13)}${metrics}   ${ready}`),
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  const s = settings();
  const serverUrl = process.env.LEDGER_DB_URL || undefined;
  let stack: Stack | null = null;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    await stack?.stop();
    log('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

  log(s.reset ? 'starting (reset: both books start empty)' : 'starting');
  stack = await startStack({
    root: s.root,
    dataDir: join(s.root, '.data'),
    secretsFile: s.secretsFile,
    reset: s.reset,
    customers: s.customers,
    ports: QUICKSTART_PORTS,
    serverUrl,
    embeddedPort: s.embeddedPort,
    // On a shared server, named as `run.sh <book>` names them; the embedded one is this checkout's.
    databaseSuffix: serverUrl ? `_${s.checkoutId}` : '',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    queuePrefix: `bull-${s.checkoutId}`,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
    log,
    onBookExit: (label, logFile) => {
      log(`the ${label} book stopped; see ${logFile}`);
      void stop(1);
    },
  });
  log(`Postgres: ${stack.postgres}`);
  log(
    `sandbox: ${s.customers} customers per book, ${stack.period.from} to ${stack.period.to}, remit webhooks to the India api`,
  );
  log(`both books ready in ${seconds(Date.now() - started)} (logs in ${join(s.root, '.data', 'logs')})`);
  log('operations listeners (no token; docs/quickstart.md: ports):');
  for (const line of opsTable(stack)) log(`  ${line}`);
  try {
    await stack.loadDemo();
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
  }
  const [uae, india] = stack.books.map((b) => b.url);
  console.log(`
Ready in ${seconds(Date.now() - started)}.
  UAE book     ${uae}/console   (API docs: ${uae}/docs)
  India book   ${india}/console   (API docs: ${india}/docs)
  tokens       ${s.secretsFile} (LEDGER_TOKEN reads, LEDGER_ADMIN_TOKEN writes; mode 600)
  logs         ${join(s.root, '.data', 'logs')}
Metrics and health, per process:
${opsTable(stack)
  .map((line) => `  ${line}`)
  .join('\n')}
Try:
  set -a; . ${s.secretsFile}; set +a
  curl -s -H "X-Ledger-Token: $LEDGER_TOKEN" ${uae}/v1/firm/summary
  curl -s -H "X-Ledger-Token: $LEDGER_TOKEN" '${india}/v1/transactions?limit=5'
  curl -s -H "X-Ledger-Token: $LEDGER_TOKEN" '${uae}/v1/reconciliation/runs?limit=1'
Ctrl-C stops everything; the data is kept for the next run (bash scripts/run.sh --reset starts over).`);
}

main().catch((error: unknown) => {
  console.error(`run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
