import type { Knex } from 'knex';
import {
  HOLDINGS_SNAPSHOTS,
  PORTFOLIO_SNAPSHOTS,
  type HoldingsSnapshot,
  type HoldingsSnapshotRow,
  type PortfolioSnapshot,
  type PortfolioSnapshotRow,
  type SnapshotUpstream,
} from './columns/snapshots.js';
import { columnRefs, documentOf, documentRecords, insertList, insertValues } from './columns/table.js';

/**
 * Stores holdings snapshots; a (customer, upstream, day) already stored is left as it is (a
 * re-run of the same day stores nothing new). Answers how many were new.
 */
export async function insertHoldingsSnapshots(
  db: Knex,
  snapshots: HoldingsSnapshot[],
): Promise<{ inserted: number; existing: number }> {
  if (snapshots.length === 0) return { inserted: 0, existing: 0 };
  const { rowCount } = await db.raw(
    `INSERT INTO holdings_snapshots (${insertList(HOLDINGS_SNAPSHOTS)})
     SELECT ${insertValues(HOLDINGS_SNAPSHOTS, 's')} FROM ${documentRecords(HOLDINGS_SNAPSHOTS, '?')} AS s
     ON CONFLICT (customer_id, upstream, as_of) DO NOTHING`,
    [documentOf(HOLDINGS_SNAPSHOTS, snapshots)],
  );
  const inserted = Number(rowCount ?? 0);
  return { inserted, existing: snapshots.length - inserted };
}

/** A customer's latest holdings snapshot from an upstream (on or before `asOf` when given), or null. */
export async function latestHoldingsSnapshot(
  db: Knex,
  customerId: string,
  upstream: SnapshotUpstream,
  asOf?: string,
): Promise<HoldingsSnapshotRow | null> {
  const query = db('holdings_snapshots')
    .select(columnRefs(HOLDINGS_SNAPSHOTS))
    .where({ customer_id: customerId, upstream });
  if (asOf !== undefined) query.where('as_of', '<=', asOf);
  const row = (await query.orderBy('as_of', 'desc').first()) as HoldingsSnapshotRow | undefined;
  return row ?? null;
}

/**
 * Replaces each customer's cached portfolio of an upstream with these reads: a first one is
 * inserted, a cached one updated (a dry run writes nothing and counts what would be).
 */
export async function savePortfolioSnapshots(
  db: Knex,
  snapshots: PortfolioSnapshot[],
  { dryRun = false } = {},
): Promise<{ inserted: number; updated: number }> {
  if (snapshots.length === 0) return { inserted: 0, updated: 0 };
  if (dryRun) {
    const [{ cached }] = (await db('portfolio_snapshots')
      .whereIn(
        ['customer_id', 'upstream'],
        snapshots.map((s) => [s.customerId, s.upstream]),
      )
      .count({ cached: '*' })) as [{ cached: string }];
    return { inserted: snapshots.length - Number(cached), updated: Number(cached) };
  }
  // xmax is 0 only in a row this statement inserted: the rest were cached and are replaced.
  const { rows } = await db.raw<{ rows: Array<{ inserted: boolean }> }>(
    `INSERT INTO portfolio_snapshots (${insertList(PORTFOLIO_SNAPSHOTS)})
     SELECT ${insertValues(PORTFOLIO_SNAPSHOTS, 's')} FROM ${documentRecords(PORTFOLIO_SNAPSHOTS, '?')} AS s
     ON CONFLICT (customer_id, upstream) DO UPDATE
       SET as_of = excluded.as_of, positions = excluded.positions, cash = excluded.cash, taken_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [documentOf(PORTFOLIO_SNAPSHOTS, snapshots)],
  );
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/** A customer's cached portfolio of an upstream, or null when none was ever taken. */
export async function portfolioSnapshot(
  db: Knex,
  customerId: string,
  upstream: SnapshotUpstream,
): Promise<PortfolioSnapshotRow | null> {
  const row = (await db('portfolio_snapshots')
    .select(columnRefs(PORTFOLIO_SNAPSHOTS))
    .where({ customer_id: customerId, upstream })
    .first()) as PortfolioSnapshotRow | undefined;
  return row ?? null;
}
