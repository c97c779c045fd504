import type { Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { startSandbox, type Sandbox } from '@ledger/sandbox';
import { expect } from 'chai';
import { JOBS, noOutcomes, provisionUaeInput, provisionUaeJob } from '../src/testing.js';
import { indiaDeps } from './india-support.js';

describe('provision-uae against the sandbox’s customer registry', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  const databases: TestDatabase[] = [];
  const newDatabase = async () => {
    const database = await createTestDatabase({ runtimeRole: true });
    databases.push(database);
    return database.runtime!.db;
  };
  const run = (db: Db, input: Parameters<typeof provisionUaeJob.run>[0]) =>
    provisionUaeJob.run(provisionUaeInput.parse(input), {
      ...indiaDeps(db, null, { apiGlobalBaseUrl: sandbox.urls.registry }),
      book: 'ENTITY_UAE',
    });

  before(async () => {
    sandbox = await startSandbox({ seed: 11, customers: 5, recordsPerCustomer: 3 });
  });
  after(async () => {
    for (const database of databases) await database.drop();
    await sandbox?.close();
  });

  it('is in the catalog: background, UAE only, with provision-india’s body', () => {
    expect(JOBS['provision-uae']).to.equal(provisionUaeJob);
    expect(provisionUaeJob).to.include({ mode: 'background', family: 'syncs' });
    expect(provisionUaeJob.books).to.deep.equal(['ENTITY_UAE']);
    for (const bad of [{ customer_ids: [] }, { api_global_base_url: 'ftp://x' }, { other: 1 }])
      expect(() => provisionUaeInput.parse(bad), JSON.stringify(bad)).to.throw();
  });

  it('links every registry customer to uaefeed and the custodian; a second run changes nothing; a dry run writes nothing', async () => {
    const db = await newDatabase();
    const dry = await run(db, { dry_run: true });
    expect(dry).to.deep.include({ dry_run: true, customers: 5 });
    expect(dry.outcomes).to.include({ inserted: 5 });
    expect(await db('customers').count({ n: '*' })).to.deep.equal([{ n: '0' }]);
    const first = await run(db, {});
    expect(first).to.deep.include({ customers: 5, outcomes: { ...noOutcomes(), inserted: 5 } });
    expect(first.customers_failed).to.deep.equal([]);
    expect(first.changes[0]).to.deep.equal({
      customer_id: 'UAE-000001',
      outcome: 'inserted',
      fields: ['name', 'uaefeed_customer_number', 'uaefeed_account_number', 'custodian_account'],
    });
    const rows = await db('customers')
      .select('customer_id', 'name', 'uaefeed_customer_number', 'uaefeed_account_number', 'custodian_account')
      .orderBy('customer_id');
    expect(rows).to.deep.equal(
      sandbox.data.customers.map((c) => ({
        customer_id: c.customer_id,
        name: c.name,
        uaefeed_customer_number: c.uaefeed_customer_number,
        uaefeed_account_number: c.uaefeed_account_number,
        custodian_account: c.custodian_account,
      })),
    );
    expect((await run(db, {})).outcomes).to.deep.equal({ ...noOutcomes(), duplicate: 5 });
  });

  it('a customer the registry fails for, or does not know, is that customer’s failure alone', async () => {
    const db = await newDatabase();
    const ids = sandbox.data.customers.slice(0, 3).map((c) => c.customer_id);
    sandbox.faults.add({ upstream: 'registry', customer: ids[1]!, fault: '500' });
    const result = await run(db, { customer_ids: [...ids, 'UAE-999999'] });
    expect(result.customers_failed.map((f) => f.customer_id)).to.deep.equal([ids[1], 'UAE-999999']);
    expect(result.customers_failed.map((f) => f.reason.code)).to.deep.equal([
      'upstream_unavailable',
      'not_in_registry',
    ]);
    expect(result.customers_failed[1]!.reason.detail).to.deep.include({
      upstream: 'registry',
      method: 'GET',
      path: '/v1/uae/customers/UAE-999999',
      status: 404,
    });
    expect(result.outcomes).to.include({ inserted: 2 });
  });
});
