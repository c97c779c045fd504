import {
  Decimal,
  FILLED_QUANTITY_RULE,
  isFillWithinOrder,
  roundToCents,
  ZERO,
  type EntryRequest,
} from '@ledger/core/posting';
import type { DividendEvent, DividendWithholding, StockSplit } from '@ledger/core/store';
import type {
  UsbrokerCashInLieuRow,
  UsbrokerDividendRow,
  UsbrokerFeeRow,
  UsbrokerOrder,
  UsbrokerSplitRow,
  UsbrokerTradeRow,
  UsbrokerUnknownRow,
  UsbrokerWire,
  UsbrokerWithholdingRow,
} from '@ledger/upstream-clients';

/*
 * usbroker records as ledger entries (docs/posting-rules.md, "India broker"). Pure: no I/O, no
 * clock. Every entry is keyed (`usbroker`, the upstream id), so a record posts once whichever
 * job or run sees it.
 */

import { entryOf as entry, rejectedAs, skippedAs, type Mapped } from '../kit/posting-kit.js';
import { reason, type Reason } from '../kit/results.js';

const BPS = new Decimal(10_000);

/** A withheld amount (a debit in the file) as a positive decimal string, cents shown; finer amounts keep their digits (and are refused by the ledger). */
const withheld = (amount: string) => {
  const value = new Decimal(amount).negated();
  return value.toFixed(Math.max(2, value.decimalPlaces() ?? 0));
};
const CENT = new Decimal('0.01');

/** A funding wire: a completed IN wire is a `deposit`, a completed OUT wire a `withdrawal`; pending and returned wires move nothing. */
export function wireEntry(wire: UsbrokerWire, customerId: string): Mapped {
  if (wire.status !== 'completed') return skippedAs('moved_nothing', { status: wire.status });
  if (wire.currency !== 'USD')
    return rejectedAs('unsupported_currency', { currency: wire.currency, currencies: ['USD'] });
  return entry({
    txn_type: wire.direction === 'IN' ? 'deposit' : 'withdrawal',
    customer_id: customerId,
    source: 'usbroker',
    source_txn_id: wire.transfer_id,
    txn_date: wire.value_date,
    amount_usd: wire.amount,
    metadata: { usbroker_account_no: wire.account_no },
  });
}

/** The UTC date of an ISO-8601 instant: the trade date of an order filled then (the daily ledger's TRD `trade_date`). */
export function utcDate(instant: string): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** The cash an order moved: `filled_qty × avg_fill_price` (fees bundled), rounded half up to cents. */
export function executedAmount(order: UsbrokerOrder): Decimal | null {
  if (order.avg_fill_price === null) return null;
  return roundToCents(new Decimal(order.filled_qty).times(order.avg_fill_price));
}

/** The customer's fee at `bps` of notional, as recost computes it (half up to cents). */
const feeAt = (notional: Decimal, bps: Decimal) => roundToCents(notional.times(bps).dividedBy(BPS));

/**
 * A buy's cost of the shares out of the executed amount: the cost `c` with `c` + its fee at `bps`
 * ≈ the executed amount; the fee is the rest, so the wallet moves by exactly the executed amount.
 */
export function buyCost(executed: Decimal, bps: Decimal): { costUsd: Decimal; feeUsd: Decimal } {
  const costUsd = roundToCents(executed.times(BPS).dividedBy(BPS.plus(bps)));
  return { costUsd, feeUsd: executed.minus(costUsd) };
}

/**
 * A sell's gross proceeds out of the executed (net) amount: the smallest `p` with
 * `p − fee(p)` = the executed amount, `fee(p)` being what recost will post (Dr 2010 / Cr 4010) at
 * `bps` of `p`. `p − fee(p)` grows by 0 or one cent per cent of `p` (bps < 10,000), so such a `p`
 * exists and a few steps from the estimate find it.
 */
export function sellProceeds(executed: Decimal, bps: Decimal): Decimal {
  const net = (p: Decimal) => p.minus(feeAt(p, bps));
  let proceeds = roundToCents(executed.times(BPS).dividedBy(BPS.minus(bps)));
  while (net(proceeds).isGreaterThan(executed)) proceeds = proceeds.minus(CENT);
  while (net(proceeds).isLessThan(executed)) proceeds = proceeds.plus(CENT);
  while (net(proceeds.minus(CENT)).isEqualTo(executed)) proceeds = proceeds.minus(CENT);
  if (!net(proceeds).isEqualTo(executed))
    throw new Error(`no proceeds nets ${executed.toFixed(2)} at ${bps.toFixed()} bps`);
  return proceeds;
}

/**
 * An executed order (filled or partially filled: its filled part) as a trade. The executed amount
 * bundles the broker's fees and is exactly what the customer's wallet moves by:
 *  - BUY: `buy_security` of the cost of the shares, with `fee_usd` the rest (Dr 2010 / Cr 4010);
 *  - SELL: `sell_security` of the gross proceeds; recost posts the fee at `metadata.brokerage_bps`.
 * `brokerage_bps` (the customer's fee of these trades) is kept on the trade, so recost splits the
 * fee the way ingest did, whatever the schedule says later.
 */
