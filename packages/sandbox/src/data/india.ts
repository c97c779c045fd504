import { SPLITS, splitEffectiveOn, usPriceOn, type Split } from './catalog.js';
import { addMonths, firstDayOf, fromDayNumber, lastDayOf, toDayNumber } from './dates.js';
import { basisPoints, divideToDecimal, formatMinor } from './money.js';
import { createRandom, hash32, type Random } from './random.js';
import type { SandboxDataConfig } from './config.js';
import { USBROKER_DAILY_LEDGER_COLUMNS } from '@ledger/upstream-clients';

/**
 * The India book's data set: customers with PANs, remit LRS orders (quotes, payments,
 * settlements, refunds, status history) and the usbroker account each remittance funds
 * (wires, orders with fills, dividends, withholding, fees, the daily-ledger rows). A pure
 * function of (config, customer index); a running sandbox then mutates the remit objects
 * through its admin API (`advance`).
 */

export const INDIA_US_SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'SPY'] as const;
/** Real CUSIPs of the symbols (public identifiers). */
export const CUSIPS: Readonly<Record<string, string>> = {
  AAPL: '037833100',
  MSFT: '594918104',
  NVDA: '67066G104',
  JPM: '46625H100',
  SPY: '78462F103',
};

export interface IndiaCustomer {
  customer_id: string;
  name: string;
  email: string;
  pan: string;
  remit_customer_id: string;
  usbroker_account_no: string;
  partner_id: string;
  created_at: string;
}

export type RemitOrderStatus =
  'active' | 'paid' | 'failed' | 'action_required' | 'cancelled' | 'under_review' | 'expired';
export type RemitPaymentStatus = 'success' | 'failed' | 'action_required' | 'in_progress';

export interface RemitMoneyWire {
  amount: number;
  currency: string;
}
export interface RemitQuoteWire {
  id: string;
  from: RemitMoneyWire;
  to: RemitMoneyWire;
  fx_rate: string;
  bank_code: string | null;
  total_tax: string;
  expires_at: string;
  created_at: string;
}
export interface RemitOrderWire {
  id: string;
  customer_id: string;
  status: RemitOrderStatus;
  currency: 'INR';
  amount: number;
  purpose_code: string | null;
  reference_number: string | null;
  quote_id: string | null;
  created_at: string;
  updated_at: string;
  notes: Record<string, string>;
}
export interface RemitPaymentWire {
  id: string;
  customer_id: string;
  payin_id: string;
  payin_type: 'orders';
  status: RemitPaymentStatus;
  currency: 'INR';
  amount: number;
  purpose_code: string | null;
  transaction_reference_number: string | null;
  settlement_id: string | null;
  funds_available: boolean;
  payment_method: string | null;
  error_code: string | null;
  created_at: string;
  updated_at: string;
}
/** A payment of `order` just started, in progress (its customer's, at `at`): how remit shows one before it is paid or fails. */
export function paymentInProgress(
  order: RemitOrderWire,
  { id, customerId, method, at }: { id: string; customerId: string; method: string; at: string },
): RemitPaymentWire {
  return {
    id,
    customer_id: customerId,
    payin_id: order.id,
    payin_type: 'orders',
    status: 'in_progress',
    currency: 'INR',
    amount: order.amount,
    purpose_code: order.purpose_code,
    transaction_reference_number: null,
    settlement_id: null,
    funds_available: false,
    payment_method: method,
    error_code: null,
    created_at: at,
    updated_at: at,
  };
}
export interface RemitSettlementWire {
  id: string;
  status: 'settled';
  amount: number;
  currency: 'USD';
  fees: { fx_fee: RemitMoneyWire; txn_fee: RemitMoneyWire };
  utr: string | null;
  created_at: string;
  updated_at: string;
}
export interface RemitRefundWire {
  id: string;
  order_id: string;
  payment_id: string;
  amount: number;
  currency: 'INR';
  created_at: string;
}

/** A webhook event as remit would send it: `data` is the snapshot at that moment. */
export interface RemitEvent {
  entity_type: 'orders' | 'payment';
  event_type: string;
  data: RemitOrderWire | RemitPaymentWire;
}

/** One LRS order and everything hanging off it. Mutable: the admin API advances it. */
export interface Remittance {
  customer_id: string;
  order: RemitOrderWire;
  quote: RemitQuoteWire;
  payment: RemitPaymentWire | null;
  settlement: RemitSettlementWire | null;
  refund: RemitRefundWire | null;
  /** Every event in the order it happened (seeded ones, then the admin's). */
  history: RemitEvent[];
  /** The usbroker wire that carried its USD; null when none (not paid, refunded, unsettled). */
  wire_id: string | null;
}

export interface UsbrokerOrderWire {
  order_id: string;
  client_order_id: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  qty: string | null;
  notional: string | null;
  filled_qty: string;
  avg_fill_price: string | null;
  status: 'filled' | 'partially_filled' | 'cancelled' | 'rejected';
  submitted_at: string;
  filled_at: string | null;
  cost_type: 'quantity' | 'full_portfolio_cost';
}

export interface UsbrokerWireRecord {
  transfer_id: string;
  account_no: string;
  direction: 'IN' | 'OUT';
  amount: string;
  currency: 'USD';
  status: 'completed' | 'pending' | 'returned';
  value_date: string;
}

/** The daily ledger's columns, in the documented order: the client's own list (one definition of the format). */
export const DAILY_LEDGER_COLUMNS = USBROKER_DAILY_LEDGER_COLUMNS;
export type DailyLedgerColumn = (typeof DAILY_LEDGER_COLUMNS)[number];
export const EMPTY_ROW = Object.freeze(Object.fromEntries(DAILY_LEDGER_COLUMNS.map((c) => [c, ''])) as DailyLedgerRow);
/** A daily-ledger row: every column a string, `''` when not applicable. `firm_id` is filled when served. */
export type DailyLedgerRow = Record<DailyLedgerColumn, string>;

