/// <reference types="mocha" />
import { expect } from 'chai';
import type { Book } from '../runtime/config.js';
import { isAtHead } from '../store/migrate.js';
import { AppProcess, type LogLine } from './app-process.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** A bad setting: when (in words), the environment that makes it, the variable the line must name. */
export type BadSetting = readonly [when: string, env: Record<string, string | undefined>, variable: string];

export interface ProcessStartupSuite {
  /** `api`, `worker` or `recon`: names the suite. */
  name: string;
  /** The app's folder: its `src/main.ts` is started (`AppProcess`). */
  appDir: string;
  /** The book it is started for. Default `ENTITY_UAE`. */
  book?: Book;
  /** What else the app needs beside ENTITY_ID and the database URLs (REDIS_URL, PORT, ...). */
  env?: Record<string, string | undefined>;
  /** The log line that says the process is up: its message, or a pattern of it. Default `ready`. */
  ready?: string | RegExp;
  /** The app's own checks once it is up (as a developer and as production runs it). */
  whenReady?: (proc: AppProcess, ready: LogLine) => unknown;
  /** Settings of the app's own that must stop it at start, beside the common ones. */
  badSettings?: readonly BadSetting[];
  /** The metrics the app registers itself, beside the runtime's and the pool's: /metrics must list each. */
  metrics?: readonly string[];
  /** Runs after each test, once the process is gone (e.g. to delete its Redis keys). */
  afterEach?: () => Promise<void>;
}