export function orderEntry(order: UsbrokerOrder, customerId: string, accountNo: string, bps: Decimal): Mapped {
  if (order.status === 'cancelled' || order.status === 'rejected')
    return skippedAs('nothing_executed', { status: order.status });
  const quantity = new Decimal(order.filled_qty);
  // A quantity order states what was ordered (a notional one states dollars): a fill beyond it is no trade.
  if (order.qty !== null && !isFillWithinOrder(quantity, new Decimal(order.qty)))
    return rejectedAs('invalid_quantity', {
      field: 'filled_qty',
      value: order.filled_qty,
      qty: order.qty,
      rule: FILLED_QUANTITY_RULE,
    });
  if (quantity.isZero()) return skippedAs('nothing_executed', { status: order.status });
  const executed = executedAmount(order);
  if (executed === null || order.filled_at === null)
    return rejectedAs('missing_fill', {
      status: order.status,
      avg_fill_price: order.avg_fill_price,
      filled_at: order.filled_at,
    });
  if (!executed.isGreaterThan(ZERO))
    return rejectedAs('below_a_cent', { filled_qty: order.filled_qty, avg_fill_price: order.avg_fill_price });
  const common = {
    customer_id: customerId,
    source: 'usbroker',
    source_txn_id: order.order_id,
    txn_date: utcDate(order.filled_at),
    symbol: order.symbol,
    quantity: order.filled_qty,
    metadata: {
      usbroker_account_no: accountNo,
      cost_type: order.cost_type,
      executed_usd: executed.toFixed(2),
      brokerage_bps: bps.toFixed(),
      // Recost orders a day's trades by it: two jobs post one day's trades in whatever order they run.
      executed_at: new Date(order.filled_at).toISOString(),
    },
  } as const;
  if (order.side === 'BUY') {
    const { costUsd, feeUsd } = buyCost(executed, bps);
    return entry({ ...common, txn_type: 'buy_security', amount_usd: costUsd.toFixed(2), fee_usd: feeUsd.toFixed(2) });
  }
  return entry({ ...common, txn_type: 'sell_security', amount_usd: sellProceeds(executed, bps).toFixed(2) });
}

/** A daily-ledger row of one account as a USD entry of its customer, keyed by its `txn_no`; a row in another currency is refused. */
function dailyLedgerEntry(
  row: { currency: string; txn_no: string; symbol: string | null; account_no: string },
  customerId: string,
  what: string,
  fields: Pick<EntryRequest, 'txn_type' | 'txn_date' | 'amount_usd'> & {
    quantity?: string;
    metadata: Record<string, unknown>;
  },
): Mapped {
  if (row.currency !== 'USD')
    return rejectedAs('unsupported_currency', { row: what, currency: row.currency, currencies: ['USD'] });
  const { metadata, ...facts } = fields;
  return entry({
    ...facts,
    customer_id: customerId,
    source: 'usbroker',
    source_txn_id: row.txn_no,
    symbol: row.symbol,
    metadata: { usbroker_account_no: row.account_no, ...metadata },
  });
}

/** A daily-ledger DIV row: the gross `dividend`, paid on `pay_date`. */
export function dividendEntry(row: UsbrokerDividendRow, customerId: string): Mapped {
  return dailyLedgerEntry(row, customerId, 'dividend', {
    txn_type: 'dividend',
    txn_date: row.pay_date,
    amount_usd: row.amount,
    metadata: { ex_date: row.trade_date, shares: row.quantity, per_share: row.per_share },
  });
}

/** A daily-ledger DIVNRA row: the US withholding on the DIV row it names, a `wht_tax` of what was withheld. */
export function withholdingEntry(row: UsbrokerWithholdingRow, customerId: string): Mapped {
  return dailyLedgerEntry(row, customerId, 'withholding', {
    txn_type: 'wht_tax',
    txn_date: row.pay_date ?? row.report_date,
    amount_usd: withheld(row.amount),
    metadata: { ref_txn_no: row.ref_txn_no, wht_rate: row.wht_rate },
  });
}

/**
 * A daily-ledger FEE row: a fee the broker charged the account (an account or wire fee), a
 * `broker_fee` of what it took (Dr 2010 / Cr 1100), dated the report's day: the broker holds that
 * much less of the customer's cash from then on.
 */
export function feeEntry(row: UsbrokerFeeRow, customerId: string): Mapped {
  return dailyLedgerEntry(row, customerId, 'fee', {
    txn_type: 'broker_fee',
    txn_date: row.report_date,
    amount_usd: withheld(row.amount),
    metadata: row.description === null ? {} : { description: row.description },
  });
}

/**
 * A daily-ledger CIL row: cash in lieu of the fractional share a split left is a sale of that
 * fraction (india-tax: a transfer), a `sell_security` of the fraction (the row's quantity, made
 * positive) for the cash credited, on the split's effective date. The broker charges no fee on it:
 * pinned to 0 bps, so recost posts only the cost relief of the FIFO lots it takes.
 */
