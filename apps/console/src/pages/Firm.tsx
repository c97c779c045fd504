import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { DayChart } from '../components/Chart.js';
import { TrialBalanceTable } from '../components/TrialBalance.js';
import { Card, ErrorBox, Loaded, Money, Status, TotalsFoot } from '../components/ui.js';
import { filtersOf, Table, type Column } from '../components/List.js';
import { OpenVariances } from '../components/VarianceTriage.js';
import { isZero } from '../format.js';
import { href, navigate, useRoute } from '../router.js';

/** The newest result of each check, over the latest runs (a run may cover one category only). */
function latestPerCheck(runs: Schemas['ReconciliationRunSummary'][]) {
  const seen = new Map<string, { run_id: string; result: Schemas['ReconciliationCheckResult'] }>();
  for (const run of runs)
    for (const result of run.results)
      if (!seen.has(result.check_name)) seen.set(result.check_name, { run_id: run.run_id, result });
  return [...seen.values()].sort((a, b) => a.result.check_name.localeCompare(b.result.check_name));
}

/** The page's filters live in its address (`#/firm?from=…&to=…&as_of=…`), so a view can be linked. */
const FILTERS = ['from', 'to', 'as_of'] as const;

/** Each check's newest status counted, and the worst of them. */
function statusCounts(latest: ReturnType<typeof latestPerCheck>) {
  const count = (status: string) => latest.filter((l) => l.result.status === status).length;
  const fail = count('fail');
  const warn = count('warn');
  return { fail, warn, total: latest.length, worst: fail > 0 ? 'fail' : warn > 0 ? 'warn' : 'ok' };
}

/** An earnings source with nothing in it (no revenue, no cost) says nothing: left out of the table. */
const isEmptySource = (s: { revenue_usd: string; cost_usd: string }) => isZero(s.revenue_usd) && isZero(s.cost_usd);

const CHECK_COLUMNS: Column<ReturnType<typeof latestPerCheck>[number]>[] = [
  { header: 'Check', cell: ({ run_id, result }) => <a href={href('reconciliation', run_id)}>{result.check_name}</a> },
  { header: 'Category', cell: ({ result }) => result.category },
  { header: 'Status', cell: ({ result }) => <Status value={result.status} /> },
  { header: 'Ran at', cell: ({ result }) => result.ran_at },
];

type EarningsRow = Schemas['FirmEarnings']['months'][number]['sources'][number] & { month: string };
const EARNINGS_COLUMNS: Column<EarningsRow>[] = [
  { header: 'Month', cell: (r) => r.month },
  { header: 'Source', cell: (r) => r.source },
  { header: 'Revenue', money: (r) => r.revenue_usd },
  { header: 'Cost', money: (r) => r.cost_usd },
  { header: 'Margin', money: (r) => r.margin_usd },
];

/** The page's reads: the period's summary and earnings, balances as of the day, the latest reconciliation runs. */
function useFirmData(from: string, to: string, asOf: string) {
  const period = { from: from || undefined, to: to || undefined };
  const asOfQuery = { as_of: asOf || undefined };
  const summary = useQuery({
    queryKey: ['firm/summary', period],
    queryFn: () => unwrap(api.GET('/v1/firm/summary', { params: { query: period } })),
  });
  const earnings = useQuery({
    queryKey: ['firm/earnings', period],
    queryFn: () => unwrap(api.GET('/v1/firm/earnings', { params: { query: period } })),
  });
  const trial = useQuery({
    queryKey: ['firm/trial_balance', asOf],
    queryFn: () => unwrap(api.GET('/v1/firm/trial_balance', { params: { query: asOfQuery } })),
  });
  const accounts = useQuery({
    queryKey: ['firm/accounts', asOf],
    queryFn: () => unwrap(api.GET('/v1/firm/accounts', { params: { query: asOfQuery } })),
  });
  const runs = useQuery({
    queryKey: ['reconciliation/runs', 'latest'],
    queryFn: () => unwrap(api.GET('/v1/reconciliation/runs', { params: { query: { limit: 50 } } })),
  });
  return { summary, earnings, trial, accounts, runs };
}
type FirmData = ReturnType<typeof useFirmData>;

export default function FirmPage() {
  const { query } = useRoute();
  const filters = filtersOf(query, FILTERS);
  const from = filters.from ?? '';
  const to = filters.to ?? '';
  const asOf = filters.as_of ?? '';
  const set = (name: (typeof FILTERS)[number]) => (day: string) =>
    navigate(href('firm', '', { ...filters, [name]: day }));
  const { summary, earnings, trial, accounts, runs } = useFirmData(from, to, asOf);
  const latest = runs.data ? latestPerCheck(runs.data.items) : [];
  return (
    <>
      <h1>Firm</h1>
      <AtAGlance runs={runs} latest={latest} trial={trial} summary={summary} asOf={asOf} />
      <ErrorBox error={runs.error ?? trial.error} />
      <form className="filters" aria-label="Period and day" onSubmit={(e) => e.preventDefault()}>
        <label>
          From <input type="date" value={from} onChange={(e) => set('from')(e.target.value)} />
        </label>
        <label>
          To <input type="date" value={to} onChange={(e) => set('to')(e.target.value)} />
        </label>
        <label>
          Balances as of <input type="date" value={asOf} onChange={(e) => set('as_of')(e.target.value)} />
        </label>
      </form>
      <PeriodSummary summary={summary} />

      <h2>Latest reconciliation, per check</h2>
      <Loaded query={runs}>
        {() => (
          <Table testId="latest-checks" columns={CHECK_COLUMNS} rows={latest} rowKey={(l) => l.result.check_name} />
        )}
      </Loaded>

      <h2>Trial balance and chart of accounts{asOf ? ` as of ${asOf}` : ''}</h2>
      <div className="two">
        <Loaded query={trial}>
          {(t) => (
            <TrialBalanceTable
              accounts={t.accounts}
              totalDebit={t.total_debit}
              totalCredit={t.total_credit}
              caption={`Trial balance ${t.balanced ? '(balanced)' : `(off by ${t.difference})`}`}
            />
          )}
        </Loaded>
        <ChartOfAccounts accounts={accounts} />
      </div>

      <h2>Earnings by month and source</h2>
      <EarningsTable earnings={earnings} />
    </>
  );
}

