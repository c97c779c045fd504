import { v7 } from 'uuid';
import { Decimal, draftFromEntry, FeeSchedule, type EntryRequest, type TransactionDraft } from '@ledger/core/posting';

/** A realistic mix of upstream activity: funding, trades, income and tax. */
const MIX: Array<[share: number, make: (i: number, customer: string) => EntryRequest]> = [
  [
    0.3,
    (i, c) => ({
      txn_type: 'deposit',
      customer_id: c,
      source: 'usbroker',
      source_txn_id: `bench-${i}`,
      txn_date: day(i),
      amount_usd: amount(i, 5000),
    }),
  ],
  [
    0.3,
    (i, c) => ({
      txn_type: 'buy_security',
      customer_id: c,
      source: 'usbroker',
      source_txn_id: `bench-${i}`,
      txn_date: day(i),
      amount_usd: amount(i, 2000),
      symbol: symbol(i),
      quantity: '3',
    }),
  ],
  [
    0.2,
    (i, c) => ({
      txn_type: 'sell_security',
      customer_id: c,
      source: 'usbroker',
      source_txn_id: `bench-${i}`,
      txn_date: day(i),
      amount_usd: amount(i, 1500),
      symbol: symbol(i),
      quantity: '1',
    }),
  ],
  [
    0.1,
    (i, c) => ({
      txn_type: 'dividend',
      customer_id: c,
      source: 'usbroker',
      source_txn_id: `bench-${i}`,
      txn_date: day(i),
      amount_usd: amount(i, 40),
      symbol: symbol(i),
    }),
  ],
  [
    0.1,
    (i, c) => ({
      txn_type: 'wht_tax',
      customer_id: c,
      source: 'usbroker',
      source_txn_id: `bench-${i}`,
      txn_date: day(i),
      amount_usd: amount(i, 10),
      symbol: symbol(i),
    }),
  ],
];

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'TSLA', 'META', 'VOO'];
const symbol = (i: number) => SYMBOLS[i % SYMBOLS.length] as string;
const day = (i: number) => `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
/** Deterministic cents in (0, max]: same run, same books. */
const amount = (i: number, max: number) => new Decimal(((i * 7_919) % (max * 100)) + 1).dividedBy(100).toString();

export const customerId = (i: number, customers: number) => `BENCH-${i % customers}`;

/** What operators enter by hand most: customers' deposits and withdrawals. */
export function fundingEntry(i: number, customers: number): EntryRequest {
  const txn_type = i % 10 < 7 ? 'deposit' : 'withdrawal';
  return {
    txn_type,
    customer_id: customerId(i, customers),
    source: 'manual',
    source_txn_id: `bench-${i}`,
    txn_date: day(i),
    amount_usd: amount(i, 500),
  };
}

export function entry(i: number, customers: number): EntryRequest {
  const pick = (i * 0.618_033_988_75) % 1;
  let acc = 0;
  for (const [share, make] of MIX) {
    acc += share;
    if (pick < acc) return make(i, customerId(i, customers));
  }
  return (MIX[0] as (typeof MIX)[number])[1](i, customerId(i, customers));
}

/**
 * The order a batch reaches bulk posting in: `by_customer` as the product's posters give it (the
 * sync jobs' posting kit batches whole customers, and recost posts a group's derivations in
 * customer order), each customer's drafts together in their own order; `interleaved` customers
 * round-robin, the worst order for the indexes keyed by customer.
 */
export type PostingOrder = 'by_customer' | 'interleaved';

/** The numbers `first`…`first + count - 1` in `order` (a customer is its number modulo `customers`). */
function numbered(count: number, customers: number, first: number, order: PostingOrder): number[] {
  const numbers = Array.from({ length: count }, (_, i) => first + i);
  return order === 'interleaved' ? numbers : numbers.sort((a, b) => (a % customers) - (b % customers) || a - b);
}

/**
 * `count` drafts of the mix, numbered from `first` (so a large book can be posted a slice at a
 * time), made in `order` (made so, not sorted after, as a poster's are); all dated `on` if given.
 */
export function drafts(
  count: number,
  customers: number,
  first = 0,
  on?: string,
  order: PostingOrder = 'interleaved',
): TransactionDraft[] {
  const policy = { feeSchedule: new FeeSchedule(new Decimal(22)) };
  return numbered(count, customers, first, order).map((i) =>
    draftFromEntry({ ...entry(i, customers), ...(on !== undefined && { txn_date: on }) }, v7(), policy),
  );
}

/**
 * One opening deposit per customer, ample for any run: manual entry checks the funds of every
 * wallet debit (a buy, a fee, a withdrawal), so a timed run of entries starts from funded
 * wallets, as a live book's customers are, and measures posting, not refusals.
 */
export function openingDeposits(customers: number): TransactionDraft[] {
  const policy = { feeSchedule: new FeeSchedule(new Decimal(22)) };
  return Array.from({ length: customers }, (_, i) =>
    draftFromEntry(
      {
        txn_type: 'deposit',
        customer_id: customerId(i, customers),
        source: 'manual',
        source_txn_id: `opening-${i}`,
        txn_date: '2026-01-01',
        amount_usd: '10000000.00',
      },
      v7(),
      policy,
    ),
  );
}
