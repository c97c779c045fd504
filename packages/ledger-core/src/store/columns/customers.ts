import { columnsFrom, type RowOf } from './table.js';

/** What an upsert may change of a customer; a field left out keeps its value. */
export interface CustomerInput {
  name?: string | null;
  email?: string | null;
  metadata?: Record<string, unknown>;
  /** Where the customer is found upstream (migration 20261201): null clears, absent keeps. */
  references?: Partial<Record<CustomerReference, string | null>>;
}

/** The upstream references a customer may carry; each column of that name. */
export const CUSTOMER_REFERENCES = [
  'uaefeed_customer_number',
  'uaefeed_account_number',
  'custodian_account',
  'usbroker_account_no',
  'remit_customer_id',
  'pan',
  'partner_id',
] as const;
export type CustomerReference = (typeof CUSTOMER_REFERENCES)[number];

const column = columnsFrom<CustomerInput>();

/** The `customers` table: the id is the path's; the details come from the input when it has them. */
export const CUSTOMERS = {
  customer_id: column.required('text'),
  name: column.nullable('text', { write: (input) => input.name }),
  email: column.nullable('text', { write: (input) => input.email }),
  // knex hands objects to pg as JSON text, as jsonb wants it.
  metadata: column.required('jsonb', {
    write: (input) => (input.metadata === undefined ? undefined : JSON.stringify(input.metadata)),
  }),
  created_at: column.required('timestamptz'),
  updated_at: column.required('timestamptz'),
  uaefeed_customer_number: column.nullable('text', { write: (input) => input.references?.uaefeed_customer_number }),
  uaefeed_account_number: column.nullable('text', { write: (input) => input.references?.uaefeed_account_number }),
  custodian_account: column.nullable('text', { write: (input) => input.references?.custodian_account }),
  usbroker_account_no: column.nullable('text', { write: (input) => input.references?.usbroker_account_no }),
  remit_customer_id: column.nullable('text', { write: (input) => input.references?.remit_customer_id }),
  pan: column.nullable('text', { write: (input) => input.references?.pan }),
  partner_id: column.nullable('text', { write: (input) => input.references?.partner_id }),
  // Who created and last changed it (domain/actors.ts): upsertCustomer writes them.
  created_by: column.required('text'),
  updated_by: column.required('text'),
} as const;

export type CustomerRow = RowOf<typeof CUSTOMERS>;
