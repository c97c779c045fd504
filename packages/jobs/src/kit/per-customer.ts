import pLimit from 'p-limit';
import {
  assert,
  CALENDAR_DATE_PATTERN_SOURCE,
  CALENDAR_DATE_RULE,
  CUSTOMER_ID_PATTERN_SOURCE,
  CUSTOMER_ID_RULE,
  isCalendarDate,
  LedgerError,
} from '@ledger/core/posting';
import { customersLinkedBy, type CustomerReference, type Db } from '@ledger/core/store';
import {
  RemitPageCapError,
  UaefeedRejectedError,
  UpstreamError,
  UpstreamPayloadError,
  UsbrokerPageCapError,
} from '@ledger/upstream-clients';
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import {
  isCustomerRefusalCode,
  ledgerErrorDetail,
  reason,
  reasonText,
  type CustomerFailure,
  type CustomerFailureReason,
} from './results.js';

/** The most customers one run may name. */
export const CUSTOMER_IDS_MAX = 10_000;

/** A ledger customer id in a job's body: the domain's alphabet (the api refuses the rest with 400 too). */
export const customerId = z.string().regex(new RegExp(CUSTOMER_ID_PATTERN_SOURCE), `must be ${CUSTOMER_ID_RULE}`);

/** `customer_ids` of every sync job (spec: Jobs): ledger customer ids; null or absent means all (each job says which). */
export const customerIdsField = z.array(customerId).min(1).max(CUSTOMER_IDS_MAX).nullable().optional();

/**
 * A day in a job's body (from, to, as_of, start, end): the domain's isCalendarDate, so a job
 * refuses the days the api and the ledger refuse; `format: date` has the api refuse them with 400.
 */
export const calendarDate = z
  .string()
  // Aborting: a body's own checks (a window's length) then never see a day that is not one.
  .regex(new RegExp(CALENDAR_DATE_PATTERN_SOURCE), { message: `must be ${CALENDAR_DATE_RULE}`, abort: true })
  .refine(isCalendarDate, { message: `must be ${CALENDAR_DATE_RULE}`, abort: true })
  .meta({ format: 'date' });

