import { expect } from 'chai';
import nock from 'nock';

/**
 * Registers the hooks of a suite whose upstreams are mocked with nock: only the mocks and the
 * api under test are reachable, `eachTest` sets up what every test shares, and every mock set up
 * must have been used. nock is active only while the suite runs (the file calls nock.restore()
 * on import, so no other suite goes through it).
 */
export function mockedUpstreams(eachTest: () => void = () => undefined): void {
  before(() => {
    if (!nock.isActive()) nock.activate();
  });
  beforeEach(() => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    eachTest();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every mocked answer was requested').to.deep.equal([]);
  });
  after(() => {
    nock.enableNetConnect();
    nock.restore();
  });
}
