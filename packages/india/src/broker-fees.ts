import { Decimal, roundToCents, ZERO } from '@ledger/core';
import { money, moneyOrNull, ratio, sum } from './figures.js';

/** A broker trade with the broker cost recost posted for it and the daily ledger's itemised fee. */
export interface FeeTrade {
  txnId: string;
  customerId: string;
  symbol: string;
  side: 'buy' | 'sell';
  txnDate: string;
  notionalUsd: Decimal;
  /** The broker cost in effect (recost's 5010 line); null while the trade is pending recost. */
  modelledUsd: Decimal | null;
  /** The broker's fee from its daily ledger (broker_fees); null when none was itemised. */
  actualUsd: Decimal | null;
}

/** Drift beyond this between actual and configured is flagged. */
export const FEE_DRIFT_TOLERANCE_USD = new Decimal('0.01');

/**
 * BrokerFeeSummary: per trade, the broker cost modelled (posted by recost), configured
 * (BROKER_COST_BPS of notional) and actual (the daily ledger's itemised fee); drift is actual −
 * configured, flagged beyond one cent; and the share of trades with an actual fee.
 */
export function brokerFeeSummary(trades: FeeTrade[], configuredBps: Decimal) {
  const rows = trades.map((t) => {
    const configured = roundToCents(t.notionalUsd.times(configuredBps).dividedBy(10_000));
    const drift = t.actualUsd === null ? null : t.actualUsd.minus(configured);
    return {
      txn_id: t.txnId,
      customer_id: t.customerId,
      symbol: t.symbol,
      side: t.side,
      txn_date: t.txnDate,
      notional_usd: money(t.notionalUsd),
      modelled_usd: moneyOrNull(t.modelledUsd),
      configured_usd: money(configured),
      actual_usd: moneyOrNull(t.actualUsd),
      drift_usd: moneyOrNull(drift),
      flagged: drift !== null && drift.abs().isGreaterThan(FEE_DRIFT_TOLERANCE_USD),
      configured,
    };
  });
  const matched = trades.filter((t) => t.actualUsd !== null);
  return {
    configured_bps: configuredBps.toFixed(),
    trades: rows.length,
    matched: matched.length,
    matched_share: rows.length === 0 ? '0' : ratio(new Decimal(matched.length).dividedBy(rows.length)),
    flagged: rows.filter((r) => r.flagged).length,
    totals: {
      notional_usd: money(sum(trades.map((t) => t.notionalUsd))),
      modelled_usd: money(sum(trades.map((t) => t.modelledUsd ?? ZERO))),
      configured_usd: money(sum(rows.map((r) => r.configured))),
      actual_usd: money(sum(matched.map((t) => t.actualUsd!))),
    },
    rows: rows.map(({ configured: _c, ...row }) => row),
    warnings: [] as string[],
  };
}
