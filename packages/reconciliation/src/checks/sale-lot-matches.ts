import { Decimal, formatDecimal } from '@ledger/core/posting';
import { notReversedSql } from '@ledger/core/store';
import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * Every sale whose derivation is in effect (a recost entry not reversed) has lot matches that
 * account for it whole: their shares sum to the sale's quantity, and their cost to the cost
 * relief its derivation posted (Dr 2100, `cost_relief`). The tax reports read `lot_matches` and
 * never re-run FIFO, so a match lost or altered (the table is guarded as the journal is,
 * migration 20270207, so only a bypass of its triggers can) takes a disposal out of the capital
 * gains while the books still balance. **SQL idea:** the derivations in effect of sales (by the
 * type index), each one's relief lines and matches summed by their own indexes.
 */
const SQL = `
  WITH derivations AS (
    SELECT d.txn_id, (d.metadata->>'recost_of')::uuid AS sell_txn_id
      FROM transactions d
     WHERE d.txn_type = 'recost' AND d.reverses_txn_id IS NULL AND d.metadata->>'recost_of' IS NOT NULL
       AND ${notReversedSql('d.txn_id')}
  )
  SELECT s.txn_id::text AS txn_id, s.source_txn_id, s.customer_id, s.symbol, d.txn_id::text AS derivation_txn_id,
         s.quantity::text AS quantity, relief.usd::text AS relief_usd,
         matched.quantity::text AS matched_quantity, matched.cost::text AS matched_cost, matched.n AS matches
    FROM derivations d
    JOIN transactions s ON s.txn_id = d.sell_txn_id AND s.txn_type = 'sell_security'
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(l.debit), 0) AS usd FROM journal_lines l
       WHERE l.txn_id = d.txn_id AND l.account_code = '2100' AND l.posting_kind = 'cost_relief'
    ) relief
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(m.quantity), 0) AS quantity, coalesce(sum(m.cost_usd), 0) AS cost, count(*)::int AS n
        FROM lot_matches m WHERE m.derivation_txn_id = d.txn_id
    ) matched
   WHERE matched.quantity IS DISTINCT FROM s.quantity OR matched.cost <> relief.usd
   ORDER BY s.txn_date, s.txn_id
   LIMIT :limit`;

interface Row {
  txn_id: string;
  source_txn_id: string;
  customer_id: string | null;
  symbol: string | null;
  derivation_txn_id: string;
  quantity: string | null;
  relief_usd: string;
  matched_quantity: string;
  matched_cost: string;
  matches: number;
}

export const saleLotMatches: Check = {
  name: 'sale_lot_matches',
  category: 'B',
  books: BOTH_BOOKS,
  run: async ({ db, settings }) => {
    const { rows } = await db.raw<{ rows: Row[] }>(SQL, { limit: settings.variancesPerCheckMax });
    const variances = rows.map((r) => {
      const quantityDiffers = r.quantity === null || !new Decimal(r.matched_quantity).isEqualTo(r.quantity);
      // The shares first: a lost match takes both, and the shares say which disposal is short.
      const [expected, actual] = quantityDiffers
        ? [r.quantity ?? '0', r.matched_quantity]
        : [r.relief_usd, r.matched_cost];
      return variance({
        txn_id: r.txn_id,
        source_txn_id: r.source_txn_id,
        customer_id: r.customer_id,
        symbol: r.symbol,
        expected: formatDecimal(new Decimal(expected)),
        actual: formatDecimal(new Decimal(actual)),
        difference: formatDecimal(new Decimal(actual).minus(expected)),
        detail: {
          problem: quantityDiffers ? 'matches_differ_from_quantity' : 'matches_differ_from_cost_relief',
          derivation_txn_id: r.derivation_txn_id,
          quantity: r.quantity === null ? null : formatDecimal(new Decimal(r.quantity)),
          matched_quantity: formatDecimal(new Decimal(r.matched_quantity)),
          cost_relief_usd: formatDecimal(new Decimal(r.relief_usd)),
          matched_cost_usd: formatDecimal(new Decimal(r.matched_cost)),
          matches: r.matches,
        },
      });
    });
    return outcomeOf(variances, {}, 'fail');
  },
};