export function cashInLieuEntry(row: UsbrokerCashInLieuRow, customerId: string): Mapped {
  return dailyLedgerEntry(row, customerId, 'cash in lieu', {
    txn_type: 'sell_security',
    txn_date: row.trade_date,
    amount_usd: row.amount,
    quantity: new Decimal(row.quantity).negated().toFixed(),
    metadata: {
      corporate_action: 'cash_in_lieu',
      ref_txn_no: row.ref_txn_no,
      price: row.price,
      brokerage_bps: '0',
      broker_cost_bps: '0',
    },
  });
}

/** A daily-ledger SPLIT row as the split of its customer's holding (stock_splits), keyed by its `txn_no`. */
export function stockSplitOf(row: UsbrokerSplitRow, customerId: string): StockSplit {
  return {
    source: 'usbroker',
    sourceTxnId: row.txn_no,
    customerId,
    symbol: row.symbol,
    effectiveOn: row.trade_date,
    shares: row.quantity,
    ratio: row.per_share,
    sourceRow: { ...row },
  };
}

/** A row of a code the book does not know: refused, naming the code (its cells go to the exception). */
export function unknownRowRejected(row: UsbrokerUnknownRow): Mapped {
  return rejectedAs('unknown_row_code', {
    message: `usbroker daily-ledger row ${row.txn_no} has row code ${row.code}, which the book does not know: nothing was posted for it`,
    row_code: row.code,
  });
}

/** A DIVNRA row as the withholding of its dividend event. */
export function dividendWithholding(row: UsbrokerWithholdingRow): DividendWithholding {
  return { divTxnNo: row.ref_txn_no, txnNo: row.txn_no, rate: row.wht_rate, amountUsd: withheld(row.amount) };
}

/** A DIV row (and its DIVNRA row, when seen) as a dividend event. */
export function dividendEvent(
  row: UsbrokerDividendRow,
  withholding: UsbrokerWithholdingRow | null,
  customerId: string,
): DividendEvent {
  const wht = withholding === null ? null : dividendWithholding(withholding);
  return {
    divTxnNo: row.txn_no,
    customerId,
    accountNo: row.account_no,
    symbol: row.symbol,
    cusip: row.cusip,
    exDate: row.trade_date,
    payDate: row.pay_date,
    shares: row.quantity,
    perShare: row.per_share,
    grossUsd: row.amount,
    withholding: wht === null ? null : { txnNo: wht.txnNo, rate: wht.rate, amountUsd: wht.amountUsd },
    reportDate: row.report_date,
  };
}

type FeeColumn = 'commission' | 'sec_fee' | 'taf_fee' | 'ifsca_fee' | 'other_fee';
/** What the broker keeps of the customer's fee (contract, Recost revised); `other_fee` is the platform's part. */
const BROKER_FEE_COLUMNS: readonly FeeColumn[] = ['commission', 'sec_fee', 'taf_fee', 'ifsca_fee'];

/** A TRD row's itemised fees, positive (the file writes them as debits), or why they cannot be the broker's cost. */
export function tradeFees(row: UsbrokerTradeRow): { brokerUsd: Decimal; platformUsd: Decimal } | { problem: Reason } {
  const paid = (columns: readonly FeeColumn[]) =>
    // ZERO minus, not negated(): an empty part is 0, never −0 (which counts as negative).
    ZERO.minus(columns.reduce((sum, column) => sum.plus(row[column] ?? ZERO), ZERO));
  const brokerUsd = paid(BROKER_FEE_COLUMNS);
  const platformUsd = paid(['other_fee']);
  for (const [part, fee] of [
    ['broker', brokerUsd],
    ['platform', platformUsd],
  ] as const) {
    if (fee.isLessThan(ZERO)) return { problem: reason('fees_add_up_to_a_credit', { part, fees_usd: fee.toFixed() }) };
    if ((fee.decimalPlaces() ?? 0) > 2)
      return { problem: reason('fees_finer_than_a_cent', { part, fees_usd: fee.toFixed() }) };
  }
  return { brokerUsd, platformUsd };
}

/**
 * The order a TRD row reports: the one executed order of the account with the row's symbol, side,
 * quantity (`filled_qty`) and trade date (the UTC date of `filled_at`) — the file has no order id.
 * `orders` are the account's.
 */
export function orderOfTrade(
  row: UsbrokerTradeRow,
  orders: readonly UsbrokerOrder[],
): { order: UsbrokerOrder } | { problem: Reason } {
  const quantity = new Decimal(row.quantity);
  const found = orders.filter(
    (o) =>
      o.filled_at !== null &&
      o.symbol === row.symbol &&
      o.side === row.side &&
      new Decimal(o.filled_qty).isEqualTo(quantity) &&
      utcDate(o.filled_at) === row.trade_date,
  );
  if (found.length === 1) return { order: found[0]! };
  return {
    problem: reason(found.length === 0 ? 'no_matching_order' : 'several_matching_orders', {
      orders: found.map((o) => o.order_id),
    }),
  };
}
