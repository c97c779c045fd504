import { CALENDAR_DATE_RULE, Decimal, DECIMAL_PATTERN_SOURCE, MONEY_PATTERN_SOURCE, roundToCents, isCalendarDate, toUsd, type Currency, type EntryRequest } from '@ledger/core';
import type { UaefeedCashTransfer, UaefeedOrder } from '@ledger/upstream-clients';
import { entryOf, rejectedAs, skippedAs, type Mapped, type Reason } from '../posting-kit.js';

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
const unmappable = (code: string, detail: Record<string, unknown>) => new Unmappable({ code, detail });

function currencyOf(value: string): Currency {
  if (value !== 'AED' && value !== 'USD') throw unmappable('unsupported_currency', { currency: value, currencies: ['AED', 'USD'] });
  return value;
}

/** A non-negative amount in whole cents (fils) of its currency. */
function money(value: string, field: string): Decimal {
  if (!MONEY.test(value)) throw unmappable('invalid_amount', { field, value, rule: 'a non-negative amount in whole cents' });
  return new Decimal(value);
}

function date(value: string, field: string): string {
  if (!isCalendarDate(value)) throw unmappable('invalid_date', { field, value, rule: CALENDAR_DATE_RULE });
  return value;
}

/** The USD amount and, for AED, what the entry keeps of the original. */
function inUsd(amount: Decimal, currency: Currency, aedPerUsd: Decimal) {
  const { amountUsd } = toUsd(amount, currency, aedPerUsd);
  if (amountUsd.isZero()) throw unmappable('below_a_cent', { amount: amount.toFixed(2), currency });
  return {
    amount_usd: amountUsd.toFixed(2),
    ...(currency === 'AED' && { original_currency: currency, original_amount: amount.toFixed(2) }),
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

/**
 * A cash transfer: DEPOSIT → `deposit`, WITHDRAW → `withdrawal`, dated its `valueDate`; AED at
 * the peg into the AED accounts (1020 / 2020), USD into 1100 / 2010. `metadata.cash_movement`
 * is the signed amount the cash account moved, in its currency (the statements' comparison).
 */
export function mapCashTransfer(transfer: UaefeedCashTransfer, customerId: string, aedPerUsd: Decimal): Mapped {
  const sourceTxnId = transfer.transferId;
  return mapped(() => {
    if (transfer.status !== 'COMPLETED') return skippedAs('moved_nothing', { status: transfer.status });
    const currency = currencyOf(transfer.currency);
    if (!transfer.cashAccountNumber.endsWith(`-${currency}`)) {
      throw unmappable('cash_account_currency_mismatch', { cash_account: transfer.cashAccountNumber, currency });
    }
    const amount = money(transfer.amount, 'amount');
    const deposit = transfer.type === 'DEPOSIT';
    const entry: EntryRequest = {
      txn_type: deposit ? 'deposit' : 'withdrawal',
      customer_id: customerId,
      source: 'uaefeed',
      source_txn_id: sourceTxnId,
      txn_date: date(transfer.valueDate, 'valueDate'),
      ...inUsd(amount, currency, aedPerUsd),
      metadata: { cash_account: transfer.cashAccountNumber, cash_movement: (deposit ? amount : amount.negated()).toFixed(2) },
    };
    return entryOf(entry);
  });
}

/**
 * An executed order (`cumQty` > 0), posted as the trade of its gross `cumQty × avgPx` (rounded
 * half up to cents) with the bundled fee stated: BUY → `buy_security` of that cost, the fee
 * `netSettle − gross`; SELL → `sell_security` of those proceeds, the fee `gross − netSettle`
 * (Dr wallet / Cr 4010 either way, so the wallet moves by `netSettle`; recost adds no second
 * fee). AED at the peg, into the AED accounts. An order that executed nothing is skipped.
 */
export function mapOrder(order: UaefeedOrder, customerId: string, aedPerUsd: Decimal): Mapped {
  const sourceTxnId = order.orderId;
  return mapped(() => {
    if (!QUANTITY.test(order.cumQty)) throw unmappable('invalid_quantity', { field: 'cumQty', value: order.cumQty, rule: 'a non-negative quantity of at most 8 places' });
    const quantity = new Decimal(order.cumQty);
    if (quantity.isZero()) return skippedAs('nothing_executed', { status: order.ordStatus });
    if (order.avgPx === null || !QUANTITY.test(order.avgPx)) throw unmappable('missing_price', { field: 'avgPx', value: order.avgPx });
    const currency = currencyOf(order.currency);
    const cost = roundToCents(quantity.times(order.avgPx));
    const netSettle = money(order.netSettle, 'netSettle');
    const buy = order.side === 'BUY';
    const fee = buy ? netSettle.minus(cost) : cost.minus(netSettle);
    if (fee.isNegative()) throw unmappable('negative_fee', { side: order.side, net_settle: netSettle.toFixed(2), executed: cost.toFixed(2) });
    const common = {
      customer_id: customerId,
      source: 'uaefeed' as const,
      source_txn_id: sourceTxnId,
      txn_date: date(order.tradeDate, 'tradeDate'),
      symbol: order.symbol,
      quantity: quantity.toFixed(),
    };
    const metadata = {
      cl_ord_id: order.clOrdId,
      exchange: order.exchange,
      avg_px: order.avgPx,
      bundled_fee: fee.toFixed(2),
      cash_movement: (buy ? netSettle.negated() : netSettle).toFixed(2),
    };
    const entry: EntryRequest = buy
      ? {
          txn_type: 'buy_security',
          ...common,
          ...inUsd(cost, currency, aedPerUsd),
          fee_usd: toUsd(fee, currency, aedPerUsd).amountUsd.toFixed(2),
          metadata,
        }
      : {
          txn_type: 'sell_security',
          ...common,
          ...inUsd(cost, currency, aedPerUsd),
          fee_usd: toUsd(fee, currency, aedPerUsd).amountUsd.toFixed(2),
          metadata,
        };
    return entryOf(entry);
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
