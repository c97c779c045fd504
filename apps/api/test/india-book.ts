import type { RemittanceRecord } from '@ledger/core';
import { expect } from 'chai';
import type { TestApi } from './support.js';

/** A paid remittance of `customerId` dated `remittedOn` (IST, its payment's day); `settled` on a day in a batch of `batchUsd`. */
export function paidRemittance(
  orderId: string,
  customerId: string,
  amountUsd: string,
  remittedOn: string,
  more: { settled?: { on: string; batchUsd: string }; pan?: string; remitCustomerId?: string } = {},
): RemittanceRecord {
  const { settled, pan = null, remitCustomerId = `cust_${customerId}` } = more;
  return {
    order_id: orderId,
    customer_id: customerId,
    remit_customer_id: remitCustomerId,
    pan,
    status: 'paid',
    purpose_code: 'S0001',
    reference_number: null,
    amount_inr: '10000.00',
    amount_usd: amountUsd,
    quote_id: orderId.replace('order_', 'quote_'),
    quoted_at: `${remittedOn}T04:00:00Z`,
    quote_expires_at: `${remittedOn}T04:15:00Z`,
    fx_rate: '0.011424',
    mid_rate: null,
    mid_rate_source: null,
    mid_rate_at: null,
    tcs_inr: '0',
    payment_id: null,
    payment_status: 'success',
    funds_available: true,
    payment_error_code: null,
    paid_at: `${remittedOn}T05:00:00Z`,
    settlement_id: settled === undefined ? null : `setl_${settled.on}`,
    settlement_status: settled === undefined ? null : 'settled',
    settlement_amount_usd: settled?.batchUsd ?? null,
    settlement_fx_fee_usd: null,
    settlement_txn_fee_usd: null,
    utr: null,
    settled_at: settled === undefined ? null : `${settled.on}T06:00:00Z`,
    remitted_on: remittedOn,
    order_created_at: `${remittedOn}T04:00:00Z`,
    order_updated_at: `${remittedOn}T05:00:00Z`,
  };
}

/**
 * The India book of the live-report tests: I-1 deposits `depositUsd` and buys 6 AAPL for 300.00
 * (with the 22 bps fee 0.66), I-2 deposits 500.00.
 */
export async function postIndiaBook(api: TestApi, depositUsd: string): Promise<void> {
  for (const body of [
    { customer_id: 'I-1', txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: depositUsd },
    {
      customer_id: 'I-1',
      txn_type: 'buy_security',
      txn_date: '2026-01-12',
      symbol: 'AAPL',
      quantity: '6',
      amount_usd: '300.00',
    },
    { customer_id: 'I-2', txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '500.00' },
  ]) {
    expect((await api.post('/v1/transactions', { source: 'manual', ...body })).status).to.equal(201);
  }
}
