import { columnsFrom, type RowOf } from './table.js';

/** A position as an upstream reported it: decimals as strings, as received. */
export interface SnapshotPosition {
  symbol: string;
  quantity: string;
  /** Cost basis in the snapshot's currency, when the upstream states it. */
  cost: string | null;
  /** Market value in the snapshot's currency, when the upstream states it. */
  market_value: string | null;
  [field: string]: unknown;
}

export type SnapshotUpstream = 'custodian' | 'usbroker';

/** One customer's holdings at the end of a day, as an upstream reported them. */
export interface HoldingsSnapshot {
  customerId: string;
  upstream: SnapshotUpstream;
  asOf: string;
  account: string;
  currency: string;
  positions: SnapshotPosition[];
  cash: Record<string, unknown> | null;
}

const column = columnsFrom<HoldingsSnapshot>();

/** `holdings_snapshots`: insert-only per (customer, upstream, day). JSON values go into the document as they are. */
export const HOLDINGS_SNAPSHOTS = {
  customer_id: column.required('text', { write: (s) => s.customerId }),
  upstream: column.required<'text', SnapshotUpstream>('text', { write: (s) => s.upstream }),
  as_of: column.required('date', { write: (s) => s.asOf }),
  account: column.required('text', { write: (s) => s.account }),
  currency: column.required('text', { write: (s) => s.currency }),
  positions: column.required('jsonb', { write: (s) => s.positions }),
  cash: column.nullable('jsonb', { write: (s) => s.cash }),
  fetched_at: column.required('timestamptz'),
} as const;
export type HoldingsSnapshotRow = RowOf<typeof HOLDINGS_SNAPSHOTS>;

/** A portfolio read kept as the fallback of the customer views. */
export type PortfolioSnapshot = Omit<HoldingsSnapshot, 'account' | 'currency'>;
const cacheColumn = columnsFrom<PortfolioSnapshot>();

/** `portfolio_snapshots`: one row per (customer, upstream), replaced by each refresh. */
export const PORTFOLIO_SNAPSHOTS = {
  customer_id: cacheColumn.required('text', { write: (s) => s.customerId }),
  upstream: cacheColumn.required<'text', SnapshotUpstream>('text', { write: (s) => s.upstream }),
  as_of: cacheColumn.required('date', { write: (s) => s.asOf }),
  positions: cacheColumn.required('jsonb', { write: (s) => s.positions }),
  cash: cacheColumn.nullable('jsonb', { write: (s) => s.cash }),
  taken_at: cacheColumn.required('timestamptz'),
} as const;
export type PortfolioSnapshotRow = RowOf<typeof PORTFOLIO_SNAPSHOTS>;
