#!/usr/bin/env node
// Everything on one machine, in the foreground: Postgres (embedded unless LEDGER_DB_URL is set),
// the sandbox upstreams with remit webhooks wired to the India api, both books (api, worker and
// recon each: UAE on 8080, India on 8081), and on the first run the demo data, loaded by the real
// jobs. Run through `bash scripts/run.sh` (it installs, makes sure Redis answers and builds
// first). Flags: --reset (drop both books' data and the demo marker, load again), --customers N
// (sandbox customers per book, default 200; a new number needs --reset to reload).
// Ctrl-C or SIGTERM stops everything; the data stays in .data/ (ignored by git) for the next run.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bookApi, hasTransactions, loadDemo } from './demo.mjs';
import { startPostgres } from './postgres.mjs';

const root = realpathSync(fileURLToPath(new URL('../..', import.meta.url)));
const checkoutId = createHash('sha256').update(root).digest('hex').slice(0, 8);
const dataDir = join(root, '.data');
const logsDir = join(dataDir, 'logs');
const started = Date.now();

const BOOKS = [
  { book: 'ENTITY_UAE', label: 'UAE', port: 8080 },
  { book: 'ENTITY_IND_IFSC', label: 'India', port: 8081 },
];
/** The demo data's size: a few hundred customers per book over two years ending last month. */
const DEMO = { seed: 42, customers: 200, recordsPerCustomer: 48, months: 24 };
const READY_TIMEOUT_MS = 120_000;

const log = (message) => console.log(`run: ${message}`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const { values: flags } = parseArgs({
  options: { reset: { type: 'boolean', default: false }, customers: { type: 'string' } },
  strict: true,
});
const customers = flags.customers === undefined ? DEMO.customers : Number(flags.customers);
if (!Number.isInteger(customers) || customers < 1 || customers > 10_000) {
  console.error(`run: --customers must be a whole number 1-10000, not ${flags.customers}`);
  process.exit(2);
}

// --- secrets: one token pair for both books and the webhook secret, outside the repository ----
const secretsDir = join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'ledger-service');
const secretsFile = join(secretsDir, `stack-${checkoutId}.env`);
function readSecrets() {
  if (!existsSync(secretsFile)) {
    mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
    const token = () => randomBytes(32).toString('hex');
    writeFileSync(secretsFile, `LEDGER_TOKEN=${token()}\nLEDGER_ADMIN_TOKEN=${token()}\nREMIT_WEBHOOK_SECRET=${token()}\n`, { mode: 0o600 });
  }
  return Object.fromEntries(
    readFileSync(secretsFile, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

// --- state kept between runs: the queue generation (a reset starts on fresh queues) ----------
const stateFile = join(dataDir, 'stack.json');
function readState() {
  const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : { generation: 0 };
  if (flags.reset) state.generation += 1;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(state)}\n`);
  return state;
}

/** The demo period: `DEMO.months` whole months ending with the last one. */
function demoPeriod(now = new Date()) {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - DEMO.months, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { startMonth: first.toISOString().slice(0, 7), from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

async function waitReady(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const children = [];
let stopping = false;
let postgres = null;
let sandbox = null;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await sandbox?.close();
  await postgres?.stop();
  log('stopped');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));

async function main() {
  const secrets = readSecrets();
  const state = readState();
  const period = demoPeriod();
  mkdirSync(logsDir, { recursive: true });

  log(flags.reset ? 'starting Postgres (reset: both books start empty)' : 'starting Postgres');
  // Named as `run.sh <book>` names them on a shared server; the embedded one is this checkout's alone.
  const suffix = process.env.LEDGER_DB_URL ? `_${checkoutId}` : '';
  const databases = BOOKS.map(({ book }) => ({ book, database: `ledger_${book.toLowerCase()}${suffix}` }));
  postgres = await startPostgres({ dataDir, books: databases, reset: flags.reset, env: process.env, log });
  log(`Postgres: ${postgres.description}`);

  const { startSandbox, clientEnv } = await import(join(root, 'packages/sandbox/dist/index.js'));
  const india = BOOKS.find((b) => b.book === 'ENTITY_IND_IFSC');
  sandbox = await startSandbox({
    seed: DEMO.seed,
    customers,
    recordsPerCustomer: DEMO.recordsPerCustomer,
    startMonth: period.startMonth,
    months: DEMO.months,
    // One customer per book holds a share more upstream: each book's reconciliation shows a warn.
    plantedMismatch: true,
    ports: { registry: 9100, uaefeed: 9101, custodian: 9102, usbroker: 9103, remit: 9104 },
    remit: { webhookUrl: `http://127.0.0.1:${india.port}/v1/india/webhooks/remit`, webhookSecret: secrets.REMIT_WEBHOOK_SECRET },
  });
  log(`sandbox: ${customers} customers per book, ${period.from} to ${period.to}; registry ${sandbox.urls.registry}, remit webhooks to the India api`);

  for (const { book, label, port } of BOOKS) {
    const logFile = join(logsDir, `${book}.log`);
    const out = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(process.execPath, [join(root, 'scripts/start-book.mjs')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...clientEnv(sandbox),
        ...secrets,
        ENTITY_ID: book,
        PORT: String(port),
        LEDGER_MIGRATION_DB_URL: postgres.urls[book].migration,
        LEDGER_DB_URL: postgres.urls[book].runtime,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: `bull-${checkoutId}-g${state.generation}`,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      },
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    child.on('exit', (code, signal) => {
      if (!stopping) {
        log(`the ${label} book stopped (${signal ?? code}); see ${logFile}`);
        void stop(1);
      }
    });
    children.push({ book, child });
  }
  await Promise.all(BOOKS.map(({ port }) => waitReady(`http://127.0.0.1:${port}/health/ready`)));
  log(`both books ready in ${seconds(Date.now() - started)} (logs in ${logsDir})`);

  // Both books load side by side; a book whose load fails says so and keeps running as it is.
  await Promise.all(
    BOOKS.map(async ({ book, label, port }) => {
      const api = bookApi(`http://127.0.0.1:${port}`, secrets);
      try {
        if (await hasTransactions(api)) return log(`${label}: demo data already loaded (--reset starts over)`);
        log(`${label}: loading demo data`);
        const ms = await loadDemo({ book, api, period, log: (line) => log(`${label} ${line}`) });
        log(`${label}: demo data loaded in ${seconds(ms)}`);
      } catch (error) {
        log(`${label}: demo load stopped: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );

  const [uae, ind] = BOOKS.map(({ port }) => `http://127.0.0.1:${port}`);
  console.log(`
Ready in ${seconds(Date.now() - started)}.
  UAE book     ${uae}/docs
  India book   ${ind}/docs
  tokens       ${secretsFile} (LEDGER_TOKEN reads, LEDGER_ADMIN_TOKEN writes; mode 600)
  logs         ${logsDir}
Try:
  set -a; . ${secretsFile}; set +a
  curl -s -H "X-Ledger-Token: $LEDGER_TOKEN" ${uae}/v1/firm/summary
  curl -s -H "X-Ledger-Token: $LEDGER_TOKEN" '${ind}/v1/transactions?limit=5'
  curl -s -H "X-Ledger-Token: $LEDGER_TOKEN" ${uae}/v1/reconciliation/runs
Ctrl-C stops everything; the data is kept for the next run (bash scripts/run.sh --reset starts over).`);
}

main().catch((error) => {
  console.error(`run: ${error instanceof Error ? error.message : String(error)}`);
  void stop(1);
});
