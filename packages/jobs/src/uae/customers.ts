import { customersLinkedBy, type CustomerReference, type Db } from '@ledger/core';
import { UaefeedRejectedError, UpstreamError, UpstreamPayloadError } from '@ledger/upstream-clients';
import { z } from 'zod';
import { CUSTOMER_CONCURRENCY, customerIdsField, type CustomerFailure } from '../per-customer.js';

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

/**
 * Why an upstream call failed, as a customer's failure reason, or null when the error is not an
 * upstream's (a database error, a bug: the job fails, and BullMQ retries a transient one).
 * A refused connection is an upstream failure like a timeout: the clients do not retry it.
 */
export function upstreamFailureReason(error: unknown): string | null {
  if (error instanceof UpstreamError) return `upstream_unavailable: ${error.message}`;
  if (error instanceof UaefeedRejectedError) return `upstream_refused: ${error.message}`;
  if (error instanceof UpstreamPayloadError) return `upstream_bad_payload: ${error.message}`;
  return null;
}

/** Each customer's result, or its failure; at most CUSTOMER_CONCURRENCY customers at once. */
export async function forEachCustomer<T>(
  customers: readonly LinkedCustomer[],
  work: (customer: LinkedCustomer) => Promise<T>,
  onDone: (done: number) => void = () => {},
): Promise<{ done: Array<{ customer: LinkedCustomer; value: T }>; failed: CustomerFailure[] }> {
  const results = new Array<{ customer: LinkedCustomer; value: T } | CustomerFailure>(customers.length);
  let next = 0;
  let finished = 0;
  const lane = async () => {
    while (next < customers.length) {
      const index = next++;
      const customer = customers[index]!;
      try {
        results[index] = { customer, value: await work(customer) };
      } catch (error) {
        const reason = upstreamFailureReason(error);
        if (reason === null) throw error;
        results[index] = { customer_id: customer.customerId, reason };
      }
      onDone(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CUSTOMER_CONCURRENCY, customers.length) }, lane));
  const done: Array<{ customer: LinkedCustomer; value: T }> = [];
  const failed: CustomerFailure[] = [];
  for (const result of results) {
    if ('reason' in result) failed.push(result);
    else done.push(result);
  }
  return { done, failed };
}

/** Every customer failed: the upstream is not configured for this book. */
export function notConfigured(customers: readonly LinkedCustomer[], upstream: string): CustomerFailure[] {
  return customers.map((c) => ({ customer_id: c.customerId, reason: `upstream_unavailable: ${upstream} is not configured on this book` }));
}

/** `YYYY-MM-DD` of a day `days` before `now` (UTC). */
export function isoDay(now: Date, days = 0): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/** `YYYY-MM` of the month before `now`'s (UTC): the last closed month. */
export function previousMonth(now: Date): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return first.toISOString().slice(0, 7);
}

export const isoDate = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date YYYY-MM-DD');
export const isoMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM');
