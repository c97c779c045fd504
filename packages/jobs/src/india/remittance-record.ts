import { isPan, istDate } from '@ledger/core/posting';
import type { RemittanceRecord } from '@ledger/core/store';
import {
  UpstreamPayloadError,
  type RemitMidRate,
  type RemitOrder,
  type RemitPayment,
  type RemitQuote,
  type RemitSettlement,
} from '@ledger/upstream-clients';

/** Where a remittance's mid rate comes from: remit's `GET /fx_rates`, read while the quote was live. */
export const MID_RATE_SOURCE = 'remit:fx_rates';

/** An order and what hangs off it, as remit answered. */
export interface RemitOrderView {
  order: RemitOrder;
  quote: RemitQuote | null;
  /** The payment that pays it (paymentOf), if any. */
  payment: RemitPayment | null;
  /** The payment's settlement, if it names one. */
  settlement: RemitSettlement | null;
  /** remit's mid rate and when it was read, when read while the quote was live. */
  mid: { rate: RemitMidRate; readAt: string } | null;
}

/** A payment that took the customer's money: authorised, funds available, or refunded after. */
const tookTheMoney = (p: RemitPayment) => p.funds_available || p.status === 'success' || p.error_code === 'REFUNDED';

/**
 * The payment of an order among its payments (a declined one may precede a good one): the one
 * with funds available, else one that took the money, else the latest.
 */
export function paymentOf(payments: readonly RemitPayment[]): RemitPayment | null {
  const rank = (p: RemitPayment) => (p.funds_available ? 2 : tookTheMoney(p) ? 1 : 0);
  return (
    [...payments].sort(
      (a, b) => rank(b) - rank(a) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id),
    )[0] ?? null
  );
}

/**
 * The remittance record of an order of `customer` (the ledger's customer): remit's minor units
 * are already major-unit decimal strings (the client converts them exactly). The remittance's
 * date is its paying payment's `created_at` date in IST, else the order's (upstreams.md).
 */
export function remittanceRecordOf(
  customer: { customer_id: string; remit_customer_id: string; pan: string | null },
  view: RemitOrderView,
): RemittanceRecord {
  const { order, quote, payment, settlement, mid } = view;
  if (quote !== null && quote.to.currency !== 'USD') {
    throw new UpstreamPayloadError(
      'remit',
      'GET',
      'api/v1/quotes',
      'to.currency',
      'is not USD: an LRS order of this book buys USD',
    );
  }
  for (const fee of ['fx_fee', 'txn_fee'] as const) {
    // The fees are posted to 5030, a USD account: a fee in another currency has no rate here.
    if (settlement !== null && settlement.fees[fee].currency !== 'USD') {
      throw new UpstreamPayloadError(
        'remit',
        'GET',
        'api/v1/settlements',
        `fees.${fee}.currency`,
        'is not USD: a settlement of this book is in USD',
      );
    }
  }
  const paidAt = payment !== null && tookTheMoney(payment) ? payment.created_at : null;
  return {
    order_id: order.id,
    customer_id: customer.customer_id,
    remit_customer_id: customer.remit_customer_id,
    pan: customer.pan !== null && isPan(customer.pan) ? customer.pan : null,
    status: order.status,
    purpose_code: order.purpose_code,
    reference_number: order.reference_number,
    amount_inr: order.amount,
    amount_usd: quote?.to.amount ?? null,
    quote_id: quote?.id ?? null,
    quoted_at: quote?.created_at ?? null,
    quote_expires_at: quote?.expires_at ?? null,
    fx_rate: quote?.fx_rate ?? null,
    mid_rate: mid?.rate.rate ?? null,
    mid_rate_source: mid === null ? null : MID_RATE_SOURCE,
    mid_rate_at: mid?.readAt ?? null,
    tcs_inr: quote?.total_tax ?? null,
    payment_id: payment?.id ?? null,
    payment_status: payment?.status ?? null,
    funds_available: payment?.funds_available ?? null,
    payment_error_code: payment?.error_code ?? null,
    paid_at: paidAt,
    settlement_id: settlement?.id ?? null,
    settlement_status: settlement?.status ?? null,
    settlement_amount_usd: settlement?.amount ?? null,
    settlement_fx_fee_usd: settlement?.fees.fx_fee.amount ?? null,
    settlement_txn_fee_usd: settlement?.fees.txn_fee.amount ?? null,
    utr: settlement?.utr ?? null,
    settled_at: settlement?.created_at ?? null,
    remitted_on: istDate(paidAt ?? order.created_at),
    order_created_at: order.created_at,
    order_updated_at: order.updated_at,
  };
}
