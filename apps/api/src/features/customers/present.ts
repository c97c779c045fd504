import { CUSTOMER_REFERENCES } from '@ledger/core';
import { object, text, textOrNull, timestamp, type Row } from '../../http/present.js';

export function presentCustomer(row: Row) {
  return {
    customer_id: text(row.customer_id, 'customer_id'),
    name: textOrNull(row.name, 'name'),
    email: textOrNull(row.email, 'email'),
    metadata: object(row.metadata),
    ...Object.fromEntries(CUSTOMER_REFERENCES.map((name) => [name, textOrNull(row[name], name)])),
    created_at: timestamp(row.created_at, 'created_at'),
    updated_at: timestamp(row.updated_at, 'updated_at'),
  };
}
