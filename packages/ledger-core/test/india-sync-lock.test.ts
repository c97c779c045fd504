import { expect } from 'chai';
import knexFactory from 'knex';
import { INDIA_SYNC_LOCK_KEY, withIndiaSyncLock } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

describe('the India sync lock', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  after(async () => t?.drop());

  it('two holders never overlap, even from two processes’ pools', async () => {
    // A second pool stands for another replica: the lock is the database's, not the process's.
    const other = knexFactory({ client: 'pg', connection: t.url, pool: { min: 0, max: 4 } });
    try {
      const events: string[] = [];
      const hold = (name: string, db: typeof other) =>
        withIndiaSyncLock(db, async () => {
          events.push(`${name} in`);
          await new Promise((resolve) => setTimeout(resolve, 100));
          events.push(`${name} out`);
        });
      await Promise.all([hold('a', t.db), hold('b', other), hold('c', t.db), hold('d', other)]);
      for (let i = 0; i < events.length; i += 2) {
        expect(events[i]!.split(' ')[0], `${events.join(', ')}`).to.equal(events[i + 1]!.split(' ')[0]);
      }
      expect(events).to.have.length(8);
    } finally {
      await other.destroy();
    }
  });

  it('waits while someone else holds it, and runs once it is released', async () => {
    const holder = knexFactory({ client: 'pg', connection: t.url, pool: { min: 1, max: 1 } });
    let ran = false;
    let waiting: Promise<void> | undefined;
    try {
      await holder.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(?)', [INDIA_SYNC_LOCK_KEY]);
        waiting = withIndiaSyncLock(t.db, async () => {
          ran = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(ran, 'ran while the lock was held elsewhere').to.equal(false);
      });
      await waiting;
      expect(ran, 'ran once the holder let go').to.equal(true);
    } finally {
      await holder.destroy();
    }
  });

  it('is released when the work fails, and the failure is the caller’s', async () => {
    const failure = await withIndiaSyncLock(t.db, async () => {
      throw new Error('upstream down');
    }).catch((error: Error) => error);
    expect((failure as Error).message).to.equal('upstream down');
    expect(await withIndiaSyncLock(t.db, async () => 'next')).to.equal('next');
  });
});
