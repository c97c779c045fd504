/**
 * The remittance provider's webhook events and the spec's trigger rule (Events, inbound): which
 * deliveries schedule a sync of the customer. Pure: the api's receiver acknowledges with what
 * this says.
 */

/** `entity_type` values the receiver accepts as payments (the spec's `payments` alias included). */
const PAYMENT_ENTITIES = ['payment', 'payments', 'payment_link'] as const;
const ORDER_TRIGGERS = ['paid'] as const;
const PAYMENT_TRIGGERS = ['funds_available', 'success'] as const;

/** A delivery as the receiver reads it: every field may be missing or of another type. */
export interface RemitEvent {
  entity_type: string;
  event_type: string;
  data: Record<string, unknown>;
}

export interface RemitEventClassification {
  /** Whether the trigger rule schedules a sync of the customer. */
  triggers: boolean;
  /** The order the event is about: `data.id` for an order, `data.payin_id` for a payment (upstreams.md, Settled details). */
  orderId: string | null;
  /** The provider's customer (`data.customer_id`). */
  remitCustomerId: string | null;
  /** Why it triggers or not, in words for the acknowledgement. */
  reason: string;
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * The spec's trigger rule: an `orders` event triggers only when `paid`; a payment
 * (`payment`, `payments`, `payment_link`) only when `funds_available` or `success`; anything
 * else is acknowledged without a sync. A triggering event that names no customer cannot
 * schedule one either.
 */
export function classifyRemitEvent(event: RemitEvent): RemitEventClassification {
  const { entity_type: entity, event_type: type, data } = event;
  const isOrder = entity === 'orders';
  const isPayment = (PAYMENT_ENTITIES as readonly string[]).includes(entity);
  const orderId = textOf(isPayment ? data.payin_id : data.id);
  const remitCustomerId = textOf(data.customer_id);
  const ruleTriggers = isOrder
    ? (ORDER_TRIGGERS as readonly string[]).includes(type)
    : isPayment && (PAYMENT_TRIGGERS as readonly string[]).includes(type);
  if (!ruleTriggers) {
    const why =
      isOrder || isPayment
        ? `${entity} event ${type} moves no money`
        : `entity_type ${entity} is not an order or a payment`;
    return { triggers: false, orderId, remitCustomerId, reason: `${why}: no sync` };
  }
  if (remitCustomerId === null)
    return { triggers: false, orderId, remitCustomerId, reason: 'the event names no data.customer_id: no sync' };
  return {
    triggers: true,
    orderId,
    remitCustomerId,
    reason: `${entity} ${type}: a background sync was scheduled for the customer`,
  };
}
