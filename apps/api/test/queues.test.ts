import { expect } from 'chai';
import { SESSION_TTL_MS, sessionKey, sessionRole, signSession } from '../src/features/queues/session.js';
import { loadConfig } from '../src/config.js';
import { ADMIN_TOKEN, expectError, LEDGER_TOKEN, startApi, type TestApi } from './support.js';

/** The cookie a session answer set, as a browser would send it back. */
function cookieOf(headers: Headers): string {
  const set = headers.get('set-cookie') ?? '';
  return set.split(';')[0]!;
}

describe('the queues board at /console/queues', () => {
  let api: TestApi;
  const recost = '/console/queues/api/queues/ledger-ENTITY_UAE-recost';

  before(async () => {
    api = await startApi({ queueBoard: true });
  });
  after(() => api.close());

  it('is refused without a session, and a session is refused without a token', async () => {
    expectError(await api.get('/console/queues/'), 401, 'unauthorized');
    expectError(await api.get('/console/queues/api/queues'), 401, 'unauthorized');
    expectError(await api.request('POST', '/console/queues/session'), 401, 'unauthorized');
    expectError(
      await api.get('/console/queues/', { headers: { Cookie: 'ledger_queues=admin.99999999999999.forged' } }),
      401,
      'unauthorized',
    );
  });

  it('opens read-only for the ledger token: the cookie is HttpOnly, SameSite=Strict, on the board’s path only', async () => {
    const session = await api.request('POST', '/console/queues/session', { token: 'ledger' });
    expect(session.status).to.equal(200);
    expect(session.body.role).to.equal('read');
    const set = session.headers.get('set-cookie')!;
    expect(set).to.match(/^ledger_queues=read\./);
    expect(set).to.contain('HttpOnly').and.contain('SameSite=Strict').and.contain('Path=/console/queues');
    expect(set).not.to.contain(LEDGER_TOKEN);
    const Cookie = cookieOf(session.headers);

    const page = await api.get('/console/queues/', { headers: { Cookie } });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.contain("default-src 'self'");
    expect(page.text).to.contain('<base href="/console/queues/"').and.not.contain('fonts.googleapis.com');
    // The page's accessibility script, of this origin, behind the session like the rest of the board.
    expect(page.text).to.contain('<script src="/console/queues/ledger-a11y.js" defer></script>');
    const script = await api.get('/console/queues/ledger-a11y.js', { headers: { Cookie } });
    expect([script.status, script.headers.get('content-type')]).to.deep.equal([200, 'text/javascript; charset=utf-8']);
    expect(script.text).to.contain("'ellipsis-vertical': 'More actions'");
    expectError(await api.get('/console/queues/ledger-a11y.js'), 401, 'unauthorized');

    const queues = await api.get('/console/queues/api/queues', { headers: { Cookie } });
    expect(queues.status).to.equal(200);
    // No retry of a failed job on the board: the run's error is final in the book (the console runs it again).
    expect(queues.body.queues.every((q: { allowRetries: boolean }) => q.allowRetries === false)).to.equal(true);
    expect(queues.body.queues.map((q: { name: string }) => q.name).sort()).to.deep.equal([
      'ledger-ENTITY_UAE-recost',
      'ledger-ENTITY_UAE-syncs',
      'ledger-ENTITY_UAE-webhook-syncs',
    ]);
    expect(queues.body.queues.every((q: { readOnlyMode: boolean }) => q.readOnlyMode)).to.equal(true);
    expect((await api.request('PUT', `${recost}/pause`, { headers: { Cookie } })).status).to.equal(405);
  });

  it('opens for writing with the admin token (a queue paused and resumed), and ends when the console signs out', async () => {
    const session = await api.request('POST', '/console/queues/session', {
      headers: { 'X-Ledger-Token': LEDGER_TOKEN, 'X-Ledger-Admin-Token': ADMIN_TOKEN },
    });
    expect(session.body.role).to.equal('admin');
    const Cookie = cookieOf(session.headers);
    const queues = await api.get('/console/queues/api/queues', { headers: { Cookie } });
    expect(queues.body.queues.some((q: { readOnlyMode: boolean }) => q.readOnlyMode)).to.equal(false);
    expect((await api.request('PUT', `${recost}/pause`, { headers: { Cookie } })).status).to.equal(200);
    expect((await api.request('PUT', `${recost}/resume`, { headers: { Cookie } })).status).to.equal(200);

    const end = await api.request('DELETE', '/console/queues/session');
    expect(end.status).to.equal(204);
    expect(end.headers.get('set-cookie')).to.match(/^ledger_queues=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('takes a cookie only while it is unexpired, signed by these tokens, and for the role it was signed with', () => {
    const config = loadConfig({
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:5432/unused',
      LEDGER_TOKEN,
      LEDGER_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    const key = sessionKey(config);
    const now = 1_800_000_000_000;
    const request = (cookie: string) => ({ headers: { cookie: `other=1; ledger_queues=${cookie}` } }) as never;
    const read = signSession(key, 'read', now + SESSION_TTL_MS);
    expect(sessionRole(key, request(read), now)).to.equal('read');
    expect(sessionRole(key, request(read), now + SESSION_TTL_MS)).to.equal(null);
    expect(sessionRole(key, request(read.replace(/^read/, 'admin')), now)).to.equal(null);
    const otherTokens = sessionKey({ ...config, adminToken: 'rotated-admin-token-0000000000' });
    expect(sessionRole(otherTokens, request(read), now)).to.equal(null);
  });
});
