import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { FilterForm, filtersOf, ListTable, type Column, type FilterField, type Filters } from '../components/List.js';
import { isZero } from '../format.js';
import { href, navigate, useRoute } from '../router.js';

const GROUP_BY = ['account', 'customer', 'day', 'posting_kind'] as const;
type GroupBy = (typeof GROUP_BY)[number];
const GROUP_LABEL: Record<GroupBy, string> = {
  account: 'Account',
  customer: 'Customer',
  day: 'Day',
  posting_kind: 'Posting kind',
};
const FILTERS = ['account_code', 'customer_id', 'posting_kind', 'from', 'to', 'group_by'] as const;
type JournalFilters = Filters<(typeof FILTERS)[number] | 'offset' | 'groups_offset'>;
const LIMIT = 50;

const LINE_COLUMNS: Column<Schemas['JournalLine']>[] = [
  { header: 'Date', cell: (l) => l.txn_date },
  { header: 'Transaction', cell: (l) => <a href={href('transactions', l.txn_id)}>{l.txn_id.slice(0, 8)}</a> },
  { header: 'Account', cell: (l) => `${l.account_code} ${l.account_name}` },
  { header: 'Kind', cell: (l) => l.posting_kind ?? '' },
  {
    header: 'Customer',
    cell: (l) => (l.customer_id ? <a href={href('customers', l.customer_id)}>{l.customer_id}</a> : ''),
  },
  { header: 'Debit', money: (l) => (isZero(l.debit) ? null : l.debit) },
  { header: 'Credit', money: (l) => (isZero(l.credit) ? null : l.credit) },
  {
    header: 'Native',
    num: true,
    cell: (l) => (l.native_currency ? `${l.native_amount ?? ''} ${l.native_currency}` : ''),
  },
];

/** A group's key as a link that narrows the lines to it (a day and a kind narrow by their own filter). */
function narrowTo(groupBy: GroupBy, key: string | null, filters: JournalFilters) {
  if (key === null) return '(none)';
  const narrowed: JournalFilters =
    groupBy === 'account'
      ? { account_code: key }
      : groupBy === 'customer'
        ? { customer_id: key }
        : groupBy === 'day'
          ? { from: key, to: key }
          : { posting_kind: key };
  return <a href={href('journal', '', { ...filters, ...narrowed, offset: undefined })}>{key}</a>;
}

/** The lines' filters as the API reads them (the totals read the same). */
const lineQueryOf = (filters: JournalFilters) => ({
  account_code: filters.account_code || undefined,
  customer_id: filters.customer_id || undefined,
  posting_kind: filters.posting_kind || undefined,
  from: filters.from || undefined,
  to: filters.to || undefined,
});

function Journal({ filters }: { filters: JournalFilters }) {
  const [draft, setDraft] = useState(filters);
  const accounts = useQuery({
    queryKey: ['firm/accounts', ''],
    queryFn: () => unwrap(api.GET('/v1/firm/accounts', { params: { query: {} } })),
  });
  const fields: FilterField<(typeof FILTERS)[number]>[] = [
    {
      name: 'account_code',
      label: 'Account',
      options: accounts.data?.items.map((a) => a.account_code) ?? [],
    },
    { name: 'customer_id', label: 'Customer' },
    { name: 'posting_kind', label: 'Posting kind' },
    { name: 'from', label: 'From', type: 'date' },
    { name: 'to', label: 'To', type: 'date' },
    { name: 'group_by', label: 'Totals by', options: GROUP_BY },
  ];
  return (
    <>
      <FilterForm
        label="Filters"
        fields={fields}
        draft={draft}
        onDraft={setDraft}
        onApply={() => navigate(href('journal', '', { ...draft, offset: undefined, groups_offset: undefined }))}
      />
      <JournalTotals filters={filters} />
      <JournalLines filters={filters} />
    </>
  );
}

/** The page's address with `moved` (a pager's offset) changed. */
const journalAt = (filters: JournalFilters, moved: JournalFilters) =>
  navigate(href('journal', '', { ...filters, ...moved }));

/** The filtered lines' totals by account, customer, day or posting kind, each group a link narrowing the journal to it. */
function JournalTotals({ filters }: { filters: JournalFilters }) {
  const lineQuery = lineQueryOf(filters);
  const groupsOffset = Number(filters.groups_offset ?? 0);
  const groupBy = (filters.group_by || 'account') as GroupBy;
  const groups = useQuery({
    queryKey: ['journal/grouped', lineQuery, groupBy, groupsOffset],
    queryFn: () =>
      unwrap(
        api.GET('/v1/journal/grouped', {
          params: { query: { ...lineQuery, group_by: groupBy, limit: LIMIT, offset: groupsOffset } },
        }),
      ),
  });
  type Group = Schemas['JournalGroups']['items'][number];
  const groupColumns: Column<Group>[] = [
    { header: GROUP_LABEL[groupBy], cell: (g) => narrowTo(groupBy, g.key, filters) },
    { header: 'Lines', num: true, cell: (g) => g.line_count },
    { header: 'Debit', money: (g) => g.debit },
    { header: 'Credit', money: (g) => g.credit },
    { header: 'Net (debit − credit)', money: (g) => g.net },
  ];
  return (
    <>
      <h2>Totals by {GROUP_LABEL[groupBy].toLowerCase()}</h2>
      <ListTable
        query={groups}
        testId="journal-groups"
        columns={groupColumns}
        rowKey={(g) => g.key ?? ''}
        empty="No journal line under these filters."
        limit={LIMIT}
        offset={groupsOffset}
        onOffset={(o) => journalAt(filters, { groups_offset: String(o) })}
      />
    </>
  );
}

/** The filtered lines, the latest posted first. */
function JournalLines({ filters }: { filters: JournalFilters }) {
  const lineQuery = lineQueryOf(filters);
  const offset = Number(filters.offset ?? 0);
  const lines = useQuery({
    queryKey: ['journal', lineQuery, offset],
    queryFn: () => unwrap(api.GET('/v1/journal', { params: { query: { ...lineQuery, limit: LIMIT, offset } } })),
  });
  return (
    <>
      <h2>Lines</h2>
      <ListTable
        query={lines}
        testId="journal-lines"
        columns={LINE_COLUMNS}
        rowKey={(l) => l.line_id}
        limit={LIMIT}
        offset={offset}
        onOffset={(o) => journalAt(filters, { offset: String(o) })}
      />
    </>
  );
}

export default function JournalPage() {
  const { query } = useRoute();
  return (
    <>
      <h1>Journal</h1>
      <p className="muted">
        Every debit and credit, the latest posted first: narrow by account, customer, kind and date.
      </p>
      <Journal key={query.toString()} filters={filtersOf(query, [...FILTERS, 'offset', 'groups_offset'])} />
    </>
  );
}
