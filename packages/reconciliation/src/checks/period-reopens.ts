import { BOTH_BOOKS, outcomeOf, variance, type Check } from '../check.js';

/**
 * Every reopening of the books since this check last ran is reported, so none goes unseen: a
 * reopening is deliberate (the database admits one only through `ledger_reopen_period`, with
 * its actor and reason, migration 20270207), but it lets a closed month change, and whoever holds
 * that month's reports must hear of it. "Since it last ran" is its result's `ran_at` in the latest
 * stored run that ran it (the runs' GIN index on `results`); never run before, every reopening
 * is reported once. A run stopped before it was stored reports them again next time.
 */
const SQL = `
  WITH last AS (
    SELECT (r->>'ran_at')::timestamptz AS ran_at
      FROM reconciliation_runs runs CROSS JOIN LATERAL jsonb_array_elements(runs.results) AS r
     WHERE runs.results @> :ran::jsonb AND r->>'check_name' = :name
     ORDER BY runs.started_at DESC
     LIMIT 1
  )
  SELECT p.close_id, p.through::text AS through, p.reason, p.actor, p.created_at
    FROM period_closes p
   WHERE p.action = 'reopen' AND p.created_at >= coalesce((SELECT ran_at FROM last), '-infinity')
   ORDER BY p.close_id
   LIMIT :limit`;

const NAME = 'period_reopens';

export const periodReopens: Check = {
  name: NAME,
  category: 'D',
  books: BOTH_BOOKS,
  run: async ({ db, settings }) => {
    const { rows } = await db.raw<{
      rows: Array<{ close_id: string; through: string | null; reason: string; actor: string; created_at: Date }>;
    }>(SQL, { ran: JSON.stringify([{ check_name: NAME }]), name: NAME, limit: settings.variancesPerCheckMax });
    const variances = rows.map((r) =>
      variance({
        detail: {
          problem: 'period_reopened',
          close_id: Number(r.close_id),
          through: r.through,
          reason: r.reason,
          actor: r.actor,
          reopened_at: r.created_at.toISOString(),
        },
      }),
    );
    return outcomeOf(variances, { reopens: rows.length }, 'warn');
  },
};
