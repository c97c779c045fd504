import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ADMIN_TOKEN, deposit, LEDGER_TOKEN, startApi, type TestApi } from './support.js';

describe('request log', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  const requestLines = () =>
    api.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.message === 'request');

  it('writes one JSON line per request: request_id, method, route path, status, duration_ms', async () => {
    const id = randomUUID();
    const reply = await api.get(`/v1/transactions/${id}`, {
      token: 'ledger',
      headers: { 'X-Request-Id': 'log-test-1' },
    });
    expect(reply.status).to.equal(404);
    const lines = requestLines().filter((l) => l.request_id === 'log-test-1');
    expect(lines).to.have.length(1);
    const line = lines[0] as Record<string, unknown>;
    expect(line).to.include({
      level: 'info',
      method: 'GET',
      path: '/v1/transactions/{txn_id}',
      status: 404,
      service: 'api-test',
      book: 'ENTITY_UAE',
    });
    expect(line.duration_ms).to.be.a('number').and.at.least(0);
    expect(line.timestamp).to.be.a('string');
    // The id is in the URL, not in the logged route path.
    expect(JSON.stringify(line)).not.to.include(id);
  });

  it('logs the route path without the query string', async () => {
    await api.get('/v1/transactions?customer_id=C-PRIVATE&limit=5', {
      token: 'ledger',
      headers: { 'X-Request-Id': 'log-test-2' },
    });
    const line = requestLines().find((l) => l.request_id === 'log-test-2');
    expect(line).to.include({ path: '/v1/transactions', status: 200 });
    expect(api.logs.join('\n')).not.to.include('C-PRIVATE');
  });

  it('logs unmatched paths without their query string, and failed auth like any request', async () => {
    await api.get('/v1/nope?token=abc123secret', { headers: { 'X-Request-Id': 'log-test-3' } });
    await api.post('/v1/transactions', deposit(), { token: 'ledger', headers: { 'X-Request-Id': 'log-test-4' } });
    expect(requestLines().find((l) => l.request_id === 'log-test-3')).to.include({ path: '/v1/nope', status: 404 });
    expect(requestLines().find((l) => l.request_id === 'log-test-4')).to.include({
      path: '/v1/transactions',
      method: 'POST',
      status: 403,
    });
    expect(api.logs.join('\n')).not.to.include('abc123secret');
  });

  it('never writes a token or any other header value', async () => {
    await api.get('/v1/firm/accounts', {
      token: 'ledger',
      headers: { 'X-Custom-Header': 'header-value-never-logged' },
    });
    await api.put('/v1/customers/C-LOG', { name: 'Logged Not' });
    await api.get('/v1/journal', { headers: { 'X-Ledger-Token': 'wrong-token-never-logged' } });
    await api.get('/v1/journal', { headers: { 'X-Ledger-Admin-Token': LEDGER_TOKEN } });
    const all = api.logs.join('\n');
    expect(api.logs.length).to.be.at.least(4);
    for (const secret of [
      LEDGER_TOKEN,
      ADMIN_TOKEN,
      'wrong-token-never-logged',
      'header-value-never-logged',
      'Logged Not',
    ]) {
      expect(all).not.to.include(secret);
    }
  });

  it('observes each request in ledger_http_request_duration_seconds by method, OpenAPI route template and status, never the path sent', async () => {
    const COUNT =
      'ledger_http_request_duration_seconds_count{service="api-test",book="ENTITY_UAE",method="GET",route="/v1/transactions/{txn_id}",status="404"}';
    const count = async () => {
      const line = (await api.metrics.getSingleMetricAsString('ledger_http_request_duration_seconds'))
        .split('\n')
        .find((l) => l.startsWith(`${COUNT} `));
      return line === undefined ? 0 : Number(line.slice(COUNT.length + 1));
    };
    const before = await count();
    const id = randomUUID();
    await api.get(`/v1/transactions/${id}`, { token: 'ledger' });
    await api.get(`/v1/transactions/${id}`, { token: 'ledger' });
    await api.get('/v1/no-such-thing/secret-path-never-a-label');
    expect(await count(), 'two more, under the route template').to.equal(before + 2);
    const text = await api.metrics.getSingleMetricAsString('ledger_http_request_duration_seconds');
    expect(text).to.match(
      /^ledger_http_request_duration_seconds_count\{[^}]*method="GET",route="unmatched",status="404"\} [1-9]/m,
    );
    expect(text).to.match(
      /^ledger_http_request_duration_seconds_bucket\{[^}]*le="0\.005",[^}]*route="\/v1\/transactions\/\{txn_id\}",status="404"\}/m,
    );
    expect(text).not.to.include(id);
    expect(text).not.to.include('secret-path-never-a-label');
  });
});
