import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { RemitApiError, UpstreamError, UpstreamPayloadError, UsbrokerAuthError } from '@ledger/upstream-clients';
import { startSandbox, type IndiaCustomer, type Sandbox } from '../src/index.js';
import { PRIVATE_KEY_PEM, rejectionOf } from './helpers.js';
import { remitClient, usbrokerClient } from './india-helpers.js';

describe('sandbox India faults', () => {
  let sandbox: Sandbox;
  let alice: IndiaCustomer;
  let bob: IndiaCustomer;

  before(async () => {
    sandbox = await startSandbox({
      seed: 11,
      customers: 3,
      recordsPerCustomer: 12,
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM },
    });
    [alice, bob] = sandbox.data.india.customers as [IndiaCustomer, IndiaCustomer];
  });
  afterEach(() => sandbox.faults.clear());
  after(() => sandbox.close());

  const balanceOf = (c: IndiaCustomer, client = usbrokerClient(sandbox)) => client.getBalance(c.usbroker_account_no);
  const ordersOf = (c: IndiaCustomer, client = remitClient(sandbox)) =>
    client.listOrders({ customerId: c.remit_customer_id });

  async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
    const startedAt = performance.now();
    const value = await promise;
    return { value, ms: performance.now() - startedAt };
  }

  for (const upstream of ['usbroker', 'remit'] as const) {
    const read = upstream === 'usbroker' ? balanceOf : ordersOf;
    const client = () => (upstream === 'usbroker' ? usbrokerClient(sandbox) : remitClient(sandbox));
    const readWith = (c: IndiaCustomer, overrides: Record<string, unknown> = {}) =>
      upstream === 'usbroker'
        ? balanceOf(c, usbrokerClient(sandbox, overrides))
        : ordersOf(c, remitClient(sandbox, overrides));

    describe(upstream, () => {
      it('latency: delays the customer’s answers only', async () => {
        const c = client();
        await (read as (x: IndiaCustomer, y: unknown) => Promise<unknown>)(bob, c); // a token, outside the timings
        sandbox.faults.add({ upstream, customer: alice.customer_id, fault: 'latency', ms: 1_000 });
        const slow = await timed((read as (x: IndiaCustomer, y: unknown) => Promise<unknown>)(alice, c));
        const fast = await timed((read as (x: IndiaCustomer, y: unknown) => Promise<unknown>)(bob, c));
        expect(slow.ms).to.be.at.least(990);
        // Half a second under Alice's: a margin a busy machine's call stays within.
        expect(fast.ms).to.be.below(slow.ms - 500);
      });

      it('timeout: never answers within the client’s timeout, for that customer only', async () => {
        sandbox.faults.add({
          upstream,
          customer: upstream === 'usbroker' ? alice.usbroker_account_no : alice.remit_customer_id,
          fault: 'timeout',
        });
        // A timeout the token request (usbroker's) is well within on a busy machine too: the
        // fault's answer never comes, whatever the timeout.
        const error = await rejectionOf(readWith(alice, { timeoutMs: 1_000, retryLimit: 1 }));
        expect(error).to.be.instanceOf(UpstreamError).and.include({ failure: 'timeout', attempts: 2 });
        await readWith(bob, { timeoutMs: 1_000 });
      });

      it('500: retried by the client (count 1), else UpstreamError 500 after the retries', async () => {
        sandbox.faults.add({ upstream, customer: alice.customer_id, fault: '500', count: 1 });
        await read(alice);
        sandbox.faults.add({ upstream, customer: alice.customer_id, fault: '500' });
        const error = await rejectionOf(read(alice));
        expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 500, attempts: 3 });
        expect((error as UpstreamError).detail).to.include({ error: 'internal_error' });
      });

      it('malformed: breaks a field of the answer, a payload error naming it', async () => {
        sandbox.faults.add({ upstream, customer: alice.customer_id, fault: 'malformed' });
        const error = await rejectionOf(read(alice));
        expect(error).to.be.instanceOf(UpstreamPayloadError);
        expect((error as UpstreamPayloadError).field).to.equal(upstream === 'usbroker' ? 'cash' : 'data[0].amount');
      });

      it('expired_token: 401 for that customer', async () => {
        sandbox.faults.add({ upstream, customer: alice.customer_id, fault: 'expired_token' });
        const error = await rejectionOf(read(alice));
        expect(error)
          .to.be.instanceOf(upstream === 'usbroker' ? UsbrokerAuthError : RemitApiError)
          .and.include({ status: 401 });
        await read(bob);
      });
    });
  }

  it('usbroker expired_token with a count: the client drops its token, gets a fresh one and reads on', async () => {
    const client = usbrokerClient(sandbox);
    await balanceOf(bob, client);
    sandbox.faults.add({ upstream: 'usbroker', customer: alice.customer_id, fault: 'expired_token', count: 1 });
    expect(await balanceOf(alice, client)).to.have.property('currency', 'USD');
  });

  it('usbroker malformed: breaks the daily ledger CSV (a row’s amount, or the header alone)', async () => {
    const client = usbrokerClient(sandbox);
    const firm = sandbox.credentials.usbroker.firmId;
    const date = sandbox.data.india.dataOf(alice).rows[0]!.report_date;
    sandbox.faults.add({ upstream: 'usbroker', fault: 'malformed' });
    const error = await rejectionOf(client.getDailyLedger(date, firm));
    expect(error).to.be.instanceOf(UpstreamPayloadError).and.include({ field: 'rows[0].amount' });
    const empty = await rejectionOf(client.getDailyLedger('2020-01-01', firm));
    expect(empty).to.be.instanceOf(UpstreamPayloadError).and.include({ field: '(header).amount' });
  });
});

