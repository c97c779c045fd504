import { Decimal } from '@ledger/core/posting';
import { currentActor } from '@ledger/core/runtime';
import type { Db } from '@ledger/core/store';
import type { FinancialYear } from './fy.js';
import type { PriorLrsUsage } from './lrs.js';

/*
 * A PAN's LRS use through other banks, as declared by an operator (lrs_prior_usage): the LRS
 * limit and the TCS threshold are per PAN per FY across every remitter, and the book sees only
 * its own remittances.
 */

interface Row {
  pan: string;
  amount_usd: string;
  amount_inr: string;
  note: string | null;
  declared_at: Date;
  declared_by: string;
}

const COLUMNS = 'pan, amount_usd::text, amount_inr::text, note, declared_at, declared_by';

const usageOf = (r: Row): PriorLrsUsage => ({
  pan: r.pan,
  amountUsd: new Decimal(r.amount_usd),
  amountInr: new Decimal(r.amount_inr),
  note: r.note,
  declaredAt: r.declared_at.toISOString(),
  declaredBy: r.declared_by,
});

/** Every PAN's declaration for `fy` (or only `pans`' when given). */
export async function priorLrsUsage(
  db: Db,
  fy: FinancialYear,
  pans: readonly string[] | null = null,
): Promise<PriorLrsUsage[]> {
  const { rows } = await db.raw<{ rows: Row[] }>(
    `SELECT ${COLUMNS} FROM lrs_prior_usage WHERE fy = ? AND (?::text[] IS NULL OR pan = ANY(?::text[])) ORDER BY pan`,
    [fy.label, pans === null ? null : [...pans], pans === null ? null : [...pans]],
  );
  return rows.map(usageOf);
}

/** Declares (or re-declares: the last one stands) what `pan` remitted under LRS in `fy` elsewhere. Idempotent. */
export async function declarePriorLrsUsage(
  db: Db,
  fy: FinancialYear,
  pan: string,
  declaration: { amountUsd: Decimal; amountInr: Decimal; note: string | null },
): Promise<{ created: boolean; usage: PriorLrsUsage }> {
  const { rows } = await db.raw<{ rows: Array<Row & { created: boolean }> }>(
    `INSERT INTO lrs_prior_usage AS p (pan, fy, amount_usd, amount_inr, note, declared_by)
     VALUES (?, ?, ?::numeric, ?::numeric, ?, ?)
     ON CONFLICT (pan, fy) DO UPDATE
       SET amount_usd = excluded.amount_usd, amount_inr = excluded.amount_inr, note = excluded.note,
           declared_at = now(), declared_by = excluded.declared_by
     RETURNING ${COLUMNS}, (xmax = 0) AS created`,
    [pan, fy.label, declaration.amountUsd.toFixed(), declaration.amountInr.toFixed(), declaration.note, currentActor()],
  );
  const row = rows[0]!;
  return { created: row.created, usage: usageOf(row) };
}
