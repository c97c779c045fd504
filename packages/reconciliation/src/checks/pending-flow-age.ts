import { Decimal, formatDecimal, REMIT_SOURCE } from '@ledger/core/posting';
import { fxSpreadOrderIdSql, fxSpreadPostingSql, notReversedSql, paidRemittanceSql } from '@ledger/core/store';
import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/** remit's source as a SQL literal: its accruals are paired by key, another source's are not. */
const REMIT = `'${REMIT_SOURCE}'`;

/**
 * Nothing stays pending longer than its tolerance (RECON_*_MAX_HOURS): a cash request still
 * `pending`; a remittance paid but not settled (in transit: its order `paid`, as upstreams.md's
 * "paid" is; an `action_required` order's authorised payment, or a refunded order's, sets `paid_at`
 * but sends nothing to the broker); an FX-spread receivable on 1300
 * (an `fx_spread` posting, not reversed) without its `fx_spread_settle`, of every source: remit's
 * are paired by their order's keys; another source's (a manual accrual) carry no key to pair by,
 * so its accruals are cleared oldest first by its settlements' credits to 1300, and an accrual
 * those do not cover is pending; a transaction pending recost. Each is one indexed read of what is pending, aged against the run's start. India-only
 * flows find nothing on the UAE book (and cash requests little on India): `ok`.
 */
const AGED_SQL = `
  SELECT 'cash_request' AS flow, NULL AS txn_id, NULL AS source_txn_id, customer_id, NULL AS symbol, amount_usd::text AS amount_usd,
         cash_request_id::text AS reference, NULL AS source, created_at AS since
    FROM cash_requests WHERE status = 'pending' AND created_at < :now::timestamptz - make_interval(hours => :cash_hours)
  UNION ALL
  SELECT 'remittance_in_transit', NULL, NULL, customer_id, NULL, amount_usd::text, order_id, ${REMIT}, paid_at
    FROM remittances WHERE ${paidRemittanceSql()} AND paid_at IS NOT NULL AND settled_at IS NULL AND paid_at < :now::timestamptz - make_interval(hours => :remittance_hours)
  UNION ALL
  SELECT 'fx_receivable_unsettled', t.txn_id::text, t.source_txn_id, t.customer_id, NULL, t.amount_usd::text, ${fxSpreadOrderIdSql('t')}, t.source, t.posted_at
    FROM transactions t
   WHERE t.source = ${REMIT} AND t.txn_type = 'fx_spread' AND t.posted_at < :now::timestamptz - make_interval(hours => :fx_hours)
     AND NOT EXISTS (SELECT 1 FROM transactions s WHERE ${fxSpreadPostingSql('s', fxSpreadOrderIdSql('t'), 'fx_spread_settle')})
     AND ${notReversedSql('t.txn_id')}
  UNION ALL
  SELECT 'fx_receivable_unsettled', a.txn_id::text, a.source_txn_id, a.customer_id, NULL, a.amount_usd::text, NULL, a.source, a.posted_at
    FROM (SELECT t.txn_id, t.source, t.source_txn_id, t.customer_id, t.amount_usd, t.posted_at,
                 sum(t.amount_usd) OVER (PARTITION BY t.source ORDER BY t.posted_at, t.txn_id) AS accrued_through
            FROM transactions t
           WHERE t.txn_type = 'fx_spread' AND t.source <> ${REMIT}
             AND ${notReversedSql('t.txn_id')}) a
   WHERE a.posted_at < :now::timestamptz - make_interval(hours => :fx_hours)
     AND a.accrued_through > (
           SELECT coalesce(sum(l.credit), 0)
             FROM transactions s JOIN journal_lines l ON l.txn_id = s.txn_id AND l.account_code = '1300'
            WHERE s.txn_type = 'fx_spread_settle' AND s.source = a.source
              AND ${notReversedSql('s.txn_id')})
  UNION ALL
  SELECT 'pending_recost', t.txn_id::text, t.source_txn_id, t.customer_id, t.symbol, t.amount_usd::text, t.txn_type, t.source, s.posted_at
    FROM recost_states s JOIN transactions t USING (txn_id)
   WHERE s.recosted_at IS NULL AND s.posted_at < :now::timestamptz - make_interval(hours => :recost_hours)
  ORDER BY since, flow, reference
  LIMIT :limit`;

interface Aged {
  flow: 'cash_request' | 'remittance_in_transit' | 'fx_receivable_unsettled' | 'pending_recost';
  txn_id: string | null;
  source_txn_id: string | null;
  customer_id: string | null;
  symbol: string | null;
  amount_usd: string | null;
  /** Null for an accrual of a source other than remit: it names no order. */
  reference: string | null;
  source: string | null;
  since: Date;
}

/** What each flow's `reference` is. */
const REFERENCE: Record<Aged['flow'], string> = {
  cash_request: 'cash_request_id',
  remittance_in_transit: 'order_id',
  fx_receivable_unsettled: 'order_id',
  pending_recost: 'txn_type',
};

export const pendingFlowAge: Check = {
  name: 'pending_flow_age',
  category: 'D',
  books: BOTH_BOOKS,
  run: async ({ db, settings, now }) => {
    const hours = settings.maxAgeHours;
    const maxHours: Record<Aged['flow'], number> = {
      cash_request: hours.pendingCashRequest,
      remittance_in_transit: hours.remittanceInTransit,
      fx_receivable_unsettled: hours.fxReceivable,
      pending_recost: hours.pendingRecost,
    };
    const { rows } = await db.raw<{ rows: Aged[] }>(AGED_SQL, {
      now: now.toISOString(),
      cash_hours: hours.pendingCashRequest,
      remittance_hours: hours.remittanceInTransit,
      fx_hours: hours.fxReceivable,
      recost_hours: hours.pendingRecost,
      limit: settings.variancesPerCheckMax,
    });
    const variances = rows.map((r) => {
      // Ages in hours, to the hundredth: how long it has been pending against how long it may be.
      const age = new Decimal(now.getTime() - r.since.getTime())
        .dividedBy(3_600_000)
        .decimalPlaces(2, Decimal.ROUND_DOWN);
      return variance({
        txn_id: r.txn_id,
        source_txn_id: r.source_txn_id,
        customer_id: r.customer_id,
        symbol: r.symbol,
        expected: formatDecimal(new Decimal(maxHours[r.flow])),
        actual: formatDecimal(age),
        difference: formatDecimal(age.minus(maxHours[r.flow])),
        detail: {
          problem: `${r.flow}_too_old`,
          ...(r.reference !== null && { [REFERENCE[r.flow]]: r.reference }),
          ...(r.source !== null && { source: r.source }),
          pending_since: r.since.toISOString(),
          amount_usd: r.amount_usd === null ? null : formatDecimal(new Decimal(r.amount_usd)),
          figures: 'hours pending (actual) against the tolerance (expected)',
        },
      });
    });
    const byFlow = Object.fromEntries(
      Object.keys(maxHours).map((flow) => [flow, rows.filter((r) => r.flow === flow).length]),
    );
    return outcomeOf(variances, { too_old: byFlow }, 'warn');
  },
};
