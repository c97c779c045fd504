import { Decimal, type Page } from '@ledger/core';
import { ratio } from './figures.js';

/** A trade's broker fees as the report lists it: every figure a decimal string (formatted by the read). */
export interface FeeTradeRow {
  txn_id: string;
  customer_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  txn_date: string;
  /** The trade's amount. */
  notional_usd: string;
  /** The broker cost in effect (recost's 5010 line); null while the trade is pending recost. */
  modelled_usd: string | null;
  /** BROKER_COST_BPS of notional, in cents. */
  configured_usd: string;
  /** The broker's fee from its daily ledger (broker_fees); null when none was itemised. */
  actual_usd: string | null;
  /** actual − configured. */
  drift_usd: string | null;
  /** Drift beyond FEE_DRIFT_TOLERANCE_USD. */
  flagged: boolean;
}

/** The broker-fee figures over every trade of a filter, and one page of its trades. */
export interface FeeFigures {
  trades: number;
  /** Trades with an itemised fee. */
  matched: number;
  flagged: number;
  totals: { notional_usd: string; modelled_usd: string; configured_usd: string; actual_usd: string };
  rows: FeeTradeRow[];
}

/** Drift beyond this between actual and configured is flagged. */
export const FEE_DRIFT_TOLERANCE_USD = new Decimal('0.01');

/**
 * BrokerFeeSummary: per trade, the broker cost modelled (posted by recost), configured
 * (BROKER_COST_BPS of notional) and actual (the daily ledger's itemised fee); drift is actual −
 * configured, flagged beyond one cent; and the share of trades with an actual fee. Counts and
 * totals are over every trade of the filter; `items` is one page of them (the list envelope).
 */
export function brokerFeeSummary(figures: FeeFigures, configuredBps: Decimal, page: Page) {
  return {
    configured_bps: configuredBps.toFixed(),
    trades: figures.trades,
    matched: figures.matched,
    matched_share: figures.trades === 0 ? '0' : ratio(new Decimal(figures.matched).dividedBy(figures.trades)),
    flagged: figures.flagged,
    totals: figures.totals,
    items: figures.rows,
    total: figures.trades,
    limit: page.limit,
    offset: page.offset,
    warnings: [] as string[],
  };
}
