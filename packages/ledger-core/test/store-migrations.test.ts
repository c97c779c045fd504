import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDb, isAtHead } from '../src/entry-points/store.js';
import { migrateToHead } from '../src/store/migrate.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { storeDatabase } from './helpers.js';

describe('store', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  describe('migrations', () => {
    it('migrateToHead on a database at head applies nothing', async () => {
      expect(await isAtHead(db), 'the runtime role can tell').to.equal(true);
      const before = await db('knex_migrations').select('name');
      expect(await migrateToHead(t.db)).to.deep.equal([]);
      expect(await db('knex_migrations').select('name')).to.deep.equal(before);
    });

    it('isAtHead is false on an unmigrated database and true once migrated', async () => {
      const fresh = await createTestDatabase({ migrate: false });
      try {
        expect(await isAtHead(fresh.db)).to.equal(false);
        const applied = await migrateToHead(fresh.db);
        expect(applied.length).to.be.greaterThan(0);
        expect(await isAtHead(fresh.db)).to.equal(true);
        expect(await migrateToHead(fresh.db)).to.deep.equal([]);
      } finally {
        await fresh.drop();
      }
    });

    it('several processes migrating one fresh database at once all succeed, applying each migration once', async () => {
      const fresh = await createTestDatabase({ migrate: false });
      const processes = Array.from({ length: 6 }, (_, i) =>
        createDb({ url: fresh.url, poolMax: 2, applicationName: `migrator-${i}` }),
      );
      try {
        const applied = await Promise.all(processes.map((p) => migrateToHead(p)));
        const names = applied.flat();
        const recorded: string[] = (await fresh.db('knex_migrations').select('name')).map(
          (r: { name: string }) => r.name,
        );
        expect(recorded.length).to.be.greaterThan(0);
        expect(new Set(recorded).size, 'no migration recorded twice').to.equal(recorded.length);
        expect([...names].sort(), 'each migration applied by exactly one process').to.deep.equal([...recorded].sort());
        expect(Number((await fresh.db('accounts').count<Array<{ n: string }>>({ n: '*' }))[0]!.n)).to.equal(20);
        expect(await isAtHead(fresh.db)).to.equal(true);
      } finally {
        await Promise.all(processes.map((p) => p.destroy()));
        await fresh.drop();
      }
    });
  });
});
