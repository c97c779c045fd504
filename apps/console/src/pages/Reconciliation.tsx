import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { ReportBar, DataTable, useOnlyFlagged, type Json, type Row, type TableSpec } from '../components/DataTable.js';
import { ListTable, type Column } from '../components/List.js';
import { ErrorBox, Loaded, Status } from '../components/ui.js';
import { VarianceTriage } from '../components/VarianceTriage.js';
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

const checksOf = (run: Schemas['ReconciliationRun']): Row[] => [
  ...run.results.map((c) => ({
    check_name: c.check_name,
    category: c.category,
    status: c.status,
    metrics: c.metrics as Json,
  })),
  ...run.metadata.skipped.map((c) => ({ ...c, status: 'skipped', metrics: null })),
];

/** A check's result in words; `skipped` (another instance ran it) needs no action. */
const CHECKS: Omit<TableSpec, 'rows'> = {
  id: 'checks',
  title: 'Checks',
  columns: [
    { key: 'check_name', label: 'Check' },
    { key: 'category', label: 'Category' },
    { key: 'status', label: 'Status' },
    { key: 'reason', label: 'Skipped because' },
    { key: 'metrics', label: 'Metrics' },
  ],
  flag: (row) => row.status === 'warn' || row.status === 'fail',
};

/** Every variance broke a check, so each one needs action (its triage state says how far it is). */
const VARIANCES: Omit<TableSpec, 'rows'> = {
  id: 'variances',
  title: 'Variances',
  columns: [
    { key: 'variance_id', label: 'Variance' },
    { key: 'state', label: 'State' },
    { key: 'check_name', label: 'Check' },
    { key: 'txn_id', label: 'Transaction' },
    { key: 'source_txn_id', label: 'Source transaction' },
    { key: 'customer_id', label: 'Customer' },
    { key: 'account_code', label: 'Account' },
    { key: 'symbol', label: 'Symbol' },
    { key: 'expected', label: 'Expected', align: 'num' },
    { key: 'actual', label: 'Actual', align: 'num' },
    { key: 'difference', label: 'Difference', align: 'num' },
    { key: 'detail.problem', label: 'Problem' },
  ],
  flag: () => true,
};

/**
 * The run's variances to triage: one chosen (in the address, `variance=`; the first not resolved
 * by default), with its state, history and actions.
 */
function RunTriage({ runId, variances }: { runId: string; variances: Schemas['ReconciliationVariance'][] }) {
  const { query } = useRoute();
  const tracked = variances.filter((v) => v.variance_id !== null);
  if (tracked.length === 0) return null;
  const chosen =
    Number(query.get('variance')) || (tracked.find((v) => v.state !== 'resolved') ?? tracked[0])!.variance_id!;
  return (
    <section aria-label="Triage">
      <h3>Triage</h3>
      <label>
        Variance{' '}
        <select
          value={chosen}
          onChange={(e) =>
            navigate(href('reconciliation', runId, { ...Object.fromEntries(query), variance: e.target.value }))
          }
        >
          {tracked.map((v, i) => (
            <option key={i} value={v.variance_id!}>
              #{v.variance_id} {v.state} · {v.check_name} {String(v.detail.problem ?? '')} {v.customer_id ?? ''}{' '}
              {v.symbol ?? ''}
            </option>
          ))}
        </select>
      </label>
      <VarianceTriage id={chosen} />
    </section>
  );
}

function Run({ runId }: { runId: string }) {
  const onlyFlagged = useOnlyFlagged();
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
          <ReportBar value={r} />
          <DataTable spec={{ ...CHECKS, rows: checksOf(r) }} onlyFlagged={onlyFlagged} />
          <DataTable
            spec={{
              ...VARIANCES,
              rows: r.metadata.variances.map((v) => ({
                ...(v as unknown as Row),
                'detail.problem': (v.detail as Record<string, Json>).problem ?? null,
              })),
            }}
            onlyFlagged={onlyFlagged}
          />
          <RunTriage runId={r.run_id} variances={r.metadata.variances} />
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
