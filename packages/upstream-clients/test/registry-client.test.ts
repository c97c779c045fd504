import { expect } from 'chai';
import nock from 'nock';
import {
  createRegistryClient,
  createRegistryClientIfConfigured,
  RegistryNotFoundError,
  UpstreamError,
  UpstreamPayloadError,
} from '../src/testing.js';
import { onlyMockedNetwork, rejectionOf } from './support.js';

const BASE_URL = 'http://registry.test';

function client(perPage = 2) {
  return createRegistryClient({ baseUrl: BASE_URL, timeoutMs: 1_000, retryLimit: 1, backoffMs: 5, perPage });
}

function customer(n: number, overrides: Record<string, unknown> = {}) {
  return {
    customer_id: `IND-${n}`,
    name: `Customer ${n}`,
    email: `c${n}@example.in`,
    pan: 'ABCPS1234K',
    remit_customer_id: `cust_${n}`,
    usbroker_account_no: `USB-${n}`,
    partner_id: 'partner_alpha',
    created_at: '2025-10-03T00:01:00Z',
    ...overrides,
  };
}

function meta(current: number, next: number | null) {
  return { current, previous: current === 1 ? null : current - 1, next, per_page: 2, pages: 2, count: 3 };
}

describe('registry client', () => {
  onlyMockedNetwork();

  it('is not configured without a base URL', () => {
    expect(createRegistryClientIfConfigured({ baseUrl: undefined })).to.equal(null);
    expect(createRegistryClientIfConfigured({ baseUrl: ' ' })).to.equal(null);
    expect(createRegistryClientIfConfigured({ baseUrl: BASE_URL })).to.not.equal(null);
  });

  it('lists every India customer page by page until next is null', async () => {
    nock(BASE_URL)
      .get('/v1/india/customers')
      .query({ page: 1, per_page: 2 })
      .reply(200, { data: [customer(1), customer(2)], page_meta: meta(1, 2) });
    nock(BASE_URL)
      .get('/v1/india/customers')
      .query({ page: 2, per_page: 2 })
      .reply(200, { data: [customer(3)], page_meta: meta(2, null) });
    const customers = await client().listIndiaCustomers();
    expect(customers.map((c) => c.customer_id)).to.deep.equal(['IND-1', 'IND-2', 'IND-3']);
    expect(customers[0]).to.deep.equal(customer(1));
  });

  it('reads an absent, null or blank field as not known (null)', async () => {
    nock(BASE_URL)
      .get('/v1/india/customers/IND-7')
      .reply(200, { customer_id: 'IND-7', pan: '', email: null, partner_id: '  ' });
    expect(await client().getIndiaCustomer('IND-7')).to.deep.equal({
      customer_id: 'IND-7',
      name: null,
      email: null,
      pan: null,
      remit_customer_id: null,
      usbroker_account_no: null,
      partner_id: null,
      created_at: null,
    });
  });

  it('answers an unknown customer with RegistryNotFoundError, without retrying', async () => {
    nock(BASE_URL)
      .get('/v1/india/customers/IND-404')
      .once()
      .reply(404, { error: 'not_found', message: 'no such customer' });
    const error = await rejectionOf(client().getIndiaCustomer('IND-404'), RegistryNotFoundError);
    expect(error).to.include({ status: 404, customerId: 'IND-404' });
  });

  it('retries a 5xx, then fails with an UpstreamError naming the registry', async () => {
    nock(BASE_URL).get('/v1/india/customers/IND-1').times(2).reply(500, { error: 'internal_error' });
    const error = await rejectionOf(client().getIndiaCustomer('IND-1'), UpstreamError);
    expect(error).to.include({ upstream: 'registry', status: 500, attempts: 2 });
  });

  it('refuses a payload that breaks the format, naming the field', async () => {
    nock(BASE_URL)
      .get('/v1/india/customers')
      .query(true)
      .reply(200, { data: [customer(1, { pan: 12 })], page_meta: meta(1, null) });
    const error = await rejectionOf(client().listIndiaCustomers(), UpstreamPayloadError);
    expect(error.field).to.equal('data[0].pan');
  });

  it('refuses a page that is not the one asked for', async () => {
    nock(BASE_URL)
      .get('/v1/india/customers')
      .query(true)
      .reply(200, { data: [], page_meta: meta(2, null) });
    const error = await rejectionOf(client().listIndiaCustomers(), UpstreamPayloadError);
    expect(error.field).to.equal('page_meta.current');
  });
});
