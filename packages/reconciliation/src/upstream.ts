import { UpstreamError, UpstreamPayloadError } from '@ledger/upstream-clients';

/** Customers whose upstream is read at once by a category C check: enough to hide latency, few enough to spare the upstream. */
export const UPSTREAM_CONCURRENCY = 4;

export type CustomerRead<C, T> = { customer: C; value: T; error?: undefined } | { customer: C; error: string; value?: undefined };

/**
 * Reads each customer's upstream, UPSTREAM_CONCURRENCY at a time, each on its own: one that
 * fails (down, refused, nonsense) is that customer's error, and the others carry on.
 */
export async function readPerCustomer<C, T>(customers: readonly C[], read: (customer: C) => Promise<T>): Promise<Array<CustomerRead<C, T>>> {
  const reads: Array<CustomerRead<C, T>> = new Array(customers.length);
  let next = 0;
  const lane = async () => {
    while (next < customers.length) {
      const index = next++;
      const customer = customers[index]!;
      try {
        reads[index] = { customer, value: await read(customer) };
      } catch (error) {
        reads[index] = { customer, error: upstreamFailureReasonOf(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(UPSTREAM_CONCURRENCY, customers.length) }, lane));
  return reads;
}


/** Why an upstream read failed, in words an operator can act on (never credentials: UpstreamError carries none). */
export function upstreamFailureReasonOf(error: unknown): string {
  if (error instanceof UpstreamError) return `${error.status !== null && error.status < 500 ? 'refused' : 'unreachable'}: ${error.message}`;
  if (error instanceof UpstreamPayloadError) return `answered nonsense: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
