import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IndiaDataset } from './data/india-views.js';
import { createRandom } from './data/random.js';
import {
  EMPTY_ROW,
  iso,
  paymentInProgress,
  type RemitEvent,
  type RemitOrderStatus,
  type RemitOrderWire,
  type RemitPaymentWire,
  type RemitSettlementWire,
  type Remittance,
} from './data/india.js';
import { basisPoints, formatMinor } from './data/money.js';
import { BadRequest, readJsonBody, type Reply } from './http/common.js';

/**
 * remit's webhook deliveries: `POST <url>` with the raw JSON body `{entity_type, event_type, data}`
 * and `X-Remit-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`. The admin API advances
 * orders through their lifecycle (each change is delivered) and replays events, duplicated
 * and shuffled on demand.
 */

export interface RemitWebhookConfig {
  url: string | null;
  secret: string | null;
  /** Attempts per delivery (a non-2xx answer or a network error is tried again). */
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
}

export interface WebhookDelivery {
  id: string;
  entity_type: string;
  event_type: string;
  data_id: string;
  data_status: string;
  /** `delivered` (2xx), `failed` (after every attempt), `not_configured` (no URL or secret). */
  outcome: 'delivered' | 'failed' | 'not_configured';
  http_status: number | null;
  attempts: number;
  error: string | null;
  sent_at: string;
}

export class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function signRemitBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

const DELIVERIES_KEPT = 1_000;
/** The snapshots are flat but for an order's `notes`. */
const clone = <T extends object>(value: T): T =>
  'notes' in value ? { ...value, notes: { ...(value.notes as object) } } : { ...value };

/** Which `to` each order status may go to. `settled` is ours: the settlement lands (the order stays paid). */
const TRANSITIONS: Record<RemitOrderStatus, readonly string[]> = {
  active: ['paid', 'failed', 'action_required', 'under_review', 'cancelled', 'expired'],
  action_required: ['paid', 'failed', 'under_review', 'cancelled'],
  under_review: ['paid', 'failed', 'action_required', 'cancelled'],
  paid: ['failed', 'settled'],
  failed: [],
  cancelled: [],
  expired: [],
};

export class RemitWebhooks {
  readonly config: RemitWebhookConfig;
  #deliveries: WebhookDelivery[] = [];
  #next = 1;
  #replays = 0;

  constructor(
    private readonly india: IndiaDataset,
    config: Partial<RemitWebhookConfig>,
    private readonly seed: number,
    private readonly now: () => number = Date.now,
  ) {
    this.config = { url: null, secret: null, attempts: 3, backoffMs: 100, timeoutMs: 5_000, ...config };
  }

  deliveries(): WebhookDelivery[] {
    return this.#deliveries.map((d) => ({ ...d }));
  }

  clearDeliveries(): number {
    const n = this.#deliveries.length;
    this.#deliveries = [];
    return n;
  }

  configure(change: { url?: string | null; secret?: string | null }): void {
    if (change.url !== undefined) this.config.url = change.url;
    if (change.secret !== undefined) this.config.secret = change.secret;
  }

  /** Sends each event (in order, or all at once when `concurrent`); answers what became of each. */
  async deliver(events: readonly RemitEvent[], concurrent = false): Promise<WebhookDelivery[]> {
    if (concurrent) return Promise.all(events.map((e) => this.#deliverOne(e)));
    const out: WebhookDelivery[] = [];
    for (const event of events) out.push(await this.#deliverOne(event));
    return out;
  }

  async #deliverOne(event: RemitEvent): Promise<WebhookDelivery> {
    const delivery: WebhookDelivery = {
      id: `dlv-${this.#next++}`,
      entity_type: event.entity_type,
      event_type: event.event_type,
      data_id: event.data.id,
      data_status: event.data.status,
      outcome: 'not_configured',
      http_status: null,
      attempts: 0,
      error: null,
      sent_at: iso(this.now()),
    };
    this.#deliveries.push(delivery);
    if (this.#deliveries.length > DELIVERIES_KEPT) this.#deliveries.shift();
    const { url, secret } = this.config;
    if (url === null || secret === null) return { ...delivery };
    const body = JSON.stringify({ entity_type: event.entity_type, event_type: event.event_type, data: event.data });
    for (let attempt = 1; attempt <= this.config.attempts; attempt++) {
      delivery.attempts = attempt;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-remit-signature': signRemitBody(secret, body) },
          body,
          signal: AbortSignal.timeout(this.config.timeoutMs),
        });
        await response.arrayBuffer();
        delivery.http_status = response.status;
        delivery.error = null;
        if (response.ok) {
          delivery.outcome = 'delivered';
          return { ...delivery };
        }
      } catch (error) {
        delivery.error = error instanceof Error ? error.message : String(error);
      }
      delivery.outcome = 'failed';
      if (attempt < this.config.attempts) await sleep(this.config.backoffMs * 2 ** (attempt - 1));
    }
    return { ...delivery };
  }

