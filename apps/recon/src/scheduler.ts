import type { Logger } from '@ledger/core/runtime';

/** Work the scheduler runs on a cadence: a category of reconciliation checks (tasks.ts). */
export interface ScheduledTask {
  name: string;
  initialDelayMs: number;
  intervalMs: number;
  /** Should return soon after `signal` aborts: shutdown waits for it. */
  run(signal: AbortSignal): Promise<void>;
}

export interface SchedulerOptions {
  tasks: readonly ScheduledTask[];
  logger: Logger;
  /** How often due tasks are looked for. */
  tickMs?: number;
  now?: () => number;
}

/**
 * Runs each task once it is due, one at a time, until stopped. Its tick timer is what keeps the
 * recon process alive between runs. A failing task is logged and retried at its next due time;
 * it never stops the others.
 */
export class Scheduler {
  readonly #tasks: readonly ScheduledTask[];
  readonly #logger: Logger;
  readonly #tickMs: number;
  readonly #now: () => number;
  readonly #abort = new AbortController();
  #nextRunAt = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> = Promise.resolve();
  #running = false;

  constructor(options: SchedulerOptions) {
    this.#tasks = options.tasks;
    this.#logger = options.logger;
    this.#tickMs = options.tickMs ?? 1_000;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    if (this.#timer || this.#abort.signal.aborted) throw new Error('scheduler already started or stopped');
    const startedAt = this.#now();
    this.#nextRunAt = new Map(this.#tasks.map((t) => [t.name, startedAt + t.initialDelayMs]));
    this.#timer = setInterval(() => this.#tick(), this.#tickMs);
    this.#logger.info('scheduler started', { tasks: this.#tasks.map((t) => t.name) });
  }

  /** Stops ticking, asks a running task to stop, and waits for it. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#abort.abort();
    await this.#inFlight;
  }

  #tick(): void {
    // One run at a time: a tick that finds a run in hand leaves the due tasks for a later tick.
    if (this.#running || this.#abort.signal.aborted) return;
    this.#running = true;
    this.#inFlight = this.#runDue().finally(() => {
      this.#running = false;
    });
  }

  async #runDue(): Promise<void> {
    for (const task of this.#tasks) {
      const dueAt = this.#nextRunAt.get(task.name) ?? Infinity;
      if (this.#abort.signal.aborted || this.#now() < dueAt) continue;
      this.#nextRunAt.set(task.name, this.#now() + task.intervalMs);
      const startedAt = this.#now();
      try {
        await task.run(this.#abort.signal);
        this.#logger.info('task done', { task: task.name, duration_ms: this.#now() - startedAt });
      } catch (error) {
        this.#logger.error('task failed', {
          task: task.name,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}
