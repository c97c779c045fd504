import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createDb } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { expect } from 'chai';
import { apiDocument } from '../src/openapi/index.js';
import { expectError, startApi, type TestApi } from './support.js';

describe('health, ping and docs', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  it('GET /health/live answers 200 ok without a credential', async () => {
    const reply = await api.get('/health/live');
    expect(reply.status).to.equal(200);
    expect(reply.body).to.deep.equal({ status: 'ok' });
  });

  it('GET /ping answers 200 without a credential', async () => {
    const reply = await api.get('/ping');
    expect(reply.status).to.equal(200);
    expect(reply.body).to.deep.equal({ status: 'ok' });
  });

  it('GET /health/ready answers 200 when the database answers and is at head', async () => {
    const reply = await api.get('/health/ready');
    expect(reply.status).to.equal(200);
    expect(reply.body).to.deep.equal({ status: 'ok' });
  });

  it('GET /docs redirects to /docs/, which serves Swagger UI from local assets', async () => {
    const redirect = await api.get('/docs');
    expect(redirect.status).to.equal(301);
    expect(redirect.headers.get('location')).to.equal('docs/');

    const page = await api.get('/docs/');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/text\/html/);
    expect(page.text).to.include('swagger-ui');
    // Every script and stylesheet is ours: no CDN.
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).to.be.above(0);
    for (const asset of assets) expect(asset, asset).to.match(/^\.\//);
    for (const asset of assets) {
      const served = await api.get(`/docs/${asset.slice(2)}`);
      expect(served.status, asset).to.equal(200);
    }
    const init = await api.get('/docs/swagger-ui-init.js');
    expect(init.text).to.include('"validatorUrl": null');
  });

  it('GET /docs/openapi.json serves the OpenAPI 3.1 document the server enforces', async () => {
    const reply = await api.get('/docs/openapi.json');
    expect(reply.status).to.equal(200);
    expect(reply.body.openapi).to.equal('3.1.0');
    expect(reply.body).to.deep.equal(JSON.parse(JSON.stringify(apiDocument)));
    expect(reply.body.components.securitySchemes).to.have.keys('ledgerToken', 'adminToken', 'remitSignature');
  });

  it('serves nothing else under /docs: unknown files and swagger-ui-dist’s stock pages are 404s in the error shape', async () => {
    for (const path of ['/docs/nope.js', '/docs/index.html', '/docs/swagger-initializer.js', '/docs/package.json']) {
      expectError(await api.get(path), 404, 'not_found');
    }
  });
});

describe('GET /health/ready when the database is not usable', () => {
  it('answers 503 not_ready on a database with no migrations', async () => {
    const empty: TestDatabase = await createTestDatabase({ migrate: false });
    const api = await startApi({ db: empty.db, dbUrl: empty.url });
    try {
      expectError(await api.get('/health/ready'), 503, 'not_ready');
      expect(api.logs.some((l) => l.includes('migrations are not at head'))).to.equal(true);
    } finally {
      await api.close();
      await empty.drop();
    }
  });

  it('answers 503 not_ready at once when nothing listens at the database address', async () => {
    // A port that was free a moment ago: connections are refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `postgres://postgres@127.0.0.1:${port}/nowhere`;
    const db = createDb({ url, poolMax: 1, applicationName: 'ledger-test' });
    const api = await startApi({ db, dbUrl: url });
    try {
      const started = Date.now();
      expectError(await api.get('/health/ready'), 503, 'not_ready');
      expect(Date.now() - started).to.be.below(2_000);
      expect((await api.get('/health/live')).status).to.equal(200);
    } finally {
      await api.close();
      await db.destroy();
    }
  });

  it('answers 503 not_ready within READY_TIMEOUT_MS when the database accepts but never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/silent`;
    const db = createDb({ url, poolMax: 1, applicationName: 'ledger-test' });
    const api = await startApi({ db, dbUrl: url, env: { READY_TIMEOUT_MS: '300' } });
    try {
      const started = Date.now();
      expectError(await api.get('/health/ready'), 503, 'not_ready');
      const elapsed = Date.now() - started;
      expect(elapsed).to.be.at.least(250).and.below(2_000);
      expect(api.logs.some((l) => l.includes('no answer within 300 ms'))).to.equal(true);
    } finally {
      await api.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      // The pool is still waiting on the silent server; it gives up on its own acquire timeout.
      void db.destroy().catch(() => undefined);
    }
  });
});
