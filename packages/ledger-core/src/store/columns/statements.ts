import { columnsFrom } from './table.js';

/** A custodian's monthly cash statement of a customer's account, as validated (decimals as strings). */
export interface CashStatementSnapshot {
  customerId: string;
  upstream: 'custodian';
  account: string;
  /** `YYYY-MM`. */
  month: string;
  currency: string;
  statement: Record<string, unknown>;
  /** sha256 (hex) of the statement: the same content is stored once. */
  statementSha256: string;
}

const column = columnsFrom<CashStatementSnapshot>();

/** `cash_statements`: insert-only per content. */
export const CASH_STATEMENTS = {
  customer_id: column.required('text', { write: (s) => s.customerId }),
  upstream: column.required<'text', 'custodian'>('text', { write: (s) => s.upstream }),
  account: column.required('text', { write: (s) => s.account }),
  month: column.required('text', { write: (s) => s.month }),
  currency: column.required('text', { write: (s) => s.currency }),
  statement: column.required('jsonb', { write: (s) => s.statement }),
  statement_sha256: column.required('text', { write: (s) => s.statementSha256 }),
  fetched_at: column.required('timestamptz'),
} as const;

export type UaefeedStatementKind = 'cash' | 'holdings';

/** A uaefeed monthly statement of a customer, its body exactly as received. */
export interface UaefeedStatementSnapshot {
  customerId: string;
  kind: UaefeedStatementKind;
  /** `YYYY-MM`. */
  month: string;
  body: string;
  bodySha256: string;
}

const rawColumn = columnsFrom<UaefeedStatementSnapshot>();

/** `uaefeed_statements`: insert-only per content. */
export const UAEFEED_STATEMENTS = {
  customer_id: rawColumn.required('text', { write: (s) => s.customerId }),
  kind: rawColumn.required<'text', UaefeedStatementKind>('text', { write: (s) => s.kind }),
  month: rawColumn.required('text', { write: (s) => s.month }),
  body: rawColumn.required('text', { write: (s) => s.body }),
  body_sha256: rawColumn.required('text', { write: (s) => s.bodySha256 }),
  fetched_at: rawColumn.required('timestamptz'),
} as const;