/** The cards at the top: the newest reconciliation, open variances, whether the books balance, cash and AUM. */
function AtAGlance({
  runs,
  latest,
  trial,
  summary,
  asOf,
}: Pick<FirmData, 'runs' | 'trial' | 'summary'> & { latest: ReturnType<typeof latestPerCheck>; asOf: string }) {
  const counts = statusCounts(latest);
  return (
    <section aria-label="At a glance" className="cards" data-testid="firm-glance">
      <Card label="Reconciliation">
        {runs.data ? (
          <a href={href('reconciliation')} data-testid="recon-status">
            <Status value={counts.worst} />{' '}
            <small>
              {counts.fail} fail, {counts.warn} warn of {counts.total} checks
            </small>
          </a>
        ) : (
          '…'
        )}
      </Card>
      <OpenVariances />
      <Card label={`Trial balance${asOf ? ` as of ${asOf}` : ''}`}>
        {trial.data ? (
          <span data-testid="trial-balance-check">
            {trial.data.balanced ? 'balanced' : `off by ${trial.data.difference}`}
          </span>
        ) : (
          '…'
        )}
      </Card>
      <Card label="Cash (USD)">
        <Money value={summary.data?.cash_usd} />
      </Card>
      <Card label="AUM at custody (USD)">
        <Money value={summary.data?.aum_custody_usd} />
      </Card>
    </section>
  );
}

/** The period's totals and its daily deposits and withdrawals. */
function PeriodSummary({ summary }: Pick<FirmData, 'summary'>) {
  const flows = summary.data?.flows;
  const flowSeries = useMemo(
    () => [
      { label: 'Deposits (USD)', color: '#1a7f37', values: flows?.map((f) => f.deposits_usd) ?? [] },
      { label: 'Withdrawals (USD)', color: '#cf222e', values: flows?.map((f) => f.withdrawals_usd) ?? [] },
    ],
    [flows],
  );
  const flowDays = useMemo(() => flows?.map((f) => f.day) ?? [], [flows]);
  return (
    <Loaded query={summary}>
      {(s) => (
        <>
          <div className="cards" data-testid="firm-cards">
            <Card label="Deposits (USD)">
              <Money value={s.total_deposits_usd} />
            </Card>
            <Card label="Withdrawals (USD)">
              <Money value={s.total_withdrawals_usd} />
            </Card>
            <Card label="Fee revenue (USD)">
              <Money value={s.fees_revenue_usd} />
            </Card>
            <Card label="Cash in AED (USD)">
              <Money value={s.cash_aed_usd} />
            </Card>
            <Card label="Transactions">{s.transaction_count}</Card>
            <Card label="Customers">{s.customer_count}</Card>
          </div>
          {flowDays.length > 0 ? (
            <DayChart title="Daily deposits and withdrawals (USD)" days={flowDays} series={flowSeries} />
          ) : (
            <p className="muted">No deposits or withdrawals in the period.</p>
          )}
        </>
      )}
    </Loaded>
  );
}

/** Every account with its balance and line count, each a link to its journal (a dormant one muted). */
function ChartOfAccounts({ accounts }: Pick<FirmData, 'accounts'>) {
  return (
    <Loaded query={accounts}>
      {(a) => (
        <table>
          <caption>Chart of accounts</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Type</th>
              <th scope="col" className="num">
                Balance
              </th>
              <th scope="col" className="num">
                Lines
              </th>
            </tr>
          </thead>
          <tbody>
            {a.items.map((row) => (
              <tr key={row.account_code} className={row.dormant ? 'muted' : ''}>
                <td>
                  <a href={href('journal', '', { account_code: row.account_code })}>
                    {row.account_code} {row.name}
                  </a>
                </td>
                <td>{row.account_type}</td>
                <td>
                  <Money value={row.balance} />
                </td>
                <td className="num">{row.line_count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Loaded>
  );
}

function EarningsTable({ earnings }: Pick<FirmData, 'earnings'>) {
  return (
    <Loaded query={earnings}>
      {(e) => (
        <Table
          testId="earnings"
          caption={<span className="muted">Sources with neither revenue nor cost in a month are left out.</span>}
          columns={EARNINGS_COLUMNS}
          rows={e.months.flatMap((m) =>
            m.sources.filter((s) => !isEmptySource(s)).map((s) => ({ month: m.month, ...s })),
          )}
          rowKey={(r) => `${r.month}-${r.source}`}
          foot={<TotalsFoot span={2} totals={[e.revenue_usd, e.cost_usd, e.margin_usd]} />}
        />
      )}
    </Loaded>
  );
}
