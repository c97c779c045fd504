// Everything on one machine: Postgres (embedded unless a server is named), the sandbox upstreams
// with remit webhooks wired to the India api, both books (api, worker and recon each, as
// scripts/start-book.mjs runs them) and the demo load. The CLI (cli.ts) and the end-to-end test
// start the same stack.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clientEnv, startSandbox, USBROKER_BROKER_COST_BPS, type Sandbox } from '@ledger/sandbox';
import { leaveDeskWork } from './desk.js';
import { bookApi, hasTransactions, loadDemo, type BookApi, type Period } from './demo.js';
import { opsPortEnv, opsUrls, type OpsPorts, type StackPorts } from './ports.js';
import { startPostgres, type StackPostgres } from './postgres.js';

export const BOOKS = [
  { book: 'ENTITY_UAE', label: 'UAE' },
  { book: 'ENTITY_IND_IFSC', label: 'India' },
] as const;
export type BookId = (typeof BOOKS)[number]['book'];

/** The demo data's shape: two years ending with the last whole month, seed 42. */
export const DEMO = { seed: 42, recordsPerCustomer: 48, months: 24 } as const;
const READY_TIMEOUT_MS = 180_000;
/**
 * The assumed FX-spread markup sync-remit accrues as revenue on each paid remittance: the sandbox's
 * remit quotes mark the mid rate down by 50-150 bps, 100 on average (a realistic retail spread).
 */
export const DEMO_FX_SPREAD_BPS = '100';
/** When the books' recon processes run their first scheduled cycle: one default interval after their start. */
export const RECON_FIRST_CYCLE_SECONDS = 3_600;

export interface StackOptions {
  /** The checkout: scripts/start-book.mjs and the apps' builds are found from it. */
  root: string;
  /** Where the embedded Postgres, the logs and the stack's state live. */
  dataDir: string;
  /** The tokens and the webhook secret (created mode 600 if missing). */
  secretsFile: string;
  reset: boolean;
  customers: number;
  /** Each book's api and operations listeners (one per process), and the sandbox's. */
  ports: StackPorts;
  /** LEDGER_DB_URL: that server, else an embedded one on `embeddedPort`. */
  serverUrl: string | undefined;
  embeddedPort: number;
  /** Appended to each book's database name (`ledger_entity_uae<suffix>`). */
  databaseSuffix: string;
  redisUrl: string;
  /** The BullMQ key prefix; a reset adds a generation to it, so it starts on fresh queues. */
  queuePrefix: string;
  /** The books' environment besides what the stack sets (LOG_LEVEL and the like). */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** A book's processes stopped while the stack was not stopping. */
  onBookExit: (label: string, logFile: string) => void;
  now?: Date;
}

export interface Secrets {
  LEDGER_TOKEN: string;
  LEDGER_ADMIN_TOKEN: string;
  REMIT_WEBHOOK_SECRET: string;
}

export interface RunningBook {
  book: BookId;
  label: string;
  url: string;
  /** Each process's operations listener: `/metrics`, `/health/live`, `/health/ready`. */
  ops: OpsPorts;
  api: BookApi;
  /** The book's BullMQ key prefix (this queue generation's). */
  queuePrefix: string;
  logFile: string;
}

export interface Stack {
  books: RunningBook[];
  sandbox: Sandbox;
  period: Period;
  secrets: Secrets;
  postgres: string;
  /** Loads the demo into each book that holds no transaction yet, both side by side. */
  loadDemo(): Promise<void>;
  stop(): Promise<void>;
}

/** One token pair for both books and the webhook secret: created once, then read. */
export function readSecrets(file: string): Secrets {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const token = () => randomBytes(32).toString('hex');
    writeFileSync(file, `LEDGER_TOKEN=${token()}\nLEDGER_ADMIN_TOKEN=${token()}\nREMIT_WEBHOOK_SECRET=${token()}\n`, {
      mode: 0o600,
    });
  }
  const values = Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=./.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  for (const name of ['LEDGER_TOKEN', 'LEDGER_ADMIN_TOKEN', 'REMIT_WEBHOOK_SECRET']) {
    if (!values[name]) throw new Error(`${file} lacks ${name}: remove the file to have it generated again`);
  }
  return values as unknown as Secrets;
}

/** The demo period: `DEMO.months` whole months ending with the last one before `now`. */
export function demoPeriod(now: Date): Period & { startMonth: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - DEMO.months, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return {
    startMonth: first.toISOString().slice(0, 7),
    from: first.toISOString().slice(0, 10),
    to: last.toISOString().slice(0, 10),
  };
}

/** The queue generation: bumped by a reset, kept in the data folder. */
function queueGeneration(dataDir: string, reset: boolean): number {
  const file = join(dataDir, 'stack.json');
  const state = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { generation: number })
    : { generation: 0 };
  if (reset) state.generation += 1;
  writeFileSync(file, `${JSON.stringify(state)}\n`);
  return state.generation;
}

