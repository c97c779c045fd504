import { CALENDAR_DATE_RULE, Decimal, DECIMAL_PATTERN_SOURCE, MONEY_PATTERN_SOURCE, roundToCents, isCalendarDate, toUsd, type Currency, type EntryRequest } from '@ledger/core';
import type { UaefeedCashTransfer, UaefeedOrder } from '@ledger/upstream-clients';

/**
 * uaefeed records to ledger entries (docs/posting-rules.md#uaefeed): pure, no I/O. A record
 * maps to one entry keyed `(uaefeed, <transferId | orderId>)`, so a re-run is a duplicate; to
 * `skipped` when it moved nothing (a REJECTED transfer, an order that never executed); or to
 * `rejected` with the reason when it cannot be posted as it stands (that record only).
 */
export type UaefeedMapping =
  | { outcome: 'entry'; sourceTxnId: string; entry: EntryRequest }
  | { outcome: 'skipped'; sourceTxnId: string; reason: string }
  | { outcome: 'rejected'; sourceTxnId: string; reason: string };

/** The bundled fee of a uaefeed sell is netted into its proceeds, so recost charges it no second fee. */
export const UAEFEED_SELL_BROKERAGE_BPS = '0';

const MONEY = new RegExp(MONEY_PATTERN_SOURCE);
const QUANTITY = new RegExp(DECIMAL_PATTERN_SOURCE);

class Unmappable extends Error {}

function currencyOf(value: string): Currency {
  if (value !== 'AED' && value !== 'USD') throw new Unmappable(`currency ${value} is not AED or USD`);
  return value;
}

/** A non-negative amount in whole cents (fils) of its currency. */
function money(value: string, field: string): Decimal {
  if (!MONEY.test(value)) throw new Unmappable(`${field} ${value} is not a non-negative amount in whole cents`);
  return new Decimal(value);
}

function date(value: string, field: string): string {
  if (!isCalendarDate(value)) throw new Unmappable(`invalid_date: ${field} ${value} is not ${CALENDAR_DATE_RULE}`);
  return value;
}

/** The USD amount and, for AED, what the entry keeps of the original. */
function inUsd(amount: Decimal, currency: Currency, aedPerUsd: Decimal) {
  const { amountUsd } = toUsd(amount, currency, aedPerUsd);
  if (amountUsd.isZero()) throw new Unmappable(`amount ${amount.toFixed(2)} ${currency} is less than one US cent`);
  return {
    amount_usd: amountUsd.toFixed(2),
    ...(currency === 'AED' && { original_currency: currency, original_amount: amount.toFixed(2) }),
  };
}

function mapped(sourceTxnId: string, build: () => UaefeedMapping): UaefeedMapping {
  try {
    return build();
  } catch (error) {
    if (error instanceof Unmappable) return { outcome: 'rejected', sourceTxnId, reason: error.message };
    throw error;
  }
}

/**
 * A cash transfer: DEPOSIT → `deposit`, WITHDRAW → `withdrawal`, dated its `valueDate`; AED at
 * the peg into the AED accounts (1020 / 2020), USD into 1100 / 2010. `metadata.cash_movement`
 * is the signed amount the cash account moved, in its currency (the statements' comparison).
 */
export function mapCashTransfer(transfer: UaefeedCashTransfer, customerId: string, aedPerUsd: Decimal): UaefeedMapping {
  const sourceTxnId = transfer.transferId;
  return mapped(sourceTxnId, () => {
    if (transfer.status !== 'COMPLETED') return { outcome: 'skipped', sourceTxnId, reason: `transfer ${transfer.status}: moved nothing` };
    const currency = currencyOf(transfer.currency);
    if (!transfer.cashAccountNumber.endsWith(`-${currency}`)) {
      throw new Unmappable(`cash account ${transfer.cashAccountNumber} does not end in -${currency}`);
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
    return { outcome: 'entry', sourceTxnId, entry };
  });
}

/**
 * An executed order (`cumQty` > 0): BUY → `buy_security` of `cumQty` shares, its cost
 * `cumQty × avgPx` (rounded half up to cents) and the bundled fee `netSettle − cost` as the
 * customer's fee; SELL → `sell_security` of the net proceeds `netSettle` (the fee `cost −
 * netSettle` netted, `metadata.brokerage_bps` 0 so recost adds none). AED at the peg, into the
 * AED accounts. An order that executed nothing is skipped.
 */
export function mapOrder(order: UaefeedOrder, customerId: string, aedPerUsd: Decimal): UaefeedMapping {
  const sourceTxnId = order.orderId;
  return mapped(sourceTxnId, () => {
    if (!QUANTITY.test(order.cumQty)) throw new Unmappable(`cumQty ${order.cumQty} is not a non-negative quantity of at most 8 places`);
    const quantity = new Decimal(order.cumQty);
    if (quantity.isZero()) return { outcome: 'skipped', sourceTxnId, reason: `order ${order.ordStatus}: nothing executed` };
    if (order.avgPx === null || !QUANTITY.test(order.avgPx)) throw new Unmappable(`executed order without a valid avgPx`);
    const currency = currencyOf(order.currency);
    const cost = roundToCents(quantity.times(order.avgPx));
    const netSettle = money(order.netSettle, 'netSettle');
    const buy = order.side === 'BUY';
    const fee = buy ? netSettle.minus(cost) : cost.minus(netSettle);
    if (fee.isNegative()) throw new Unmappable(`netSettle ${order.netSettle} is ${buy ? 'below' : 'above'} the executed amount ${cost.toFixed(2)}: a negative fee`);
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
          ...inUsd(netSettle, currency, aedPerUsd),
          metadata: { ...metadata, brokerage_bps: UAEFEED_SELL_BROKERAGE_BPS },
        };
    return { outcome: 'entry', sourceTxnId, entry };
  });
}
