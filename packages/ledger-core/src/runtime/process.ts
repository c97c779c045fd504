import type { Db } from '../store/db.js';
import type { CommonConfig } from './config.js';
import { openLedgerDatabase } from './database.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics, observePool, type Metrics } from './metrics.js';
import { closeServer, databaseReady, readiness, startOpsServer, type ReadyCheck } from './ops-server.js';

/**
 * Runs `stop` once on SIGTERM or SIGINT and exits 0 when it is done (1 if it fails or takes
 * longer than `graceMs`): in-flight work finishes, connections close, nothing is cut mid-write.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>, graceMs = 25_000): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting', { grace_ms: graceMs });
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

/** Prints a start-up failure as one line and exits non-zero. */
export function exitOnStartupError(error: unknown): never {
  const message =
    error instanceof Error
      ? error.name === 'ConfigError'
        ? error.message
        : `start-up failed: ${error.message}`
      : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/**
 * What a process has opened, closed in reverse order on shutdown. A shutdown that arrives while
 * the process is still starting closes what exists so far; `closing` tells the start-up code to
 * stand down instead of reporting the interruption as a start-up failure.
 */
export class Resources {
  #closers: Array<() => Promise<void>> = [];
  #closing = false;

  get closing(): boolean {
    return this.#closing;
  }

  add(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  async closeAll(): Promise<void> {
    this.#closing = true;
    for (const close of this.#closers.reverse()) await close();
    this.#closers = [];
  }
}

/** What an app's own start-up gets from `startProcess`. */
export interface ProcessContext<C extends CommonConfig> {
  config: C;
  /** Tagged with the process's name and book. */
  logger: Logger;
  /** The book's database, migrated to head; closed by `startProcess` on shutdown, after everything else. */
  db: Db;
  /** Where `start` registers what it opens: closed in reverse order on SIGTERM or SIGINT, before the pool. */
  resources: Resources;
  /** The process's metrics registry (the runtime's and the pool's are in it): `start` registers its own. */
  metrics: Metrics;
  /** What /health/ready asks besides the database (reachable, at head): `start` adds its own. */
  readyChecks: ReadyCheck[];
}

export interface ProcessDefinition<C extends CommonConfig> {
  /** `api`, `worker` or `recon`: the logs' `service` tag and the database's application name, `ledger-<name>`. */
  name: string;
  /** The app's one reader of `process.env`; a ConfigError it throws becomes the one stderr line. */
  loadConfig: () => C;
  /** The app's own start: begins its work on the migrated database and logs that it is up. */
  start: (context: ProcessContext<C>) => Promise<void>;
}

/**
 * Starts one of a book's processes, as all three start: parses the configuration once, creates
 * the logger, stops on SIGTERM or SIGINT (`onShutdown`, armed before anything is opened, so a
 * signal during start-up closes what exists), opens the book's database migrated to head
 * (`openLedgerDatabase`: processes starting together queue on the migration lock), opens the
 * operations listener when `OPS_PORT` is set (metrics and health, ADR 0012), then runs the app's
 * `start`. Any start-up failure is one line on stderr and exit 1 (`exitOnStartupError`);
 * an interruption by a shutdown is not a failure.
 */
export async function startProcess<C extends CommonConfig>(definition: ProcessDefinition<C>): Promise<void> {
  const resources = new Resources();
  try {
    const config = definition.loadConfig();
    const logger = createLogger({ level: config.logLevel, service: definition.name, book: config.book });
    onShutdown(logger, () => resources.closeAll());
    const { db, applied } = await openLedgerDatabase(
      {
        url: config.dbUrl,
        migrationUrl: config.migrationDbUrl,
        poolMax: config.dbPoolMax,
        applicationName: `ledger-${definition.name}`,
      },
      logger,
      (pool) => resources.add(() => pool.destroy()),
    );
    logger.info('migrated', { applied });
    if (resources.closing) return;
    const metrics = createMetrics({ service: definition.name, book: config.book });
    observePool(metrics, db);
    let started = false;
    const readyChecks: ReadyCheck[] = [() => databaseReady(db)];
    if (config.opsPort !== undefined) {
      const ready = async () => (resources.closing ? 'shutting down' : started ? readiness(readyChecks) : 'starting');
      const ops = await startOpsServer({ host: config.opsHost, port: config.opsPort, metrics, ready, logger });
      resources.add(() => closeServer(ops));
    }
    await definition.start({ config, logger, db, resources, metrics, readyChecks });
    started = true;
  } catch (error) {
    // A shutdown during start-up interrupts it; onShutdown reports and exits.
    if (resources.closing) return;
    exitOnStartupError(error);
  }
}
