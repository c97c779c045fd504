import { Decimal } from '@ledger/core/posting';
import type { CustomerPosition } from '@ledger/core/reports';
import { CUSTOMER_REFERENCES } from '@ledger/core/store';
import { object, text, textOrNull, timestamp, type Row } from '../../http/present.js';

export function presentCustomer(row: Row) {
  return {
    customer_id: text(row.customer_id, 'customer_id'),
    name: textOrNull(row.name, 'name'),
    email: textOrNull(row.email, 'email'),
    metadata: object(row.metadata),
    ...Object.fromEntries(CUSTOMER_REFERENCES.map((name) => [name, textOrNull(row[name], name)])),
    first_activity_date: textOrNull(row.first_activity_date, 'first_activity_date'),
    created_at: timestamp(row.created_at, 'created_at'),
    updated_at: timestamp(row.updated_at, 'updated_at'),
    created_by: text(row.created_by, 'created_by'),
    updated_by: text(row.updated_by, 'updated_by'),
  };
}

/** A position with its average cost per share (null when nothing is held). */
export function presentPosition(position: CustomerPosition) {
  const quantity = new Decimal(position.quantity);
  return {
    ...position,
    average_cost_usd: quantity.isZero()
      ? null
      : new Decimal(position.cost_usd).dividedBy(quantity).decimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(),
  };
}
