import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../api/client.js';
import { FilteredList, filtersOf, offsetOf, type Column, type FilterField, type Filters } from '../components/List.js';
import { Status } from '../components/ui.js';
import { VarianceTriage } from '../components/VarianceTriage.js';
import { href, useRoute } from '../router.js';

type Variance = Schemas['TrackedVariance'];
const STATES = ['unresolved', 'open', 'acknowledged', 'assigned', 'resolved'] as const;
const FILTERS = ['state', 'check_name', 'customer_id'] as const;
const FILTER_FIELDS: FilterField<(typeof FILTERS)[number]>[] = [
  { name: 'state', label: 'State', options: STATES },
  { name: 'check_name', label: 'Check', placeholder: 'trial_balance_zero' },
  { name: 'customer_id', label: 'Customer' },
];
const LIMIT = 50;

type StateFilter = (typeof STATES)[number];

const COLUMNS: Column<Variance>[] = [
  { header: 'Variance', cell: (v) => <a href={href('variances', String(v.variance_id))}>#{v.variance_id}</a> },
  { header: 'State', cell: (v) => <Status value={v.state} /> },
  { header: 'Assignee', cell: (v) => v.assignee ?? '' },
  { header: 'Check', cell: (v) => v.check_name },
  { header: 'Kind', cell: (v) => v.kind ?? '' },
  {
    header: 'Customer',
    cell: (v) => (v.customer_id ? <a href={href('customers', v.customer_id)}>{v.customer_id}</a> : ''),
  },
  { header: 'Names', cell: (v) => [v.account_code, v.symbol, v.source_txn_id].filter(Boolean).join(' · ') },
  { header: 'Difference', num: true, cell: (v) => v.difference ?? '—' },
  { header: 'Runs', num: true, cell: (v) => v.times_seen },
  { header: 'Last found', cell: (v) => v.last_seen_at.slice(0, 16).replace('T', ' ') },
];

function VarianceList({ filters }: { filters: Filters<(typeof FILTERS)[number] | 'offset'> }) {
  const list = useQuery({
    queryKey: ['variances', filters],
    queryFn: () =>
      unwrap(
        api.GET('/v1/reconciliation/variances', {
          params: {
            query: {
              state: (filters.state || undefined) as StateFilter | undefined,
              check_name: filters.check_name || undefined,
              customer_id: filters.customer_id || undefined,
              limit: LIMIT,
              offset: offsetOf(filters),
            },
          },
        }),
      ),
  });
  return (
    <FilteredList
      page="variances"
      filters={filters}
      fields={FILTER_FIELDS}
      query={list}
      testId="variances"
      columns={COLUMNS}
      rowKey={(v) => v.variance_id}
      rowTestId={(v) => `variance-${v.variance_id}`}
      empty="No variance under these filters."
      limit={LIMIT}
    />
  );
}

export default function VariancesPage() {
  const { param, query } = useRoute();
  return (
    <>
      <h1>
        <a href={href('variances', '', { state: 'unresolved' })}>Variances</a>
      </h1>
      {param !== '' ? (
        <VarianceTriage id={Number(param)} />
      ) : (
        <>
          <p className="muted">
            Each variance the checks found, once across every run that found it: open until an operator resolves it or a
            run no longer finds it.
          </p>
          <VarianceList key={query.toString()} filters={filtersOf(query, [...FILTERS, 'offset'])} />
        </>
      )}
    </>
  );
}
