import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { ErrorBox, Loaded, Pager, Status } from '../components/ui.js';
import { useSession } from '../App.js';
import { href, navigate, useRoute } from '../router.js';

const LIMIT = 25;
type Category = NonNullable<Schemas['ReconciliationRunInput']['category']>;

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
      <Loaded query={runs}>
        {(page) => (
          <>
            <table data-testid="runs">
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Checks
                  </th>
                  <th scope="col" className="num">
                    Variances
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((r) => (
                  <tr key={r.run_id}>
                    <td>
                      <a href={href('reconciliation', r.run_id)}>{r.started_at}</a>
                    </td>
                    <td>{r.category ?? 'all'}</td>
                    <td>
                      <Status value={r.status} />
                    </td>
                    <td className="num">{r.results.length}</td>
                    <td className="num">{r.variance_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              total={page.total}
              limit={LIMIT}
              offset={offset}
              onOffset={(o) => navigate(href('reconciliation', '', { offset: o }))}
            />
          </>
        )}
      </Loaded>
    </>
  );
}

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
          <table data-testid="variances">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Transaction</th>
                <th scope="col">Customer</th>
                <th scope="col">Account</th>
                <th scope="col">Symbol</th>
                <th scope="col" className="num">
                  Expected
                </th>
                <th scope="col" className="num">
                  Actual
                </th>
                <th scope="col" className="num">
                  Difference
                </th>
              </tr>
            </thead>
            <tbody>
              {r.metadata.variances.map((v, i) => (
                <tr key={i}>
                  <td>{v.check_name}</td>
                  <td>
                    {v.txn_id ? (
                      <a href={href('transactions', v.txn_id)}>{v.txn_id.slice(0, 8)}</a>
                    ) : (
                      (v.source_txn_id ?? '')
                    )}
                  </td>
                  <td>{v.customer_id ? <a href={href('customers', v.customer_id)}>{v.customer_id}</a> : ''}</td>
                  <td>{v.account_code ?? ''}</td>
                  <td>{v.symbol ?? ''}</td>
                  <td className="num">{v.expected ?? ''}</td>
                  <td className="num">{v.actual ?? ''}</td>
                  <td className="num">{v.difference ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
