import { expect } from 'chai';
import type { Knex } from 'knex';
import { listCustomers, upsertCustomer } from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { rowCount, storeDatabase } from './helpers.js';

const PAGE = { limit: 500, offset: 0 };

describe('store', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  describe('customers', () => {
    it('upsertCustomer creates, then updates, keeping the fields left out', async () => {
      const created = await upsertCustomer(db, 'U-1', {
        name: 'Ada',
        email: 'ada@example.com',
        metadata: { tier: 'gold' },
      });
      expect(created.created).to.equal(true);
      expect(created.customer).to.include({ customer_id: 'U-1', name: 'Ada', email: 'ada@example.com' });
      expect(created.customer.metadata).to.deep.equal({ tier: 'gold' });
      const updated = await upsertCustomer(db, 'U-1', { name: 'Ada L.' });
      expect(updated.created).to.equal(false);
      expect(updated.customer).to.include({ customer_id: 'U-1', name: 'Ada L.', email: 'ada@example.com' });
      expect(updated.customer.metadata).to.deep.equal({ tier: 'gold' });
      expect((updated.customer.created_at as Date).getTime()).to.equal((created.customer.created_at as Date).getTime());
      expect((updated.customer.updated_at as Date).getTime()).to.be.at.least(
        (created.customer.updated_at as Date).getTime(),
      );
      const cleared = await upsertCustomer(db, 'U-1', { email: null, metadata: {} });
      expect(cleared.customer).to.include({ name: 'Ada L.', email: null });
      expect(cleared.customer.metadata).to.deep.equal({});
      const untouched = await upsertCustomer(db, 'U-1', {});
      expect(untouched.created).to.equal(false);
      expect(untouched.customer).to.include({ name: 'Ada L.', email: null });
      expect(await rowCount(db, 'customers', { customer_id: 'U-1' })).to.equal(1);
    });

    it('listCustomers matches q against id, name and email, case-insensitively, and pages', async () => {
      await upsertCustomer(db, 'find-1', { name: 'Zebra Holdings' });
      await upsertCustomer(db, 'find-2', { email: 'ZEBRA@example.com' });
      await upsertCustomer(db, 'zebra-3', {});
      await upsertCustomer(db, 'find-4', { name: 'Other' });
      const found = await listCustomers(db, { q: 'zEbRa' }, PAGE);
      expect(found.items.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal([
        'find-1',
        'find-2',
        'zebra-3',
      ]);
      expect(found.total).to.equal(3);
      const page = await listCustomers(db, { q: 'zebra' }, { limit: 1, offset: 1 });
      expect(page.items.map((c: { customer_id: string }) => c.customer_id)).to.deep.equal(['find-2']);
      expect([page.total, page.limit, page.offset]).to.deep.equal([3, 1, 1]);
      const everyone = await listCustomers(db, {}, PAGE);
      expect(everyone.total).to.equal(await rowCount(db, 'customers'));
    });

    it('listCustomers takes % and _ and \\ in q literally', async () => {
      await upsertCustomer(db, 'esc_a', {});
      await upsertCustomer(db, 'escXa', {});
      await upsertCustomer(db, 'esc%b', {});
      await upsertCustomer(db, 'escYb', { name: 'back\\slash' });
      const ids = async (q: string) =>
        (await listCustomers(db, { q }, PAGE)).items.map((c: { customer_id: string }) => c.customer_id);
      expect(await ids('esc_')).to.deep.equal(['esc_a']);
      expect(await ids('c%b')).to.deep.equal(['esc%b']);
      expect(await ids('%')).to.deep.equal(['esc%b']);
      expect(await ids('\\')).to.deep.equal(['escYb']);
      expect(await ids('esc')).to.have.length(4);
    });
  });
});
