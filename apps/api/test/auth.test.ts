import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { apiDocument } from '../src/openapi/index.js';
import { ADMIN, OPEN, READ, REMIT_SIGNATURE } from '../src/openapi/security.js';
import type { Method } from '../src/openapi/types.js';
import {
  ADMIN_TOKEN,
  deposit,
  expectError,
  LEDGER_TOKEN,
  QUERY_NAMES_A_RESOURCE,
  requiredQuery,
  startApi,
  type TestApi,
} from './support.js';

interface Endpoint {
  method: Method;
  template: string;
  path: string;
}

/** The docs and their front door `/`: open, served outside the validator. */
// The docs and the console's page are open: the console signs in with the tokens itself.
const isDocs = (template: string) =>
  template.startsWith('/docs') || template.startsWith('/console') || template === '/';
/** Every operation of the document (but the docs), with sample path values. */
const ENDPOINTS: Endpoint[] = Object.entries(apiDocument.paths)
  .filter(([template]) => !isDocs(template))
  .flatMap(([template, item]) =>
    (Object.keys(item) as Method[]).map((method) => ({
      method,
      template,
      path: template
        .replace('{txn_id}', randomUUID())
        .replace('{customer_id}', 'C-AUTH')
        .replace('{job_id}', randomUUID())
        .replace('{cash_request_id}', randomUUID())
        .replace('{run_id}', randomUUID())
        .replace('{exception_id}', '1')
        .replace('{variance_id}', '1')
        .replace('{pan}', 'ABCDE1234F'),
    })),
  );
const isOpen = (e: Endpoint) => e.template.startsWith('/health/') || e.template === '/ping';
/** The remit webhook: its body's signature, not a token (remit-webhook.test.ts has its matrix). */
const isSigned = (e: Endpoint) => e.template === '/v1/india/webhooks/remit';
const isAdmin = (e: Endpoint) => !isOpen(e) && !isSigned(e) && e.method !== 'get';
const label = (e: Endpoint) => `${e.method.toUpperCase()} ${e.template}`;
/** A sample path or query names a resource the empty book does not have: 404. */
const namesUnknownResource = (e: Endpoint) => e.template.includes('{') || QUERY_NAMES_A_RESOURCE.includes(e.template);

/** The path with the query its operation requires. */
const samplePath = (e: Endpoint) => {
  const query = requiredQuery(e.template);
  return query === '' ? e.path : `${e.path}?${query}`;
};

