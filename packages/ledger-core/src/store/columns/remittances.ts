import type { RemittanceStatus } from '../../domain/remittances.js';
import { columnsFrom, type RowOf } from './table.js';

/**
 * A remittance as sync-remit writes it: remit's order, quote, payment and settlement, mapped
 * (decimals as strings in major units, instants as ISO-8601 strings). Field names are the columns'.
 */
export interface RemittanceRecord {
  order_id: string;
  customer_id: string;
  remit_customer_id: string;
  pan: string | null;
  status: RemittanceStatus;
  purpose_code: string | null;
  reference_number: string | null;
  amount_inr: string;
  amount_usd: string | null;
  quote_id: string | null;
  quoted_at: string | null;
  quote_expires_at: string | null;
  fx_rate: string | null;
  mid_rate: string | null;
  mid_rate_source: string | null;
  mid_rate_at: string | null;
  tcs_inr: string | null;
  payment_id: string | null;
  payment_status: string | null;
  funds_available: boolean | null;
  payment_error_code: string | null;
  paid_at: string | null;
  settlement_id: string | null;
  settlement_status: string | null;
  settlement_amount_usd: string | null;
  /** The settlement's fees (remit `fees.fx_fee`, `fees.txn_fee`), USD. */
  settlement_fx_fee_usd: string | null;
  settlement_txn_fee_usd: string | null;
  utr: string | null;
  settled_at: string | null;
  remitted_on: string;
  order_created_at: string;
  order_updated_at: string;
}

const column = columnsFrom<RemittanceRecord>();
const field = <K extends keyof RemittanceRecord>(name: K) => ({ write: (r: RemittanceRecord) => r[name] });

/** `remittances` (migration 20261204): one row per remit order. */
export const REMITTANCES = {
  order_id: column.required('text', field('order_id')),
  customer_id: column.required('text', field('customer_id')),
  remit_customer_id: column.required('text', field('remit_customer_id')),
  pan: column.nullable('text', field('pan')),
  status: column.required<'text', RemittanceStatus>('text', field('status')),
  purpose_code: column.nullable('text', field('purpose_code')),
  reference_number: column.nullable('text', field('reference_number')),
  amount_inr: column.required('numeric', field('amount_inr')),
  amount_usd: column.nullable('numeric', field('amount_usd')),
  quote_id: column.nullable('text', field('quote_id')),
  quoted_at: column.nullable('timestamptz', field('quoted_at')),
  quote_expires_at: column.nullable('timestamptz', field('quote_expires_at')),
  fx_rate: column.nullable('numeric', field('fx_rate')),
  mid_rate: column.nullable('numeric', field('mid_rate')),
  mid_rate_source: column.nullable('text', field('mid_rate_source')),
  mid_rate_at: column.nullable('timestamptz', field('mid_rate_at')),
  tcs_inr: column.nullable('numeric', field('tcs_inr')),
  payment_id: column.nullable('text', field('payment_id')),
  payment_status: column.nullable('text', field('payment_status')),
  funds_available: column.nullable('boolean', field('funds_available')),
  payment_error_code: column.nullable('text', field('payment_error_code')),
  paid_at: column.nullable('timestamptz', field('paid_at')),
  settlement_id: column.nullable('text', field('settlement_id')),
  settlement_status: column.nullable('text', field('settlement_status')),
  settlement_amount_usd: column.nullable('numeric', field('settlement_amount_usd')),
  utr: column.nullable('text', field('utr')),
  settled_at: column.nullable('timestamptz', field('settled_at')),
  remitted_on: column.required('date', field('remitted_on')),
  order_created_at: column.required('timestamptz', field('order_created_at')),
  order_updated_at: column.required('timestamptz', field('order_updated_at')),
  status_history: column.required('jsonb'),
  first_seen_at: column.required('timestamptz'),
  updated_at: column.required('timestamptz'),
  settlement_fx_fee_usd: column.nullable('numeric', field('settlement_fx_fee_usd')),
  settlement_txn_fee_usd: column.nullable('numeric', field('settlement_txn_fee_usd')),
} as const;
export type RemittanceRow = RowOf<typeof REMITTANCES>;
