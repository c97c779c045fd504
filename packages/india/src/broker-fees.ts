import { Decimal, type Page } from '@ledger/core/posting';
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
  /** The broker cost the book posted (recost's 5010 line in effect); null while the trade is pending recost. */
  modelled_usd: string | null;
  /** BROKER_COST_BPS of notional, in cents. */
  configured_usd: string;
  /** The broker's part of the TRD row's itemised fees (commission, SEC, TAF, IFSCA: broker_fees); null when none was itemised. */
  actual_usd: string | null;
  /** actual − modelled: what the broker kept that the book did not post as its cost. */
  drift_usd: string | null;
  /** actual − configured: how far the configured bps is from what the broker charged. Never flagged by itself. */
  configured_drift_usd: string | null;
  /** The customer's fee the book posted (4010 `brokerage_fee`: a buy's own line, a sale's derivation's); null while a sale is pending recost. */
  customer_fee_usd: string | null;
  /** The customer's whole fee the TRD row itemises (the broker's part plus `other_fee`, the platform's); null when none, or recorded before the split was kept. */
  itemised_fee_usd: string | null;
  /** itemised − customer fee: what the broker charged the customer that the book did not post. */
  customer_fee_drift_usd: string | null;
  /** `drift_usd` or `customer_fee_drift_usd` beyond FEE_DRIFT_TOLERANCE_USD: the book and the broker's itemised fees disagree. */
  flagged: boolean;
}

/** The broker-fee figures over every trade of a filter, and one page of its trades. */
export interface FeeFigures {
  trades: number;
  /** Trades with an itemised fee. */
  matched: number;
  flagged: number;
  totals: {
    notional_usd: string;
    modelled_usd: string;
    configured_usd: string;
    actual_usd: string;
    drift_usd: string;
    configured_drift_usd: string;
    customer_fee_usd: string;
    itemised_fee_usd: string;
    customer_fee_drift_usd: string;
  };
  rows: FeeTradeRow[];
}

/** Drift beyond this between what the broker itemised and what the book posted is flagged. */
export const FEE_DRIFT_TOLERANCE_USD = new Decimal('0.01');

/**
 * BrokerFeeSummary: per trade, the broker cost modelled (posted by recost), configured
 * (BROKER_COST_BPS of notional) and actual (the broker's part of the daily ledger's itemised
 * fee), and the customer's fee posted against the whole fee itemised. A trade is flagged on what
 * the broker itemised against what the book posted (never on the bps model: SEC, TAF and the
 * broker's rounding make every bps model miss); `configured_drift_usd` shows how far the
 * configuration is off. Counts and totals are over every trade of the filter; `items` is one page
 * of them (the list envelope).
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