  /**
   * Moves an order to `to` (an order status, or `settled`), changing its payment, settlement and
   * refund as remit would, records the events in its history and delivers them.
   */
  async advance(
    orderId: string,
    to: string,
    options: { utr?: string | null } = {},
  ): Promise<{ remittance: Remittance; deliveries: WebhookDelivery[] }> {
    const r = this.india.remittance(orderId);
    if (r === undefined) throw new AdminError(404, 'no such order');
    const from = r.order.status;
    refuseTransition(r, from, to);
    const at = iso(this.now());
    const step = new OrderEvents(r, at);
    const trn = `TRN${step.tail.replace(/[^0-9]/g, '')}`;
    switch (to) {
      case 'paid':
        if (r.payment?.status !== 'success')
          step.payment('success', { status: 'success', transaction_reference_number: trn, error_code: null });
        step.payment('funds_available', { funds_available: true });
        step.order('paid');
        break;
      case 'settled': {
        r.settlement = settlementOf(r, step.tail, at, options.utr);
        step.payment('settled', { settlement_id: r.settlement.id });
        this.#fundBroker(r, at.slice(0, 10), r.quote.to.amount);
        break;
      }
      case 'failed':
        if (from === 'paid') {
          step.payment('failed', { status: 'failed', funds_available: false, error_code: 'REFUNDED' });
          r.refund = {
            id: `refund_${step.tail}`,
            order_id: r.order.id,
            payment_id: r.payment!.id,
            amount: r.order.amount,
            currency: 'INR',
            created_at: at,
          };
        } else if (r.payment !== null)
          step.payment('failed', { status: 'failed', funds_available: false, error_code: 'PAYMENT_DECLINED' });
        step.order('failed');
        break;
      case 'action_required':
        if (r.payment?.status !== 'success')
          step.payment('success', { status: 'success', transaction_reference_number: trn });
        step.order('action_required');
        break;
      case 'under_review':
        if (r.payment === null) step.payment('in_progress', {});
        step.order('under_review');
        break;
      default:
        step.order(to as RemitOrderStatus);
    }
    r.history.push(...step.events);
    const deliveries = await this.deliver(step.events);
    return { remittance: r, deliveries };
  }

