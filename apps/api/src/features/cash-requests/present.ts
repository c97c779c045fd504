import { text, textOrNull, timestamp, type Row } from '../../http/present.js';

export function presentCashRequest(row: Row) {
  return {
    cash_request_id: text(row.cash_request_id, 'cash_request_id'),
    customer_id: text(row.customer_id, 'customer_id'),
    direction: text(row.direction, 'direction'),
    amount: text(row.amount, 'amount'),
    currency: text(row.currency, 'currency'),
    amount_usd: text(row.amount_usd, 'amount_usd'),
    fx_rate: textOrNull(row.fx_rate, 'fx_rate'),
    status: text(row.status, 'status'),
    reference: textOrNull(row.reference, 'reference'),
    memo: textOrNull(row.memo, 'memo'),
    failure_reason: textOrNull(row.failure_reason, 'failure_reason'),
    txn_id: textOrNull(row.txn_id, 'txn_id'),
    created_at: timestamp(row.created_at, 'created_at'),
    updated_at: timestamp(row.updated_at, 'updated_at'),
    created_by: text(row.created_by, 'created_by'),
    updated_by: text(row.updated_by, 'updated_by'),
  };
}
