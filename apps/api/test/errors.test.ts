import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { deposit, expectError, startApi, type TestApi } from './support.js';

describe('error responses', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi({ env: { BODY_LIMIT_BYTES: '4096' } });
    await api.put('/v1/customers/C-1', {});
  });
  after(async () => {
    await api.close();
  });

  it('400 validation_error lists each failing rule with its path', async () => {
    const reply = await api.get('/v1/transactions?limit=501', { token: 'ledger' });
    expectError(reply, 400, 'validation_error');
    expect(reply.body.error.details).to.deep.equal([{ path: '/query/limit', message: 'must be <= 500' }]);
  });

  it('400 invalid_json when the body is not JSON', async () => {
    expectError(
      await api.request('POST', '/v1/transactions', { token: 'admin', rawBody: '{"txn_type": "deposit",' }),
      400,
      'invalid_json',
    );
  });

  it('404 not_found for an unknown route, with or without a credential', async () => {
    expectError(await api.get('/v1/nothing-here', { token: 'admin' }), 404, 'not_found');
    expectError(await api.get('/nothing'), 404, 'not_found');
  });

  it('405 method_not_allowed for a known route with another method, naming the allowed ones', async () => {
    const reply = await api.request('DELETE', '/v1/transactions', { token: 'admin' });
    expectError(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')?.split(', ').sort()).to.deep.equal(['GET', 'POST']);
  });

  it('409 idempotency_conflict in the same shape', async () => {
    await api.post('/v1/transactions', deposit({ source_txn_id: 'e-1' }));
    expectError(
      await api.post('/v1/transactions', deposit({ source_txn_id: 'e-1', amount_usd: '1.00' })),
      409,
      'idempotency_conflict',
    );
  });

  it('413 payload_too_large over BODY_LIMIT_BYTES, and nothing is stored', async () => {
    const reply = await api.post(
      '/v1/transactions',
      deposit({ source_txn_id: 'e-big', metadata: { filler: 'x'.repeat(5_000) } }),
    );
    expectError(reply, 413, 'payload_too_large');
    expect(await api.db('transactions').where({ source_txn_id: 'e-big' }).first()).to.equal(undefined);
  });

  it('415 unsupported_media_type for a body that is not application/json', async () => {
    const reply = await api.request('POST', '/v1/transactions', {
      token: 'admin',
      rawBody: 'txn_type=deposit',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectError(reply, 415, 'unsupported_media_type');
  });

  it('judges a JSON body the same under any spelling of its Content-Type (the validator is shown one), and a body-less request whatever it names', async () => {
    for (let i = 0; i < 20; i += 1) {
      const headers = { 'Content-Type': `Application/JSON; charset=utf-8; spelling=${i}` };
      const posted = await api.request('POST', '/v1/transactions', {
        token: 'admin',
        rawBody: JSON.stringify(deposit({ source_txn_id: `spelling-${i}` })),
        headers,
      });
      expect(posted.status, `spelling ${i}`).to.equal(201);
      const refused = await api.request('POST', '/v1/transactions', {
        token: 'admin',
        rawBody: JSON.stringify(deposit({ source_txn_id: `spelling-bad-${i}`, amount_usd: '1.001' })),
        headers,
      });
      expectError(refused, 400, 'validation_error');
      const listed = await api.get('/v1/transactions?limit=1', {
        token: 'ledger',
        headers: { 'Content-Type': `text/x-anything-${i}` },
      });
      expect(listed.status, `a GET naming text/x-anything-${i}`).to.equal(200);
    }
  });

  it('422 for a well-formed entry that breaks a ledger rule', async () => {
    expectError(await api.post('/v1/transactions', deposit({ customer_id: 'C-unknown' })), 422, 'unknown_customer');
  });

  it('every response carries X-Request-Id, the caller’s when it is plain', async () => {
    const mine = await api.get('/v1/nothing', { headers: { 'X-Request-Id': 'req-42.a:b' } });
    expect(mine.headers.get('x-request-id')).to.equal('req-42.a:b');
    expect(mine.body.request_id).to.equal('req-42.a:b');
    const odd = await api.get('/health/live', { headers: { 'X-Request-Id': 'has spaces <script>' } });
    expect(odd.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const long = await api.get('/health/live', { headers: { 'X-Request-Id': 'a'.repeat(129) } });
    expect(long.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});

describe('500 internal_error', () => {
  let empty: TestDatabase;
  let api: TestApi;
  before(async () => {
    // A database without the schema: every query fails inside the server.
    empty = await createTestDatabase({ migrate: false });
    api = await startApi({ db: empty.db, dbUrl: empty.url });
  });
  after(async () => {
    await api.close();
    await empty.drop();
  });

  it('answers the same shape with a generic message: no stack, no SQL, no driver message', async () => {
    const reply = await api.get('/v1/transactions?customer_id=C-1', { token: 'ledger' });
    expectError(reply, 500, 'internal_error');
    expect(reply.body.error).to.deep.equal({
      code: 'internal_error',
      message: 'internal error; quote the request_id when reporting it',
    });
    expect(reply.text).not.to.match(/relation|transactions"|select|knex|pg/i);
  });

  it('logs the cause under the request_id', async () => {
    const reply = await api.get('/v1/firm/accounts', { token: 'ledger' });
    const line = api.logs
      .map((l) => JSON.parse(l))
      .find((l) => l.message === 'request failed' && l.request_id === reply.body.request_id);
    expect(line).to.include({ level: 'error', method: 'GET', path: '/v1/firm/accounts' });
    expect(line.error_message).to.match(/relation .* does not exist/);
  });
});