/** A month in a job's body, `YYYY-MM`, of the years a calendar date may have (a pattern: the api checks it too). */
export const calendarMonth = z
  .string()
  .regex(/^(19|20|21)[0-9]{2}-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM between 1900 and 2199');

/** A linked customer of the run: its ledger id and its reference at the upstream. */
export interface LinkedCustomer {
  customerId: string;
  reference: string;
}

/** A linked customer's ledger id (forEachCustomer's `idOf`). */
export const idOfLinked = (customer: LinkedCustomer) => customer.customerId;

/**
 * The run's customers: those `customerIds` names (or every linked one), each with its upstream
 * reference. A named customer the book does not know, or that has no such reference, fails with
 * `not_linked` (India: provision-india links them; UAE: `PUT /v1/customers/{id}`).
 */
export async function selectCustomers(
  db: Db,
  reference: CustomerReference,
  customerIds: readonly string[] | null | undefined,
): Promise<{ customers: LinkedCustomer[]; failed: CustomerFailure[] }> {
  const ids = customerIds === undefined || customerIds === null ? null : [...new Set(customerIds)];
  const customers = await customersLinkedBy(db, reference, ids);
  const found = new Set(customers.map((c) => c.customerId));
  const failed = (ids ?? [])
    .filter((id) => !found.has(id))
    .map((id) => ({
      customer_id: id,
      reason: reason('not_linked', { reference, message: `the book has no customer ${id} with a ${reference}` }),
    }));
  return { customers, failed };
}

/** Every customer failed: the upstream is not configured for this book. */
export function notConfigured(customers: readonly LinkedCustomer[], upstream: string): CustomerFailure[] {
  const why = reason('upstream_not_configured', { upstream, message: `${upstream} is not configured on this book` });
  return customers.map((c) => ({ customer_id: c.customerId, reason: why }));
}

/**
 * Each linked customer's work with an upstream client (forEachCustomer, progress in customers),
 * or, the upstream not configured on this book, every customer failed as such, nothing asked.
 */
export async function forEachLinked<Client, T>(
  customers: readonly LinkedCustomer[],
  upstream: string,
  client: Client | null | undefined,
  work: (client: Client, customer: LinkedCustomer) => Promise<T>,
  progress: (progress: { done: number; total: number; unit: string }) => void,
): Promise<{ done: Array<{ customer: LinkedCustomer; value: T }>; failed: CustomerFailure[] }> {
  if (client === null || client === undefined) return { done: [], failed: notConfigured(customers, upstream) };
  return forEachCustomer(
    customers,
    idOfLinked,
    (customer) => work(client, customer),
    (done) => progress({ done, total: customers.length, unit: 'customers' }),
  );
}

/** Customers worked on at once, by every sync job: enough to hide latency, few enough to spare the upstream. */
export const CUSTOMER_CONCURRENCY = 8;

/** The call that failed, as every upstream failure's detail names it: its path from the base URL, no query string, no host. */
const callOf = (call: { upstream: string; method: string; path: string }) => ({
  upstream: call.upstream,
  method: call.method,
  path: `/${call.path}`,
});

/**
 * The facts of an upstream call that failed, as a customer failure's detail: the upstream, the
 * method and the path (its client keeps neither query string nor host: no credential), the
 * status (null: no answer), the attempts, the network error's code, the upstream's own account
 * of the error (redacted by its client), and the error's message.
 */
export function upstreamCallFacts(error: UpstreamError): Record<string, unknown> {
  return {
    ...callOf(error),
    status: error.status,
    failure: error.failure,
    attempts: error.attempts,
    // The network or parser error's code (ECONNREFUSED, ETIMEDOUT); an HTTP status is its own field.
    ...(error.code !== null && error.failure !== 'http_status' && { error_code: error.code }),
    ...(error.detail !== null && { upstream_error: error.detail }),
    message: error.message,
  };
}

/**
 * Why an upstream call failed, as a customer failure's reason, or null when the error is not an
 * upstream's. `upstream_unavailable`: a timeout, a 5xx, a refused connection (after the client's
 * own retries); `upstream_refused`: a 4xx or an envelope's rejection; `upstream_bad_payload`: an
 * answer its format refuses; `upstream_page_cap`: more pages than a run may follow.
 */
export function upstreamFailure(error: unknown): CustomerFailureReason | null {
  if (error instanceof UpstreamError) {
    const refused = error.status !== null && error.status >= 400 && error.status < 500;
    return reason(refused ? 'upstream_refused' : 'upstream_unavailable', upstreamCallFacts(error));
  }
  if (error instanceof UaefeedRejectedError)
    return reason('upstream_refused', {
      ...callOf(error),
      reject_code: error.rejectCode,
      ...(error.reason !== null && { reject_reason: error.reason }),
      message: error.message,
    });
  if (error instanceof UpstreamPayloadError)
    return reason('upstream_bad_payload', {
      ...callOf(error),
      field: error.field,
      problem: error.problem,
      message: error.message,
    });
  if (error instanceof RemitPageCapError || error instanceof UsbrokerPageCapError)
    return reason('upstream_page_cap', {
      ...callOf({
        upstream: error instanceof RemitPageCapError ? 'remit' : 'usbroker',
        method: 'GET',
        path: error.path,
      }),
      page_cap: error.pageCap,
      ...(error instanceof UsbrokerPageCapError && { last_id: error.lastId }),
      message: error.message,
    });
  return null;
}

/**
 * upstreamFailure in one line, `<code>: <message>`, for what reports an upstream's failure as
 * prose (held quotes' `error`, a daily ledger's `dates_failed`), or null.
 */
export function upstreamFailureReason(error: unknown): string | null {
  const failure = upstreamFailure(error);
  return failure === null ? null : reasonText(failure);
}

/**
 * Why a customer's work failed, when the failure is that customer's alone: an upstream's (see
 * upstreamFailure), or the ledger's refusal of that customer (CUSTOMER_REFUSAL_CODES: any other
 * code here is a bug, asserted). Null for anything else (the database gone, a bug): the job
 * fails, and a transient failure is retried (every job is idempotent on database keys).
 */
function customerFailureOf(error: unknown): CustomerFailureReason | null {
  if (error instanceof LedgerError) {
    assert(isCustomerRefusalCode(error.code), `${error.code} is no customer failure code of docs/outcomes.md`);
    return reason(error.code, ledgerErrorDetail(error));
  }
  return upstreamFailure(error);
}

/** Runs `work` for each item, `concurrency` at a time, reporting how many are done after each. */
export async function forEach<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  done: (count: number) => void,
): Promise<void> {
  let next = 0;
  let finished = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
      done(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

/**
 * `client` with at most `limit` of its calls in flight at once, across everything that uses it:
 * a run's reads of many customers share one bound on the upstream, and a call waits its turn in
 * the order it was made.
 */
export function withCallsAtOnce<C extends object>(client: C, limit: number): C {
  assert(Number.isInteger(limit) && limit >= 1, 'a bound on calls in flight is a whole number from 1');
  const call = pLimit(limit);
  return Object.fromEntries(
    Object.entries(client).map(([name, method]) => [
      name,
      typeof method === 'function'
        ? (...args: unknown[]) => call(() => (method as (...a: unknown[]) => Promise<unknown>).apply(client, args))
        : method,
    ]),
  ) as C;
}

/** The ledger id of a customer given as a record with `customer_id` (forEachCustomer's `idOf`). */
export const idOfRecord = (customer: { customer_id: string }) => customer.customer_id;

/**
 * Runs `work` for each customer, CUSTOMER_CONCURRENCY at a time, isolating each customer's
 * failure (customerFailureOf); reports progress in customers. Answers each customer's value
 * and the failures, both in the customers' order.
 */
export async function forEachCustomer<C, T>(
  customers: readonly C[],
  idOf: (customer: C) => string,
  work: (customer: C) => Promise<T>,
  progress: (done: number, total: number) => void = () => {},
): Promise<{ done: Array<{ customer: C; value: T }>; failed: CustomerFailure[] }> {
  const outcomes = new Map<C, { value: T } | { reason: CustomerFailureReason }>();
  progress(0, customers.length);
  await forEach(
    customers,
    CUSTOMER_CONCURRENCY,
    async (customer) => {
      try {
        outcomes.set(customer, { value: await work(customer) });
      } catch (error) {
        const reason = customerFailureOf(error);
        if (reason === null) throw error;
        outcomes.set(customer, { reason });
      }
    },
    (done) => progress(done, customers.length),
  );
  const done: Array<{ customer: C; value: T }> = [];
  const failed: CustomerFailure[] = [];
  for (const customer of customers) {
    const outcome = outcomes.get(customer);
    assert(outcome !== undefined, 'every customer of the run was worked on');
    if ('reason' in outcome) failed.push({ customer_id: idOf(customer), reason: outcome.reason });
    else done.push({ customer, value: outcome.value });
  }
  return { done, failed };
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
