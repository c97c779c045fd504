import { customersLinkedBy, type CustomerReference, type Db } from '@ledger/core';
import { z } from 'zod';
import { customerIdsField, type CustomerFailure } from '../per-customer.js';

export type { CustomerFailure } from '../per-customer.js';

/** `customer_ids` and `dry_run`, the fields every UAE sync job takes (spec: Jobs). */
export const customerSelection = {
  customer_ids: customerIdsField.describe('The customers to run for; null or absent: every customer linked to the upstream.'),
  dry_run: z.boolean().optional().describe('Compute and report everything, write nothing. Default false.'),
};

/** A customer of the run: its ledger id and its reference at the upstream. */
export interface LinkedCustomer {
  customerId: string;
  reference: string;
}

/** A linked customer's ledger id (forEachCustomer's `idOf`). */
export const idOfLinked = (customer: LinkedCustomer) => customer.customerId;

/**
 * The run's customers: those `customerIds` names (or every linked one), each with its upstream
 * reference. A named customer that the book does not know or that has no such reference fails
 * with `not_linked` (operators link with `PUT /v1/customers/{id}`, docs/jobs.md).
 */
export async function linkedCustomers(
  db: Db,
  reference: CustomerReference,
  customerIds: readonly string[] | null | undefined,
): Promise<{ customers: LinkedCustomer[]; failed: CustomerFailure[] }> {
  const ids = customerIds === undefined || customerIds === null ? null : [...new Set(customerIds)];
  const customers = await customersLinkedBy(db, reference, ids);
  const found = new Set(customers.map((c) => c.customerId));
  const failed = (ids ?? [])
    .filter((id) => !found.has(id))
    .map((id) => ({ customer_id: id, reason: `not_linked: the book has no customer ${id} with a ${reference}` }));
  return { customers, failed };
}

/** Every customer failed: the upstream is not configured for this book. */
export function notConfigured(customers: readonly LinkedCustomer[], upstream: string): CustomerFailure[] {
  return customers.map((c) => ({ customer_id: c.customerId, reason: `upstream_unavailable: ${upstream} is not configured on this book` }));
}

/** `YYYY-MM-DD` of a day `days` before `now` (UTC). */
export function isoDay(now: Date, days = 0): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

