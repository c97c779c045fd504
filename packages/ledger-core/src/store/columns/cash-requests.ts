import type { CashRequestDirection, CashRequestStatus, PostableCashRequest } from '../../domain/cash-requests.js';
import { formatDecimal } from '../../domain/money.js';
import { currentActor } from '../../runtime/actor.js';
import type { Currency } from '../../domain/posting-rules/types.js';
import { columnsFrom, type RowOf } from './table.js';

/**
 * A new cash request, parsed and converted, as the store inserts it: what its posting needs, and
 * the Idempotency-Key it was made with (with the request's fingerprint), if any.
 */
export type NewCashRequest = PostableCashRequest & { idempotencyKey: { key: string; requestHash: string } | null };

const column = columnsFrom<NewCashRequest>();

/**
 * The `cash_requests` table, in its order. A new request is always `pending` (the database's
 * default); status, txn_id, failure_reason and updated_at are what a transition changes.
 */
export const CASH_REQUESTS = {
  cash_request_id: column.required('uuid', { write: (r) => r.cashRequestId }),
  customer_id: column.required('text', { write: (r) => r.customerId }),
  direction: column.required<'text', CashRequestDirection>('text', { write: (r) => r.direction }),
  amount: column.required('numeric', { write: (r) => formatDecimal(r.amount) }),
  currency: column.required<'text', Currency>('text', { write: (r) => r.currency }),
  amount_usd: column.required('numeric', { write: (r) => formatDecimal(r.amountUsd) }),
  fx_rate: column.nullable('numeric', { write: (r) => (r.fxRate === null ? null : r.fxRate.toString()) }),
  status: column.required<'text', CashRequestStatus>('text'),
  reference: column.nullable('text', { write: (r) => r.reference }),
  memo: column.nullable('text', { write: (r) => r.memo }),
  failure_reason: column.nullable('text'),
  txn_id: column.nullable('uuid'),
  created_at: column.required('timestamptz'),
  updated_at: column.required('timestamptz'),
  idempotency_key: column.nullable('text', { write: (r) => r.idempotencyKey?.key ?? null }),
  request_hash: column.nullable('text', { write: (r) => r.idempotencyKey?.requestHash ?? null }),
  // Who made it, and who made its last transition (domain/actors.ts): the work's actor.
  created_by: column.required('text', { write: () => currentActor() }),
  updated_by: column.required('text', { write: () => currentActor() }),
} as const;

export type CashRequestRow = RowOf<typeof CASH_REQUESTS>;
