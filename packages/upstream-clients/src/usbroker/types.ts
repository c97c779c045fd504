/**
 * usbroker, the US broker of the India book, as this client returns it. Field names are the
 * wire's (docs/upstreams/usbroker.md), so the documented format, the sandbox and these types
 * share one vocabulary; every value is validated at the boundary.
 */

/** A decimal number as a string, sign kept: `"-1234.50"`, `"0.25"`. Never a JS number. */
export type DecimalString = string;
/** A calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;
/** A month, `YYYY-MM`. */
export type IsoMonth = string;
/** An ISO-8601 instant with its offset: `2026-01-15T14:30:00Z`. */
export type IsoDateTime = string;

export type UsbrokerAccountStatus = 'active' | 'trading_halted' | 'inactive';

export interface UsbrokerAccount {
  account_no: string;
  status: UsbrokerAccountStatus;
}

export interface UsbrokerBalance {
  cash: DecimalString;
  cash_withdrawable: DecimalString;
  buying_power: DecimalString;
  pending_deposits: DecimalString;
  currency: string;
  as_of: IsoDateTime;
}

export interface UsbrokerPosition {
  symbol: string;
  cusip: string | null;
  qty: DecimalString;
  avg_cost: DecimalString;
  cost_basis: DecimalString;
  market_value: DecimalString;
}

export type UsbrokerSide = 'BUY' | 'SELL';
export type UsbrokerOrderStatus = 'filled' | 'partially_filled' | 'cancelled' | 'rejected';
export type UsbrokerCostType = 'quantity' | 'full_portfolio_cost';

interface UsbrokerOrderCommon {
  order_id: string;
  client_order_id: string | null;
  symbol: string;
  side: UsbrokerSide;
  /** Fractional for full-portfolio-cost orders; `"0"` when nothing filled. */
  filled_qty: DecimalString;
  /** Null when nothing filled. `filled_qty × avg_fill_price` bundles the broker's fees. */
  avg_fill_price: DecimalString | null;
  status: UsbrokerOrderStatus;
  submitted_at: IsoDateTime;
  filled_at: IsoDateTime | null;
}

/** A quantity order (ingested by `sync-usbroker`): `qty` set, no `notional`. */
export interface UsbrokerQuantityOrder extends UsbrokerOrderCommon {
  cost_type: 'quantity';
  qty: DecimalString;
  notional: null;
}

/** A full-portfolio-cost order (ingested by `sync-usbroker-trades`): `notional` set, no `qty`. */
export interface UsbrokerFullPortfolioCostOrder extends UsbrokerOrderCommon {
  cost_type: 'full_portfolio_cost';
  qty: null;
  notional: DecimalString;
}

export type UsbrokerOrder = UsbrokerQuantityOrder | UsbrokerFullPortfolioCostOrder;

export type UsbrokerWireDirection = 'IN' | 'OUT';
export type UsbrokerWireStatus = 'completed' | 'pending' | 'returned';

/** A funding wire. It names no remittance: one wire may carry several. */
export interface UsbrokerWire {
  transfer_id: string;
  account_no: string;
  direction: UsbrokerWireDirection;
  /** Positive; `direction` says which way. */
  amount: DecimalString;
  currency: string;
  status: UsbrokerWireStatus;
  value_date: IsoDate;
}

export type UsbrokerRowCode = 'TRD' | 'WIREI' | 'WIREO' | 'DIV' | 'DIVNRA' | 'FEE' | 'SPLIT' | 'CIL';

/** One line of the monthly statement (ours). */
export interface UsbrokerStatementActivity {
  date: IsoDate;
  txn_no: string;
  row_code: UsbrokerRowCode;
  symbol: string | null;
  description: string | null;
  /** Positive credits the client, negative debits. */
  amount: DecimalString;
}

/** The monthly statement (ours). */
export interface UsbrokerMonthlyStatement {
  account_no: string;
  month: IsoMonth;
  currency: string;
  opening_cash: DecimalString;
  closing_cash: DecimalString;
  activity: UsbrokerStatementActivity[];
}

/** `POST /v1/orders/preview`: exactly one of `qty` and `notional`. */
export type UsbrokerOrderPreviewRequest = {
  account_no: string;
  symbol: string;
  side: UsbrokerSide;
} & ({ qty: DecimalString; notional?: undefined } | { notional: DecimalString; qty?: undefined });

