import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { href, navigate } from '../router.js';
import { Loaded, Money, Pager } from './ui.js';

/** A list's filters as the page's address holds them: each a string, absent when not set. */
export type Filters<Name extends string> = Partial<Record<Name, string>>;

/** The filters of `names` that the route's query sets. */
export function filtersOf<Name extends string>(query: URLSearchParams, names: readonly Name[]): Filters<Name> {
  return Object.fromEntries(
    names.flatMap((name) => (query.has(name) ? [[name, query.get(name)!]] : [])),
  ) as Filters<Name>;
}

/** One field of a filter form: a text (or date) box, or a choice among `options` (or any). */
export type FilterField<Name extends string> =
  | { name: Name; label: string; type?: 'date'; placeholder?: string }
  | { name: Name; label: string; options: readonly string[] };

/**
 * A list's filter form: its fields edit `draft`, submitting applies it (the page puts what is
 * applied in its address, so a filtered list can be linked). `children` follow the submit button.
 */
export function FilterForm<Draft extends Filters<string>>({
  label,
  role,
  fields,
  draft,
  onDraft,
  onApply,
  submit = 'Apply',
  children,
}: {
  label?: string;
  role?: 'search';
  fields: readonly FilterField<keyof Draft & string>[];
  draft: Draft;
  onDraft: (draft: Draft) => void;
  onApply: () => void;
  submit?: string;
  children?: ReactNode;
}) {
  const set = (name: keyof Draft) => (e: { target: { value: string } }) =>
    onDraft({ ...draft, [name]: e.target.value });
  return (
    <form
      className="filters"
      aria-label={label}
      role={role}
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      {fields.map((field) => (
        <label key={field.name}>
          {field.label}{' '}
          {'options' in field ? (
            <select value={draft[field.name] ?? ''} onChange={set(field.name)}>
              <option value="">any</option>
              {field.options.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          ) : (
            <input
              type={field.type}
              value={draft[field.name] ?? ''}
              placeholder={field.placeholder}
              onChange={set(field.name)}
            />
          )}
        </label>
      ))}
      <button type="submit">{submit}</button>
      {children}
    </form>
  );
}

/**
 * One column of a table: its header and a row's cell. A `money` column shows an amount, right
 * aligned under its header. `num` right-aligns the header and the cells (quantities, counts);
 * `num: 'header'` the header alone, over cells that hold an amount (which aligns itself) or words.
 */
export type Column<Row> = { header: string } & (
  | { money: (row: Row) => string | null | undefined }
  | { cell: (row: Row) => ReactNode; num?: boolean | 'header'; className?: string }
);

export interface TableProps<Row> {
  testId: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  rowTestId?: (row: Row) => string;
  caption?: ReactNode;
  /** The table's `tfoot` (totals). */
  foot?: ReactNode;
}

/** Rows as a table, a column each as `columns` says; headers scoped to their columns. */
export function Table<Row>({ testId, columns, rows, rowKey, rowTestId, caption, foot }: TableProps<Row>) {
  return (
    <table data-testid={testId}>
      {caption === undefined ? null : <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={'money' in column || column.num ? 'num' : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row, i)} data-testid={rowTestId?.(row)}>
            {columns.map((column) =>
              'money' in column ? (
                <td key={column.header}>
                  <Money value={column.money(row)} />
                </td>
              ) : (
                <td key={column.header} className={column.num === true ? 'num' : column.className}>
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
      {foot}
    </table>
  );
}

/**
 * A paged list once loaded: a page of it as a table, `empty` said when the list has nothing, and
 * the pager (`onOffset` moves to another page).
 */
export function ListTable<Row>({
  query,
  limit,
  offset,
  onOffset,
  empty,
  ...table
}: Omit<TableProps<Row>, 'rows'> & {
  query: UseQueryResult<{ items: Row[]; total: number }>;
  limit: number;
  offset: number;
  onOffset: (offset: number) => void;
  empty?: string;
}) {
  return (
    <Loaded query={query}>
      {(page) => (
        <>
          <Table {...table} rows={page.items} />
          {page.total === 0 && empty !== undefined ? <p className="muted">{empty}</p> : null}
          <Pager total={page.total} limit={limit} offset={offset} onOffset={onOffset} />
        </>
      )}
    </Loaded>
  );
}

/** The page of a list its filters' `offset` asks for (absent: the first). */
export const offsetOf = (filters: Filters<'offset'>) => Number(filters.offset ?? 0);

/**
 * A list page's filtered, paged list: its filter form (`fields`, editing a draft of `filters`)
 * over a ListTable of `query` (the list of the applied `filters`). Applying a filter puts it in
 * the address of `page` from the first page of the list, and the pager moves within it, so a
 * filtered list can be linked. `between` goes between the form and the table.
 */
export function FilteredList<Row, Name extends string>({
  page,
  filters,
  fields,
  label = 'Filters',
  between,
  limit,
  ...table
}: Omit<TableProps<Row>, 'rows'> & {
  page: string;
  filters: Filters<Name | 'offset'>;
  fields: readonly FilterField<Name>[];
  label?: string;
  between?: ReactNode;
  query: UseQueryResult<{ items: Row[]; total: number }>;
  limit: number;
  empty?: string;
}) {
  const [draft, setDraft] = useState(filters);
  return (
    <>
      <FilterForm
        label={label}
        fields={fields}
        draft={draft}
        onDraft={setDraft}
        onApply={() => navigate(href(page, '', { ...draft, offset: undefined }))}
      />
      {between}
      <ListTable
        {...table}
        limit={limit}
        offset={offsetOf(filters)}
        onOffset={(o) => navigate(href(page, '', { ...filters, offset: o }))}
      />
    </>
  );
}
