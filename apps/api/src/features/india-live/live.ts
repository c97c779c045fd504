import { Decimal, formatDecimal, roundToCents, ZERO } from '@ledger/core/posting';

/*
 * What every live India report shares: the book's India customers, a customer's live read
 * (value or error), and the per-customer statuses. The reports are pure functions of these
 * (one file per report); handlers.ts reads the ledger (ledger.ts) and the upstreams
 * (upstream.ts) and hands the data over.
 */

/** A firm-wide read (remit), with when it was answered, or why there is none (not configured, unreachable, the UAE book). */
export type FirmRead<T> = { value: T; fetchedAt: string } | { unavailable: string };

/** A customer of the India book with the references the live reports follow. */
export interface IndiaCustomer {
  customer_id: string;
  /** usbroker account; null: the customer is `no_link` for the broker reports. */
  account_no: string | null;
  remit_customer_id: string | null;
  pan: string | null;
}

/** One customer's live read: its value, or why it could not be had (that customer's `error`). */
export type LiveRead<T> = { value: T; error?: undefined } | { error: string; value?: undefined };

/** A customer's cash wallet and positions in the ledger (USD). */
export interface LedgerHoldings {
  /** What wallet 2010 owes the customer. */
  cash: Decimal;
  /** Per symbol: shares held (buys − sells, reversals undone) and cost still held (2100: FIFO lots, fees excluded). */
  positions: ReadonlyMap<string, { quantity: Decimal; cost: Decimal }>;
}

export const NO_HOLDINGS: LedgerHoldings = { cash: ZERO, positions: new Map() };

/** Money out (USD or INR): rounded to the cent or paisa, at least two places. */
export const cents = (amount: Decimal | string) => formatDecimal(roundToCents(new Decimal(amount)));
/** A quantity out, as many places as it has. */
export const qty = (amount: Decimal | string) => new Decimal(amount).toFixed();

export const sum = (values: Iterable<Decimal | string>) => {
  let total = ZERO;
  for (const value of values) total = total.plus(value);
  return total;
};

/** How many of `items` fall in each of `keys` (every key present, zero when none). */
export function countBy<K extends string>(keys: readonly K[], items: Iterable<{ status: K }>): Record<K, number> {
  const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const item of items) counts[item.status] += 1;
  return counts;
}
