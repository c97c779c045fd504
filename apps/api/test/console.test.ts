import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { mountConsole } from '../src/features/console/mount.js';

describe('the console’s files at /console', () => {
  let dir: string;
  let server: import('node:http').Server;
  let base: string;

  before(async () => {
    // A build of the console as Vite lays it out: the page and its hashed assets.
    dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    const app = express();
    mountConsole(app, `${dir}/`);
    app.use((_req, res) => res.status(404).json({ error: { code: 'not_found' } }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redirects /console to /console/, the page, never cached and allowed to reach only its own origin', async () => {
    const redirect = await fetch(`${base}/console`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).to.deep.equal([301, 'console/']);
    const page = await fetch(`${base}/console/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('cache-control')).to.equal('no-cache');
    expect(page.headers.get('content-security-policy'))
      .to.contain("default-src 'self'")
      .and.contain("connect-src 'self'");
    expect(await page.text()).to.contain('/console/assets/index-abc123.js');
  });

  it('serves the hashed assets cached for good, and anything else under /console is the API’s 404', async () => {
    const asset = await fetch(`${base}/console/assets/index-abc123.js`);
    expect([asset.status, asset.headers.get('cache-control')]).to.deep.equal([
      200,
      'public, max-age=31536000, immutable',
    ]);
    for (const path of ['/console/assets/nope.js', '/console/index.html', '/console/other']) {
      const reply = await fetch(`${base}${path}`);
      expect([path, reply.status, ((await reply.json()) as { error: { code: string } }).error.code]).to.deep.equal([
        path,
        404,
        'not_found',
      ]);
    }
  });

  it('mounts nothing when the console is not built', async () => {
    const app = express();
    mountConsole(app, join(dir, 'missing/'));
    expect((app.router?.stack ?? []).length).to.equal(0);
  });
});