async function waitReady(url: string): Promise<void> {
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

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const { dataDir, log } = options;
  const logsDir = join(dataDir, 'logs');
  mkdirSync(logsDir, { recursive: true });
  const secrets = readSecrets(options.secretsFile);
  const queuePrefix = `${options.queuePrefix}-g${queueGeneration(dataDir, options.reset)}`;
  const period = demoPeriod(options.now ?? new Date());
  const children: ChildProcess[] = [];
  let stopping = false;
  let postgres: StackPostgres | null = null;
  let sandbox: Sandbox | null = null;

  const stop = async () => {
    stopping = true;
    await Promise.all(children.map(stopChild));
    await sandbox?.close();
    await postgres?.stop();
  };

  try {
    postgres = await startPostgres({
      dataDir,
      books: BOOKS.map(({ book }) => ({ book, database: `ledger_${book.toLowerCase()}${options.databaseSuffix}` })),
      reset: options.reset,
      serverUrl: options.serverUrl,
      embeddedPort: options.embeddedPort,
      log,
    });
    sandbox = await startDemoSandbox(options, period, secrets);
    const launch: BookLaunch = {
      options,
      logsDir,
      upstreams: clientEnv(sandbox),
      secrets,
      postgres,
      queuePrefix,
      onExit: (label, logFile) => {
        if (!stopping) options.onBookExit(label, logFile);
      },
    };
    const books = BOOKS.map((book): RunningBook => {
      const { child, running } = startBook(launch, book);
      children.push(child);
      return running;
    });
    // Every process's operations listener too: a port table the start prints must answer.
    await Promise.all(
      books.flatMap(({ url, ops }) => [
        waitReady(`${url}/health/ready`),
        ...opsUrls(ops).map(({ ready }) => waitReady(ready)),
      ]),
    );
    return {
      books,
      sandbox,
      period,
      secrets,
      postgres: postgres.description,
      stop,
      loadDemo: () => loadDemoIntoBooks(books, period, log),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The sandbox upstreams of the demo, its remit webhooks sent to the India api. */
function startDemoSandbox(options: StackOptions, period: ReturnType<typeof demoPeriod>, secrets: Secrets) {
  return startSandbox({
    seed: DEMO.seed,
    customers: options.customers,
    recordsPerCustomer: DEMO.recordsPerCustomer,
    startMonth: period.startMonth,
    months: DEMO.months,
    // One customer per book holds a share more upstream: each book's reconciliation shows a warn.
    plantedMismatch: true,
    // UAE customer 4's last transfer is a EUR deposit sync-uaefeed refuses: the exception to look at.
    plantedException: true,
    ports: options.ports.sandbox,
    remit: {
      webhookUrl: `http://127.0.0.1:${options.ports.ENTITY_IND_IFSC.api}/v1/india/webhooks/remit`,
      webhookSecret: secrets.REMIT_WEBHOOK_SECRET,
    },
  });
}

/** What each book's processes are started with. */
interface BookLaunch {
  options: StackOptions;
  logsDir: string;
  /** The sandbox clients' settings (clientEnv). */
  upstreams: Record<string, string>;
  secrets: Secrets;
  postgres: StackPostgres;
  queuePrefix: string;
  /** A book's processes exited (the stack tells its own stop apart). */
  onExit(label: string, logFile: string): void;
}

/** Starts a book's processes (scripts/start-book.mjs), their output appended to the book's log. */
function startBook(
  launch: BookLaunch,
  { book, label }: (typeof BOOKS)[number],
): { child: ChildProcess; running: RunningBook } {
  const { options } = launch;
  const { api: port, ops } = options.ports[book];
  const logFile = join(launch.logsDir, `${book}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [join(options.root, 'scripts/start-book.mjs')], {
    cwd: options.root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: bookEnv(launch, book),
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  child.on('exit', () => launch.onExit(label, logFile));
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    running: { book, label, url, ops, api: bookApi(url, launch.secrets), queuePrefix: launch.queuePrefix, logFile },
  };
}

/** A book's environment: the stack's settings over the caller's, its own ports and databases. */
function bookEnv({ options, upstreams, secrets, postgres, queuePrefix }: BookLaunch, book: BookId): NodeJS.ProcessEnv {
  const { api: port, ops } = options.ports[book];
  return {
    // The demo load ends with its own reconciliation run; the schedule's first cycle comes an
    // interval later, not in the middle of the load: a scheduled run started after the demo's
    // (category D, say: `ok`) would be the book's latest and hide the planted warn.
    RECON_SCHEDULE_INITIAL_DELAY_SECONDS: String(RECON_FIRST_CYCLE_SECONDS),
    ...options.env,
    ...upstreams,
    ...secrets,
    ENTITY_ID: book,
    // The broker cost recost models before the daily ledger itemises a trade's: what the sandbox broker keeps.
    ...(book === 'ENTITY_IND_IFSC'
      ? { FX_SPREAD_BPS: DEMO_FX_SPREAD_BPS, BROKER_COST_BPS: USBROKER_BROKER_COST_BPS.toString() }
      : {}),
    PORT: String(port),
    ...opsPortEnv(ops),
    // Each book's console links to the other's.
    CONSOLE_PEER_URL: `http://127.0.0.1:${options.ports[BOOKS.find((b) => b.book !== book)!.book].api}`,
    LEDGER_MIGRATION_DB_URL: postgres.urls[book]!.migration,
    LEDGER_DB_URL: postgres.urls[book]!.runtime,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: queuePrefix,
  };
}

/** Loads the demo into each book that holds no transaction yet, then leaves it desk work. */
async function loadDemoIntoBooks(books: RunningBook[], period: Period, log: (line: string) => void): Promise<void> {
  // Both books load side by side; a book whose load fails says so and keeps running.
  const failures: string[] = [];
  await Promise.all(
    books.map(async ({ book, label, api }) => {
      try {
        if (await hasTransactions(api)) {
          log(`${label}: demo data already loaded (--reset starts over)`);
        } else {
          log(`${label}: loading demo data`);
          const ms = await loadDemo({
            book,
            api,
            period,
            seed: DEMO.seed,
            log: (line) => log(`${label} ${line}`),
          });
          log(`${label}: demo data loaded in ${(ms / 1000).toFixed(1)} s`);
        }
        await leaveDeskWork({ book, api, period, log: (line) => log(`${label} ${line}`) });
      } catch (error) {
        failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  if (failures.length > 0) throw new Error(`demo load stopped: ${failures.join('; ')}`);
}