export interface UsbrokerOrderPreview {
  est_commission: DecimalString;
  sec_fee: DecimalString;
  taf_fee: DecimalString;
  ifsca_fee: DecimalString;
}

export interface UsbrokerQuote {
  symbol: string;
  last: DecimalString;
  currency: string;
  as_of: IsoDateTime;
}

/**
 * One row of the daily ledger CSV, every column typed: an empty cell is null; amounts keep
 * their sign (`amount` positive credits the client, debits are negative).
 */
export interface UsbrokerDailyLedgerRowCommon {
  report_date: IsoDate;
  firm_id: string;
  account_no: string;
  txn_no: string;
  row_code: UsbrokerRowCode;
  symbol: string | null;
  cusip: string | null;
  side: UsbrokerSide | null;
  quantity: DecimalString | null;
  price: DecimalString | null;
  principal: DecimalString | null;
  commission: DecimalString | null;
  sec_fee: DecimalString | null;
  taf_fee: DecimalString | null;
  ifsca_fee: DecimalString | null;
  other_fee: DecimalString | null;
  amount: DecimalString;
  currency: string;
  trade_date: IsoDate | null;
  settle_date: IsoDate | null;
  pay_date: IsoDate | null;
  per_share: DecimalString | null;
  /** A fraction: `"0.25"` is 25 %. */
  wht_rate: DecimalString | null;
  tax_code: string | null;
  ref_txn_no: string | null;
  description: string | null;
}

/** TRD: a trade, fees itemised. BUY debits (amount < 0), SELL credits (amount > 0). */
export interface UsbrokerTradeRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'TRD';
  symbol: string;
  side: UsbrokerSide;
  quantity: DecimalString;
  price: DecimalString;
  principal: DecimalString;
  trade_date: IsoDate;
  settle_date: IsoDate;
}

/** WIREI (in, amount > 0) and WIREO (out, amount < 0). */
export interface UsbrokerWireRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'WIREI' | 'WIREO';
}

/** DIV: a gross dividend (amount > 0); ex-date in `trade_date`, shares in `quantity`. */
export interface UsbrokerDividendRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'DIV';
  symbol: string;
  quantity: DecimalString;
  per_share: DecimalString;
  trade_date: IsoDate;
  pay_date: IsoDate;
}

/** DIVNRA: US withholding on a dividend (amount < 0), linked to its DIV by `ref_txn_no`. */
export interface UsbrokerWithholdingRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'DIVNRA';
  symbol: string;
  ref_txn_no: string;
  wht_rate: DecimalString;
}

/** FEE: a fee not tied to a trade. */
export interface UsbrokerFeeRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'FEE';
}

/**
 * SPLIT: a forward or reverse split of the account's holding (docs/upstreams/usbroker.md):
 * `trade_date` the effective (ex) date, `quantity` the shares added (negative: removed),
 * `per_share` new shares per old one; every amount 0.00.
 */
export interface UsbrokerSplitRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'SPLIT';
  symbol: string;
  quantity: DecimalString;
  per_share: DecimalString;
  trade_date: IsoDate;
}

/** CIL: cash in lieu of the fractional share a split left: `quantity` the fraction removed (negative), `price` per share, `amount` credited (> 0), `ref_txn_no` its SPLIT row. */
export interface UsbrokerCashInLieuRow extends UsbrokerDailyLedgerRowCommon {
  row_code: 'CIL';
  symbol: string;
  quantity: DecimalString;
  price: DecimalString;
  trade_date: IsoDate;
  ref_txn_no: string;
}

/**
 * A row whose code the book does not know (a `MERGER`, a `SPINOFF`, ...): its identifying
 * columns checked, every cell kept as the file has it (empty: null), so the sync can make it an
 * exception naming the code and the row instead of failing the day.
 */
export interface UsbrokerUnknownRow {
  row_code: 'UNKNOWN';
  /** The code as the file writes it. */
  code: string;
  report_date: IsoDate;
  firm_id: string;
  account_no: string;
  txn_no: string;
  cells: Record<string, string | null>;
}

export type UsbrokerDailyLedgerRow =
  | UsbrokerTradeRow
  | UsbrokerWireRow
  | UsbrokerDividendRow
  | UsbrokerWithholdingRow
  | UsbrokerFeeRow
  | UsbrokerSplitRow
  | UsbrokerCashInLieuRow
  | UsbrokerUnknownRow;
