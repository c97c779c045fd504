/**
 * custodian records as the client returns them: validated; money and quantities are decimal
 * strings in AED as the custodian sends them; dates `YYYY-MM-DD`. Field names are the
 * upstream's own (docs/upstreams/custodian.md). The whole format is ours.
 */

import type { UpstreamRetryOptions } from '../http.js';

/** A plain decimal string (`"1250.00"`, `"-3.5"`). */
export type Decimal = string;
/** `YYYY-MM-DD`. */
export type IsoDate = string;
/** `YYYY-MM`. */
export type IsoMonth = string;

export interface CustodianClientConfig extends UpstreamRetryOptions {
  baseUrl: string;
  /** The bearer API key (`CUSTODIAN_API_KEY`). */
  apiKey: string;
  /** Records asked for per page (at most CUSTODIAN_PER_PAGE_MAX). */
  perPage?: number;
}

/** `GET /accounts` (ours). */
export interface CustodianAccount {
  account: string;
  name: string;
  currency: string;
  status: 'active' | 'closed';
  opened_on: IsoDate;
}

export interface CustodianPosition {
  symbol: string;
  isin: string;
  qty: Decimal;
  avg_cost: Decimal;
  market_value: Decimal;
}

/** `GET /holdings?account&as_of`: positions and cash at the end of `as_of`. */
export interface CustodianHoldings {
  as_of: IsoDate;
  account: string;
  currency: string;
  positions: CustodianPosition[];
  cash: { balance: Decimal; available: Decimal };
}

export type CustodianTransactionType = 'CASH_IN' | 'CASH_OUT' | 'BUY' | 'SELL' | 'FEE';

export interface CustodianFee {
  code: string;
  amount: Decimal;
}

/**
 * `GET /transactions`. Amounts are unsigned; `type` gives the direction. `net` is the cash
 * moved: gross + fees on a BUY, gross − fees on a SELL, gross otherwise.
 */
export interface CustodianTransaction {
  id: string;
  type: CustodianTransactionType;
  symbol: string | null;
  qty: Decimal | null;
  price: Decimal | null;
  gross: Decimal;
  fees: CustodianFee[];
  net: Decimal;
  currency: string;
  trade_date: IsoDate;
  settle_date: IsoDate;
}

export interface CustodianCashStatementLine {
  date: IsoDate;
  value_date: IsoDate;
  description: string;
  debit: Decimal;
  credit: Decimal;
  /** The balance after this line. */
  balance: Decimal;
}

/** `GET /statements/cash?account&month` (ours). */
export interface CustodianCashStatement {
  account: string;
  month: IsoMonth;
  currency: string;
  opening_balance: Decimal;
  closing_balance: Decimal;
  lines: CustodianCashStatementLine[];
}

export interface CustodianTransactionQuery {
  account: string;
  /** Trade dates, inclusive. */
  from?: IsoDate;
  to?: IsoDate;
}

export interface CustodianClient {
  readonly upstream: 'custodian';
  /** Every page of the custodian's accounts (firm-wide: one call, split per customer by the caller). */
  listAccounts(): Promise<CustodianAccount[]>;
  getHoldings(query: { account: string; asOf: IsoDate }): Promise<CustodianHoldings>;
  /** Every page of the account's transactions in the range. */
  listTransactions(query: CustodianTransactionQuery): Promise<CustodianTransaction[]>;
  getCashStatement(query: { account: string; month: IsoMonth }): Promise<CustodianCashStatement>;
}
