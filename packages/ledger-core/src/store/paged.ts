import type { Knex } from 'knex';
import { assertPage, type Page } from '../domain/limits.js';

/** One page of a list: its rows, how many rows the filters match in all, and the page asked for. */
export type Paged<Row> = { items: Row[]; total: number } & Page;

/**
 * The one way a list is read: the filtered rows (`filtered`, built afresh for each use) counted,
 * and one page of them selected and ordered by `rows`, both at once. The page is asserted
 * within the limits before any SQL (assertPage).
 */
export async function pagedQuery<Row>(
  filtered: () => Knex.QueryBuilder,
  rows: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  page: Page,
): Promise<Paged<Row>> {
  const { limit, offset } = assertPage(page);
  const [items, [total]] = await Promise.all([
    rows(filtered()).limit(limit).offset(offset) as Promise<Row[]>,
    filtered().count<Array<{ count: string }>>({ count: '*' }),
  ]);
  return { items, total: Number(total?.count ?? 0), ...page };
}

/**
 * One page of a grouped query (`grouped`: a `key` and aggregates per row) and how many groups
 * there are, in one statement; a second only when the page is past the last group.
 */
export async function pagedGroups<Group>(
  db: Knex,
  grouped: Knex.QueryBuilder,
  orderBy: string,
  page: Page,
): Promise<Paged<Group>> {
  const { limit, offset } = assertPage(page);
  const rows: Array<Group & { groups: number }> = await db
    .with('g', grouped)
    .select('*', db.raw('count(*) OVER ()::int AS groups'))
    .from('g')
    .orderByRaw(orderBy)
    .limit(limit)
    .offset(offset);
  const total = rows[0]?.groups ?? (await db.with('g', grouped).count({ n: '*' }).from('g').first())?.n;
  return { items: rows.map(({ groups: _groups, ...row }) => row as Group), total: Number(total ?? 0), ...page };
}