export interface IndiaCustomerData {
  index: number;
  customer: IndiaCustomer;
  account: { account_no: string; status: 'active' | 'trading_halted' | 'inactive' };
  /** Oldest first. */
  remittances: Remittance[];
  /** Ascending order_id. */
  orders: UsbrokerOrderWire[];
  /** Ascending transfer_id. */
  wires: UsbrokerWireRecord[];
  /** Cash rows, chronological (report_date order); the account's whole cash history. */
  rows: DailyLedgerRow[];
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

const FIRST = [
  'Aarav',
  'Priya',
  'Rohan',
  'Ananya',
  'Vikram',
  'Isha',
  'Karan',
  'Meera',
  'Arjun',
  'Divya',
  'Rahul',
  'Sneha',
  'Aditya',
  'Kavya',
  'Nikhil',
  'Pooja',
];
const LAST = [
  'Sharma',
  'Iyer',
  'Patel',
  'Reddy',
  'Nair',
  'Gupta',
  'Menon',
  'Kapoor',
  'Rao',
  'Joshi',
  'Mehta',
  'Bose',
  'Das',
  'Kulkarni',
];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PARTNERS = ['partner_alpha', 'partner_beta', 'partner_gamma'];
const BANKS = ['HDFC', 'ICIC', 'SBIN', 'UTIB', 'KKBK'];
const MINUTE_MS = 60_000;

function periodOf(config: SandboxDataConfig): { from: string; to: string } {
  return { from: firstDayOf(config.startMonth), to: lastDayOf(addMonths(config.startMonth, config.months - 1)) };
}

/** Customer `index` (from 1) as the registry lists it: cheap, without its records. */
export function indiaCustomer(config: SandboxDataConfig, index: number): IndiaCustomer {
  const random = createRandom(`${config.seed}:india-name:${index}`);
  const first = random.pick(FIRST);
  const last = random.pick(LAST);
  // PAN: AAAPL9999A — 3 letters, P (individual), the surname's initial, 4 digits, a letter. The first
  // three letters and the digits spell the index (unique within a seed), offset by the seed.
  const block = (hash32(`${config.seed}:pan`) + Math.floor(index / 10_000)) % (26 * 26 * 26);
  const three = LETTERS[Math.floor(block / 676)]! + LETTERS[Math.floor(block / 26) % 26]! + LETTERS[block % 26]!;
  const pan = `${three}P${last[0]!.toUpperCase()}${pad(index % 10_000, 4)}${random.pick([...LETTERS])}`;
  const createdMs = Date.parse(`${periodOf(config).from}T00:00:00Z`) - 90 * 86_400_000 + index * MINUTE_MS;
  return {
    customer_id: `IND-${pad(index, 6)}`,
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${index}@example.in`,
    pan,
    remit_customer_id: `cust_${config.seed}_${pad(index, 6)}`,
    usbroker_account_no: `USB-${pad(index, 6)}`,
    partner_id: random.pick(PARTNERS),
    created_at: iso(createdMs),
  };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const isWeekday = (day: number) => {
  const dow = new Date(day * 86_400_000).getUTCDay();
  return dow !== 0 && dow !== 6;
};

export function nextWeekday(date: string): string {
  let day = toDayNumber(date) + 1;
  while (!isWeekday(day)) day++;
  return fromDayNumber(day);
}

/** Mid rate INR→USD (USD per INR) of a day, in 1e-8 units: ±4 % around 0.0115. */
export function midRateE8(seed: number, date: string): bigint {
  return (1_150_000n * BigInt(960 + (hash32(`${seed}:mid:${date}`) % 81))) / 1000n;
}

export function formatScaled(value: bigint, places: number): string {
  const scale = 10n ** BigInt(places);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / scale}.${(abs % scale).toString().padStart(places, '0')}`;
}

/** Micro-shares → `"10"`, `"2.345678"`. */
export function formatQty(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

const E8 = 100_000_000n;

/** Shares in 1e-8 units (a reverse split's quantities go finer than a micro-share) → `"-2.1111102"`. */
function formatQtyE8(e8: bigint): string {
  const sign = e8 < 0n ? '-' : '';
  const abs = e8 < 0n ? -e8 : e8;
  const fraction = (abs % E8).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${abs / E8}${fraction === '' ? '' : `.${fraction}`}`;
}

/** `4`, `0.1`: a split's new shares per old one, as the SPLIT row's `per_share` writes it. */
function splitRatio(split: Split): string {
  return divideToDecimal(split.newShares, split.oldShares, 8).replace(/\.?0+$/, '');
}

/**
 * A split of a holding (`qtyMicro` shares costing `cost` cents) at `priceCents` a post-split
 * share: the shares it adds (negative: removes) and, for a reverse split, the fraction of a share
 * it leaves, paid in cash (rounded up to the cent, so a fraction is never paid nothing), in 1e-8
 * shares; then the holding left, its cost less the fraction's average cost. A forward split keeps
 * a fractional holding as it is (the account holds fractions).
 */
export function splitHolding(split: Split, qtyMicro: bigint, cost: bigint, priceCents: bigint) {
  const oldE8 = qtyMicro * 100n;
  if ((oldE8 * split.newShares) % split.oldShares !== 0n)
    throw new Error(`a ${splitRatio(split)} split of ${formatQty(qtyMicro)} shares is finer than 1e-8`);
  const newE8 = (oldE8 * split.newShares) / split.oldShares;
  const fractionE8 = split.newShares < split.oldShares ? newE8 % E8 : 0n;
  const left = newE8 - fractionE8;
  return {
    sharesE8: newE8 - oldE8,
    fractionE8,
    cashCents: ceilDiv(fractionE8 * priceCents, E8),
    qtyMicro: left / 100n,
    cost: left === 0n ? 0n : cost - roundDiv(cost * fractionE8, newE8),
  };
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const roundDiv = (a: bigint, b: bigint) => (a * 2n + b) / (b * 2n);

/** TCS on LRS (investment): rate and threshold by date (india-tax.md). */
const TCS_RULES = [
  { from: '2020-10-01', pct: 5n, thresholdPaise: 7_00_000_00n },
  { from: '2023-10-01', pct: 20n, thresholdPaise: 7_00_000_00n },
  { from: '2025-04-01', pct: 20n, thresholdPaise: 10_00_000_00n },
];

export function tcsPaise(date: string, priorPaise: bigint, amountPaise: bigint): bigint {
  const rule = [...TCS_RULES].reverse().find((r) => r.from <= date);
  if (rule === undefined) return 0n;
  const start = priorPaise > rule.thresholdPaise ? priorPaise : rule.thresholdPaise;
  const excess = priorPaise + amountPaise - start;
  return excess > 0n ? roundDiv(excess * rule.pct, 100n) : 0n;
}

function fyOf(date: string): string {
  const year = Number(date.slice(0, 4));
  return Number(date.slice(5, 7)) >= 4 ? String(year) : String(year - 1);
}

/** The sandbox broker's commission, in bps of principal (at least a cent). */
export const USBROKER_COMMISSION_BPS = 10n;
/** The IFSCA fee the sandbox broker passes on, in bps of principal. */
export const USBROKER_IFSCA_BPS = 1n;
/**
 * What the sandbox broker keeps of a trade in bps of principal, SEC and TAF aside (a sell's only,
 * per share and tiny): the `BROKER_COST_BPS` a book on the sandbox is configured with, so its bps
 * model is what the sandbox charges.
 */
export const USBROKER_BROKER_COST_BPS = USBROKER_COMMISSION_BPS + USBROKER_IFSCA_BPS;

/** The customer's whole fee the executed price bundles, in bps (contract: Recost revised; the book's `CUSTOMER_FEE_BPS`). */
export const USBROKER_CUSTOMER_FEE_BPS = 22n;

/**
 * The customer's fee carved out of an executed amount (cents) exactly as the book carves it
 * (jobs' buyCost and sellProceeds): a buy's shares cost `E × 10,000 / (10,000 + bps)` half up and
 * the fee is the rest; a sell's gross is the smallest `p` with `p − fee(p) = E`, `fee(p)` = bps of
 * `p` half up. So the fee the daily ledger itemises is the fee the book posts, to the cent.
 */
export function customerFeeOf(side: 'BUY' | 'SELL', executed: bigint): bigint {
  const bps = USBROKER_CUSTOMER_FEE_BPS;
  if (side === 'BUY') return executed - roundDiv(executed * 10_000n, 10_000n + bps);
  const net = (p: bigint) => p - basisPoints(p, bps);
  let p = roundDiv(executed * 10_000n, 10_000n - bps);
  while (net(p) > executed) p -= 1n;
  while (net(p) < executed) p += 1n;
  while (net(p - 1n) === executed) p -= 1n;
  return p - executed;
}

/** Fees of a trade (cents), nominal: the bundled price then puts any rounding into the commission. */
export function nominalFees(side: 'BUY' | 'SELL', principal: bigint, qtyMicro: bigint) {
  const commissionBps = basisPoints(principal, USBROKER_COMMISSION_BPS);
  const commission = commissionBps > 1n ? commissionBps : 1n;
  const ifsca = basisPoints(principal, USBROKER_IFSCA_BPS);
  const sec = side === 'SELL' ? roundDiv(principal * 278n, 10_000_000n) : 0n;
  const tafRaw = side === 'SELL' ? ceilDiv(qtyMicro * 166n, 10_000_000_000n) : 0n;
  const taf = tafRaw > 830n ? 830n : tafRaw;
  return { commission, sec, taf, ifsca };
}

type Final = 'paid' | 'refunded' | 'failed' | 'action_required' | 'cancelled' | 'under_review' | 'expired' | 'active';
type Variant = Final | 'paid_no_utr' | 'paid_no_purpose' | 'paid_settled_late' | 'paid_wire_late' | 'paid_split';

/** The second record of customer i shows variant (i − 1) mod 13: a dozen customers show them all. */
export const REMIT_SHOWCASE: readonly Variant[] = [
  'paid_split',
  'active',
  'failed',
  'action_required',
  'cancelled',
  'under_review',
  'expired',
  'refunded',
  'paid_no_utr',
  'paid_no_purpose',
  'paid_settled_late',
  'paid_wire_late',
  'paid',
];
type OtherKind = 'external_wire' | 'withdraw' | 'dividend' | 'fee';
/** The fourth record of customer i is kind (i − 1) mod 4. */
const OTHER_SHOWCASE: readonly OtherKind[] = ['external_wire', 'withdraw', 'dividend', 'fee'];

interface Draft {
  value_date: string;
  cents: bigint;
  /** A wire a day behind its settlements (`paid_wire_late`): carries nothing else. */
  late: boolean;
  remittances: Remittance[];
  transfer_id: string;
  credited: boolean;
}

/** The snapshots are flat but for an order's `notes`. */
const clone = <T extends object>(value: T): T =>
  'notes' in value ? { ...value, notes: { ...(value.notes as object) } } : { ...value };

/** The India records of customer `index` (from 1): a pure function of (config, index). */
export function generateIndiaCustomerData(config: SandboxDataConfig, index: number): IndiaCustomerData {
  const random: Random = createRandom(`${config.seed}:india:${index}`);
  const period = periodOf(config);
  const weekdays: number[] = [];
  for (let day = toDayNumber(period.from); day <= toDayNumber(period.to); day++) if (isWeekday(day)) weekdays.push(day);
  const dates = Array.from({ length: config.recordsPerCustomer }, () => weekdays[random.int(0, weekdays.length - 1)]!)
    .sort((a, b) => a - b)
    .map(fromDayNumber);
  const records = new IndiaCustomerRecords(config, index, random);
  dates.forEach((date, k) => records.recordDay(k + 1, date));
  return records.finish();
}

/**
 * One India customer's records as they are generated, day by day: the remit orders and the
 * broker account they fund (its cash and holdings running), drawn from one random stream in the
 * order the records happen (so the same config and index always give the same records).
 */
class IndiaCustomerRecords {
  private readonly S: string;
  private readonly I: string;
  private readonly account: string;
  private readonly period: { from: string; to: string };
  readonly data: IndiaCustomerData;
  /** The withholding rate on dividends, % (30: no W-8BEN). */
  private readonly wht: bigint;
  private cash = 0n;
  private readonly held = new Map<string, { qty: bigint; cost: bigint }>();
  /** Settlements' wires in, credited to the account on their value date. */
  private readonly drafts: Draft[] = [];
  private readonly wireCount = new Map<string, number>();
  /** INR paid per FY so far (for the TCS threshold). */
  private readonly fyPaid = new Map<string, bigint>();
  private lastSubmitted = 0;
  private previousDate: string;
  /** The splits not yet applied, in effective-date order: each applies before the activity of its day. */
  private readonly splits: Array<{ split: Split; on: string }>;

  constructor(
    private readonly config: SandboxDataConfig,
    private readonly index: number,
    private readonly random: Random,
  ) {
    const customer = indiaCustomer(config, index);
    this.S = String(config.seed);
    this.I = pad(index, 6);
    this.account = customer.usbroker_account_no;
    this.period = periodOf(config);
    this.previousDate = this.period.from;
    this.data = {
      index,
      customer,
      account: { account_no: this.account, status: index % 10 === 0 ? 'trading_halted' : 'active' },
      remittances: [],
      orders: [],
      wires: [],
      rows: [],
    };
    this.wht = index % 9 === 0 ? 30n : 25n;
    this.splits = SPLITS.map((split) => ({ split, on: splitEffectiveOn(split, this.period) })).sort((a, b) =>
      a.on < b.on ? -1 : a.on > b.on ? 1 : 0,
    );
  }

  /**
   * The record of day `seq`: the first two are remittances (the second shows REMIT_SHOWCASE's
   * variant), the third a buy, the fourth OTHER_SHOWCASE's kind, the rest at random; a record the
   * account cannot make (no cash, nothing held) falls back to a paid remittance.
   */
  recordDay(seq: number, date: string) {
    const { index } = this;
    this.applySplits(date);
    this.creditDrafts(date);
    if (seq === 1) this.remit(seq, date, index % 4 === 1 ? 'paid_split' : 'paid');
    else if (seq === 2) this.remit(seq, date, REMIT_SHOWCASE[(index - 1) % REMIT_SHOWCASE.length]!);
    else {
      let done = false;
      for (const kind of this.kindsOf(seq)) {
        if (kind === 'remit') {
          this.remit(seq, date, this.randomRemitVariant());
          done = true;
        } else done = this.attempt(kind, seq, date);
        if (done) break;
      }
      if (!done) this.remit(seq, date, 'paid');
    }
    this.previousDate = date;
  }

  /** The kinds of record to try on day `seq` (from the third), in order. */
  private kindsOf(seq: number): Array<AccountKind | 'remit'> {
    const { index } = this;
    if (seq === 3) return [index % 2 === 1 ? 'buy_quantity' : 'buy_fpc', 'buy_quantity', 'buy_fpc'];
    if (seq === 4) return [OTHER_SHOWCASE[(index - 1) % OTHER_SHOWCASE.length]!];
    const roll = this.random.int(0, 99);
    return roll < 25
      ? ['remit']
      : roll < 40
        ? ['buy_quantity']
        : roll < 55
          ? ['buy_fpc']
          : roll < 75
            ? ['sell']
            : roll < 85
              ? ['dividend']
              : roll < 90
                ? ['fee']
                : roll < 97
                  ? ['withdraw']
                  : ['external_wire'];
  }

  /** The records after the last day: splits up to the period's end, every settlement's wire in, each list in its order. */
  finish(): IndiaCustomerData {
    const { data } = this;
    this.applySplits(this.period.to);
    // Every paid order settles and every settlement's wire arrives, those of the period's last days after it.
    this.creditDrafts('9999-12-31');
    for (const draft of this.drafts) {
      data.wires.push({
        transfer_id: draft.transfer_id,
        account_no: this.account,
        direction: 'IN',
        amount: formatMinor(draft.cents),
        currency: 'USD',
        status: 'completed',
        value_date: draft.value_date,
      });
    }
    data.wires.sort((a, b) => (a.transfer_id < b.transfer_id ? -1 : 1));
    data.orders.sort((a, b) => (a.order_id < b.order_id ? -1 : 1));
    // Stable: rows of one day keep the order they happened in.
    data.rows.sort((a, b) => (a.report_date < b.report_date ? -1 : a.report_date > b.report_date ? 1 : 0));
    return data;
  }

  private wireId(date: string) {
    const k = (this.wireCount.get(date) ?? 0) + 1;
    this.wireCount.set(date, k);
    return `WIR-${this.S}-${date.replaceAll('-', '')}-${this.I}-${pad(k, 2)}`;
  }

  private row(cells: Partial<DailyLedgerRow>): DailyLedgerRow {
    return { ...EMPTY_ROW, account_no: this.account, currency: 'USD', ...cells };
  }

  /** The day's ledger row id of record `seq` (`part`: its first row, or the second). */
  private txnNo(seq: number, part: 1 | 2) {
    return `TXN-${this.S}-${this.I}-${pad(seq, 5)}-${part}`;
  }

  /** Credits the settlements' wires in whose value date has come. */
  private creditDrafts(through: string) {
    for (const draft of this.drafts) {
      if (draft.credited || draft.value_date > through) continue;
      draft.credited = true;
      this.cash += draft.cents;
      this.data.rows.push(
        this.row({
          report_date: draft.value_date,
          txn_no: `TXN-${draft.transfer_id}`,
          row_code: 'WIREI',
          amount: formatMinor(draft.cents),
          settle_date: draft.value_date,
          description: `Wire in (${draft.remittances.length} remittance${draft.remittances.length === 1 ? '' : 's'})`,
        }),
      );
    }
  }

  // ---- remit ----

  /** A remittance on `date` showing `variant`; a paid one settles into a wire in (one per value date, or its own a day late). */
  private remit(seq: number, date: string, variant: Variant) {
    const t0 = Date.parse(`${date}T04:00:00Z`) + this.random.int(0, 360) * MINUTE_MS;
    const regular = (valueDate: string) => this.regularDraft(valueDate);
    if (variant === 'paid_split') {
      for (const k of [1, 2])
        this.settle(this.remittance(seq, k, date, t0 + (k - 1) * MINUTE_MS, 'paid'), 'paid', regular);
      return;
    }
    const r = this.remittance(seq, 1, date, t0, variant);
    if (r.order.status !== 'paid') return;
    if (variant === 'paid_wire_late')
      this.settle(r, variant, (valueDate) => this.newDraft(nextWeekday(valueDate), true));
    else this.settle(r, variant, regular);
  }

  private randomRemitVariant(): Variant {
    const { random } = this;
    const roll = random.int(0, 99);
    if (roll < 12) return 'paid_split';
    if (roll < 70) return random.chance(0.1) ? 'paid_no_utr' : 'paid';
    return random.pick([
      'refunded',
      'failed',
      'action_required',
      'cancelled',
      'under_review',
      'expired',
      'active',
      'paid_no_purpose',
      'paid_settled_late',
    ] as const);
  }

  /** A remit order with its quote, taken through the events of its variant's final status. */
  private remittance(seq: number, k: number, date: string, t0: number, variant: Variant): Remittance {
    const { quote, order } = this.quotedOrder(`${this.S}_${this.I}_${pad(seq, 5)}_${k}`, date, t0, variant);
    const r: Remittance = {
      customer_id: this.data.customer.customer_id,
      order,
      quote,
      payment: null,
      settlement: null,
      refund: null,
      history: [],
      wire_id: null,
    };
    r.history.push({ entity_type: 'orders', event_type: 'active', data: clone(order) });
    this.runRemittance(r, variant, t0, `TRN${this.S.replace('-', 'M')}${this.I}${pad(seq, 5)}${k}`);
    this.data.remittances.push(r);
    return r;
  }

  /** The quote (INR at a marked-up mid, TCS on the FY's paid so far) and the order placed on it, active. */
  private quotedOrder(tail: string, date: string, t0: number, variant: Variant) {
    const { random, config } = this;
    const { customer } = this.data;
    const inr = BigInt(random.int(50, 1_500)) * 1_000_00n;
    const mid = midRateE8(config.seed, date);
    const markup = BigInt(random.int(50, 150));
    const rateMicro = (mid * (10_000n - markup)) / 10_000n / 100n;
    const usdCents = roundDiv(inr * rateMicro, 1_000_000n);
    const fy = fyOf(date);
    const prior = this.fyPaid.get(fy) ?? 0n;
    const final = finalOf(variant);
    const bank = random.pick(BANKS);
    const purpose = variant === 'paid_no_purpose' ? null : random.chance(0.85) ? 'S0001' : 'S0002';
    const quote: RemitQuoteWire = {
      id: `quote_${tail}`,
      from: { amount: Number(inr), currency: 'INR' },
      to: { amount: Number(usdCents), currency: 'USD' },
      fx_rate: formatScaled(rateMicro, 6),
      bank_code: `${bank}0${pad(random.int(0, 999_999), 6)}`,
      total_tax: formatMinor(tcsPaise(date, prior, inr)),
      expires_at: iso(t0 + 27 * MINUTE_MS),
      created_at: iso(t0 - 3 * MINUTE_MS),
    };
    if (final === 'paid' || final === 'refunded') this.fyPaid.set(fy, prior + inr);
    const order: RemitOrderWire = {
      id: `order_${tail}`,
      customer_id: customer.remit_customer_id,
      status: 'active',
      currency: 'INR',
      amount: Number(inr),
      purpose_code: purpose,
      reference_number: `LRS-${tail}`,
      quote_id: quote.id,
      created_at: iso(t0),
      updated_at: iso(t0),
      notes: { ledger_customer_id: customer.customer_id },
    };
    return { quote, order };
  }

  /** The payment and order events from the order placed (`t0`) to the variant's final status. */
  private runRemittance(r: Remittance, variant: Variant, t0: number, trn: string) {
    const final = finalOf(variant);
    const pay = () => this.startPayment(r, t0);
    switch (final) {
      case 'paid':
      case 'refunded':
        pay();
        paymentEvent(r, 'success', t0 + 10 * MINUTE_MS, { status: 'success', transaction_reference_number: trn });
        paymentEvent(r, 'funds_available', t0 + 60 * MINUTE_MS, { funds_available: true });
        orderEvent(r, 'paid', t0 + 60 * MINUTE_MS);
        if (final === 'refunded') refund(r, t0 + 180 * MINUTE_MS);
        break;
      case 'failed':
        pay();
        paymentEvent(r, 'failed', t0 + 10 * MINUTE_MS, { status: 'failed', error_code: 'PAYMENT_DECLINED' });
        orderEvent(r, 'failed', t0 + 11 * MINUTE_MS);
        break;
      case 'action_required':
        pay();
        paymentEvent(r, 'success', t0 + 10 * MINUTE_MS, { status: 'success', transaction_reference_number: trn });
        orderEvent(r, 'action_required', t0 + 12 * MINUTE_MS);
        break;
      case 'under_review':
        pay();
        orderEvent(r, 'under_review', t0 + 15 * MINUTE_MS);
        break;
      case 'active':
        if (this.random.chance(0.5)) pay();
        break;
      case 'cancelled':
        orderEvent(r, 'cancelled', t0 + 20 * MINUTE_MS);
        break;
      case 'expired':
        orderEvent(r, 'expired', t0 + 27 * MINUTE_MS);
        break;
    }
  }

  /** The customer starts paying the order: a payment in progress, five minutes after it was placed. */
  private startPayment(r: Remittance, t0: number) {
    r.payment = paymentInProgress(r.order, {
      id: r.order.id.replace('order_', 'payt_'),
      customerId: this.data.customer.remit_customer_id,
      method: this.random.pick(['netbanking', 'upi', 'neft']),
      at: iso(t0 + 5 * MINUTE_MS),
    });
    r.history.push({ entity_type: 'payment', event_type: 'in_progress', data: clone(r.payment) });
  }

  /** A paid order settles (its UTR by amount: RTGS from 2 lakh, else NEFT) into the wire `draftFor` its value date gives. */
  private settle(r: Remittance, variant: Variant, draftFor: (valueDate: string) => Draft) {
    const late = variant === 'paid_settled_late';
    const orderDate = r.order.created_at.slice(0, 10);
    const valueDate = late ? nextWeekday(nextWeekday(nextWeekday(orderDate))) : nextWeekday(orderDate);
    const at = Date.parse(`${valueDate}T06:00:00Z`);
    const usd = BigInt(r.quote.to.amount);
    const inr = BigInt(r.order.amount);
    // A late settlement's UTR digits come from its id, not the random source: the records after it stay as they were.
    const digits = late
      ? hash32(`${this.config.seed}:utr:${r.order.id}`) % 1_000_000_000
      : variant === 'paid_no_utr'
        ? 0
        : this.random.int(0, 999_999_999);
    const utr =
      variant === 'paid_no_utr'
        ? null
        : inr >= 2_00_000_00n
          ? `${r.quote.bank_code!.slice(0, 4)}R${valueDate.replaceAll('-', '')}${pad(digits, 9)}`
          : `${r.quote.bank_code!.slice(0, 4)}N${valueDate.slice(2, 4)}${pad(digits, 9)}`;
    r.settlement = {
      id: r.order.id.replace('order_', 'setl_'),
      status: 'settled',
      amount: Number(usd),
      currency: 'USD',
      fees: {
        fx_fee: { amount: Number(basisPoints(usd, 10n)), currency: 'USD' },
        txn_fee: { amount: 500, currency: 'USD' },
      },
      utr,
      created_at: iso(at),
      updated_at: iso(at),
    };
    Object.assign(r.payment!, { settlement_id: r.settlement.id, updated_at: iso(at) });
    r.history.push({ entity_type: 'payment', event_type: 'settled', data: clone(r.payment!) });
    const draft = draftFor(valueDate);
    draft.cents += usd;
    draft.remittances.push(r);
    r.wire_id = draft.transfer_id;
  }

  /** The value date's wire in not yet credited, the settlements of that day batched into it. */
  private regularDraft(valueDate: string): Draft {
    return (
      this.drafts.find((d) => d.value_date === valueDate && !d.late && !d.credited) ?? this.newDraft(valueDate, false)
    );
  }

  private newDraft(valueDate: string, late: boolean): Draft {
    const draft: Draft = {
      value_date: valueDate,
      cents: 0n,
      late,
      remittances: [],
      transfer_id: this.wireId(valueDate),
      credited: false,
    };
    this.drafts.push(draft);
    return draft;
  }

  // ---- broker ----

  /**
   * An order of `size` (micro-shares, or for `full_portfolio_cost` cents of notional) at the
   * day's price with the customer's fee bundled in; false when not placed (too small for the
   * broker's minimum, more than the cash, or a TRD row it could not be told from).
   */
  private trade(seq: number, date: string, side: 'BUY' | 'SELL', symbol: string, kind: OrderKind, size: bigint) {
    const { random } = this;
    const m = usPriceOn(this.config.seed, this.period, symbol, date);
    // Orders fill in the order the records happen: a sell of shares bought earlier that day fills after the buy.
    const submitted = Math.max(
      Date.parse(`${date}T14:30:00Z`) + random.int(0, 300) * 60_000,
      this.lastSubmitted + 60_000,
    );
    const base = {
      order_id: `ORD-${this.S}-${this.I}-${pad(seq, 5)}`,
      client_order_id: random.chance(0.9) ? `CL-${this.S}-${this.I}-${pad(seq, 5)}` : null,
      symbol,
      side,
      submitted_at: iso(submitted),
    };
    const roll = random.int(0, 99);
    const status: UsbrokerOrderWire['status'] =
      roll < 4 ? 'cancelled' : roll < 7 ? 'rejected' : roll < 15 ? 'partially_filled' : 'filled';
    const fill = this.fillOf(side, kind, size, m, status);
    if (fill === null) return false;
    const { qtyMicro, executed } = fill;
    const split = feeSplitOf(side, executed, qtyMicro);
    // Too small a trade for the broker's minimum out of the customer's fee: not placed.
    if (split.platformFee < 0n) return false;
    // A quantity order too small to fill in part (under 2 shares, or fractional) is filled.
    const finalStatus = status === 'partially_filled' && kind === 'quantity' && qtyMicro === size ? 'filled' : status;
    if (side === 'BUY' && executed > this.cash) return false;
    const unfilled = finalStatus === 'cancelled' || finalStatus === 'rejected';
    // A TRD row is matched to its order by account, symbol, side, quantity and trade date: keep that unique.
    if (!unfilled && this.hasTradeRow(date, symbol, side, formatQty(qtyMicro))) return false;
    this.data.orders.push({
      ...base,
      qty: kind === 'quantity' ? formatQty(size) : null,
      notional: kind === 'full_portfolio_cost' ? formatMinor(size) : null,
      filled_qty: unfilled ? '0' : formatQty(qtyMicro),
      avg_fill_price: unfilled ? null : fill.avg,
      status: finalStatus,
      filled_at: unfilled ? null : iso(submitted + 2_000),
      cost_type: kind,
    });
    this.lastSubmitted = submitted;
    if (!unfilled) this.recordFill(seq, date, { side, symbol, qtyMicro, executed, price: m, ...split });
    return true;
  }

  /** What an order fills: shares, the executed amount (the customer's fee bundled in) and the average price; null: nothing. */
  private fillOf(
    side: 'BUY' | 'SELL',
    kind: OrderKind,
    size: bigint,
    m: bigint,
    status: UsbrokerOrderWire['status'],
  ): { qtyMicro: bigint; executed: bigint; avg: string } | null {
    if (kind === 'full_portfolio_cost') {
      // size: the notional in cents (whole dollars); the full cost, the customer's fee included.
      const executed = status === 'partially_filled' ? (size * BigInt(this.random.int(50, 99))) / 100n : size;
      const qtyMicro = ((executed - customerFeeOf(side, executed)) * 1_000_000n) / m;
      if (qtyMicro <= 0n) return null;
      return { qtyMicro, executed, avg: formatScaled(ceilDiv(executed * 10_000_000_000n, qtyMicro), 6) };
    }
    // size: micro-shares ordered.
    const whole = size % 1_000_000n === 0n;
    const qtyMicro =
      status === 'partially_filled' && whole && size >= 2_000_000n
        ? BigInt(this.random.int(1, Number(size / 1_000_000n) - 1)) * 1_000_000n
        : size;
    const market = roundDiv(qtyMicro * m, 1_000_000n);
    // The customer's fee bundled into the price (the carve in feeSplitOf states it to the cent).
    const bundledFee = basisPoints(market, USBROKER_CUSTOMER_FEE_BPS);
    if (whole || qtyMicro % 1_000_000n === 0n) {
      const n = qtyMicro / 1_000_000n;
      const bundled = side === 'BUY' ? m + ceilDiv(bundledFee, n) : m - ceilDiv(bundledFee, n);
      if (bundled <= 0n) return null;
      return { qtyMicro, executed: n * bundled, avg: formatMinor(bundled) };
    }
    const executed = side === 'BUY' ? market + bundledFee : market - bundledFee;
    if (executed <= 0n) return null;
    return { qtyMicro, executed, avg: formatScaled(ceilDiv(executed * 10_000_000_000n, qtyMicro), 6) };
  }

  private hasTradeRow(date: string, symbol: string, side: 'BUY' | 'SELL', quantity: string) {
    return this.data.rows.some(
      (r) =>
        r.row_code === 'TRD' &&
        r.trade_date === date &&
        r.symbol === symbol &&
        r.side === side &&
        r.quantity === quantity,
    );
  }

  /** A fill moves the cash and the position (a sale relieves average cost) and writes its TRD row. */
  private recordFill(
    seq: number,
    date: string,
    fill: { side: 'BUY' | 'SELL'; symbol: string; qtyMicro: bigint; executed: bigint; price: bigint } & FeeSplit,
  ) {
    const { side, symbol, qtyMicro, executed, principal, fees, platformFee } = fill;
    const position = this.held.get(symbol) ?? { qty: 0n, cost: 0n };
    if (side === 'BUY') {
      this.cash -= executed;
      this.held.set(symbol, { qty: position.qty + qtyMicro, cost: position.cost + executed });
    } else {
      this.cash += executed;
      const cost = position.qty === qtyMicro ? 0n : position.cost - roundDiv(position.cost * qtyMicro, position.qty);
      this.held.set(symbol, { qty: position.qty - qtyMicro, cost });
    }
    const sign = side === 'BUY' ? -1n : 1n;
    const neg = (v: bigint) => formatMinor(-v);
    this.data.rows.push(
      this.row({
        report_date: date,
        txn_no: this.txnNo(seq, 1),
        row_code: 'TRD',
        symbol,
        cusip: CUSIPS[symbol] ?? '',
        side,
        quantity: formatQty(qtyMicro),
        price: formatMinor(fill.price),
        principal: formatMinor(sign * principal),
        commission: neg(fees.commission),
        sec_fee: neg(fees.sec),
        taf_fee: neg(fees.taf),
        ifsca_fee: neg(fees.ifsca),
        other_fee: neg(platformFee),
        amount: formatMinor(sign * executed),
        trade_date: date,
        settle_date: nextWeekday(date),
        description: `${side === 'BUY' ? 'Bought' : 'Sold'} ${formatQty(qtyMicro)} ${symbol}`,
      }),
    );
  }

  private heldSymbols() {
    return [...this.held.entries()]
      .filter(([, p]) => p.qty > 0n)
      .map(([s]) => s)
      .sort();
  }

  /** The splits effective up to `through`: each held position's SPLIT row, and a reverse split's fraction paid in cash (CIL). */
  private applySplits(through: string) {
    const { splits } = this;
    while (splits.length > 0 && splits[0]!.on <= through) {
      const { split, on } = splits.shift()!;
      const position = this.held.get(split.symbol);
      if (position === undefined || position.qty === 0n) continue;
      const price = usPriceOn(this.config.seed, this.period, split.symbol, on);
      const after = splitHolding(split, position.qty, position.cost, price);
      const txn = `TXN-${this.S}-${this.I}-${on.replaceAll('-', '')}-${split.symbol}`;
      const common = { report_date: on, symbol: split.symbol, cusip: CUSIPS[split.symbol] ?? '', trade_date: on };
      const ratio = `${split.newShares > split.oldShares ? `${split.newShares / split.oldShares}:1` : `1:${split.oldShares / split.newShares}`}`;
      this.data.rows.push(
        this.row({
          ...common,
          txn_no: `${txn}-1`,
          row_code: 'SPLIT',
          quantity: formatQtyE8(after.sharesE8),
          principal: '0.00',
          commission: '0.00',
          sec_fee: '0.00',
          taf_fee: '0.00',
          ifsca_fee: '0.00',
          other_fee: '0.00',
          amount: '0.00',
          per_share: splitRatio(split),
          description: `SPLIT ${ratio} ${split.symbol}`,
        }),
      );
      if (after.fractionE8 > 0n) {
        this.data.rows.push(
          this.row({
            ...common,
            txn_no: `${txn}-2`,
            row_code: 'CIL',
            quantity: formatQtyE8(-after.fractionE8),
            price: formatMinor(price),
            amount: formatMinor(after.cashCents),
            ref_txn_no: `${txn}-1`,
            description: `Cash in lieu ${split.symbol}`,
          }),
        );
        this.cash += after.cashCents;
      }
      this.held.set(split.symbol, { qty: after.qtyMicro, cost: after.cost });
    }
  }

  /** A record of the account's own kind on day `seq`; false when the account cannot make it. */
  private attempt(kind: AccountKind, seq: number, date: string): boolean {
    switch (kind) {
      case 'buy_quantity':
        return this.buyQuantity(seq, date);
      case 'buy_fpc':
        return this.buyFullPortfolioCost(seq, date);
      case 'sell':
        return this.sell(seq, date);
      case 'dividend':
        return this.dividend(seq, date);
      case 'fee':
        return this.fee(seq, date);
      case 'withdraw':
        return this.withdraw(date);
      case 'external_wire':
        return this.externalWire(date);
    }
  }

  /** Whole shares of a symbol, for 10 to 60 % of the cash. */
  private buyQuantity(seq: number, date: string) {
    const { random } = this;
    if (this.cash < 50_00n) return false;
    const symbol = random.pick(INDIA_US_SYMBOLS);
    const budget = (this.cash * BigInt(random.int(10, 60))) / 100n;
    const n = (budget * 10_000n) / (usPriceOn(this.config.seed, this.period, symbol, date) * 10_020n);
    if (n < 1n) return false;
    const shares = BigInt(random.int(1, Number(n > 1000n ? 1000n : n)));
    return this.trade(seq, date, 'BUY', symbol, 'quantity', shares * 1_000_000n);
  }

  /** A notional in whole dollars (10 to 60 % of the cash): fractional shares. */
  private buyFullPortfolioCost(seq: number, date: string) {
    const { random } = this;
    if (this.cash < 50_00n) return false;
    const dollars = (this.cash * BigInt(random.int(10, 60))) / 100n / 100n;
    if (dollars < 10n) return false;
    return this.trade(seq, date, 'BUY', random.pick(INDIA_US_SYMBOLS), 'full_portfolio_cost', dollars * 100n);
  }

  /** Some whole shares of a holding (a holding under one share: all of it). */
  private sell(seq: number, date: string) {
    const symbols = this.heldSymbols();
    if (symbols.length === 0) return false;
    const symbol = this.random.pick(symbols);
    const qty = this.held.get(symbol)!.qty;
    const size =
      qty >= 1_000_000n
        ? BigInt(this.random.int(1, Number(qty / 1_000_000n > 1000n ? 1000n : qty / 1_000_000n))) * 1_000_000n
        : qty;
    return this.trade(seq, date, 'SELL', symbol, 'quantity', size);
  }

  /** A dividend on a holding of a share or more, paid on `date` (ex-date up to two weeks before), with the US tax withheld. */
  private dividend(seq: number, date: string) {
    const { random, wht, previousDate } = this;
    const symbols = this.heldSymbols().filter((s) => this.held.get(s)!.qty >= 1_000_000n);
    if (symbols.length === 0) return false;
    const symbol = random.pick(symbols);
    const shares = this.held.get(symbol)!.qty;
    const perShare = BigInt(random.int(10, 150));
    const gross = roundDiv(shares * perShare, 1_000_000n);
    const tax = roundDiv(gross * wht, 100n);
    if (gross < 100n || tax < 1n) return false;
    const exDay = Math.max(toDayNumber(previousDate) + (previousDate < date ? 1 : 0), toDayNumber(date) - 14);
    const exDate = fromDayNumber(Math.min(exDay, toDayNumber(date)));
    const divTxn = this.txnNo(seq, 1);
    const common = {
      report_date: date,
      symbol,
      cusip: CUSIPS[symbol] ?? '',
      quantity: formatQty(shares),
      trade_date: exDate,
      pay_date: date,
      per_share: formatMinor(perShare),
    };
    this.data.rows.push(
      this.row({
        ...common,
        txn_no: divTxn,
        row_code: 'DIV',
        amount: formatMinor(gross),
        description: `Dividend ${symbol}`,
      }),
    );
    this.data.rows.push(
      this.row({
        ...common,
        txn_no: this.txnNo(seq, 2),
        row_code: 'DIVNRA',
        amount: formatMinor(-tax),
        wht_rate: wht === 25n ? '0.25' : '0.30',
        tax_code: 'NRA',
        ref_txn_no: divTxn,
        description: `US withholding on ${symbol} dividend`,
      }),
    );
    this.cash += gross - tax;
    return true;
  }

  /** A fee the broker charges the account. */
  private fee(seq: number, date: string) {
    const fee = BigInt(this.random.int(5, 25)) * 100n;
    if (this.cash < fee) return false;
    this.cash -= fee;
    this.data.rows.push(
      this.row({
        report_date: date,
        txn_no: this.txnNo(seq, 1),
        row_code: 'FEE',
        amount: formatMinor(-fee),
        description: this.random.pick(['Account maintenance fee', 'ADR custody fee', 'Wire fee']),
      }),
    );
    return true;
  }

  /** The holder wires 10 to 50 % of the cash out; some come back returned. */
  private withdraw(date: string) {
    if (this.cash < 100_00n) return false;
    const amount = (this.cash * BigInt(this.random.int(10, 50))) / 100n;
    this.ownWire(date, 'OUT', amount, this.random.chance(0.3));
    return true;
  }

  /** The holder wires money in from elsewhere: no remittance of the book funds it. */
  private externalWire(date: string) {
    this.ownWire(date, 'IN', BigInt(this.random.int(1_000, 20_000)) * 100n, false);
    return true;
  }

  /** A wire of the holder's own, in or out; a returned one moves no cash and has no row. */
  private ownWire(date: string, direction: 'IN' | 'OUT', amount: bigint, returned: boolean) {
    const transfer_id = this.wireId(date);
    this.data.wires.push({
      transfer_id,
      account_no: this.account,
      direction,
      amount: formatMinor(amount),
      currency: 'USD',
      status: returned ? 'returned' : 'completed',
      value_date: date,
    });
    if (returned) return;
    const signed = direction === 'IN' ? amount : -amount;
    this.cash += signed;
    this.data.rows.push(
      this.row({
        report_date: date,
        txn_no: `TXN-${transfer_id}`,
        row_code: direction === 'IN' ? 'WIREI' : 'WIREO',
        amount: formatMinor(signed),
        settle_date: date,
        description: direction === 'IN' ? 'Wire in (no remittance)' : 'Wire out',
      }),
    );
  }
}

type OrderKind = 'quantity' | 'full_portfolio_cost';
/** The records of the broker account's own (not a remittance's). */
type AccountKind = 'buy_quantity' | 'buy_fpc' | OtherKind | 'sell';

/** The status a variant's order ends in: the paid variants differ only after payment. */
const finalOf = (variant: Variant): Final => (variant.startsWith('paid') ? 'paid' : (variant as Final));

function orderEvent(r: Remittance, status: RemitOrderStatus, at: number) {
  r.order.status = status;
  r.order.updated_at = iso(at);
  r.history.push({ entity_type: 'orders', event_type: status, data: clone(r.order) });
}

function paymentEvent(r: Remittance, event: string, at: number, change: Partial<RemitPaymentWire>) {
  Object.assign(r.payment!, change, { updated_at: iso(at) });
  r.history.push({ entity_type: 'payment', event_type: event, data: clone(r.payment!) });
}

/** A paid order refunded at `at`: the payment fails REFUNDED, the order fails, the money goes back. */
function refund(r: Remittance, at: number) {
  paymentEvent(r, 'failed', at, { status: 'failed', funds_available: false, error_code: 'REFUNDED' });
  orderEvent(r, 'failed', at);
  r.refund = {
    id: r.order.id.replace('order_', 'refund_'),
    order_id: r.order.id,
    payment_id: r.payment!.id,
    amount: r.order.amount,
    currency: 'INR',
    created_at: iso(at),
  };
}

/**
 * The customer's whole fee, as the book carves it out of the executed amount; the shares'
 * principal is the rest. The broker keeps its part (commission, SEC, TAF, IFSCA; the commission
 * takes the rounding) and credits the platform's part (`other_fee`) to the firm.
 */
function feeSplitOf(side: 'BUY' | 'SELL', executed: bigint, qtyMicro: bigint) {
  const customerFee = customerFeeOf(side, executed);
  const principal = side === 'BUY' ? executed - customerFee : executed + customerFee;
  const fees = nominalFees(side, principal, qtyMicro);
  return { principal, fees, platformFee: customerFee - fees.commission - fees.sec - fees.taf - fees.ifsca };
}
type FeeSplit = ReturnType<typeof feeSplitOf>;

/**
 * The position of each symbol held at the end of the data: quantity and cost (executed amounts,
 * average cost). A split changes the quantity, never the cost; cash in lieu sells its fraction at
 * average cost. Counted in 1e-8 shares (a reverse split's rows go finer than a micro-share).
 */
export function positionsOf(data: IndiaCustomerData): Map<string, { qtyMicro: bigint; costCents: bigint }> {
  const held = new Map<string, { e8: bigint; costCents: bigint }>();
  for (const r of data.rows) {
    if (r.row_code !== 'TRD' && r.row_code !== 'SPLIT' && r.row_code !== 'CIL') continue;
    const q = parseQtyE8(r.quantity);
    const p = held.get(r.symbol) ?? { e8: 0n, costCents: 0n };
    if (r.row_code === 'SPLIT') held.set(r.symbol, { e8: p.e8 + q, costCents: p.costCents });
    else if (r.side === 'BUY') held.set(r.symbol, { e8: p.e8 + q, costCents: p.costCents - parseCents(r.amount) });
    else {
      // A sale (TRD SELL) or cash in lieu (a negative quantity): the shares leave at average cost.
      const sold = q < 0n ? -q : q;
      const cost = p.e8 === sold ? 0n : p.costCents - roundDiv(p.costCents * sold, p.e8);
      held.set(r.symbol, { e8: p.e8 - sold, costCents: cost });
    }
  }
  return new Map(
    [...held].map(([symbol, p]) => {
      if (p.e8 % 100n !== 0n) throw new Error(`${symbol}: a holding finer than a micro-share`);
      return [symbol, { qtyMicro: p.e8 / 100n, costCents: p.costCents }];
    }),
  );
}

function parseQtyE8(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const e8 = BigInt(whole) * E8 + BigInt(fraction.padEnd(8, '0') || '0');
  return negative ? -e8 : e8;
}

export function parseQtyMicro(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0') || '0');
}

export function parseCents(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  return negative ? -cents : cents;
}
