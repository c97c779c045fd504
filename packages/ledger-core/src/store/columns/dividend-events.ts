import { columnsFrom, type RowOf } from './table.js';

/** The withholding of a dividend: its DIVNRA row. Decimals as strings, as received. */
export interface DividendWithholding {
  /** The DIV row's `txn_no` the DIVNRA row names in `ref_txn_no`. */
  divTxnNo: string;
  txnNo: string;
  /** A fraction: "0.25" is 25 %. */
  rate: string;
  /** Positive: what was withheld. */
  amountUsd: string;
}

/** A dividend as the broker's daily ledger states it (a DIV row), with its withholding when seen. */
export interface DividendEvent {
  divTxnNo: string;
  customerId: string;
  accountNo: string;
  symbol: string;
  cusip: string | null;
  exDate: string;
  payDate: string;
  shares: string;
  perShare: string;
  grossUsd: string;
  withholding: Omit<DividendWithholding, 'divTxnNo'> | null;
  reportDate: string;
}

const column = columnsFrom<DividendEvent>();

/** `dividend_events` (migration 20261205): one row per DIV row, upserted by sync-usbroker-ledger. */
export const DIVIDEND_EVENTS = {
  div_txn_no: column.required('text', { write: (e) => e.divTxnNo }),
  customer_id: column.required('text', { write: (e) => e.customerId }),
  account_no: column.required('text', { write: (e) => e.accountNo }),
  symbol: column.required('text', { write: (e) => e.symbol }),
  cusip: column.nullable('text', { write: (e) => e.cusip }),
  ex_date: column.required('date', { write: (e) => e.exDate }),
  pay_date: column.required('date', { write: (e) => e.payDate }),
  shares: column.required('numeric', { write: (e) => e.shares }),
  per_share: column.required('numeric', { write: (e) => e.perShare }),
  gross_usd: column.required('numeric', { write: (e) => e.grossUsd }),
  wht_txn_no: column.nullable('text', { write: (e) => e.withholding?.txnNo ?? null }),
  wht_rate: column.nullable('numeric', { write: (e) => e.withholding?.rate ?? null }),
  wht_usd: column.nullable('numeric', { write: (e) => e.withholding?.amountUsd ?? null }),
  report_date: column.required('date', { write: (e) => e.reportDate }),
  created_at: column.required('timestamptz'),
  updated_at: column.required('timestamptz'),
} as const;
export type DividendEventRow = RowOf<typeof DIVIDEND_EVENTS>;
