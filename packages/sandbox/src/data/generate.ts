import { CURRENCIES, FEE_BPS, priceOn, securitiesIn, securityOf, type Currency } from './catalog.js';
import { fromDayNumber, toDayNumber } from './dates.js';
import { basisPoints, formatMinor } from './money.js';
import { createRandom, type Random } from './random.js';
import { createIndiaDataset, type IndiaDataset } from './india-views.js';
import { dataConfig, isPlantedException, periodOf, type SandboxDataConfig } from './config.js';

/**
 * The sandbox's data set: a pure function of its config. Each customer's records come from a
 * random source seeded by (seed, customer index) alone, so one customer is generated without
 * the others (lazily, on first request) and always the same way.
 */

/** A customer as the registry (`GET /v1/uae/customers`, ours) lists it. */
export interface RegistryCustomer {
  customer_id: string;
  name: string;
  uaefeed_customer_number: string;
  uaefeed_account_number: string;
  /** `<customer number>-AED`, `<customer number>-USD`: the suffix names the currency. */
  uaefeed_cash_accounts: string[];
  custodian_account: string;
}

/** A cash transfer in uaefeed's record format (amount a decimal string here, a JSON number on the wire). */
export interface SandboxTransfer {
  transferId: string;
  cashAccountNumber: string;
  type: 'DEPOSIT' | 'WITHDRAW';
  amount: string;
  /** EUR only on the planted exception's deposit (`SandboxDataConfig.plantedException`). */
  currency: Currency | 'EUR';
  status: 'COMPLETED' | 'REJECTED';
  valueDate: string;
}

/** An order in uaefeed's record format; `netSettle` bundles the fee (BUY: gross + fee; SELL: gross − fee). */
export interface SandboxOrder {
  clOrdId: string;
  orderId: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  ordQty: string;
  cumQty: string;
  avgPx: string | null;
  netSettle: string;
  ordStatus: 'FILLED' | 'CANCELLED' | 'REJECTED';
  tradeDate: string;
  currency: Currency;
  exchange: string;
}

/** A completed movement of a cash account: what statements, holdings and the custodian are built from. */
export interface SandboxMovement {
  /** Order of the customer's records, from 1: transfers and orders share it. */
  seq: number;
  date: string;
  currency: Currency;
  kind: 'DEPOSIT' | 'WITHDRAW' | 'BUY' | 'SELL';
  /** The uaefeed record: transferId or orderId. */
  ref: string;
  /** Signed: into the cash account > 0, out of it < 0 (net of the fee for orders). */
  cashMinor: bigint;
  symbol: string | null;
  /** Signed: bought > 0, sold < 0. */
  qty: bigint | null;
  priceMinor: bigint | null;
  grossMinor: bigint;
  feeMinor: bigint;
}

export interface CustomerData {
  /** From 1. */
  index: number;
  customer: RegistryCustomer;
  /** Every transfer and order (chronological, by `seq`); REJECTED and CANCELLED ones moved nothing. */
  transfers: SandboxTransfer[];
  orders: SandboxOrder[];
  /** The completed ones, chronological. */
  movements: SandboxMovement[];
}

const FIRST_NAMES = [
  'Aisha',
  'Omar',
  'Fatima',
  'Khalid',
  'Mariam',
  'Yousef',
  'Layla',
  'Hamdan',
  'Noura',
  'Rashid',
  'Priya',
  'Arjun',
  'Sara',
  'James',
  'Elena',
  'Wei',
];
const LAST_NAMES = [
  'Al Mansoori',
  'Al Nuaimi',
  'Haddad',
  'Khan',
  'Rahman',
  'Al Suwaidi',
  'Nair',
  'Menon',
  'Smith',
  'Ivanova',
  'Chen',
  'Farouk',
  'Al Marri',
  'Qasim',
];

const CUSTOMER_NUMBER_BASE = 7_000_000;

