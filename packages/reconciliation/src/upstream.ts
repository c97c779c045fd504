import { Decimal, formatDecimal } from '@ledger/core/posting';
import type { WalletBalance } from '@ledger/core/reports';
import type { Db } from '@ledger/core/store';
import { UpstreamError, UpstreamPayloadError, type UpstreamClients } from '@ledger/upstream-clients';
import { variance, type CheckOutcome, type Variance } from './check.js';
import { matchShares } from './matchers/shares.js';

/** Customers whose upstream is read at once by a category C check: enough to hide latency, few enough to spare the upstream. */
export const UPSTREAM_CONCURRENCY = 4;

export type CustomerRead<C, T> =
  { customer: C; value: T; error?: undefined } | { customer: C; error: string; value?: undefined };

/**
 * Reads each customer's upstream, `concurrency` at a time (UPSTREAM_CONCURRENCY unless given),
 * each on its own: one that fails (down, refused, nonsense) is that customer's error, and the
 * others carry on.
 */
export async function readPerCustomer<C, T>(
  customers: readonly C[],
  read: (customer: C) => Promise<T>,
  concurrency = UPSTREAM_CONCURRENCY,
): Promise<Array<CustomerRead<C, T>>> {
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
  await Promise.all(Array.from({ length: Math.min(concurrency, customers.length) }, lane));
  return reads;
}

