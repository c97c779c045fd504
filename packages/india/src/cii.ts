import { LedgerError } from '@ledger/core/posting';
import type { Db } from '@ledger/core/store';
import { financialYearOf } from './fy.js';
import { loadOutcome } from './issuers.js';

/** A year's Cost Inflation Index (section 48): the FY label (`2023-24`) and the index notified for it. */
export interface CostInflationIndex {
  fy: string;
  cii: number;
}

/** The first year of the series: an asset acquired before it is indexed from it (s. 48, Explanation (v)). */
export const CII_BASE_FY = '2001-02';

const FY_LABEL = /^(\d{4})-(\d{2})$/;
const INDEX = /^[1-9]\d{0,5}$/;

export interface SkippedCii {
  line: number;
  fy: string | null;
  /** `malformed` (not `fy,cii` of a YYYY-YY year and a whole index), or `superseded_in_file` (a later line names the year again: it stands). */
  reason: 'malformed' | 'superseded_in_file';
}

/**
 * The index from CSV `fy,cii` (a header line naming them first): a line that cannot be taken is
 * skipped and named; a file without that header is refused whole (a validation error).
 */
export function parseCostInflationIndex(csv: string): { rows: CostInflationIndex[]; skipped: SkippedCii[] } {
  const lines = csv.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  if (header[0] !== 'fy' || header[1] !== 'cii' || header.length !== 2)
    throw new LedgerError('validation_error', 'the Cost Inflation Index file must start with the header fy,cii', [
      { path: '/body/csv', message: 'the header must be fy,cii' },
    ]);
  const byFy = new Map<string, { row: CostInflationIndex; line: number }>();
  const skipped: SkippedCii[] = [];
  lines.slice(1).forEach((text, i) => {
    const line = i + 2;
    if (text.trim() === '') return;
    const [fy = '', cii = '', ...rest] = text.split(',').map((c) => c.trim());
    const match = FY_LABEL.exec(fy);
    if (!match || (Number(match[1]) + 1) % 100 !== Number(match[2]) || !INDEX.test(cii) || rest.length > 0) {
      skipped.push({ line, fy: fy || null, reason: 'malformed' });
      return;
    }
    const earlier = byFy.get(fy);
    if (earlier) skipped.push({ line: earlier.line, fy, reason: 'superseded_in_file' });
    byFy.set(fy, { row: { fy, cii: Number(cii) }, line });
  });
  skipped.sort((a, b) => a.line - b.line);
  return { rows: [...byFy.values()].map((v) => v.row), skipped };
}

/** What a load did: years new to the table, years whose index it replaced, rows already there, lines skipped and why. */
export interface CostInflationIndexLoad extends Record<string, unknown> {
  source: string;
  loaded: number;
  replaced: number;
  unchanged: number;
  skipped: number;
  skipped_rows: SkippedCii[];
}

/** Loads the index (parseCostInflationIndex) into `cost_inflation_index`, idempotently, in one statement. */
export async function loadCostInflationIndex(db: Db, csv: string, source: string): Promise<CostInflationIndexLoad> {
  const { rows, skipped } = parseCostInflationIndex(csv);
  const stored = await costInflationIndex(db);
  const changed = rows.filter((r) => stored.get(r.fy) !== r.cii);
  if (changed.length > 0)
    await db.raw(
      `INSERT INTO cost_inflation_index (fy, cii, source)
       SELECT * FROM unnest(?::text[], ?::int[], ?::text[])
       ON CONFLICT (fy) DO UPDATE SET cii = excluded.cii, source = excluded.source, recorded_at = now()`,
      [changed.map((r) => r.fy), changed.map((r) => r.cii), changed.map(() => source)],
    );
  return loadOutcome(source, rows, changed, (r) => !stored.has(r.fy), skipped);
}

/** The stored index, by FY label. */
export async function costInflationIndex(db: Db): Promise<Map<string, number>> {
  const { rows } = await db.raw<{ rows: Array<{ fy: string; cii: number }> }>(
    'SELECT fy, cii FROM cost_inflation_index',
  );
  return new Map(rows.map((r) => [r.fy, r.cii]));
}

/** The years whose index a transfer's indexation takes: acquisition (from 2001-02 at the earliest) and transfer. */
export function indexationYears(acquiredOn: string, transferredOn: string): { acquisition: string; transfer: string } {
  const acquisition = financialYearOf(acquiredOn).label;
  return {
    acquisition: acquisition < CII_BASE_FY ? CII_BASE_FY : acquisition,
    transfer: financialYearOf(transferredOn).label,
  };
}
