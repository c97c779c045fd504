import {
  CALENDAR_DATE_RULE,
  cashAccountProblem,
  Decimal,
  DECIMAL_PATTERN_SOURCE,
  FILLED_QUANTITY_RULE,
  isFillWithinOrder,
  MONEY_PATTERN_SOURCE,
  roundToCents,
  isCalendarDate,
  toUsd,
  ZERO,
  type Currency,
  type EntryRequest,
} from '@ledger/core/posting';
import type { PostedTrade } from '@ledger/core/store';
import type { UaefeedCashTransfer, UaefeedOrder } from '@ledger/upstream-clients';
import { entryOf, rejectedAs, skippedAs, type Mapped } from '../kit/posting-kit.js';
import type { Reason, RecordReasonCode } from '../kit/results.js';

/*
 * uaefeed records to ledger entries (docs/posting-rules.md#uaefeed): pure, no I/O. A record
 * maps to one entry keyed `(uaefeed, <transferId | orderId>)`, so a re-run is a duplicate; to
 * `skipped` when it moved nothing (a REJECTED transfer, an order that never executed); or to
 * `rejected` with a coded reason when it cannot be posted as it stands (that record only).
 */

const MONEY = new RegExp(MONEY_PATTERN_SOURCE);
const QUANTITY = new RegExp(DECIMAL_PATTERN_SOURCE);

class Unmappable extends Error {
  constructor(readonly reason: Reason) {
    super(reason.code);
  }
}
const unmappable = (code: RecordReasonCode, detail: Record<string, unknown>) => new Unmappable({ code, detail });

function currencyOf(value: string): Currency {
  if (value !== 'AED' && value !== 'USD')
    throw unmappable('unsupported_currency', { currency: value, currencies: ['AED', 'USD'] });
  return value;
}

/** A non-negative amount in whole cents (fils) of its currency. */
function money(value: string, field: string): Decimal {
  if (!MONEY.test(value))
    throw unmappable('invalid_amount', { field, value, rule: 'a non-negative amount in whole cents' });
  return new Decimal(value);
}

function date(value: string, field: string): string {
  if (!isCalendarDate(value)) throw unmappable('invalid_date', { field, value, rule: CALENDAR_DATE_RULE });
  return value;
}

/** The USD amount and, for AED, what the entry keeps of the original: its amount and the peg it converted at. */
function inUsd(amount: Decimal, currency: Currency, aedPerUsd: Decimal) {
  const { amountUsd } = toUsd(amount, currency, aedPerUsd);
  if (amountUsd.isZero()) throw unmappable('below_a_cent', { amount: amount.toFixed(2), currency });
  return {
    amount_usd: amountUsd.toFixed(2),
    ...(currency === 'AED' && {
      original_currency: currency,
      original_amount: amount.toFixed(2),
      fx_rate: aedPerUsd.toFixed(),
    }),
  };
}

function mapped(build: () => Mapped): Mapped {
  try {
    return build();
  } catch (error) {
    if (error instanceof Unmappable) return rejectedAs(error.reason.code, error.reason.detail);
    throw error;
  }
}

/** The ledger customer a uaefeed record is posted to, and its uaefeed customer number (whose cash accounts it may move). */
export interface UaefeedCustomer {
  customerId: string;
  customerNumber: string;
}

/**
 * A cash transfer: DEPOSIT → `deposit`, WITHDRAW → `withdrawal`, dated its `valueDate`; AED at
 * the peg into the AED accounts (1020 / 2020), USD into 1100 / 2010. `metadata.cash_movement`
 * is the signed amount the cash account moved, in its currency (the statements' comparison).
 * The cash account must be the customer's own in the transfer's currency (`cashAccountProblem`).
 */