/** What every process of a book refuses at start: the common settings (`commonConfigSchema`). */
const COMMON_BAD_SETTINGS: readonly BadSetting[] = [
  ['ENTITY_ID names no book', { ENTITY_ID: 'ENTITY_MARS' }, 'ENTITY_ID'],
  ['ENTITY_ID is a book in lower case', { ENTITY_ID: 'entity_uae' }, 'ENTITY_ID'],
  ['ENTITY_ID is unset', { ENTITY_ID: undefined }, 'ENTITY_ID'],
  ['LEDGER_DB_URL is missing', { LEDGER_DB_URL: undefined }, 'LEDGER_DB_URL'],
  ['LEDGER_DB_URL is not a postgres URL', { LEDGER_DB_URL: 'mysql://root@127.0.0.1/ledger' }, 'LEDGER_DB_URL'],
  [
    'LEDGER_MIGRATION_DB_URL is not a postgres URL',
    { LEDGER_MIGRATION_DB_URL: 'mysql://root@localhost/x' },
    'LEDGER_MIGRATION_DB_URL',
  ],
  ['DB_POOL_MAX is not a number', { DB_POOL_MAX: 'many' }, 'DB_POOL_MAX'],
  ['LOG_LEVEL is no level', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ['OPS_PORT is not a port', { OPS_PORT: '70000' }, 'OPS_PORT'],
  ['OPS_HOST is not an IP address', { OPS_HOST: 'everywhere' }, 'OPS_HOST'],
];

/** What every process's /metrics has (the Node runtime's and the database pool's), whatever else it registers. */
const COMMON_METRICS = [
  'process_cpu_seconds_total',
  'nodejs_eventloop_lag_seconds',
  'ledger_db_pool_connections',
  'ledger_db_pool_waiting',
];

/** How long "a few seconds" is for a clean stop (the hard limit, onShutdown's grace, is 25 s). */
const STOP_TOOK_MS_MAX = 5_000;
/** How long an idle process is watched to see it stays up (nothing but its own work keeps it alive). */
const IDLE_WATCH_MS = 1_500;

/** The non-empty lines a process wrote to stderr. */
function stderrLines(proc: AppProcess): string[] {
  return proc.stderr.split('\n').filter((line) => line.length > 0);
}

/** Waits for the exit and checks it failed with exactly one line on stderr, which it returns. */
async function refusedWithOneLine(started: AppProcess): Promise<string> {
  const exit = await started.exited;
  expect(exit.code, started.stderr).to.equal(1);
  const lines = stderrLines(started);
  expect(lines, started.stderr).to.have.length(1);
  return lines[0]!;
}

/** What each section's tests share: the app, started on the test's own fresh database. */
interface StartupHarness {
  suite: ProcessStartupSuite;
  book: Book;
  /** The log line that says the process is up. */
  readyLine: string | RegExp;
  /** The test's database (a new one per test). */
  database(): TestDatabase;
  /** Starts the app as a developer runs it (one role migrates and runs), with `env` over that. */
  start(env?: Record<string, string | undefined>): AppProcess;
  /** Starts it and waits until it reports ready (and the app's own checks of that pass). */
  startedAndReady(env?: Record<string, string | undefined>): Promise<AppProcess>;
}

/**
 * The start-up and shutdown every process of a book shares (`startProcess`), run against one
 * app's real entry point on a fresh database of its own per test: it migrates and reports ready,
 * as a developer and as production runs it; it stays up and stops cleanly on SIGTERM and SIGINT;
 * a bad setting or an unusable database stops it with one line on stderr.
 */
export function describeProcessStartup(suite: ProcessStartupSuite): void {
  const book = suite.book ?? 'ENTITY_UAE';
  const readyLine = suite.ready ?? 'ready';

  describe(`${suite.name} process: start-up and shutdown`, () => {
    let database: TestDatabase;
    let proc: AppProcess | undefined;

    beforeEach(async () => {
      database = await createTestDatabase({ migrate: false, runtimeRole: true });
    });

    afterEach(async () => {
      await proc?.kill();
      proc = undefined;
      await database.drop();
      await suite.afterEach?.();
    });

    const harness: StartupHarness = {
      suite,
      book,
      readyLine,
      database: () => database,
      start(env = {}) {
        proc = new AppProcess(suite.appDir, { ENTITY_ID: book, LEDGER_DB_URL: database.url, ...suite.env, ...env });
        return proc;
      },
      async startedAndReady(env = {}) {
        const started = harness.start(env);
        const ready = await started.waitForLog(readyLine);
        await suite.whenReady?.(started, ready);
        return started;
      },
    };

    describeDeveloperStart(harness);
    describeOperationsListener(harness);
    describeProductionRoles(harness);
    describeBadConfiguration(harness);
    describeUnreachableDatabase(harness);
  });
}

/** As a developer runs it: migrates, reports ready, stays up, stops cleanly. */
function describeDeveloperStart({ suite, readyLine, database, start, startedAndReady }: StartupHarness): void {
  describe('when started on a fresh database, one role migrating and running (a developer machine)', () => {
    it('migrates it to head, reports ready, and warns that its role can bypass the ledger checks', async () => {
      const started = start();
      const migrated = await started.waitForLog('migrated');
      expect(migrated.applied).to.be.an('array').with.length.greaterThan(0);
      await suite.whenReady?.(started, await started.waitForLog(readyLine));
      expect(await isAtHead(database().db)).to.equal(true);
      expect(started.logs.find((l) => l.level === 'warn')?.message).to.match(/can bypass the ledger checks/);
    });

    it('stays up while idle', async () => {
      const started = await startedAndReady();
      await new Promise((resolve) => setTimeout(resolve, IDLE_WATCH_MS));
      expect(started.child.exitCode, started.stderr).to.equal(null);
    });

    it('on SIGTERM closes everything and exits 0 within a few seconds', async () => {
      const started = await startedAndReady();
      const exit = await started.stop('SIGTERM');
      expect(exit.code, started.stderr).to.equal(0);
      expect(exit.tookMs).to.be.below(STOP_TOOK_MS_MAX);
      expect(started.logs.map((l) => l.message)).to.include('stopped');
    });

    it('on SIGINT exits 0 as well', async () => {
      const started = await startedAndReady();
      expect((await started.stop('SIGINT')).code, started.stderr).to.equal(0);
    });
  });
}

/** The health and metrics endpoints of OPS_PORT. */
function describeOperationsListener({ suite, book, startedAndReady }: StartupHarness): void {
  describe('with OPS_PORT set: the operations listener', () => {
    it('serves /health/live, /health/ready (200 once started) and /metrics in Prometheus text, every series labelled with the process and book, without a token', async () => {
      const started = await startedAndReady({ OPS_PORT: '0' });
      const { ops_port: port, ops_host: host } = await started.waitForLog('operations listener up');
      expect(host, 'OPS_HOST unset: loopback only').to.equal('127.0.0.1');
      const get = (path: string) => fetch(`http://127.0.0.1:${String(port)}${path}`);
      expect((await get('/health/live')).status).to.equal(200);
      const ready = await get('/health/ready');
      expect(ready.status, await ready.clone().text()).to.equal(200);
      expect(await ready.json()).to.deep.equal({ status: 'ok' });
      const metrics = await get('/metrics');
      expect(metrics.status).to.equal(200);
      expect(metrics.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      const text = await metrics.text();
      for (const name of [...COMMON_METRICS, ...(suite.metrics ?? [])])
        expect(text, name).to.match(new RegExp(`^# TYPE ${name} `, 'm'));
      expect(text).to.include(`ledger_db_pool_waiting{service="${suite.name}",book="${book}"}`);
      expect((await get('/v1/transactions')).status, 'nothing else is served there').to.equal(404);
    });
  });
}

/** Two roles: the owner migrates, a role that owns nothing runs (and the owner may not run). */
function describeProductionRoles({ database, start, startedAndReady }: StartupHarness): void {
  describe('as production runs it: LEDGER_MIGRATION_DB_URL the owner, LEDGER_DB_URL a role that owns nothing', () => {
    it('migrates as the owner, then runs as the other role without a warning, and on SIGTERM exits 0', async () => {
      const started = await startedAndReady({
        LEDGER_DB_URL: database().runtime!.url,
        LEDGER_MIGRATION_DB_URL: database().url,
      });
      expect(await isAtHead(database().db)).to.equal(true);
      const exit = await started.stop('SIGTERM');
      expect(exit.code, started.stderr).to.equal(0);
      expect(started.logs.map((l) => l.message)).to.include('stopped');
      expect(
        started.logs.filter((l) => l.level === 'warn'),
        'the runtime role cannot bypass the checks',
      ).to.deep.equal([]);
      expect(started.stderr).to.equal('');
    });

    it('refuses to start when LEDGER_DB_URL is the owner too: one line on stderr', async () => {
      const line = await refusedWithOneLine(start({ LEDGER_MIGRATION_DB_URL: database().url }));
      expect(line).to.match(
        /^configuration error: LEDGER_DB_URL's role \S+ is a superuser and owns .* could bypass the ledger checks/,
      );
    });
  });
}

/** A bad setting stops it before it touches the database. */
function describeBadConfiguration({ suite, database, start }: StartupHarness): void {
  describe('when its configuration is bad', () => {
    for (const [when, env, variable] of [...COMMON_BAD_SETTINGS, ...(suite.badSettings ?? [])]) {
      it(`when ${when} › exits 1 with one line on stderr naming ${variable}, before touching the database`, async () => {
        const line = await refusedWithOneLine(start(env));
        expect(line).to.match(/^configuration error: /);
        expect(line).to.include(variable);
        expect(await isAtHead(database().db)).to.equal(false);
      });
    }

    it('when several settings are bad › names each of them on its one line', async () => {
      const line = await refusedWithOneLine(start({ ENTITY_ID: 'ENTITY_MARS', LEDGER_DB_URL: undefined }));
      expect(line).to.match(
        /^configuration error: ENTITY_ID must be one of ENTITY_UAE, ENTITY_IND_IFSC; LEDGER_DB_URL is required/,
      );
    });
  });
}

function describeUnreachableDatabase({ start }: StartupHarness): void {
  describe('when the database cannot be reached', () => {
    it('exits 1 with one line on stderr saying start-up failed', async () => {
      // Port 1 on loopback: nothing listens there.
      const line = await refusedWithOneLine(start({ LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:1/ledger' }));
      expect(line).to.match(/^start-up failed: /);
    });
  });
}
