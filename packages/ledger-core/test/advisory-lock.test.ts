import { expect } from 'chai';
import knexFactory from 'knex';
import { advisoryLockId, LOCK_KEYS, withAdvisoryLock } from '../src/entry-points/store.js';
import { withLockSession } from '../src/store/advisory-lock.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

describe('withAdvisoryLock (the book’s cluster-wide locks)', function () {
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
        withAdvisoryLock(db, LOCK_KEYS.indiaSync, async () => {
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
        await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId(LOCK_KEYS.indiaSync)]);
        waiting = withAdvisoryLock(t.db, LOCK_KEYS.indiaSync, async () => {
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
    const failure = await withAdvisoryLock(t.db, LOCK_KEYS.indiaSync, async () => {
      throw new Error('upstream down');
    }).catch((error: Error) => error);
    expect((failure as Error).message).to.equal('upstream down');
    expect(await withAdvisoryLock(t.db, LOCK_KEYS.indiaSync, async () => 'next')).to.equal('next');
  });

  it('without waiting, runs nothing while another holds the key, and says so', async () => {
    const holder = knexFactory({ client: 'pg', connection: t.url, pool: { min: 1, max: 1 } });
    try {
      let ran = 0;
      await holder.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId('recon:trial_balance_zero')]);
        const busy = await withAdvisoryLock(t.db, 'recon:trial_balance_zero', async () => (ran += 1), { wait: false });
        expect(busy).to.deep.equal({ acquired: false });
        const other = await withAdvisoryLock(t.db, 'recon:source_txn_uniqueness', async () => (ran += 1), {
          wait: false,
        });
        expect(other).to.deep.equal({ acquired: true, value: 1 });
      });
      expect(
        await withAdvisoryLock(t.db, 'recon:trial_balance_zero', async () => 'free', { wait: false }),
      ).to.deep.equal({ acquired: true, value: 'free' });
      expect(ran).to.equal(1);
    } finally {
      await holder.destroy();
    }
  });

  it('a lock session holds each key only while its work runs, and a failed work still lets go of its key', async () => {
    const elsewhere = (key: string) => withAdvisoryLock(t.db, key, async () => 'ran', { wait: false });
    const seen = await withLockSession(t.db, async (locks) => {
      const during = await locks.withLock('recon:a', () => elsewhere('recon:a'));
      const failure = await locks
        .withLock('recon:b', async () => {
          throw new Error('check broke');
        })
        .catch((error: Error) => error.message);
      const busy = await locks.withLock('recon:c', async () => 'c', { wait: false });
      // The session is still open: only releasing each key frees it for others.
      return { during, failure, busy, a: await elsewhere('recon:a'), b: await elsewhere('recon:b') };
    });
    expect(seen).to.deep.equal({
      during: { acquired: false },
      failure: 'check broke',
      busy: { acquired: true, value: 'c' },
      a: { acquired: true, value: 'ran' },
      b: { acquired: true, value: 'ran' },
    });
  });

  it('a lock session takes nothing while another holds the key without waiting, and says so', async () => {
    await withAdvisoryLock(t.db, 'recon:held', async () => {
      const attempt = await withLockSession(t.db, (locks) =>
        locks.withLock('recon:held', async () => 'ran', { wait: false }),
      );
      expect(attempt).to.deep.equal({ acquired: false });
    });
  });

  it('a key’s lock id is fixed: the first 8 bytes of its SHA-256, signed', () => {
    // The id must never change between releases, or a rolling deploy would run two migrators at once.
    expect(advisoryLockId('ledger-migrate')).to.equal('6606996097941206586');
    expect(advisoryLockId('recon:a')).to.not.equal(advisoryLockId('recon:b'));
  });
});