export function customerNumberOf(index: number): string {
  return String(CUSTOMER_NUMBER_BASE + index);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** The registry entry of customer `index` (from 1): cheap, without its records. */
export function registryCustomer(config: SandboxDataConfig, index: number): RegistryCustomer {
  const random = createRandom(`${config.seed}:name:${index}`);
  const number = customerNumberOf(index);
  return {
    customer_id: `UAE-${pad(index, 6)}`,
    name: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
    uaefeed_customer_number: number,
    uaefeed_account_number: `${number}-01`,
    uaefeed_cash_accounts: CURRENCIES.map((currency) => `${number}-${currency}`),
    custodian_account: `CUS-${pad(index, 6)}`,
  };
}

/** Probabilities, in percent. */
const REJECTED_TRANSFER_PCT = 8;
const UNFILLED_ORDER_PCT = 5;

interface State {
  cash: Record<Currency, bigint>;
  held: Map<string, bigint>;
}

type Kind = 'deposit' | 'withdraw' | 'buy' | 'sell';
/** What to try when a kind is not possible (no cash to withdraw, nothing to sell). */
const FALLBACKS: Record<Kind, Kind[]> = {
  deposit: ['deposit'],
  withdraw: ['withdraw', 'deposit'],
  buy: ['buy', 'deposit'],
  sell: ['sell', 'buy', 'deposit'],
};

function chooseKind(random: Random): Kind {
  const r = random.int(0, 99);
  return r < 20 ? 'deposit' : r < 32 ? 'withdraw' : r < 70 ? 'buy' : 'sell';
}

/** A share of `value` between `minPct` and `maxPct` percent. */
function share(random: Random, value: bigint, minPct: number, maxPct: number): bigint {
  return (value * BigInt(random.int(minPct, maxPct))) / 100n;
}

/**
 * The records of customer `index` (from 1): a pure function of (config, index). Cash never goes
 * negative and nothing is sold that is not held; REJECTED transfers and unfilled orders move
 * nothing.
 */
export function generateCustomerData(config: SandboxDataConfig, index: number): CustomerData {
  const customer = registryCustomer(config, index);
  const random = createRandom(`${config.seed}:records:${index}`);
  const period = periodOf(config);
  const firstDay = toDayNumber(period.from);
  const days = toDayNumber(period.to) - firstDay;
  const dates = Array.from({ length: config.recordsPerCustomer }, () => firstDay + random.int(0, days))
    .sort((a, b) => a - b)
    .map(fromDayNumber);

  const g: Generation = {
    config,
    random,
    number: customer.uaefeed_customer_number,
    state: { cash: { AED: 0n, USD: 0n }, held: new Map() },
    data: { index, customer, transfers: [], orders: [], movements: [] },
  };
  const attempts = attemptsOf(g);
  dates.forEach((date, k) => {
    const seq = k + 1;
    const kind: Kind = k === 0 ? 'deposit' : chooseKind(random);
    for (const attempt of FALLBACKS[kind]) if (attempts[attempt](seq, date)) return;
  });
  if (isPlantedException(config, index)) {
    // After every other record, so the rest of the customer's data is the same with or without it.
    const seq = config.recordsPerCustomer + 1;
    g.data.transfers.push({
      transferId: recordId(g, 'TRF', seq),
      cashAccountNumber: `${g.number}-EUR`,
      type: 'DEPOSIT',
      amount: '750.00',
      currency: 'EUR',
      status: 'COMPLETED',
      valueDate: period.to,
    });
  }
  return g.data;
}

/** One customer's records being generated: its random stream, its running cash and holdings, what is recorded so far. */
interface Generation {
  config: SandboxDataConfig;
  random: Random;
  /** The uaefeed customer number, in every record id. */
  number: string;
  state: State;
  data: CustomerData;
}

const recordId = (g: Generation, prefix: string, seq: number) =>
  `${prefix}-${g.config.seed}-${g.number}-${pad(seq, 5)}`;

/**
 * Each kind of record tried on a day: false when the customer cannot (no cash to withdraw or
 * buy with, nothing to sell), so the next of its FALLBACKS is tried.
 */
function attemptsOf(g: Generation): Record<Kind, (seq: number, date: string) => boolean> {
  const { config, random, state } = g;
  return {
    deposit(seq, date) {
      const currency: Currency = random.chance(0.65) ? 'AED' : 'USD';
      const amount =
        currency === 'AED' ? BigInt(random.int(1_000_00, 50_000_00)) : BigInt(random.int(500_00, 20_000_00));
      recordTransfer(g, { seq, date, type: 'DEPOSIT', currency, amount });
      return true;
    },
    withdraw(seq, date) {
      const funded = CURRENCIES.filter((c) => state.cash[c] >= 100_00n);
      if (funded.length === 0) return false;
      const currency = random.pick(funded);
      recordTransfer(g, { seq, date, type: 'WITHDRAW', currency, amount: share(random, state.cash[currency], 10, 60) });
      return true;
    },
    buy(seq, date) {
      const funded = CURRENCIES.filter((c) => state.cash[c] >= 50_00n);
      if (funded.length === 0) return false;
      const currency = random.pick(funded);
      const security = random.pick(securitiesIn(currency));
      const price = priceOn(config.seed, security.symbol, date);
      const budget = share(random, state.cash[currency], 10, 60);
      // The most shares the budget buys with the fee on top.
      const qtyMax = (budget * 10_000n) / (price * (10_000n + FEE_BPS[currency]));
      if (qtyMax < 1n) return false;
      const qty = BigInt(random.int(1, Number(qtyMax > 100_000n ? 100_000n : qtyMax)));
      recordOrder(g, { seq, date, side: 'BUY', symbol: security.symbol, qty });
      return true;
    },
    sell(seq, date) {
      const held = [...state.held.entries()]
        .filter(([, qty]) => qty > 0n)
        .map(([symbol]) => symbol)
        .sort();
      if (held.length === 0) return false;
      const symbol = random.pick(held);
      const heldQty = state.held.get(symbol) ?? 0n;
      const qty = BigInt(random.int(1, Number(heldQty > 100_000n ? 100_000n : heldQty)));
      recordOrder(g, { seq, date, side: 'SELL', symbol, qty });
      return true;
    },
  };
}

/** A cash transfer; one REJECTED (a share of them, at random) moves no cash. */
function recordTransfer(
  g: Generation,
  t: { seq: number; date: string; type: 'DEPOSIT' | 'WITHDRAW'; currency: Currency; amount: bigint },
) {
  const { seq, date, type, currency, amount } = t;
  const rejected = g.random.chance(REJECTED_TRANSFER_PCT / 100);
  const transferId = recordId(g, 'TRF', seq);
  g.data.transfers.push({
    transferId,
    cashAccountNumber: `${g.number}-${currency}`,
    type,
    amount: formatMinor(amount),
    currency,
    status: rejected ? 'REJECTED' : 'COMPLETED',
    valueDate: date,
  });
  if (rejected) return;
  const cashMinor = type === 'DEPOSIT' ? amount : -amount;
  g.state.cash[currency] += cashMinor;
  g.data.movements.push({
    seq,
    date,
    currency,
    kind: type,
    ref: transferId,
    cashMinor,
    symbol: null,
    qty: null,
    priceMinor: null,
    grossMinor: amount,
    feeMinor: 0n,
  });
}

/** An order; one unfilled (a share of them, at random: rejected or cancelled) moves neither cash nor shares. */
function recordOrder(
  g: Generation,
  o: { seq: number; date: string; side: 'BUY' | 'SELL'; symbol: string; qty: bigint },
) {
  const { seq, date, side, symbol, qty } = o;
  const security = securityOf(symbol);
  const orderId = recordId(g, 'ORD', seq);
  const base = {
    clOrdId: recordId(g, 'CL', seq),
    orderId,
    symbol,
    side,
    ordQty: qty.toString(),
    tradeDate: date,
    currency: security.currency,
    exchange: security.exchange,
  };
  if (g.random.chance(UNFILLED_ORDER_PCT / 100)) {
    const ordStatus = g.random.chance(0.5) ? 'REJECTED' : 'CANCELLED';
    g.data.orders.push({ ...base, cumQty: '0', avgPx: null, netSettle: '0.00', ordStatus });
    return;
  }
  const priceMinor = priceOn(g.config.seed, symbol, date);
  const grossMinor = priceMinor * qty;
  const feeMinor = basisPoints(grossMinor, FEE_BPS[security.currency]);
  const net = side === 'BUY' ? grossMinor + feeMinor : grossMinor - feeMinor;
  g.data.orders.push({
    ...base,
    cumQty: qty.toString(),
    avgPx: formatMinor(priceMinor),
    netSettle: formatMinor(net),
    ordStatus: 'FILLED',
  });
  const cashMinor = side === 'BUY' ? -net : net;
  const signedQty = side === 'BUY' ? qty : -qty;
  g.state.cash[security.currency] += cashMinor;
  g.state.held.set(symbol, (g.state.held.get(symbol) ?? 0n) + signedQty);
  g.data.movements.push({
    seq,
    date,
    currency: security.currency,
    kind: side,
    ref: orderId,
    cashMinor,
    symbol,
    qty: signedQty,
    priceMinor,
    grossMinor,
    feeMinor,
  });
}

/** Customers kept generated at once; beyond it the least recently used is dropped (it regenerates the same). */
const CACHE_CUSTOMERS_MAX = 5_000;

export interface SandboxDataset {
  readonly config: SandboxDataConfig;
  readonly period: { from: string; to: string };
  /** Every registry entry, in index order. */
  readonly customers: readonly RegistryCustomer[];
  /** The customer named by any of its identifiers: customer_id, uaefeed customer number or account, a cash account, custodian account. */
  find(identifier: string): RegistryCustomer | undefined;
  /** The customer's records (generated on first use). */
  dataOf(customer: RegistryCustomer): CustomerData;
  /** Transfers + orders in the whole data set. */
  readonly recordCount: number;
  /** The India book's customers and records (usbroker, remit). */
  readonly india: IndiaDataset;
}

export function createDataset(partial: Partial<SandboxDataConfig> = {}): SandboxDataset {
  const config = dataConfig(partial);
  const customers = Array.from({ length: config.customers }, (_, i) => registryCustomer(config, i + 1));
  const byIdentifier = new Map<string, RegistryCustomer>();
  const indexOf = new Map(customers.map((customer, i) => [customer.customer_id, i + 1]));
  for (const customer of customers) {
    for (const key of [
      customer.customer_id,
      customer.uaefeed_customer_number,
      customer.uaefeed_account_number,
      customer.custodian_account,
      ...customer.uaefeed_cash_accounts,
    ]) {
      byIdentifier.set(key, customer);
    }
  }
  const cache = new Map<string, CustomerData>();
  return {
    config,
    period: periodOf(config),
    customers,
    find: (identifier) => byIdentifier.get(identifier),
    dataOf(customer) {
      const cached = cache.get(customer.customer_id);
      if (cached !== undefined) {
        cache.delete(customer.customer_id);
        cache.set(customer.customer_id, cached);
        return cached;
      }
      const index = indexOf.get(customer.customer_id);
      if (index === undefined) throw new Error(`sandbox: ${customer.customer_id} is not a customer of this data set`);
      const data = generateCustomerData(config, index);
      cache.set(customer.customer_id, data);
      if (cache.size > CACHE_CUSTOMERS_MAX) cache.delete(cache.keys().next().value as string);
      return data;
    },
    recordCount: config.customers * config.recordsPerCustomer,
    india: createIndiaDataset(config),
  };
}
