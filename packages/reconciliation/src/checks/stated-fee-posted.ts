import { Decimal, formatDecimal } from '@ledger/core/posting';
import { BOTH_BOOKS, outcomeOf, postedSince, sinceBindings, variance, type Check } from '../check.js';

/**
 * Every trade whose source states its settlement (a uaefeed order: `metadata.cash_movement`, the
 * signed net settlement, and `metadata.bundled_fee`, in the order's currency) posted exactly that:
 * its own wallet lines move the wallet by `cash_movement`, and its fee lines (Dr wallet / Cr 4010,
 * `brokerage_fee`) carry `bundled_fee`. Figures are in the trade's currency: an AED trade's AED
 * amounts on 2020, a USD trade's USD on 2010. The one exception: an AED fee worth 0.00 USD (gross
 * and net convert to the same cents) posts no fee line and is folded into the AED amounts, so the
 * wallet still moves by `cash_movement` (docs/posting-rules.md, AED lines). A balanced book that
 * drops a stated fee, or books gross for net, passes every other A check: this one names it.
 * A uaefeed trade whose `cash_movement` or `bundled_fee` is missing or not a decimal is itself a
 * variance (`stated_fee_missing`): the sync always states both, so a trade without them was
 * posted by another path or edited, and what it should have posted cannot be proved.
 * Incremental (`:since` set): the trades posted since.
 */
const SQL = `
  WITH trades AS (
    SELECT t.txn_id, t.source_txn_id, t.customer_id, t.symbol, t.txn_type, t.original_currency, t.original_amount, t.fx_rate,
           CASE WHEN t.metadata->>'cash_movement' ~ '^-{0,1}[0-9]{1,15}(\\.[0-9]{1,2}){0,1}$' THEN (t.metadata->>'cash_movement')::numeric END AS cash_movement,
           CASE WHEN t.metadata->>'bundled_fee' ~ '^[0-9]{1,15}(\\.[0-9]{1,2}){0,1}$' THEN (t.metadata->>'bundled_fee')::numeric END AS bundled_fee
      FROM transactions t
     WHERE t.source = 'uaefeed' AND t.txn_type IN ('buy_security', 'sell_security') AND t.reverses_txn_id IS NULL
       AND (:since_xmax::xid8 IS NULL OR ${postedSince('t')})
  ), posted AS (
    SELECT tr.*, w.moved, w.fee, w.fee_lines
      FROM trades tr
      CROSS JOIN LATERAL (
        -- The wallet's own lines of the trade, in the trade's currency (an AED line's AED amount, signed by its side).
        SELECT coalesce(sum(CASE WHEN l.credit > 0 THEN 1 ELSE -1 END * CASE WHEN l.account_code = '2020' THEN l.native_amount ELSE l.credit + l.debit END), 0) AS moved,
               coalesce(sum(CASE WHEN l.posting_kind = 'brokerage_fee' THEN CASE WHEN l.account_code = '2020' THEN l.native_amount ELSE l.debit END END), 0) AS fee,
               count(*) FILTER (WHERE l.posting_kind = 'brokerage_fee') AS fee_lines
          FROM journal_lines l
         WHERE l.txn_id = tr.txn_id AND l.account_code IN ('2010', '2020')
      ) w
  )
  SELECT txn_id::text AS txn_id, source_txn_id, customer_id, symbol, txn_type, coalesce(original_currency, 'USD') AS currency,
         cash_movement::text AS cash_movement, moved::text AS moved, bundled_fee::text AS bundled_fee, fee::text AS fee
    FROM posted
   WHERE cash_movement IS NULL OR bundled_fee IS NULL
      OR moved IS DISTINCT FROM cash_movement
      OR (fee <> bundled_fee AND NOT coalesce(
            -- An AED fee worth 0.00 USD: no fee line, folded into the AED amounts (USD trades have no rate: false).
            original_currency = 'AED' AND fee_lines = 0
            AND round(original_amount / fx_rate, 2) = round(abs(cash_movement) / fx_rate, 2), false))
   ORDER BY txn_id
   LIMIT :limit`;

export const statedFeePosted: Check = {
  name: 'stated_fee_posted',
  category: 'A',
  books: BOTH_BOOKS,
  incremental: true,
  run: async ({ db, settings, since }) => {
    const { rows } = await db.raw<{
      rows: Array<{
        txn_id: string;
        source_txn_id: string;
        customer_id: string | null;
        symbol: string | null;
        txn_type: string;
        currency: string;
        cash_movement: string | null;
        moved: string | null;
        bundled_fee: string | null;
        fee: string;
      }>;
    }>(SQL, { ...sinceBindings(since), limit: settings.variancesPerCheckMax });
    const variances = rows.map((r) => {
      const named = {
        txn_id: r.txn_id,
        source_txn_id: r.source_txn_id,
        customer_id: r.customer_id,
        account_code: r.currency === 'AED' ? '2020' : '2010',
        symbol: r.symbol,
      };
      if (r.cash_movement === null || r.bundled_fee === null) {
        // Nothing to compare with: what was posted is reported, what was stated is not there.
        return variance({
          ...named,
          actual: r.moved === null ? null : formatDecimal(new Decimal(r.moved)),
          detail: {
            problem: 'stated_fee_missing',
            txn_type: r.txn_type,
            currency: r.currency,
            missing: [
              ...(r.cash_movement === null ? ['cash_movement'] : []),
              ...(r.bundled_fee === null ? ['bundled_fee'] : []),
            ],
            fee_posted: formatDecimal(new Decimal(r.fee)),
          },
        });
      }
      // A wallet that moved by other than the settlement is the larger fault; else it is the fee.
      const settlementDiffers = r.moved === null || !new Decimal(r.moved).isEqualTo(r.cash_movement);
      const [expected, actual] = settlementDiffers ? [r.cash_movement, r.moved ?? '0'] : [r.bundled_fee, r.fee];
      return variance({
        ...named,
        expected: formatDecimal(new Decimal(expected)),
        actual: formatDecimal(new Decimal(actual)),
        difference: formatDecimal(new Decimal(actual).minus(expected)),
        detail: {
          problem: settlementDiffers ? 'wallet_moved_by_other_than_settlement' : 'stated_fee_not_posted',
          txn_type: r.txn_type,
          currency: r.currency,
          cash_movement: formatDecimal(new Decimal(r.cash_movement)),
          bundled_fee: formatDecimal(new Decimal(r.bundled_fee)),
          fee_posted: formatDecimal(new Decimal(r.fee)),
        },
      });
    });
    return outcomeOf(variances, {}, 'warn');
  },
};