interface Received {
  raw: string;
  signature: string | undefined;
  body: { entity_type: string; event_type: string; data: { id: string; status: string; payin_id?: string } };
}

describe('sandbox remit webhook deliveries', () => {
  const SECRET = 'test-webhook-secret';
  let sandbox: Sandbox;
  let receiver: Server;
  let received: Received[];
  let answerStatus: number;

  const verified = (raw: string, header: string | undefined) => {
    const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
    return header !== undefined && header.length === expected.length && timingSafeEqual(Buffer.from(header), expected);
  };

  before(async () => {
    received = [];
    answerStatus = 200;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const signature = req.headers['x-remit-signature'] as string | undefined;
        if (!verified(raw, signature)) {
          res.writeHead(401).end();
          return;
        }
        received.push({ raw, signature, body: JSON.parse(raw) as Received['body'] });
        res.writeHead(answerStatus).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/india/webhooks/remit`;
    sandbox = await startSandbox({
      seed: 5,
      customers: 13,
      recordsPerCustomer: 6,
      uaefeed: { privateKeyPem: PRIVATE_KEY_PEM },
      remit: { webhookUrl: url, webhookSecret: SECRET, webhookAttempts: 2, webhookBackoffMs: 5 },
    });
  });
  beforeEach(() => {
    received = [];
    answerStatus = 200;
  });
  after(async () => {
    await sandbox.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const admin = (path: string, body: unknown) =>
    fetch(`${sandbox.urls.remit}/__sandbox/remit${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const orderIn = (status: string) =>
    sandbox.data.india
      .all()
      .flatMap((d) => d.remittances)
      .find((r) => r.order.status === status)!;

  it('advances an active order to paid: signed payment and order deliveries, the remit API answering the new state', async () => {
    const r = orderIn('active');
    const response = await admin(`/orders/${r.order.id}/advance`, { to: 'paid' });
    expect(response.status).to.equal(200);
    const answer = (await response.json()) as { order: { status: string }; deliveries: { outcome: string }[] };
    expect(answer.order.status).to.equal('paid');
    expect(answer.deliveries.map((d) => d.outcome)).to.deep.equal(
      ['delivered', 'delivered', 'delivered'].slice(0, answer.deliveries.length),
    );
    expect(received.map((x) => `${x.body.entity_type}.${x.body.event_type}`)).to.deep.equal(
      r.history.slice(-received.length).map((e) => `${e.entity_type}.${e.event_type}`),
    );
    expect(received.map((x) => `${x.body.entity_type}.${x.body.event_type}`).slice(-2)).to.deep.equal([
      'payment.funds_available',
      'orders.paid',
    ]);
    for (const x of received)
      expect(x.signature).to.equal(`sha256=${createHmac('sha256', SECRET).update(x.raw).digest('hex')}`);
    const paidEvent = received.at(-1)!.body;
    expect(paidEvent.data).to.include({ id: r.order.id, status: 'paid' });
    expect(received.at(-2)!.body.data).to.include({ payin_id: r.order.id, status: 'success' });
    expect(await remitClient(sandbox).getOrder(r.order.id)).to.include({ status: 'paid' });
    const payments = await remitClient(sandbox).listPayments({ payinId: r.order.id });
    expect(payments[0]).to.include({ status: 'success', funds_available: true });

    // settle, then refuse to refund a settled order; settle another paid order's sibling path: refund.
    const settled = (await (
      await admin(`/orders/${r.order.id}/advance`, { to: 'settled', utr: 'HDFCN26123456789' })
    ).json()) as { settlement: { utr: string; status: string } };
    expect(settled.settlement).to.include({ utr: 'HDFCN26123456789', status: 'settled' });
    // Its USD reaches the broker: a completed wire in of the order's USD, the newest of the firm's.
    const wires = await usbrokerClient(sandbox).listWires();
    const wire = wires.at(-1)!;
    expect(wire).to.include({
      transfer_id: (settled as unknown as { wire_id: string }).wire_id,
      direction: 'IN',
      status: 'completed',
      amount: (r.quote.to.amount / 100).toFixed(2),
    });
    expect(wire.account_no).to.equal(sandbox.data.india.find(r.customer_id)!.usbroker_account_no);
    expect((await admin(`/orders/${r.order.id}/advance`, { to: 'failed' })).status).to.equal(409);
    expect((await admin(`/orders/${r.order.id}/advance`, { to: 'active' })).status).to.equal(409);
    expect((await admin(`/orders/order_nope/advance`, { to: 'paid' })).status).to.equal(404);
  });

  it('refunds a paid, unsettled order: order failed, payment failed REFUNDED, a refund listed', async () => {
    // Every seeded paid order is settled: pay one waiting for review first.
    const r = orderIn('under_review');
    expect((await admin(`/orders/${r.order.id}/advance`, { to: 'paid' })).status).to.equal(200);
    received = [];
    expect((await admin(`/orders/${r.order.id}/advance`, { to: 'failed' })).status).to.equal(200);
    expect(received.map((x) => `${x.body.entity_type}.${x.body.event_type}`)).to.deep.equal([
      'payment.failed',
      'orders.failed',
    ]);
    expect(received[0]!.body.data).to.include({ status: 'failed' });
    const client = remitClient(sandbox);
    expect(await client.listPayments({ payinId: r.order.id })).to.have.deep.nested.property(
      '[0].error_code',
      'REFUNDED',
    );
    expect((await client.listRefunds()).map((x) => x.order_id)).to.include(r.order.id);
  });

  it('replays duplicates (each event n times) and out-of-order snapshots (a late active after paid)', async () => {
    const r = orderIn('paid');
    const response = await admin('/webhooks/replay', {
      order_id: r.order.id,
      events: ['orders.paid', 'orders.active'],
      duplicate: 3,
    });
    expect(response.status).to.equal(200);
    expect(received.map((x) => x.body.data.status)).to.deep.equal([
      'paid',
      'paid',
      'paid',
      'active',
      'active',
      'active',
    ]);
    expect(new Set(received.slice(0, 3).map((x) => x.raw)).size).to.equal(1);
    expect(received[3]!.body.data.status).to.equal('active');

    received = [];
    const shuffled = (await (
      await admin('/webhooks/replay', {
        order_id: r.order.id,
        events: ['orders.active', 'payment.success', 'payment.funds_available', 'orders.paid'],
        shuffle: true,
        duplicate: 2,
      })
    ).json()) as {
      deliveries: { event_type: string }[];
    };
    expect(received.length).to.equal(8);
    expect(shuffled.deliveries.map((d) => d.event_type)).to.deep.equal(received.map((x) => x.body.event_type));
    expect(received.map((x) => x.body.event_type).sort()).to.deep.equal([
      'active',
      'active',
      'funds_available',
      'funds_available',
      'paid',
      'paid',
      'success',
      'success',
    ]);

    received = [];
    await admin('/webhooks/replay', { order_id: r.order.id, events: ['orders.paid'], duplicate: 10, concurrent: true });
    expect(received.length).to.equal(10);
    expect((await admin('/webhooks/replay', { order_id: r.order.id, events: ['bogus'] })).status).to.equal(400);
  });

  it('records a refused delivery as failed after its attempts, and lists deliveries', async () => {
    answerStatus = 500;
    const r = orderIn('paid');
    const answer = (await (
      await admin('/webhooks/replay', { order_id: r.order.id, events: ['orders.paid'] })
    ).json()) as { deliveries: { outcome: string; attempts: number; http_status: number }[] };
    expect(answer.deliveries[0]).to.include({ outcome: 'failed', attempts: 2, http_status: 500 });
    const log = (await (await fetch(`${sandbox.urls.usbroker}/__sandbox/remit/webhooks`)).json()) as {
      deliveries: unknown[];
      secret_set: boolean;
    };
    expect(log.secret_set).to.equal(true);
    expect(log.deliveries.length).to.be.above(0);
  });
});
