import { LedgerError } from '@ledger/core';
import { RemitPageCapError, UpstreamError, UpstreamPayloadError } from '@ledger/upstream-clients';
import { z } from 'zod';

/** The most customers one run may name. */
export const CUSTOMER_IDS_MAX = 10_000;

/** `customer_ids` of every sync job (spec: Jobs): ledger customer ids; null or absent means all (each job says which). */
export const customerIdsField = z.array(z.string().min(1).max(128)).min(1).max(CUSTOMER_IDS_MAX).nullable().optional();
import { UnrecoverableError } from 'bullmq';

/** A customer a job could not do, and why; the others carry on. */
export interface CustomerFailure {
  customer_id: string;
  reason: string;
}

/** Customers worked on at once, by every sync job: enough to hide latency, few enough to spare the upstream. */
export const CUSTOMER_CONCURRENCY = 8;

/**
 * Whether `error` is this customer's alone: an upstream that failed or refused (after the
 * client's own retries), a payload that breaks the format, a record the ledger refused. Anything
 * else (the database gone, a bug) is the job's: it is thrown, and the job fails (and a transient
 * failure is retried: every job is idempotent on database keys).
 */
function isCustomerFailure(error: unknown): error is Error {
  return error instanceof UpstreamError || error instanceof UpstreamPayloadError || error instanceof RemitPageCapError || error instanceof LedgerError;
}

/**
 * Runs `work` for each customer, CUSTOMER_CONCURRENCY at a time, isolating each customer's
 * failure; reports progress in customers. Answers the failures, in the customers' order.
 */
export async function forEachCustomer<C extends { customer_id: string }>(
  customers: readonly C[],
  work: (customer: C) => Promise<void>,
  progress: (done: number, total: number) => void,
): Promise<CustomerFailure[]> {
  const failures = new Map<string, string>();
  let next = 0;
  let done = 0;
  progress(0, customers.length);
  const worker = async () => {
    while (next < customers.length) {
      const customer = customers[next]!;
      next += 1;
      try {
        await work(customer);
      } catch (error) {
        if (!isCustomerFailure(error)) throw error;
        failures.set(customer.customer_id, error.message);
      }
      done += 1;
      progress(done, customers.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CUSTOMER_CONCURRENCY, customers.length) }, worker));
  return customers.flatMap((c) => (failures.has(c.customer_id) ? [{ customer_id: c.customer_id, reason: failures.get(c.customer_id)! }] : []));
}

/**
 * A failure of the job as a whole, made permanent when retrying cannot help: the upstream
 * refused (4xx) or answered a payload that breaks its format. Others (timeouts, 5xx, refused
 * connections) are left as they are: the job is retried.
 */
export function jobFailure(error: unknown): unknown {
  const refused = error instanceof UpstreamError && error.status !== null && error.status >= 400 && error.status < 500;
  return refused || error instanceof UpstreamPayloadError ? new UnrecoverableError((error as Error).message) : error;
}
