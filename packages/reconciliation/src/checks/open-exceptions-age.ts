import { Decimal, formatDecimal } from '@ledger/core/posting';
import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * No upstream record stays an open exception (docs/exceptions.md) longer than
 * `settings.openExceptionMaxHours` (`RECON_OPEN_EXCEPTION_MAX_HOURS`, default three days: the
 * longest a sync's re-runs take to post what an upstream corrects), measured from its first
 * sighting to the run's start: one read of the partial index of open exceptions. Dismiss it, or
 * fix it upstream and sync.
 */
export const openExceptionsAge: Check = {
  name: 'open_exceptions_age',
  category: 'D',
  books: BOTH_BOOKS,
  run: async ({ db, settings, now }) => {
    const maxHours = settings.openExceptionMaxHours;
    const { rows } = await db.raw<{
      rows: Array<{
        exception_id: string;
        upstream: string;
        record_key: string;
        customer_id: string | null;
        reason_code: string;
        first_seen_at: Date;
        times_seen: number;
      }>;
    }>(
      `SELECT exception_id::text, upstream, record_key, customer_id, reason_code, first_seen_at, times_seen
         FROM exceptions WHERE state = 'open' AND first_seen_at < ?::timestamptz - make_interval(hours => ?)
        ORDER BY first_seen_at, exception_id LIMIT ?`,
      [now.toISOString(), maxHours, settings.variancesPerCheckMax],
    );
    const variances = rows.map((r) => {
      const age = new Decimal(now.getTime() - r.first_seen_at.getTime())
        .dividedBy(3_600_000)
        .decimalPlaces(2, Decimal.ROUND_DOWN);
      return variance({
        source_txn_id: r.record_key,
        customer_id: r.customer_id,
        expected: formatDecimal(new Decimal(maxHours)),
        actual: formatDecimal(age),
        difference: formatDecimal(age.minus(maxHours)),
        detail: {
          problem: 'open_exception_too_old',
          exception_id: Number(r.exception_id),
          upstream: r.upstream,
          reason_code: r.reason_code,
          first_seen_at: r.first_seen_at.toISOString(),
          times_seen: r.times_seen,
          figures: 'hours open (actual) against the tolerance (expected)',
        },
      });
    });
    return outcomeOf(variances, { too_old: rows.length }, 'warn');
  },
};
