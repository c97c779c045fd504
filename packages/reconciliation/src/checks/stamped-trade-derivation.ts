import { notReversedSql } from '@ledger/core/store';
import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * Every trade stamped recosted (`recost_states.recosted_at` set), not reversed, has its
 * derivation in effect (a `recost` entry naming it in `metadata.recost_of`, not reversed). A
 * stamped trade without one passes the balance checks (the derivation's lines are simply not
 * there) and recost skips it for good, so its fee split and a sale's cost relief are missing
 * unseen. The one trade that rightly has none: a buy whose broker cost is 0.00 (its itemised fee,
 * else its pinned `broker_cost_bps`, else the configured `BROKER_COST_BPS` recost gives an unpinned
 * trade, on its cost, rounds to nothing). An open
 * recost flag on the trade is named in `detail` (a flagged trade is left pending by recost: one
 * stamped anyway was stamped around it). **SQL idea:** the derivations in effect by the type
 * index, anti-joined to the stamped trades.
 */
const SQL = `
  WITH live AS MATERIALIZED (
    SELECT DISTINCT d.metadata->>'recost_of' AS trade
      FROM transactions d
     WHERE d.txn_type = 'recost' AND ${notReversedSql('d.txn_id')}
  )
  SELECT t.txn_id::text AS txn_id, t.source_txn_id, t.customer_id, t.symbol, t.txn_type, t.txn_date::text AS txn_date,
         s.recosted_at, fl.reason AS flag
    FROM recost_states s
    JOIN transactions t USING (txn_id)
    LEFT JOIN broker_fees f ON f.source = t.source AND f.source_txn_id = t.source_txn_id
    LEFT JOIN recost_flags fl ON fl.txn_id = t.txn_id AND fl.cleared_at IS NULL
   WHERE s.recosted_at IS NOT NULL AND t.txn_type IN ('buy_security', 'sell_security')
     AND ${notReversedSql('t.txn_id')}
     AND NOT EXISTS (SELECT 1 FROM live WHERE live.trade = t.txn_id::text)
     AND (t.txn_type = 'sell_security'
          OR coalesce(f.amount_usd, round(t.amount_usd * CASE WHEN t.metadata->>'broker_cost_bps' ~ '^[0-9]{1,6}(\\.[0-9]{1,8}){0,1}$'
                                                               THEN (t.metadata->>'broker_cost_bps')::numeric ELSE :configured_bps::numeric END / 10000, 2)) > 0)
   ORDER BY t.txn_date, t.txn_id
   LIMIT :limit`;

interface Row {
  txn_id: string;
  source_txn_id: string;
  customer_id: string | null;
  symbol: string | null;
  txn_type: string;
  txn_date: string;
  recosted_at: Date;
  flag: string | null;
}

export const stampedTradeDerivation: Check = {
  name: 'stamped_trade_derivation',
  category: 'B',
  books: BOTH_BOOKS,
  run: async ({ db, settings }) => {
    const { rows } = await db.raw<{ rows: Row[] }>(SQL, {
      configured_bps: settings.feeSchedule.brokerCostBps.toFixed(),
      limit: settings.variancesPerCheckMax,
    });
    const variances = rows.map((r) =>
      variance({
        txn_id: r.txn_id,
        source_txn_id: r.source_txn_id,
        customer_id: r.customer_id,
        symbol: r.symbol,
        detail: {
          problem: 'stamped_without_derivation',
          txn_type: r.txn_type,
          txn_date: r.txn_date,
          recosted_at: r.recosted_at.toISOString(),
          open_flag: r.flag,
        },
      }),
    );
    return outcomeOf(variances, {}, 'fail');
  },
};
