import { useState, type ReactNode } from 'react';
import { money } from '../format.js';
import { href, navigate, useRoute } from '../router.js';
import { Pager } from './ui.js';
import { compare, isDecimal, text, toCsv, total, type DataColumn, type Json, type TableSpec } from './table-data.js';

export type { DataColumn, Json, Row, TableSpec } from './table-data.js';

export const PAGE_SIZE = 25;

function download(name: string, body: string) {
  const url = URL.createObjectURL(new Blob([body], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** A cell: a customer, transaction or variance id linked to its page, decimals with separators, the rest in words. */
function Cell({ column, value }: { column: DataColumn; value: Json | undefined }): ReactNode {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (typeof value === 'string' && column.key.endsWith('customer_id'))
    return <a href={href('customers', value)}>{value}</a>;
  if (typeof value === 'number' && column.key === 'variance_id')
    return <a href={href('variances', String(value))}>#{value}</a>;
  if (typeof value === 'string' && /(^|_)txn_id$/.test(column.key) && /^[0-9a-f-]{36}$/.test(value))
    return <a href={href('transactions', value)}>{value.slice(0, 8)}</a>;
  if (column.align === 'money' && isDecimal(value)) return money(value);
  // A nested record (a check's metrics) in full would make its row a screen tall: the CSV holds it whole.
  if (typeof value === 'object' && !(Array.isArray(value) && value.every((v) => typeof v !== 'object')))
    return <code>{text(value).slice(0, 200)}</code>;
  return text(value);
}

/** The route's query with `changes` applied (empty values removed): how a table keeps its state in the address. */
export function useQueryState() {
  const { page, param, query } = useRoute();
  const set = (changes: Record<string, string | number | undefined>) =>
    navigate(href(page, param, { ...Object.fromEntries(query), ...changes }));
  return { query, set };
}

type Row = TableSpec['rows'][number];
type Sort = { column: DataColumn | undefined; descending: boolean };

/** The rows in the table's order: flagged first, then by the sort column (numbers as numbers), then as they came. */
function sortedRows(kept: Row[], flag: (row: Row) => boolean, { column, descending }: Sort) {
  return kept
    .map((row, index) => ({ row, index, flagged: flag(row) }))
    .sort(
      (a, b) =>
        Number(b.flagged) - Number(a.flagged) ||
        (column
          ? compare(a.row[column.key], b.row[column.key], column.align !== undefined && column.align !== 'text') *
            (descending ? -1 : 1)
          : 0) ||
        a.index - b.index,
    );
}

const right = (c: DataColumn) => (c.align === 'money' || c.align === 'num' ? 'num' : undefined);

/**
 * The one table of every report: sortable by any column (click its header), flagged rows first
 * and highlighted, paged by 25, a totals row over every row the filter keeps (not the page), and
 * a CSV of those rows as sorted. `onlyFlagged` keeps the flagged rows alone. Its sort and page
 * live in the address under the table's id.
 */
export function DataTable({ spec, onlyFlagged }: { spec: TableSpec; onlyFlagged: boolean }) {
  const { query, set } = useQueryState();
  const { id, title, columns, flag = () => false } = spec;
  const sortKey = query.get(`${id}.sort`);
  const sort: Sort = {
    column: columns.find((c) => c.key === sortKey),
    descending: query.get(`${id}.dir`) === 'desc',
  };
  const flaggedCount = spec.rows.filter(flag).length;
  const kept = onlyFlagged ? spec.rows.filter(flag) : [...spec.rows];
  const rows = sortedRows(kept, flag, sort);
  const offset = Math.min(Number(query.get(`${id}.page`) ?? 0) * PAGE_SIZE, Math.max(0, rows.length - 1));
  const shown = rows.slice(offset - (offset % PAGE_SIZE), offset - (offset % PAGE_SIZE) + PAGE_SIZE);
  return (
    <section className="data-table" data-testid={`table-${id}`}>
      <TableBar
        title={title}
        count={spec.rows.length}
        flaggedCount={flaggedCount}
        onDownload={
          rows.length === 0
            ? null
            : () =>
                download(
                  `${id}.csv`,
                  toCsv(
                    columns,
                    rows.map((r) => r.row),
                  ),
                )
        }
        downloadCount={rows.length}
      />
      <table className="report-table">
        <SortableHead
          columns={columns}
          sort={sort}
          onSort={(c) =>
            set({
              [`${id}.sort`]: c.key,
              [`${id}.dir`]: sort.column === c && !sort.descending ? 'desc' : undefined,
              [`${id}.page`]: undefined,
            })
          }
        />
        <tbody>
          {shown.map(({ row, index, flagged }) => (
            <tr key={index} className={flagged ? 'flagged' : undefined} data-flagged={flagged ? 'true' : undefined}>
              {columns.map((c) => (
                <td key={c.key} className={right(c)}>
                  <Cell column={c} value={row[c.key]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {columns.some((c) => c.total) && rows.length > 0 ? <TotalsFoot columns={columns} kept={kept} /> : null}
      </table>
      {rows.length === 0 ? <p className="muted">{onlyFlagged ? 'Nothing here needs action.' : 'None.'}</p> : null}
      {rows.length > PAGE_SIZE ? (
        <Pager
          total={rows.length}
          limit={PAGE_SIZE}
          offset={offset - (offset % PAGE_SIZE)}
          onOffset={(o) => set({ [`${id}.page`]: o === 0 ? undefined : o / PAGE_SIZE })}
        />
      ) : null}
    </section>
  );
}

/** The table's title with its counts, and the CSV of the rows kept, as sorted (`onDownload` null: none to download). */
function TableBar({
  title,
  count,
  flaggedCount,
  onDownload,
  downloadCount,
}: {
  title: ReactNode;
  count: number;
  flaggedCount: number;
  onDownload: (() => void) | null;
  downloadCount: number;
}) {
  return (
    <div className="table-bar">
      <h3>
        {title}{' '}
        <span className="muted">
          ({count} rows{flaggedCount > 0 ? `, ${flaggedCount} need action` : ''})
        </span>
      </h3>
      <button type="button" onClick={() => onDownload?.()} disabled={onDownload === null}>
        Download CSV ({downloadCount} rows)
      </button>
    </div>
  );
}

/** The headers, each a button sorting by its column (again: the other way); the sorted one marked. */
function SortableHead({
  columns,
  sort,
  onSort,
}: {
  columns: readonly DataColumn[];
  sort: Sort;
  onSort: (column: DataColumn) => void;
}) {
  const { column: sortColumn, descending } = sort;
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th
            key={c.key}
            scope="col"
            className={right(c)}
            aria-sort={sortColumn === c ? (descending ? 'descending' : 'ascending') : undefined}
          >
            <button type="button" className="sort" onClick={() => onSort(c)}>
              {c.label}
              {sortColumn === c ? (descending ? ' ▼' : ' ▲') : ''}
            </button>
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The totals of the totalled columns over every row kept (not the page). */
function TotalsFoot({ columns, kept }: { columns: readonly DataColumn[]; kept: Row[] }) {
  return (
    <tfoot>
      <tr>
        {columns.map((c, i) =>
          i === 0 ? (
            <th key={c.key} scope="row">
              Total ({kept.length})
            </th>
          ) : (
            <td key={c.key} className={right(c)}>
              {c.total ? (c.align === 'money' ? money(total(kept, c.key)) : total(kept, c.key)) : ''}
            </td>
          ),
        )}
      </tr>
    </tfoot>
  );
}

/** The "only what needs action" switch of a page's tables, kept in the address (`action=1`). */
export function ActionFilter() {
  const { query, set } = useQueryState();
  const on = query.get('action') === '1';
  return (
    <label className="action-filter">
      <input type="checkbox" checked={on} onChange={(e) => set({ action: e.target.checked ? '1' : undefined })} /> Only
      what needs action
    </label>
  );
}

/** Whether the page's tables keep only their flagged rows. */
export const useOnlyFlagged = () => useRoute().query.get('action') === '1';

/** Above a report's tables: the filter, and the JSON as the API sent it behind "Show raw". */
export function ReportBar({ value, filter = true }: { value: unknown; filter?: boolean }) {
  const [raw, setRaw] = useState(false);
  return (
    <>
      <div className="report-bar">
        {filter ? <ActionFilter /> : null}
        <button type="button" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? 'Hide raw' : 'Show raw'}
        </button>
      </div>
      {raw ? <pre data-testid="raw">{JSON.stringify(value, null, 2)}</pre> : null}
    </>
  );
}
