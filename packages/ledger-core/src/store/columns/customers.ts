import { columnsFrom, type RowOf } from './table.js';

/** What an upsert may change of a customer; a field left out keeps its value. */
export interface CustomerInput {
  name?: string | null;
  email?: string | null;
  metadata?: Record<string, unknown>;
}

const column = columnsFrom<CustomerInput>();

/** The `customers` table: the id is the path's; the details come from the input when it has them. */
export const CUSTOMERS = {
  customer_id: column.required('text'),
  name: column.nullable('text', { write: (input) => input.name }),
  email: column.nullable('text', { write: (input) => input.email }),
  // knex hands objects to pg as JSON text, as jsonb wants it.
  metadata: column.required('jsonb', { write: (input) => (input.metadata === undefined ? undefined : JSON.stringify(input.metadata)) }),
  created_at: column.required('timestamptz'),
  updated_at: column.required('timestamptz'),
} as const;

export type CustomerRow = RowOf<typeof CUSTOMERS>;
