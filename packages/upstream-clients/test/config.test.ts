import { expect } from 'chai';
import { createUpstreamClients, upstreamConfigSchema } from '../src/index.js';

describe('upstream configuration', () => {
  it('an upstream whose base URL is unset or blank has no client', () => {
    const clients = createUpstreamClients(
      upstreamConfigSchema.parse({ UAEFEED_BASE_URL: '  ', CUSTODIAN_API_KEY: 'k' }),
    );
    expect(clients).to.deep.equal({
      uaefeed: null,
      custodian: null,
      usbroker: null,
      remit: null,
      usbrokerFirmId: null,
      usbrokerFirmAccount: null,
    });
  });

  it('a base URL without its credentials is refused at start, naming the missing variable', () => {
    const env = upstreamConfigSchema.parse({ USBROKER_BASE_URL: 'http://127.0.0.1:9103', USBROKER_API_KEY: 'id' });
    expect(() => createUpstreamClients(env)).to.throw('USBROKER_API_SECRET is required when USBROKER_BASE_URL is set');
  });

  it('remit is paced at 2,400 requests a minute unless REMIT_REQUESTS_PER_MINUTE says otherwise; a pace below one is refused', () => {
    expect(upstreamConfigSchema.parse({}).REMIT_REQUESTS_PER_MINUTE).to.equal(2_400);
    expect(upstreamConfigSchema.parse({ REMIT_REQUESTS_PER_MINUTE: ' ' }).REMIT_REQUESTS_PER_MINUTE).to.equal(2_400);
    expect(upstreamConfigSchema.parse({ REMIT_REQUESTS_PER_MINUTE: '600' }).REMIT_REQUESTS_PER_MINUTE).to.equal(600);
    for (const bad of ['0', '-5', '1.5', 'fast'])
      expect(upstreamConfigSchema.safeParse({ REMIT_REQUESTS_PER_MINUTE: bad }).success, bad).to.equal(false);
  });

  it('a base URL that is not a URL is refused by the schema', () => {
    expect(upstreamConfigSchema.safeParse({ REMIT_BASE_URL: 'not a url' }).success).to.equal(false);
  });

  it('every configured upstream gets its client', () => {
    const clients = createUpstreamClients(
      upstreamConfigSchema.parse({
        CUSTODIAN_BASE_URL: 'http://127.0.0.1:9102',
        CUSTODIAN_API_KEY: 'key',
        REMIT_BASE_URL: 'http://127.0.0.1:9104',
        REMIT_API_KEY: 'key',
        USBROKER_FIRM_ID: 'FIRM',
        USBROKER_FIRM_ACCOUNT: 'FIRM-ACC',
      }),
    );
    expect(clients.custodian).to.not.equal(null);
    expect(clients.remit).to.not.equal(null);
    expect(clients.uaefeed).to.equal(null);
    expect(clients.usbrokerFirmId).to.equal('FIRM');
    expect(clients.usbrokerFirmAccount).to.equal('FIRM-ACC');
    expect(
      createUpstreamClients(upstreamConfigSchema.parse({ USBROKER_FIRM_ACCOUNT: ' ' })).usbrokerFirmAccount,
    ).to.equal(null);
  });
});
