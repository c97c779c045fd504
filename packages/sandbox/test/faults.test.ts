import { expect } from 'chai';
import { UpstreamError, UpstreamPayloadError } from '@ledger/upstream-clients';
import { startSandbox, type RegistryCustomer, type Sandbox } from '../src/index.js';
import { custodianClient, PRIVATE_KEY_PEM, rejectionOf, uaefeedClient } from './helpers.js';

describe('sandbox faults', () => {
  let sandbox: Sandbox;
  let alice: RegistryCustomer;
  let bob: RegistryCustomer;

  before(async () => {
    sandbox = await startSandbox({
      seed: 11,
      customers: 3,
      recordsPerCustomer: 12,
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM },
    });
    [alice, bob] = sandbox.data.customers as [RegistryCustomer, RegistryCustomer];
  });
  afterEach(() => sandbox.faults.clear());
  after(() => sandbox.close());

  const transfersOf = (customer: RegistryCustomer, client = uaefeedClient(sandbox)) =>
    client.listCashTransfers({ customerNumber: customer.uaefeed_customer_number });
  const holdingsOf = (customer: RegistryCustomer, client = custodianClient(sandbox)) =>
    client.getHoldings({ account: customer.custodian_account, asOf: '2026-03-31' });

  async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
    const startedAt = performance.now();
    const value = await promise;
    return { value, ms: performance.now() - startedAt };
  }

  describe('latency', () => {
    it('delays the customer’s answers only', async () => {
      const feed = uaefeedClient(sandbox);
      await feed.getCashSummary(bob.uaefeed_customer_number); // the token, outside the timings
      sandbox.faults.add({ upstream: 'uaefeed', customer: alice.customer_id, fault: 'latency', ms: 1_000 });
      const slow = await timed(transfersOf(alice, feed));
      const fast = await timed(transfersOf(bob, feed));
      expect(slow.ms).to.be.at.least(990);
      // Bob's call is not delayed: half a second under Alice's, a margin a busy machine's call stays within.
      expect(fast.ms).to.be.below(slow.ms - 500);
      expect(slow.value).to.deep.equal(sandbox.data.dataOf(alice).transfers);
    });
  });

  describe('timeout', () => {
    it('never answers within the client’s timeout: UpstreamError timeout after the retries', async () => {
      // A timeout every answer that comes (the token's, Bob's) is well within on a busy machine too:
      // the fault's never comes, whatever the timeout.
      const feed = uaefeedClient(sandbox, { timeoutMs: 1_000, retryLimit: 1 });
      await feed.getCashSummary(bob.uaefeed_customer_number);
      sandbox.faults.add({ upstream: 'uaefeed', customer: alice.uaefeed_customer_number, fault: 'timeout' });
      const error = await rejectionOf(transfersOf(alice, feed));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ failure: 'timeout', attempts: 2 });
      expect(await transfersOf(bob, feed)).to.deep.equal(sandbox.data.dataOf(bob).transfers);
    });

    it('with a count, lets the retry through', async () => {
      sandbox.faults.add({ upstream: 'custodian', customer: alice.custodian_account, fault: 'timeout', count: 1 });
      // The retry's answer must come within the timeout: one a busy machine's answer is well within.
      expect(await holdingsOf(alice, custodianClient(sandbox, { timeoutMs: 1_000 }))).to.have.property(
        'account',
        alice.custodian_account,
      );
      expect(sandbox.faults.list()).to.deep.equal([]);
    });
  });

  describe('500', () => {
    it('is retried by the client: one 500 then the answer', async () => {
      const fault = sandbox.faults.add({ upstream: 'uaefeed', customer: alice.customer_id, fault: '500', count: 1 });
      expect(fault.remaining).to.equal(1);
      const feed = uaefeedClient(sandbox);
      await feed.getCashSummary(bob.uaefeed_customer_number);
      expect(await transfersOf(alice, feed)).to.deep.equal(sandbox.data.dataOf(alice).transfers);
      expect(sandbox.faults.list()).to.deep.equal([]);
    });

    it('until cleared: UpstreamError 500 after the retries, for that customer and upstream only', async () => {
      sandbox.faults.add({ upstream: 'custodian', customer: alice.customer_id, fault: '500' });
      const error = await rejectionOf(holdingsOf(alice));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 500, attempts: 3 });
      expect(await holdingsOf(bob)).to.have.property('account', bob.custodian_account);
      expect(await transfersOf(alice)).to.deep.equal(sandbox.data.dataOf(alice).transfers);
      expect(sandbox.faults.list()[0]).to.include({ hits: 3, remaining: null });
    });

    it('upstream-wide: every customer of that upstream, the token endpoint too', async () => {
      sandbox.faults.add({ upstream: 'uaefeed', fault: '500' });
      const error = await rejectionOf(transfersOf(bob, uaefeedClient(sandbox, { retryLimit: 0 })));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 500, path: 'trade/auth/token' });
      expect(await holdingsOf(bob)).to.have.property('account', bob.custodian_account);
    });
  });

  describe('malformed', () => {
    it('breaks a field of the uaefeed answer: a payload error naming it', async () => {
      sandbox.faults.add({ upstream: 'uaefeed', customer: alice.customer_id, fault: 'malformed' });
      const feed = uaefeedClient(sandbox);
      const error = await rejectionOf(transfersOf(alice, feed));
      expect(error)
        .to.be.instanceOf(UpstreamPayloadError)
        .and.include({ upstream: 'uaefeed', field: 'list[0].amount' });
      expect(await transfersOf(bob, feed)).to.have.length(sandbox.data.dataOf(bob).transfers.length);
    });

    it('breaks a field of the custodian answer', async () => {
      sandbox.faults.add({ upstream: 'custodian', customer: bob.custodian_account, fault: 'malformed' });
      const error = await rejectionOf(custodianClient(sandbox).listTransactions({ account: bob.custodian_account }));
      expect(error)
        .to.be.instanceOf(UpstreamPayloadError)
        .and.include({ upstream: 'custodian', field: 'data[0].gross' });
    });
  });

  describe('expired_token', () => {
    it('uaefeed: the token is expired and answered 401; the client renews it and reads on', async () => {
      const feed = uaefeedClient(sandbox);
      await feed.getCashSummary(bob.uaefeed_customer_number);
      sandbox.faults.add({ upstream: 'uaefeed', customer: alice.customer_id, fault: 'expired_token', count: 1 });
      expect(await transfersOf(alice, feed)).to.deep.equal(sandbox.data.dataOf(alice).transfers);
      expect(sandbox.faults.list()).to.deep.equal([]);
    });

    it('uaefeed, until cleared: UpstreamError 401 TOKEN_EXPIRED for that customer only', async () => {
      sandbox.faults.add({ upstream: 'uaefeed', customer: alice.customer_id, fault: 'expired_token' });
      const feed = uaefeedClient(sandbox);
      const error = await rejectionOf(transfersOf(alice, feed));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 401 });
      expect((error as UpstreamError).detail).to.include({ rejectCode: 'TOKEN_EXPIRED' });
      expect(await transfersOf(bob, feed)).to.have.length(sandbox.data.dataOf(bob).transfers.length);
    });

    it('custodian: 401 token_expired', async () => {
      sandbox.faults.add({ upstream: 'custodian', customer: alice.custodian_account, fault: 'expired_token' });
      const error = await rejectionOf(holdingsOf(alice));
      expect(error).to.include({ status: 401 });
      expect((error as UpstreamError).detail).to.include({ code: 'token_expired' });
    });
  });

  describe('admin API', () => {
    const admin = (path: string, init?: RequestInit) => fetch(`${sandbox.urls.registry}/__sandbox${path}`, init);
    const post = (body: unknown) =>
      admin('/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    it('adds, lists and clears faults over HTTP, on any of the servers', async () => {
      const created = await post({ upstream: 'uaefeed', customer: alice.customer_id, fault: '500', count: 2 });
      expect(created.status).to.equal(201);
      expect(await created.json()).to.include({
        upstream: 'uaefeed',
        customer: alice.customer_id,
        fault: '500',
        remaining: 2,
      });
      const listed = (await (await fetch(`${sandbox.urls.custodian}/__sandbox/faults`)).json()) as {
        faults: unknown[];
      };
      expect(listed.faults).to.have.length(1);
      const cleared = await admin(`/faults?upstream=uaefeed&customer=${alice.uaefeed_customer_number}`, {
        method: 'DELETE',
      });
      expect(await cleared.json()).to.deep.equal({ cleared: 1 });
      expect(sandbox.faults.list()).to.deep.equal([]);
    });

    it('deletes one fault by id', async () => {
      const { id } = (await (await post({ upstream: 'custodian', fault: 'latency', ms: 10 })).json()) as { id: string };
      expect((await admin(`/faults/${id}`, { method: 'DELETE' })).status).to.equal(200);
      expect((await admin(`/faults/${id}`, { method: 'DELETE' })).status).to.equal(404);
    });

    it('refuses an unknown fault kind, upstream or customer with 400', async () => {
      expect((await post({ upstream: 'uaefeed', fault: 'fire' })).status).to.equal(400);
      expect((await post({ upstream: 'nowhere', fault: '500' })).status).to.equal(400);
      expect((await post({ upstream: 'uaefeed', customer: 'UAE-999999', fault: '500' })).status).to.equal(400);
      expect((await post({ upstream: 'uaefeed', fault: 'latency', ms: -1 })).status).to.equal(400);
    });

    it('describes the sandbox: seed, sizes, period and URLs', async () => {
      const info = (await (await admin('')).json()) as Record<string, unknown>;
      expect(info).to.include({ seed: 11, customers: 3, recordsPerCustomer: 12, records: 36 });
      expect(info.urls).to.deep.equal(sandbox.urls);
    });
  });
});
