import { expect } from 'chai';
import { classifyRemitEvent } from '../src/entry-points/posting.js';

const ENTITIES = ['orders', 'payment', 'payments', 'payment_link', 'refunds', 'order', ''];
const EVENTS = ['paid', 'funds_available', 'success', 'failed', 'action_required', 'active', 'expired', 'PAID', ''];

/** The spec's trigger table, written out: which (entity_type, event_type) pairs schedule a sync. */
const TRIGGERING = new Set([
  'orders/paid',
  'payment/funds_available',
  'payment/success',
  'payments/funds_available',
  'payments/success',
  'payment_link/funds_available',
  'payment_link/success',
]);

describe('the remit webhook trigger rule', () => {
  it('every entity and event pair triggers exactly as the spec’s table says', () => {
    for (const entity of ENTITIES) {
      for (const type of EVENTS) {
        const classified = classifyRemitEvent({
          entity_type: entity,
          event_type: type,
          data: { id: 'x_1', payin_id: 'order_1', customer_id: 'cus_1' },
        });
        expect(classified.triggers, `${entity}/${type}`).to.equal(TRIGGERING.has(`${entity}/${type}`));
        expect(classified.reason, `${entity}/${type}`).to.be.a('string').and.not.equal('');
      }
    }
  });

  it('names the order: data.id of an order event, data.payin_id of a payment event', () => {
    expect(
      classifyRemitEvent({ entity_type: 'orders', event_type: 'paid', data: { id: 'order_7', customer_id: 'cus_1' } })
        .orderId,
    ).to.equal('order_7');
    const payment = classifyRemitEvent({
      entity_type: 'payment',
      event_type: 'success',
      data: { id: 'payt_9', payin_id: 'order_7', customer_id: 'cus_1' },
    });
    expect(payment).to.include({ orderId: 'order_7', remitCustomerId: 'cus_1', triggers: true });
  });

  it('a triggering event that names no customer schedules nothing, and says why', () => {
    for (const data of [{ id: 'order_7' }, { id: 'order_7', customer_id: '' }, { id: 'order_7', customer_id: 42 }]) {
      const classified = classifyRemitEvent({ entity_type: 'orders', event_type: 'paid', data });
      expect(classified).to.include({ triggers: false, remitCustomerId: null });
      expect(classified.reason).to.match(/customer_id/);
    }
  });
});
