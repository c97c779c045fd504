import { LedgerError } from '@ledger/core/posting';
import { upsertCustomer, type Db } from '@ledger/core/store';
import { expect } from 'chai';
import { UpstreamError } from '@ledger/upstream-clients';
import { UnrecoverableError } from 'bullmq';
import nock from 'nock';
import { noOutcomes, provisionIndiaInput, provisionIndiaResult, runProvisionIndia } from '../src/testing.js';
import { indiaDeps, rowCount } from './india-support.js';
import { nockedBookPerTest } from './book-per-test.js';

const REGISTRY = 'http://registry.test';

function entry(n: number, overrides: Record<string, unknown> = {}) {
  return {
    customer_id: `IND-${n}`,
    name: `Customer ${n}`,
    email: `c${n}@example.in`,
    pan: `ABCPS${String(1000 + n)}K`,
    remit_customer_id: `cust_${n}`,
    usbroker_account_no: `USB-${n}`,
    partner_id: 'partner_alpha',
    created_at: '2025-10-03T00:01:00Z',
    ...overrides,
  };
}

const page = (data: unknown[]) => ({
  data,
  page_meta: { current: 1, previous: null, next: null, per_page: 100, pages: 1, count: data.length },
});

describe('provision-india (registry mocked)', function () {
  this.timeout(60_000);
  let db: Db;
  nockedBookPerTest((book) => (db = book));

  const run = (input: Parameters<typeof runProvisionIndia>[0], apiGlobalBaseUrl?: string) =>
    runProvisionIndia(input, indiaDeps(db, null, apiGlobalBaseUrl === undefined ? {} : { apiGlobalBaseUrl }));

  it('takes customer_ids, dry_run and an http(s) api_global_base_url, and nothing else', () => {
    expect(
      provisionIndiaInput.parse({ customer_ids: null, dry_run: false, api_global_base_url: 'https://api.example' }),
    ).to.include({ api_global_base_url: 'https://api.example' });
    for (const bad of [{ api_global_base_url: 'not a url' }, { api_global_base_url: 'ftp://x' }, { other: 1 }])
      expect(() => provisionIndiaInput.parse(bad), JSON.stringify(bad)).to.throw();
  });

  it('creates missing customers, updates changed fields, and never blanks a known field with an absent one', async () => {
    await upsertCustomer(db, 'IND-2', {
      name: 'Old Name',
      email: 'old@example.in',
      references: { partner_id: 'partner_beta', usbroker_account_no: 'USB-2' },
    });
    nock(REGISTRY)
      .get('/v1/india/customers')
      .query({ page: 1, per_page: 100 })
      .reply(
        200,
        page([entry(1), entry(2, { email: null, partner_id: '' }), entry(3, { pan: null, remit_customer_id: null })]),
      );
    const result = await run({ api_global_base_url: REGISTRY });
    provisionIndiaResult.parse(result);
    expect(result).to.deep.include({ customers: 3, outcomes: { ...noOutcomes(), inserted: 2, updated: 1 } });
    expect(result.changes).to.deep.equal([
      {
        customer_id: 'IND-1',
        outcome: 'inserted',
        fields: ['name', 'email', 'usbroker_account_no', 'remit_customer_id', 'pan', 'partner_id'],
      },
      { customer_id: 'IND-2', outcome: 'updated', fields: ['name', 'remit_customer_id', 'pan'] },
      { customer_id: 'IND-3', outcome: 'inserted', fields: ['name', 'email', 'usbroker_account_no', 'partner_id'] },
    ]);
    const two = await db('customers').where({ customer_id: 'IND-2' }).first();
    expect(two).to.include({
      name: 'Customer 2',
      email: 'old@example.in',
      partner_id: 'partner_beta',
      pan: 'ABCPS1002K',
      remit_customer_id: 'cust_2',
    });
    expect(await db('customers').where({ customer_id: 'IND-3' }).first()).to.include({
      pan: null,
      remit_customer_id: null,
    });
  });

  it('a bad PAN, an unknown id, and a reference another customer holds are each that customer’s failure alone', async () => {
    await upsertCustomer(db, 'OTHER', { references: { usbroker_account_no: 'USB-3' } });
    const api = nock(REGISTRY);
    api.get('/v1/india/customers/IND-1').reply(200, entry(1, { pan: 'abcps1001k' }));
    api.get('/v1/india/customers/IND-2').reply(404, { error: 'not_found', message: 'no such customer' });
    api.get('/v1/india/customers/IND-3').reply(200, entry(3));
    api.get('/v1/india/customers/IND-4').reply(200, entry(4));
    const result = await run({ customer_ids: ['IND-1', 'IND-2', 'IND-3', 'IND-4'] }, REGISTRY);
    expect(result.customers_failed).to.deep.equal([
      {
        customer_id: 'IND-1',
        reason: {
          code: 'validation_error',
          detail: {
            message: 'the registry’s pan is not a PAN (five letters, four digits, a letter)',
            details: [{ field: 'pan' }],
          },
        },
      },
      {
        customer_id: 'IND-2',
        reason: {
          code: 'not_in_registry',
          detail: {
            upstream: 'registry',
            method: 'GET',
            path: '/v1/india/customers/IND-2',
            status: 404,
            failure: 'http_status',
            attempts: 1,
            upstream_error: { error: 'not_found', message: 'no such customer' },
            message: 'registry GET /v1/india/customers/IND-2 answered 404 after 1 attempt (unknown customer IND-2)',
          },
        },
      },
      {
        customer_id: 'IND-3',
        reason: {
          code: 'conflict',
          detail: {
            message: "usbroker_account_no is already another customer's",
            details: [{ field: 'usbroker_account_no' }],
          },
        },
      },
    ]);
    expect(result.outcomes).to.include({ inserted: 1 });
    expect(await rowCount(db, 'customers')).to.equal(2);
    expect(await rowCount(db, 'customers', { customer_id: 'IND-4' })).to.equal(1);
  });

  it('a dry run reports the same changes and writes nothing', async () => {
    nock(REGISTRY)
      .get('/v1/india/customers')
      .query(true)
      .times(2)
      .reply(200, page([entry(1), entry(2)]));
    const dry = await run({ dry_run: true }, REGISTRY);
    expect(await rowCount(db, 'customers')).to.equal(0);
    const live = await run({}, REGISTRY);
    expect({ ...dry, dry_run: false }).to.deep.equal(live);
  });

  it('listing the registry failing fails the job: for good on a 4xx or a broken payload, to be retried on a 5xx', async () => {
    nock(REGISTRY).get('/v1/india/customers').query(true).reply(400, { error: 'invalid_request' });
    expect(
      await run({}, REGISTRY).then(
        () => null,
        (e: unknown) => e,
      ),
    ).to.be.instanceOf(UnrecoverableError);
    nock(REGISTRY).get('/v1/india/customers').query(true).reply(200, { data: 'nope' });
    expect(
      await run({}, REGISTRY).then(
        () => null,
        (e: unknown) => e,
      ),
    ).to.be.instanceOf(UnrecoverableError);
    nock(REGISTRY).get('/v1/india/customers').query(true).times(3).reply(502, { error: 'bad_gateway' });
    const transient = await run({}, REGISTRY).then(
      () => null,
      (e: unknown) => e,
    );
    expect(transient).to.be.instanceOf(UpstreamError).and.not.be.instanceOf(UnrecoverableError);
  });

  it('the registry down answers each named customer failed; no registry at all is the job’s permanent error', async () => {
    nock(REGISTRY).get('/v1/india/customers/IND-1').times(3).reply(503, { error: 'unavailable' });
    const result = await run({ customer_ids: ['IND-1'] }, REGISTRY);
    expect(result.customers_failed[0]!.reason.code).to.equal('upstream_unavailable');
    expect(result.customers_failed[0]!.reason.detail).to.deep.include({
      upstream: 'registry',
      method: 'GET',
      path: '/v1/india/customers/IND-1',
      status: 503,
      attempts: 3,
    });
    const error = await run({}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(LedgerError);
    expect((error as LedgerError).message).to.match(/API_GLOBAL_BASE_URL/);
  });
});
