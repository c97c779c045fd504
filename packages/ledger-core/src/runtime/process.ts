import type { Logger } from './logger.js';

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
  const message = error instanceof Error ? (error.name === 'ConfigError' ? error.message : `start-up failed: ${error.message}`) : String(error);
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