  /** The settlement's USD reaches the customer's broker account: a completed wire in, on the settlement's day. */
  #fundBroker(r: Remittance, date: string, cents: number): void {
    const customer = this.india.find(r.customer_id);
    if (customer === undefined) return;
    const data = this.india.dataOf(customer);
    const prefix = `WIR-${this.seed}-${date.replaceAll('-', '')}-${customer.customer_id.slice(4)}-`;
    const n = data.wires.filter((w) => w.transfer_id.startsWith(prefix)).length + 1;
    const transfer_id = `${prefix}${String(n).padStart(2, '0')}`;
    const amount = formatMinor(BigInt(cents));
    data.wires.push({
      transfer_id,
      account_no: data.account.account_no,
      direction: 'IN',
      amount,
      currency: 'USD',
      status: 'completed',
      value_date: date,
    });
    data.wires.sort((a, b) => (a.transfer_id < b.transfer_id ? -1 : 1));
    data.rows.push({
      ...EMPTY_ROW,
      report_date: date,
      account_no: data.account.account_no,
      txn_no: `TXN-${transfer_id}`,
      row_code: 'WIREI',
      amount,
      currency: 'USD',
      settle_date: date,
      description: 'Wire in (1 remittance)',
    });
    data.rows.sort((a, b) => (a.report_date < b.report_date ? -1 : a.report_date > b.report_date ? 1 : 0));
    r.wire_id = transfer_id;
  }

  /**
   * Delivers events of an order again: each named `<entity_type>.<event_type>` (`orders.paid`,
   * `payment.success`, `payment.funds_available`). The snapshot is the order's history's latest
   * of that event; one that never happened is the current object with that status. Each is sent
   * `duplicate` times; `shuffle` mixes the whole list (seeded: the same replay, the same order).
   */
  async replay(spec: {
    order_id?: unknown;
    events?: unknown;
    duplicate?: unknown;
    shuffle?: unknown;
    concurrent?: unknown;
  }): Promise<WebhookDelivery[]> {
    if (typeof spec.order_id !== 'string') throw new AdminError(400, 'order_id is required');
    const r = this.india.remittance(spec.order_id);
    if (r === undefined) throw new AdminError(404, 'no such order');
    const names = spec.events === undefined ? r.history.map((e) => `${e.entity_type}.${e.event_type}`) : spec.events;
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string'))
      throw new AdminError(400, 'events is a non-empty list such as ["orders.paid", "payment.success"]');
    const duplicate = spec.duplicate ?? 1;
    if (typeof duplicate !== 'number' || !Number.isInteger(duplicate) || duplicate < 1 || duplicate > 100)
      throw new AdminError(400, 'duplicate is 1-100 (deliveries of each event)');
    const events: RemitEvent[] = [];
    for (const name of names as string[]) {
      const match = /^(orders|payment)\.([a-z_]+)$/.exec(name);
      if (match === null) throw new AdminError(400, `event ${name} is not <orders|payment>.<event_type>`);
      const entity = match[1] as 'orders' | 'payment';
      const eventType = match[2]!;
      const found = [...r.history].reverse().find((e) => e.entity_type === entity && e.event_type === eventType);
      let event: RemitEvent;
      if (found !== undefined) event = found;
      else if (entity === 'orders')
        event = {
          entity_type: entity,
          event_type: eventType,
          data: { ...clone(r.order), status: eventType as RemitOrderWire['status'] },
        };
      else {
        if (r.payment === null) throw new AdminError(409, 'the order has no payment');
        const status = (
          eventType === 'funds_available' || eventType === 'settled' ? 'success' : eventType
        ) as RemitPaymentWire['status'];
        event = { entity_type: entity, event_type: eventType, data: { ...clone(r.payment), status } };
      }
      for (let i = 0; i < duplicate; i++) events.push(event);
    }
    if (spec.shuffle === true) {
      const random = createRandom(`${this.seed}:replay:${++this.#replays}`);
      for (let i = events.length - 1; i > 0; i--) {
        const j = random.int(0, i);
        [events[i], events[j]] = [events[j]!, events[i]!];
      }
    }
    return this.deliver(events, spec.concurrent === true);
  }

  /** `/__sandbox/remit/...`: the admin endpoints; null when the path is not one. */
  async admin(req: IncomingMessage, path: string): Promise<Reply | null> {
    if (!path.startsWith('/__sandbox/remit/')) return null;
    try {
      const advance = /^\/__sandbox\/remit\/orders\/([^/]+)\/advance$/.exec(path);
      if (advance?.[1] !== undefined && req.method === 'POST') {
        const body = (await readJsonBody(req)) as { to?: unknown; utr?: unknown };
        if (typeof body.to !== 'string') throw new AdminError(400, 'to is required: an order status or settled');
        const utr = body.utr === undefined ? {} : { utr: typeof body.utr === 'string' ? body.utr : null };
        const { remittance, deliveries } = await this.advance(decodeURIComponent(advance[1]), body.to, utr);
        return { status: 200, body: { ...remittanceView(remittance), deliveries } };
      }
      const order = /^\/__sandbox\/remit\/orders\/([^/]+)$/.exec(path);
      if (order?.[1] !== undefined && req.method === 'GET') {
        const r = this.india.remittance(decodeURIComponent(order[1]));
        if (r === undefined) throw new AdminError(404, 'no such order');
        return { status: 200, body: { ...remittanceView(r), history: r.history } };
      }
      if (path === '/__sandbox/remit/webhooks/replay' && req.method === 'POST') {
        return {
          status: 200,
          body: { deliveries: await this.replay((await readJsonBody(req)) as Record<string, unknown>) },
        };
      }
      if (path === '/__sandbox/remit/webhooks') {
        if (req.method === 'GET')
          return {
            status: 200,
            body: { url: this.config.url, secret_set: this.config.secret !== null, deliveries: this.deliveries() },
          };
        if (req.method === 'DELETE') return { status: 200, body: { cleared: this.clearDeliveries() } };
        if (req.method === 'PUT') {
          const body = (await readJsonBody(req)) as { url?: unknown; secret?: unknown };
          const text = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' && v !== '' ? v : null);
          if (typeof body.url === 'string' && !URL.canParse(body.url)) throw new AdminError(400, 'url is not a URL');
          this.configure({ url: text(body.url), secret: text(body.secret) });
          return { status: 200, body: { url: this.config.url, secret_set: this.config.secret !== null } };
        }
      }
      return null;
    } catch (error) {
      if (error instanceof AdminError)
        return {
          status: error.status,
          body: { error: error.status === 404 ? 'not_found' : 'invalid_request', message: error.message },
        };
      if (error instanceof BadRequest)
        return { status: 400, body: { error: 'invalid_request', message: error.message } };
      throw error;
    }
  }
}

