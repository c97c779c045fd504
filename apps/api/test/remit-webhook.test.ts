import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { expectError, startApi, type Reply, type TestApi } from './support.js';

const SECRET = 'remit-webhook-secret-0123456789';
const PATH = '/v1/india/webhooks/remit';

const sign = (body: string | Buffer, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Posts `body` (an object is sent as JSON text) signed with `signature` (default: the right one). */
function deliver(api: TestApi, body: unknown, signature?: string | null): Promise<Reply> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const value = signature === undefined ? sign(raw) : signature;
  if (value !== null) headers['X-Remit-Signature'] = value;
  return api.request('POST', PATH, { rawBody: raw, headers });
}

const paidOrder = (customerId = 'cus_known') => ({
  entity_type: 'orders',
  event_type: 'paid',
  data: { id: 'order_1', customer_id: customerId, status: 'paid', amount: 8_350_000 },
});

describe('the remit webhook', function () {
  this.timeout(60_000);

  describe('with REMIT_WEBHOOK_SECRET unset', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC' } });
    });
    after(async () => api?.close());

    it('refuses every payload with 503, signed or not, JSON or not', async () => {
      expectError(await deliver(api, paidOrder()), 503, 'not_configured');
      expectError(await deliver(api, paidOrder(), null), 503, 'not_configured');
      expectError(await deliver(api, 'not json', null), 503, 'not_configured');
    });
  });

  describe('on the India book', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC', REMIT_WEBHOOK_SECRET: SECRET } });
      expect((await api.put('/v1/customers/IND-1', { remit_customer_id: 'cus_known' })).status).to.equal(201);
    });
    after(async () => api?.close());

    it('a missing, wrong, malformed or other body’s signature is 401 invalid_signature', async () => {
      const body = JSON.stringify(paidOrder());
      expectError(await deliver(api, body, null), 401, 'invalid_signature');
      expectError(await deliver(api, body, sign(body, 'another-secret-0123456789')), 401, 'invalid_signature');
      expectError(await deliver(api, body, sign(`${body} `)), 401, 'invalid_signature');
      expectError(await deliver(api, body, sign(body).replace('sha256=', 'sha1=')), 401, 'invalid_signature');
      expectError(await deliver(api, body, sign(body).slice(0, -2)), 401, 'invalid_signature');
      expectError(await deliver(api, body, ''), 401, 'invalid_signature');
    });

    it('the signature is checked before the body is judged: unsigned non-JSON is 401, signed non-JSON is 400', async () => {
      expectError(await deliver(api, '{"entity_type": ', null), 401, 'invalid_signature');
      expectError(await deliver(api, '{"entity_type": '), 400, 'invalid_json');
    });

    it('when the body is sent with Content-Encoding gzip › 415 unsupported_media_type, whichever bytes it is signed over, and nothing is scheduled', async () => {
      const body = JSON.stringify(paidOrder());
      const gzipped = gzipSync(body);
      const headers = (signed: string | Buffer) => ({
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'X-Remit-Signature': sign(signed),
      });
      const before = api.logs.filter((line) => line.includes('"remit webhook"')).length;
      for (const signed of [body, gzipped]) {
        const reply = await api.request('POST', PATH, { rawBody: gzipped, headers: headers(signed) });
        expectError(reply, 415, 'unsupported_media_type');
        expect(reply.body.error.message).to.contain('Content-Encoding gzip');
      }
      expect(api.logs.filter((line) => line.includes('"remit webhook"')).length).to.equal(before);
      expect((await deliver(api, body)).status, 'the same body uncompressed').to.equal(200);
    });

    it('a signed body missing the event’s fields is 400', async () => {
      expectError(await deliver(api, { entity_type: 'orders', data: {} }), 400, 'validation_error');
      expectError(await deliver(api, { entity_type: 'orders', event_type: 'paid' }), 400, 'validation_error');
    });

    it('acknowledges a paid order of a known customer with a scheduled sync, without waiting for it', async () => {
      const reply = await deliver(api, paidOrder());
      expect(reply.status).to.equal(200);
      expect(reply.body).to.include({
        entity_type: 'orders',
        event_type: 'paid',
        remit_customer_id: 'cus_known',
        order_id: 'order_1',
        triggered_sync: true,
      });
      expect(reply.body.reason).to.match(/background sync was scheduled/);
      expect(Date.parse(reply.body.received_at)).to.be.closeTo(Date.now(), 60_000);
      const status = await api.get(`/v1/jobs/status/${reply.body.job_id}`, { token: 'ledger' });
      expect(status.body).to.include({ kind: 'sync-remit-webhook', status: 'running' });
    });

    it('triggers exactly by the spec’s table for every entity and event pair', async () => {
      const triggering = new Set([
        'orders/paid',
        'payment/funds_available',
        'payment/success',
        'payments/funds_available',
        'payments/success',
        'payment_link/funds_available',
        'payment_link/success',
      ]);
      for (const entity of ['orders', 'payment', 'payments', 'payment_link', 'refunds']) {
        for (const event of ['paid', 'funds_available', 'success', 'failed', 'action_required', 'active']) {
          const data =
            entity === 'orders'
              ? { id: 'order_2', customer_id: 'cus_known' }
              : { id: 'payt_2', payin_id: 'order_2', customer_id: 'cus_known' };
          const reply = await deliver(api, { entity_type: entity, event_type: event, data });
          expect(reply.status, `${entity}/${event}`).to.equal(200);
          // An entity that is neither an order nor a payment: its own id is all it names.
          const orderId = entity === 'refunds' ? 'payt_2' : 'order_2';
          expect(reply.body, `${entity}/${event}`).to.include({
            triggered_sync: triggering.has(`${entity}/${event}`),
            order_id: orderId,
          });
          expect(reply.body.job_id === null, `${entity}/${event}`).to.equal(!triggering.has(`${entity}/${event}`));
        }
      }
    });

    it('a money-moving event of a remit customer the book has not linked triggers a sync that links them first, saying so', async () => {
      const reply = await deliver(api, paidOrder('cus_stranger'));
      expect(reply.status).to.equal(200);
      expect(reply.body).to.include({ triggered_sync: true, remit_customer_id: 'cus_stranger' });
      expect(reply.body.reason).to.match(
        /cus_stranger is not linked to a customer of this book yet: the sync links it from the customer registry first/,
      );
      const status = await api.get(`/v1/jobs/status/${reply.body.job_id}`, { token: 'ledger' });
      expect(status.body).to.include({ kind: 'sync-remit-webhook', status: 'running' });
    });

    it('never logs the raw body', async () => {
      const marker = 'do-not-log-4bd7e1';
      const reply = await deliver(api, { ...paidOrder(), data: { ...paidOrder().data, note: marker } });
      expect(reply.status).to.equal(200);
      expect(api.logs.join('\n')).to.not.include(marker);
      expect(
        api.logs.some((line) => line.includes('"remit webhook"') && line.includes('"triggered_sync":true')),
      ).to.equal(true);
    });

    it('a body over the limit is 413 and schedules nothing', async () => {
      const big = JSON.stringify({ ...paidOrder(), data: { ...paidOrder().data, note: 'x'.repeat(1_100_000) } });
      expectError(await deliver(api, big), 413, 'payload_too_large');
    });
  });

  describe('on the UAE book', () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: 'ENTITY_UAE', REMIT_WEBHOOK_SECRET: SECRET } });
    });
    after(async () => api?.close());

    it('checks the signature as on India, and acknowledges every event without a sync', async () => {
      expectError(await deliver(api, paidOrder(), null), 401, 'invalid_signature');
      const reply = await deliver(api, paidOrder());
      expect(reply.status).to.equal(200);
      expect(reply.body).to.include({ triggered_sync: false, job_id: null });
      expect(reply.body.reason).to.match(/ENTITY_UAE has no remittances/);
    });
  });
});
