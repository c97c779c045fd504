/**
 * uaefeed records as the client returns them: validated, every JSON number of the wire turned
 * into an exact decimal string (`Decimal`), every date normalised to `YYYY-MM-DD` (`IsoDate`).
 * Field names are the upstream's own (docs/upstreams/uaefeed.md).
 */

import type { UpstreamRetryOptions } from '../http.js';

/** A plain decimal string, exactly as the upstream's number (`"1234.50"`, `"-0.1"`), never exponent notation. */
export type Decimal = string;
/** `YYYY-MM-DD`. */
export type IsoDate = string;

/** Credentials and settings of the client: from the book's config, never logged. */
export interface UaefeedClientConfig extends UpstreamRetryOptions {
  baseUrl: string;
  /** The app key: the JWT assertion's `iss` and the Basic user of the token endpoints (`UAEFEED_API_KEY`). */
  appKey: string;
  /** The Basic password of the token endpoints (`UAEFEED_API_SECRET`). */
  appSecret: string;
  /** PEM (PKCS#8 or PKCS#1) RSA private key the assertion is signed with, RS256 (`UAEFEED_PRIVATE_KEY`). */
  privateKeyPem: string;
  /** The institution code, claim `instCode` (`UAEFEED_INST_CODE`). */
  instCode: string;
  /** The institution's user, claim `userId`; unset, the institution code. */
  userId?: string;
  /** Records asked for per page of a list (at most UAEFEED_PAGE_SIZE_MAX). */
  pageSize?: number;
  /** Refresh an access token this long before it expires (at most a fifth of its lifetime). */
  refreshMarginMs?: number;
  /** The clock (epoch ms) that decides token expiry; tests pass a fake one. */
  now?: () => number;
}

export type UaefeedTransferType = 'DEPOSIT' | 'WITHDRAW';
export type UaefeedTransferStatus = 'COMPLETED' | 'REJECTED';

/** `GET /v1.2/cash/transfers` (ours). REJECTED transfers moved nothing. */
export interface UaefeedCashTransfer {
  transferId: string;
  /** Its suffix names the currency: `7000001-AED`. */
  cashAccountNumber: string;
  type: UaefeedTransferType;
  amount: Decimal;
  /** ISO 4217; the UAE book knows AED and USD, the mapper decides what else means. */
  currency: string;
  status: UaefeedTransferStatus;
  valueDate: IsoDate;
}

export type UaefeedSide = 'BUY' | 'SELL';
export type UaefeedOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELLED' | 'REJECTED' | 'EXPIRED';

/** `GET /v1.2/order/list` (ours). Fees are bundled into `netSettle`, never itemised. */
export interface UaefeedOrder {
  clOrdId: string;
  orderId: string;
  symbol: string;
  side: UaefeedSide;
  ordQty: Decimal;
  /** Executed quantity; 0 for an order that never traded. */
  cumQty: Decimal;
  /** Average executed price; null when nothing executed. */
  avgPx: Decimal | null;
  /** Cash the order moved, fees included: paid on a BUY (cumQty × avgPx + fee), received on a SELL (− fee). */
  netSettle: Decimal;
  ordStatus: UaefeedOrderStatus;
  tradeDate: IsoDate;
  currency: string;
  exchange: string;
}

/** One cash account's entry of `GET /v1.2/cash/summary`. */
export interface UaefeedCashSummary {
  accountNumber: string;
  currency: string;
  balance: Decimal;
  blockedAmount: Decimal;
  buyingPower: Decimal;
  cashForWithdrawal: Decimal;
  lastUpdatedDate: IsoDate;
  unsettledSales: Decimal;
}

export interface UaefeedCashStatementLine {
  transactionDate: IsoDate;
  valueDate: IsoDate;
  description: string;
  debit: Decimal;
  credit: Decimal;
  tradeBalance: Decimal;
  settledBalance: Decimal;
}

export interface UaefeedCashStatementAccount {
  cashAccountNumber: string;
  currency: string;
  tradeOpeningBalance: Decimal;
  settledOpeningBalance: Decimal;
  deposit: Decimal;
  withdraw: Decimal;
  buy: Decimal;
  sell: Decimal;
  other: Decimal;
  tradeClosingBalance: Decimal;
  settledClosingBalance: Decimal;
  list: UaefeedCashStatementLine[];
}

/** `GET /v1.2/statement/cash?month&year&customerNumber`. */
export interface UaefeedCashStatement {
  customerNumber: string;
  month: number;
  year: number;
  list: UaefeedCashStatementAccount[];
}

export type UaefeedSecurityType = 'CS' | 'OPT' | 'BND' | 'FND';

export interface UaefeedHoldingMovement {
  transactionDate: IsoDate;
  narration: string;
  quantity: Decimal;
  amount: Decimal;
}

export interface UaefeedHoldingSymbol {
  symbol: string;
  totalHolding: Decimal;
  totalAmount: Decimal;
  list: UaefeedHoldingMovement[];
}

export interface UaefeedHoldingExchange {
  exchange: string;
  list: UaefeedHoldingSymbol[];
}

export interface UaefeedHoldingAccount {
  accountNumber: string;
  securityType: UaefeedSecurityType;
  list: UaefeedHoldingExchange[];
}

/** `GET /v1.2/statement/positions?month&year&customerNumber`. */
export interface UaefeedHoldingsStatement {
  /** Positions at the end of the month, with the month's movements; the public format has no other field. */
  list: UaefeedHoldingAccount[];
}

/** A statement as validated, with the body exactly as received (for raw snapshots). */
export interface UaefeedReceived<T> {
  statement: T;
  raw: string;
}

/** Per-customer query of a list; dates inclusive, `YYYY-MM-DD`. */
export interface UaefeedListQuery {
  customerNumber: string;
  fromDate?: IsoDate;
  toDate?: IsoDate;
}

export interface UaefeedMonthQuery {
  customerNumber: string;
  year: number;
  /** 1–12. */
  month: number;
}

export interface UaefeedClient {
  readonly upstream: 'uaefeed';
  /** Every page of the customer's cash transfers (COMPLETED and REJECTED). */
  listCashTransfers(query: UaefeedListQuery): Promise<UaefeedCashTransfer[]>;
  /** Every page of the customer's orders (executed or not), trade dates in range. */
  listOrders(query: UaefeedListQuery): Promise<UaefeedOrder[]>;
  /** One entry per cash account of the customer. */
  getCashSummary(customerNumber: string): Promise<UaefeedCashSummary[]>;
  getCashStatement(query: UaefeedMonthQuery): Promise<UaefeedReceived<UaefeedCashStatement>>;
  getHoldingsStatement(query: UaefeedMonthQuery): Promise<UaefeedReceived<UaefeedHoldingsStatement>>;
}
