import type { Knex } from 'knex';
import type { CustomerReference } from './columns/customers.js';

/**
 * The customers an upstream reference links, by customer id, with that reference: every linked
 * customer (`customerIds` null), or those of `customerIds` (one not found or not linked is
 * absent: the caller tells which).
 */
export async function customersLinkedBy(
  db: Knex,
  reference: CustomerReference,
  customerIds: readonly string[] | null,
): Promise<Array<{ customerId: string; reference: string }>> {
  const query = db('customers')
    .select('customer_id', db.raw('?? AS reference', [reference]))
    .whereNotNull(reference)
    .orderBy('customer_id');
  if (customerIds !== null) query.whereIn('customer_id', [...customerIds]);
  const rows = (await query) as Array<{ customer_id: string; reference: string }>;
  return rows.map((r) => ({ customerId: r.customer_id, reference: r.reference }));
}

/** The customer each of these upstream references links, by reference; a reference no customer holds is absent. */
export async function customersByReference(
  db: Knex,
  reference: CustomerReference,
  values: readonly string[],
): Promise<Map<string, string>> {
  if (values.length === 0) return new Map();
  const rows = (await db('customers')
    .select('customer_id', db.raw('?? AS reference', [reference]))
    .whereIn(reference, [...new Set(values)])) as Array<{
    customer_id: string;
    reference: string;
  }>;
  return new Map(rows.map((r) => [r.reference, r.customer_id]));
}