function remittanceView(r: Remittance) {
  return {
    order: r.order,
    quote: r.quote,
    payment: r.payment,
    settlement: r.settlement,
    refund: r.refund,
    wire_id: r.wire_id,
  };
}

/** Refuses (409) a move remit would not make: one TRANSITIONS does not allow, a refund once settled, a second settlement. */
function refuseTransition(r: Remittance, from: RemitOrderStatus, to: string): void {
  if (!TRANSITIONS[from].includes(to))
    throw new AdminError(
      409,
      `an order ${from} cannot go to ${to} (allowed: ${TRANSITIONS[from].join(', ') || 'none'})`,
    );
  if (from === 'paid' && to === 'failed' && r.settlement !== null)
    throw new AdminError(409, 'a settled order is not refunded by the sandbox');
  if (to === 'settled' && r.settlement !== null) throw new AdminError(409, 'already settled');
}

/** The events of one move of an order, all at `at`: each change of the order or its payment, as remit sends it. */
class OrderEvents {
  readonly events: RemitEvent[] = [];
  /** What follows `order_` in the order's id: its payment, settlement and refund ids share it. */
  readonly tail: string;

  constructor(
    private readonly r: Remittance,
    private readonly at: string,
  ) {
    this.tail = r.order.id.slice('order_'.length);
  }

  order(status: RemitOrderStatus) {
    const { r, at } = this;
    r.order.status = status;
    r.order.updated_at = at;
    this.events.push({ entity_type: 'orders', event_type: status, data: clone(r.order) });
  }

  /** The payment changed (made first, in progress, if the order has none yet). */
  payment(event: string, change: Partial<RemitPaymentWire>) {
    const { r, at } = this;
    if (r.payment === null) {
      r.payment = paymentInProgress(r.order, {
        id: `payt_${this.tail}`,
        customerId: r.order.customer_id,
        method: 'netbanking',
        at,
      });
    }
    Object.assign(r.payment, change, { updated_at: at });
    this.events.push({ entity_type: 'payment', event_type: event, data: clone(r.payment) });
  }
}

/** The order's settlement at `at`: its quote's USD, remit's fees, the UTR given (undefined: one made from the id). */
function settlementOf(r: Remittance, tail: string, at: string, utr: string | null | undefined): RemitSettlementWire {
  const usd = r.quote.to.amount;
  return {
    id: `setl_${tail}`,
    status: 'settled',
    amount: usd,
    currency: 'USD',
    fees: {
      fx_fee: { amount: Number(basisPoints(BigInt(usd), 10n)), currency: 'USD' },
      txn_fee: { amount: 500, currency: 'USD' },
    },
    utr:
      utr === undefined
        ? `SBINN${tail
            .replace(/[^0-9]/g, '')
            .slice(-11)
            .padStart(11, '0')}`
        : utr,
    created_at: at,
    updated_at: at,
  };
}
