import { createLogger } from '@ledger/core/runtime';
import { expect } from 'chai';
import { closeWithin } from '../src/bounded-close.js';

const logger = createLogger({ level: 'error', service: 'test', book: 'ENTITY_UAE', silent: true });
const GRACE_MS = 100;
const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('closing the job queues (BullMQ close can hang after a Redis restart)', () => {
  it('a close that never returns is given up after the grace, and the connections are dropped by force', async () => {
    let forced = false;
    const started = Date.now();
    await closeWithin(
      'a stuck close',
      new Promise(() => undefined),
      async () => (forced = true),
      logger,
      Promise.resolve(),
      GRACE_MS,
    );
    expect(forced).to.equal(true);
    expect(Date.now() - started).to.be.within(GRACE_MS - 5, 10 * GRACE_MS);
  });

  it('the grace starts only once the jobs in hand are done, however long they take', async () => {
    let forced = false;
    const jobsInHand = after(3 * GRACE_MS);
    // Closes a moment after the jobs are done: past the grace counted from the start, within it counted from the jobs.
    const closing = jobsInHand.then(() => after(GRACE_MS / 2));
    await closeWithin('workers', closing, async () => (forced = true), logger, jobsInHand, GRACE_MS);
    expect(forced).to.equal(false);
  });
});