export function mapCashTransfer(transfer: UaefeedCashTransfer, customer: UaefeedCustomer, aedPerUsd: Decimal): Mapped {
  const sourceTxnId = transfer.transferId;
  return mapped(() => {
    if (transfer.status !== 'COMPLETED') return skippedAs('moved_nothing', { status: transfer.status });
    const currency = currencyOf(transfer.currency);
    const problem = cashAccountProblem(transfer.cashAccountNumber, {
      customerNumber: customer.customerNumber,
      currency,
    });
    if (problem !== null) {
      throw unmappable(problem, {
        cash_account: transfer.cashAccountNumber,
        currency,
        uaefeed_customer_number: customer.customerNumber,
      });
    }
    const amount = money(transfer.amount, 'amount');
    const deposit = transfer.type === 'DEPOSIT';
    const entry: EntryRequest = {
      txn_type: deposit ? 'deposit' : 'withdrawal',
      customer_id: customer.customerId,
      source: 'uaefeed',
      source_txn_id: sourceTxnId,
      txn_date: date(transfer.valueDate, 'valueDate'),
      ...inUsd(amount, currency, aedPerUsd),
      metadata: {
        cash_account: transfer.cashAccountNumber,
        cash_movement: (deposit ? amount : amount.negated()).toFixed(2),
      },
    };
    return entryOf(entry);
  });
}

/** A fill of an order already posted, in the order's currency: its cumulative quantity, its own quantity, gross and net settlement. */
export interface PostedFill {
  cumQty: Decimal;
  quantity: Decimal;
  gross: Decimal;
  netSettle: Decimal;
}

/**
 * The posted fills of a customer's orders, by order id, from its posted uaefeed trades: an
 * order's first fill is keyed by the order id (its cumulative quantity its quantity), a later one
 * by `<orderId>:<cumQty>` with `order_id` and `cum_qty` in its metadata. Gross and net come from
 * what every trade keeps (`cash_movement`, `bundled_fee`).
 */
export function postedFills(trades: readonly PostedTrade[]): Map<string, PostedFill[]> {
  const fills = new Map<string, PostedFill[]>();
  for (const t of trades) {
    const { order_id: orderId, cum_qty: cumQty, cash_movement: movement, bundled_fee: fee } = t.metadata;
    if (t.quantity === null || typeof movement !== 'string' || typeof fee !== 'string') continue;
    const netSettle = new Decimal(movement).abs();
    const quantity = new Decimal(t.quantity);
    const fill = {
      cumQty: typeof cumQty === 'string' ? new Decimal(cumQty) : quantity,
      quantity,
      gross: t.txn_type === 'buy_security' ? netSettle.minus(fee) : netSettle.plus(fee),
      netSettle,
    };
    const id = typeof orderId === 'string' ? orderId : t.source_txn_id;
    fills.set(id, [...(fills.get(id) ?? []), fill]);
  }
  return fills;
}

/**
 * An executed order (`cumQty` > 0), posted as the trade of its gross `cumQty × avgPx` (rounded
 * half up to cents) with the bundled fee stated: BUY → `buy_security` of that cost, the fee
 * `netSettle − gross`; SELL → `sell_security` of those proceeds, the fee `gross − netSettle`
 * (Dr wallet / Cr 4010 either way, so the wallet moves by `netSettle`; recost adds no second
 * fee). AED: the gross and `netSettle` converted at the peg, the fee their USD difference, into
 * the AED accounts, whose lines keep the AED figures (gross, and the fee `netSettle − gross` in
 * AED) and the peg as the rate. An order that executed nothing is skipped.
 *
 * An order filled in parts is posted fill by fill: `posted` are its fills already posted, and the
 * record posts what it adds to those of a lower cumulative quantity (quantity, gross and net
 * settlement by difference), keyed by the order id for its first fill, else `<orderId>:<cumQty>`.
 * So a later, larger fill posts its increment once, and a re-run posts nothing.
 */
