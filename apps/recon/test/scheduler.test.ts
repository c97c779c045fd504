import { createLogger, type Logger } from '@ledger/core/runtime';
import { install } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { Scheduler, type ScheduledTask } from '../src/scheduler.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_UAE', silent: true });

/** A logger that keeps what it is told, to assert on. */
function recordingLogger(): { logger: Logger; lines: Array<{ level: string; message: string; meta: unknown }> } {
  const lines: Array<{ level: string; message: string; meta: unknown }> = [];
  const record = (level: string) => (message: string, meta?: unknown) => void lines.push({ level, message, meta });
  const stub = { info: record('info'), warn: record('warn'), error: record('error'), debug: record('debug') };
  return { logger: stub as unknown as Logger, lines };
}

// Time is the test's: every run happens at an exact instant, however loaded the machine is.
describe('recon scheduler', () => {
  let clock: ReturnType<typeof install>;
  let scheduler: Scheduler | undefined;
  beforeEach(() => {
    clock = install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(async () => {
    const stopping = scheduler?.stop();
    await clock.runAllAsync();
    await stopping;
    scheduler = undefined;
    clock.uninstall();
  });

  it('with no tasks, starts and stops cleanly', async () => {
    const recorded = recordingLogger();
    scheduler = new Scheduler({ tasks: [], logger: recorded.logger, tickMs: 5 });
    scheduler.start();
    expect(recorded.lines).to.deep.equal([{ level: 'info', message: 'scheduler started', meta: { tasks: [] } }]);
    // Started: its tick timer runs (it is what keeps the recon process alive).
    expect(clock.countTimers()).to.equal(1);
    await clock.tickAsync(20);

    await scheduler.stop();
    // Stopped: no timer is left, nothing failed, and it cannot be started again.
    expect(clock.countTimers()).to.equal(0);
    expect(recorded.lines.map((l) => l.message)).to.deep.equal(['scheduler started']);
    expect(() => scheduler!.start()).to.throw('scheduler already started or stopped');
  });

  it('runs a task once its initial delay has passed, then at its interval', async () => {
    const runs: number[] = [];
    const startedAt = Date.now();
    const task: ScheduledTask = {
      name: 'count',
      initialDelayMs: 50,
      intervalMs: 40,
      run: async () => {
        runs.push(Date.now() - startedAt);
      },
    };
    scheduler = new Scheduler({ tasks: [task], logger, tickMs: 5 });
    scheduler.start();
    await clock.tickAsync(49);
    expect(runs).to.deep.equal([]);
    await clock.tickAsync(1);
    expect(runs).to.deep.equal([50]);
    await clock.tickAsync(130);
    expect(runs).to.deep.equal([50, 90, 130, 170]);
  });

  it('keeps running the other tasks when one fails', async () => {
    const recorded = recordingLogger();
    let healthyRuns = 0;
    const tasks: ScheduledTask[] = [
      { name: 'broken', initialDelayMs: 0, intervalMs: 10, run: async () => Promise.reject(new Error('boom')) },
      { name: 'healthy', initialDelayMs: 0, intervalMs: 10, run: async () => void (healthyRuns += 1) },
    ];
    scheduler = new Scheduler({ tasks, logger: recorded.logger, tickMs: 5 });
    scheduler.start();
    // Due at 0, 10, 20, ...: the ticks at 5, 15, ..., 55 run both, six times.
    await clock.tickAsync(60);
    expect(healthyRuns).to.equal(6);
    const failures = recorded.lines.filter((l) => l.message === 'task failed');
    expect(failures).to.have.length(6);
    expect(failures[0]?.meta).to.deep.equal({ task: 'broken', error: 'boom' });
  });

  it('on stop, aborts the running task and waits for it to finish', async () => {
    let finished = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const task: ScheduledTask = {
      name: 'slow',
      initialDelayMs: 0,
      intervalMs: 60_000,
      run: async (signal) => {
        started();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        // Winding down takes a while after the abort.
        await new Promise((resolve) => setTimeout(resolve, 20));
        finished = true;
      },
    };
    scheduler = new Scheduler({ tasks: [task], logger, tickMs: 5 });
    scheduler.start();
    await clock.tickAsync(5);
    await running;

    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await clock.tickAsync(19);
    expect([finished, stopped]).to.deep.equal([false, false]);
    await clock.tickAsync(1);
    await stopping;
    expect([finished, stopped]).to.deep.equal([true, true]);
  });
});
