import { createLogger } from '@ledger/core';
import { expect } from 'chai';
import { Scheduler, type ScheduledTask } from '../src/scheduler.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_UAE', silent: true });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('recon scheduler', () => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });

  it('with no tasks, starts and stops cleanly', async () => {
    scheduler = new Scheduler({ tasks: [], logger, tickMs: 5 });
    scheduler.start();
    await sleep(20);
    await scheduler.stop();
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
    await sleep(30);
    expect(runs).to.have.length(0);
    await sleep(150);
    expect(runs.length).to.be.within(2, 5);
    expect(runs[0]).to.be.at.least(50);
  });

  it('keeps running the other tasks when one fails', async () => {
    let healthyRuns = 0;
    const tasks: ScheduledTask[] = [
      { name: 'broken', initialDelayMs: 0, intervalMs: 10, run: async () => Promise.reject(new Error('boom')) },
      { name: 'healthy', initialDelayMs: 0, intervalMs: 10, run: async () => void (healthyRuns += 1) },
    ];
    scheduler = new Scheduler({ tasks, logger, tickMs: 5 });
    scheduler.start();
    await sleep(60);
    expect(healthyRuns).to.be.greaterThan(1);
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
        await sleep(20);
        finished = true;
      },
    };
    scheduler = new Scheduler({ tasks: [task], logger, tickMs: 5 });
    scheduler.start();
    await running;
    await scheduler.stop();
    expect(finished).to.equal(true);
  });
});
