import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { ListTable, Table, type Column } from '../components/List.js';
import { ErrorBox, Loaded, Status } from '../components/ui.js';
import { useSession } from '../session-context.js';
import { href, navigate, useRoute } from '../router.js';

const LIMIT = 25;
type Category = NonNullable<Schemas['ReconciliationRunInput']['category']>;

const RUN_COLUMNS: Column<Schemas['ReconciliationRunPage']['items'][number]>[] = [
  { header: 'Started', cell: (r) => <a href={href('reconciliation', r.run_id)}>{r.started_at}</a> },
  { header: 'Category', cell: (r) => r.category ?? 'all' },
  { header: 'Status', cell: (r) => <Status value={r.status} /> },
  { header: 'Checks', num: true, cell: (r) => r.results.length },
  { header: 'Variances', num: true, cell: (r) => r.variance_count },
];

function Runs({ offset }: { offset: number }) {
  const { admin } = useSession();
  const client = useQueryClient();
  const [category, setCategory] = useState('');
  const runs = useQuery({
    queryKey: ['reconciliation/runs', offset],
    queryFn: () => unwrap(api.GET('/v1/reconciliation/runs', { params: { query: { limit: LIMIT, offset } } })),
  });
  const trigger = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v1/reconciliation/run', { body: category === '' ? {} : { category: category as Category } })),
    onSuccess: (run) => {
      void client.invalidateQueries({ queryKey: ['reconciliation/runs'] });
      navigate(href('reconciliation', run.run_id));
    },
  });
  return (
    <>
      {admin ? (
        <form
          className="filters"
          aria-label="Run the checks"
          onSubmit={(e) => {
            e.preventDefault();
            trigger.mutate();
          }}
        >
          <label>
            Category{' '}
            <select value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">all</option>
              {['A', 'B', 'C', 'D'].map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={trigger.isPending}>
            {trigger.isPending ? 'Running…' : 'Run the checks now'}
          </button>
          <ErrorBox error={trigger.error} />
        </form>
      ) : null}
      <ListTable
        query={runs}
        testId="runs"
        columns={RUN_COLUMNS}
        rowKey={(r) => r.run_id}
        limit={LIMIT}
        offset={offset}
        onOffset={(o) => navigate(href('reconciliation', '', { offset: o }))}
      />
    </>
  );
}

type Variance = Schemas['ReconciliationRun']['metadata']['variances'][number];

const VARIANCE_COLUMNS: Column<Variance>[] = [
  { header: 'Check', cell: (v) => v.check_name },
  {
    header: 'Transaction',
    cell: (v) =>
      v.txn_id ? <a href={href('transactions', v.txn_id)}>{v.txn_id.slice(0, 8)}</a> : (v.source_txn_id ?? ''),
  },
  {
    header: 'Customer',
    cell: (v) => (v.customer_id ? <a href={href('customers', v.customer_id)}>{v.customer_id}</a> : ''),
  },
  { header: 'Account', cell: (v) => v.account_code ?? '' },
  { header: 'Symbol', cell: (v) => v.symbol ?? '' },
  { header: 'Expected', num: true, cell: (v) => v.expected ?? '' },
  { header: 'Actual', num: true, cell: (v) => v.actual ?? '' },
  { header: 'Difference', num: true, cell: (v) => v.difference ?? '' },
];

function Run({ runId }: { runId: string }) {
  const run = useQuery({
    queryKey: ['reconciliation/run', runId],
    queryFn: () => unwrap(api.GET('/v1/reconciliation/runs/{run_id}', { params: { path: { run_id: runId } } })),
  });
  return (
    <Loaded query={run}>
      {(r) => (
        <>
          <h2>
            Run of {r.started_at} <Status value={r.status} />
          </h2>
          <table data-testid="checks">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Category</th>
                <th scope="col">Status</th>
                <th scope="col">Metrics</th>
              </tr>
            </thead>
            <tbody>
              {r.results.map((c) => (
                <tr key={c.check_name}>
                  <td>{c.check_name}</td>
                  <td>{c.category}</td>
                  <td>
                    <Status value={c.status} />
                  </td>
                  <td>
                    <code>{JSON.stringify(c.metrics).slice(0, 200)}</code>
                  </td>
                </tr>
              ))}
              {r.metadata.skipped.map((c) => (
                <tr key={c.check_name} className="muted">
                  <td>{c.check_name}</td>
                  <td>{c.category}</td>
                  <td>skipped</td>
                  <td>{c.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Variances ({r.metadata.variances.length})</h3>
          <Table testId="variances" columns={VARIANCE_COLUMNS} rows={r.metadata.variances} rowKey={(_, i) => i} />
        </>
      )}
    </Loaded>
  );
}

export default function ReconciliationPage() {
  const { param, query } = useRoute();
  return (
    <>
      <h1>
        <a href={href('reconciliation')}>Reconciliation</a>
      </h1>
      {param === '' ? <Runs offset={Number(query.get('offset') ?? 0)} /> : <Run runId={param} />}
    </>
  );
}