describe('authentication matrix', () => {
  it('the document states the contract’s matrix for every operation', () => {
    expect(ENDPOINTS.length).to.be.at.least(16);
    for (const e of ENDPOINTS) {
      const security = apiDocument.paths[e.template]?.[e.method]?.security;
      const expected = isOpen(e) ? OPEN : isSigned(e) ? REMIT_SIGNATURE : isAdmin(e) ? ADMIN : READ;
      expect(security, label(e)).to.deep.equal(expected);
    }
    for (const template of ['/', '/docs', '/docs/openapi.json', '/console'])
      expect(apiDocument.paths[template]?.get?.security).to.deep.equal(OPEN);
  });

  describe('with both tokens configured', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi();
    });
    after(async () => {
      await api.close();
    });

    it('open endpoints answer without a credential', async () => {
      for (const e of ENDPOINTS.filter(isOpen)) {
        const reply = await api.request(e.method.toUpperCase(), e.path);
        expect(reply.status, label(e)).to.equal(200);
      }
      expect((await api.get('/docs/openapi.json')).status).to.equal(200);
      expect((await api.get('/docs/')).status).to.equal(200);
    });

    it('every other endpoint answers 401 unauthorized without a credential', async function () {
      // The first request to each of ~100 operations: each compiles its validator then (9 s quiet, past 30 s under load).
      this.timeout(120_000);
      for (const e of ENDPOINTS.filter((x) => !isOpen(x) && !isSigned(x))) {
        expectError(await api.request(e.method.toUpperCase(), samplePath(e)), 401, 'unauthorized');
      }
    });

    it('an unknown token is 401, whatever its length, in either header', async () => {
      const wrongSameLength = LEDGER_TOKEN.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));
      const wrongHeaders: Array<Record<string, string>> = [
        { 'X-Ledger-Token': wrongSameLength },
        { 'X-Ledger-Token': 'short' },
        { 'X-Ledger-Admin-Token': ADMIN_TOKEN.toUpperCase() },
        // The admin token in the read header is not the read token.
        { 'X-Ledger-Token': ADMIN_TOKEN },
      ];
      for (const headers of wrongHeaders) {
        expectError(await api.get('/v1/transactions', { headers }), 401, 'unauthorized');
      }
      expectError(
        await api.post('/v1/transactions', deposit(), {
          token: 'nope',
          headers: { 'X-Ledger-Admin-Token': LEDGER_TOKEN },
        }),
        401,
        'unauthorized',
      );
    });

    it('the ledger token reads every GET endpoint', async () => {
      for (const e of ENDPOINTS.filter((x) => !isOpen(x) && x.method === 'get')) {
        const reply = await api.get(samplePath(e), { token: 'ledger' });
        expect(reply.status, label(e)).to.be.oneOf(namesUnknownResource(e) ? [404] : [200]);
      }
    });

    it('the admin token is accepted on every GET endpoint too', async () => {
      for (const e of ENDPOINTS.filter((x) => !isOpen(x) && x.method === 'get')) {
        const reply = await api.get(samplePath(e), { token: 'admin' });
        expect(reply.status, label(e)).to.be.oneOf(namesUnknownResource(e) ? [404] : [200]);
      }
    });

    it('the valid ledger token on an admin endpoint is 403 forbidden, and nothing is stored', async () => {
      for (const e of ENDPOINTS.filter(isAdmin)) {
        expectError(
          await api.request(e.method.toUpperCase(), e.path, { token: 'ledger', body: deposit() }),
          403,
          'forbidden',
        );
      }
      const list = await api.get('/v1/customers', { token: 'ledger' });
      expect(list.body.total).to.equal(0);
    });

    it('the admin token passes admin endpoints (what follows is validation, not auth)', async () => {
      for (const e of ENDPOINTS.filter(isAdmin)) {
        const reply = await api.request(e.method.toUpperCase(), e.path, { token: 'admin', body: { not: 'valid' } });
        expect(reply.status, label(e)).to.equal(400);
      }
    });

    it('decides credentials before reading the body: a bad or huge body without a token is 401', async () => {
      expectError(await api.request('POST', '/v1/transactions', { rawBody: '{not json' }), 401, 'unauthorized');
      expectError(
        await api.request('POST', '/v1/transactions', { body: { txn_type: 'nonsense' } }),
        401,
        'unauthorized',
      );
      expectError(
        await api.request('PUT', '/v1/customers/C-1', { rawBody: 'x'.repeat(2_000_000) }),
        401,
        'unauthorized',
      );
      expectError(
        await api.request('POST', '/v1/transactions', { token: 'ledger', rawBody: '{not json' }),
        403,
        'forbidden',
      );
    });
  });

  describe('with tokens unset (fail closed)', () => {
    let testDb: TestDatabase;
    before(async () => {
      testDb = await createTestDatabase();
    });
    after(async () => {
      await testDb.drop();
    });
    const withEnv = async (env: Record<string, string | undefined>, check: (api: TestApi) => Promise<void>) => {
      const api = await startApi({ db: testDb.db, dbUrl: testDb.url, env });
      try {
        await check(api);
      } finally {
        await api.close();
      }
    };

    it('no tokens at all: every protected endpoint is 503 not_configured, health stays open', async () => {
      await withEnv({ LEDGER_TOKEN: undefined, LEDGER_ADMIN_TOKEN: undefined }, async (api) => {
        for (const e of ENDPOINTS.filter((x) => !isOpen(x))) {
          for (const token of [undefined, 'ledger', 'admin'] as const) {
            const reply = await api.request(e.method.toUpperCase(), samplePath(e), {
              ...(token && { token }),
              ...(e.method !== 'get' && { body: deposit() }),
            });
            expectError(reply, 503, 'not_configured');
          }
        }
        expect((await api.get('/health/live')).status).to.equal(200);
      });
    });

    it('admin token unset: writes are 503 whatever is presented; reads work with the ledger token', async () => {
      await withEnv({ LEDGER_ADMIN_TOKEN: '' }, async (api) => {
        for (const token of [undefined, 'ledger', 'admin'] as const) {
          expectError(await api.post('/v1/transactions', deposit(), { token: token ?? '' }), 503, 'not_configured');
        }
        expect((await api.get('/v1/transactions', { token: 'ledger' })).status).to.equal(200);
        expectError(await api.get('/v1/transactions', { token: 'admin' }), 503, 'not_configured');
        expectError(await api.get('/v1/transactions'), 401, 'unauthorized');
      });
    });

    it('ledger token unset: the admin token still reads and writes; the ledger token is 503', async () => {
      await withEnv({ LEDGER_TOKEN: undefined }, async (api) => {
        expect((await api.get('/v1/transactions', { token: 'admin' })).status).to.equal(200);
        expect((await api.put('/v1/customers/C-9', {})).status).to.equal(201);
        expectError(await api.get('/v1/transactions', { token: 'ledger' }), 503, 'not_configured');
        expectError(await api.get('/v1/transactions'), 401, 'unauthorized');
      });
    });
  });
});