/** Why an upstream read failed, in words an operator can act on (never credentials: UpstreamError carries none). */
export function upstreamFailureReasonOf(error: unknown): string {
  if (error instanceof UpstreamError)
    return `${error.status !== null && error.status < 500 ? 'refused' : 'unreachable'}: ${error.message}`;
  if (error instanceof UpstreamPayloadError) return `answered nonsense: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** A linked customer as each upstream knows them: the account (or number) its reads take. */
export interface LinkedCustomer {
  custodian: { customer_id: string; account: string };
  uaefeed: { customer_id: string; customer_number: string };
  usbroker: { customer_id: string; account_no: string };
}

/** Who is linked to each upstream read customer by customer, and the setting that configures it. */
const LINKS: Record<keyof LinkedCustomer, { sql: string; name: string; setting: string }> = {
  custodian: {
    sql: `SELECT customer_id, custodian_account AS account FROM customers WHERE custodian_account IS NOT NULL ORDER BY customer_id`,
    name: 'the custodian',
    setting: 'CUSTODIAN_BASE_URL',
  },
  uaefeed: {
    sql: `SELECT customer_id, uaefeed_customer_number AS customer_number FROM customers WHERE uaefeed_customer_number IS NOT NULL ORDER BY customer_id`,
    name: 'uaefeed',
    setting: 'UAEFEED_BASE_URL',
  },
  usbroker: {
    sql: `SELECT customer_id, usbroker_account_no AS account_no FROM customers WHERE usbroker_account_no IS NOT NULL ORDER BY customer_id`,
    name: 'usbroker',
    setting: 'USBROKER_BASE_URL',
  },
};

/**
 * How every category C check starts: the customers linked to its upstream, and the upstream's
 * client. No linked customer (a book that does not use this upstream): the check is `ok`. The
 * upstream not configured: `warn` naming the setting, never `fail`.
 */
export async function linkedCustomers<U extends keyof LinkedCustomer>(
  db: Db,
  upstreams: UpstreamClients,
  upstream: U,
): Promise<
  | { linked: Array<LinkedCustomer[U]>; client: NonNullable<UpstreamClients[U]>; outcome?: undefined }
  | { outcome: CheckOutcome }
> {
  const link = LINKS[upstream];
  const linked = (await db.raw<{ rows: Array<LinkedCustomer[U]> }>(link.sql)).rows;
  if (linked.length === 0) return { outcome: { status: 'ok', metrics: { customers: 0 }, variances: [] } };
  const client = upstreams[upstream];
  if (client === null)
    return {
      outcome: {
        status: 'warn',
        metrics: {
          customers: linked.length,
          reason: `${link.name} is not configured on this book (${link.setting} unset)`,
        },
        variances: [],
      },
    };
  return { linked, client: client as NonNullable<UpstreamClients[U]> };
}

/**
 * The variance of a customer whose upstream read failed: kind `<upstream>_unreachable`, naming
 * what was asked (`asked`) and the error. Triage reads the suffix (UNREACHABLE_SUFFIX): a run that
 * could not look leaves that customer's other variances as they were.
 */
export const UNREACHABLE_SUFFIX = '_unreachable';
export const unreachableVariance = (
  upstream: keyof LinkedCustomer,
  customerId: string,
  asked: Record<string, string>,
  error: string,
): Variance =>
  variance({ customer_id: customerId, detail: { problem: `${upstream}${UNREACHABLE_SUFFIX}`, ...asked, error } });

/**
 * How a category C check that compares each linked customer ends: a customer whose read failed
 * is its `unreachable` variance; the others are compared by `compare`. `warn` when anything was
 * found (never `fail`: the upstream may be the one that is wrong), with the counts (`differ`
 * names the compared customers' variances) beside `metrics`, the variances capped at `max`.
 */
export function compareEachRead<C, T>(
  reads: ReadonlyArray<CustomerRead<C, T>>,
  check: {
    unreachable: (customer: C, error: string) => Variance;
    compare: (customer: C, value: T) => Variance[];
    differ: string;
    metrics?: Record<string, unknown>;
    max: number;
  },
): CheckOutcome {
  const variances = reads.flatMap((read) =>
    read.error !== undefined
      ? [check.unreachable(read.customer, read.error)]
      : check.compare(read.customer, read.value),
  );
  const unreachable = reads.filter((r) => r.error !== undefined).length;
  return {
    status: variances.length === 0 ? 'ok' : 'warn',
    metrics: {
      customers: reads.length,
      ...check.metrics,
      unreachable,
      [check.differ]: variances.length - unreachable,
      variances: variances.length,
    },
    variances: variances.slice(0, check.max),
  };
}

/**
 * A customer's share counts per symbol, the ledger's (`held`) against the upstream's, by the
 * holdings matcher (`matchShares`): a variance `shares_differ` for each symbol off by more than
 * `tolerance`, a symbol on one side only counting as zero on the other, in symbol order.
 */
export function sharesDiffer(
  customerId: string,
  held: ReadonlyMap<string, Decimal>,
  upstream: ReadonlyMap<string, Decimal>,
  tolerance: Decimal,
  detail: Record<string, unknown>,
): Variance[] {
  return matchShares(held, upstream, tolerance)
    .filter((row) => row.status !== 'match')
    .map((row) =>
      variance({
        customer_id: customerId,
        symbol: row.symbol,
        expected: row.ledger_quantity,
        actual: row.usbroker_quantity,
        difference: row.difference,
        detail: { problem: 'shares_differ', ...detail },
      }),
    );
}

/**
 * A customer's cash per currency, the ledger's wallets (in their own currency) against the
 * upstream's balances (`upstream`, summed per currency): a variance `cash_balance_differs` for
 * each currency off by more than `tolerance` (in that currency's units), naming the wallet
 * account, both figures and the difference (upstream − ledger). A currency on one side only
 * counts as zero on the other; one the book keeps no wallet in has no account. In currency order.
 */
export function cashBalancesDiffer(
  customerId: string,
  wallets: readonly WalletBalance[],
  upstream: ReadonlyMap<string, Decimal>,
  tolerance: Decimal,
  detail: Record<string, unknown>,
): Variance[] {
  const variances: Variance[] = [];
  for (const currency of [...new Set([...wallets.map((w) => w.currency as string), ...upstream.keys()])].sort()) {
    const wallet = wallets.find((w) => w.currency === currency);
    const expected = wallet?.balance ?? new Decimal(0);
    const actual = upstream.get(currency) ?? new Decimal(0);
    if (!actual.minus(expected).abs().isGreaterThan(tolerance)) continue;
    variances.push(
      variance({
        customer_id: customerId,
        account_code: wallet?.account_code ?? null,
        expected: formatDecimal(expected),
        actual: formatDecimal(actual),
        difference: formatDecimal(actual.minus(expected)),
        detail: { problem: 'cash_balance_differs', currency, ...detail },
      }),
    );
  }
  return variances;
}