export function mapOrder(
  order: UaefeedOrder,
  customerId: string,
  aedPerUsd: Decimal,
  posted: readonly PostedFill[] = [],
): Mapped {
  return mapped(() => {
    for (const field of ['ordQty', 'cumQty'] as const)
      if (!QUANTITY.test(order[field]))
        throw unmappable('invalid_quantity', {
          field,
          value: order[field],
          rule: 'a non-negative quantity of at most 8 places',
        });
    const cumQty = new Decimal(order.cumQty);
    if (!isFillWithinOrder(cumQty, new Decimal(order.ordQty)))
      throw unmappable('invalid_quantity', {
        field: 'cumQty',
        value: order.cumQty,
        ord_qty: order.ordQty,
        rule: FILLED_QUANTITY_RULE,
      });
    if (cumQty.isZero()) return skippedAs('nothing_executed', { status: order.ordStatus });
    if (order.avgPx === null || !QUANTITY.test(order.avgPx))
      throw unmappable('missing_price', { field: 'avgPx', value: order.avgPx });
    const currency = currencyOf(order.currency);
    const netSettle = money(order.netSettle, 'netSettle');
    const before = posted.filter((f) => f.cumQty.isLessThan(cumQty));
    const sum = (pick: (f: PostedFill) => Decimal) => before.reduce((total, f) => total.plus(pick(f)), ZERO);
    const quantity = cumQty.minus(sum((f) => f.quantity));
    const gross = roundToCents(cumQty.times(order.avgPx)).minus(sum((f) => f.gross));
    const net = netSettle.minus(sum((f) => f.netSettle));
    const buy = order.side === 'BUY';
    const fee = buy ? net.minus(gross) : gross.minus(net);
    if (fee.isNegative())
      throw unmappable('negative_fee', { side: order.side, net_settle: net.toFixed(2), executed: gross.toFixed(2) });
    const later = before.length > 0;
    const common = {
      customer_id: customerId,
      source: 'uaefeed' as const,
      source_txn_id: later ? `${order.orderId}:${cumQty.toFixed()}` : order.orderId,
      txn_date: date(order.tradeDate, 'tradeDate'),
      symbol: order.symbol,
      quantity: quantity.toFixed(),
    };
    const metadata = {
      cl_ord_id: order.clOrdId,
      exchange: order.exchange,
      avg_px: order.avgPx,
      bundled_fee: fee.toFixed(2),
      cash_movement: (buy ? net.negated() : net).toFixed(2),
      ...(later && { order_id: order.orderId, cum_qty: cumQty.toFixed() }),
    };
    // The settlement is converted once and the fee is the difference: the wallet moves by exactly
    // netSettle's USD (converted apart, gross and fee can add up to a cent more or less).
    const grossUsd = inUsd(gross, currency, aedPerUsd);
    const netUsd = toUsd(net, currency, aedPerUsd).amountUsd;
    const feeUsd = buy ? netUsd.minus(grossUsd.amount_usd) : new Decimal(grossUsd.amount_usd).minus(netUsd);
    return entryOf({
      txn_type: buy ? 'buy_security' : 'sell_security',
      ...common,
      ...grossUsd,
      fee_usd: feeUsd.toFixed(2),
      // In AED the wallet's lines carry the feed's own figures: gross + fee is netSettle, to the fils.
      ...(currency === 'AED' && { original_fee: fee.toFixed(2) }),
      metadata,
    });
  });
}

/**
 * Records in the order they are posted: by date, the feed's own order within a day (the sort is
 * stable; a record that posts nothing sorts first). Recost takes a day's trades in (posted_at,
 * txn_id) order and the feed has no time of day: drafted in this order, with UUIDv7 ids that
 * sort in the order they are made, a day's buy stays before the sell of the same shares.
 */
export function inPostingOrder<T extends { mapped: Mapped }>(records: readonly T[]): T[] {
  const dateOf = (r: T) => (r.mapped.kind === 'entry' ? r.mapped.entry.txn_date : '');
  return [...records].sort((a, b) => dateOf(a).localeCompare(dateOf(b)));
}
