import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { DayChart } from '../components/Chart.js';
import { TrialBalanceTable } from '../components/TrialBalance.js';
import { useApiDocument } from '../api/document.js';
import type { paths } from '../api/schema.js';
import { EndpointView } from '../components/Endpoint.js';
import { FilterForm, ListTable, Table, type Column } from '../components/List.js';
import { Card, Loaded, Money, Pager, PeriodFields, TotalsFoot } from '../components/ui.js';
import { OpenVariances } from '../components/VarianceTriage.js';
import { href, navigate, useRoute } from '../router.js';

const LIMIT = 50;
/** Rows of a customer's statement and orders shown at once: the page stays a few screens tall. */
const ROWS = 25;

const CUSTOMER_COLUMNS: Column<Schemas['Customer']>[] = [
  { header: 'Customer', cell: (c) => <a href={href('customers', c.customer_id)}>{c.customer_id}</a> },
  { header: 'Name', cell: (c) => c.name ?? '' },
  { header: 'Email', cell: (c) => c.email ?? '' },
  // Their first transaction, not when the book learned of them (a provisioning run).
  { header: 'Since', cell: (c) => c.first_activity_date ?? 'no activity yet' },
];

function CustomerList({ q, offset }: { q: string; offset: number }) {
  const [draft, setDraft] = useState({ q });
  const list = useQuery({
    queryKey: ['customers', q, offset],
    queryFn: () => unwrap(api.GET('/v1/customers', { params: { query: { q: q || undefined, limit: LIMIT, offset } } })),
  });
  return (
    <>
      <FilterForm
        role="search"
        fields={[{ name: 'q', label: 'Search', placeholder: 'id, name or email' }]}
        draft={draft}
        onDraft={setDraft}
        onApply={() => navigate(href('customers', '', draft))}
        submit="Search"
      />
      <ListTable
        query={list}
        testId="customers"
        columns={CUSTOMER_COLUMNS}
        rowKey={(c) => c.customer_id}
        limit={LIMIT}
        offset={offset}
        onOffset={(o) => navigate(href('customers', '', { q, offset: o }))}
      />
    </>
  );
}

/** What follows `Prefix` in the API's paths: the build breaks when a path named below goes. */
type PathsUnder<Prefix extends string, Path = keyof paths> = Path extends `${Prefix}${infer Rest}` ? Rest : never;

/** The customer's India views: read live from the book's upstreams (on the UAE book they answer `available` false). */
const INDIA_VIEWS = [
  ['ledger-recon', 'Ledger against broker'],
  ['holdings', 'Holdings upstream'],
  ['usbroker-balance', 'Broker balance'],
  ['usbroker-portfolio', 'Broker positions'],
  ['usbroker-orders', 'Broker orders'],
  ['usbroker-statement', 'Broker statement'],
] as const satisfies ReadonlyArray<readonly [PathsUnder<'/v1/customers/{customer_id}/'>, string]>;
/** The India reports that take a `customer`, opened on the India page for this one. */
const INDIA_REPORTS = ['capital-gains', 'dividends', 'schedule-fa', 'broker-fees'] as const satisfies ReadonlyArray<
  PathsUnder<'/v1/india/'>
>;

function IndiaViews({ id }: { id: string }) {
  const document = useApiDocument();
  const [view, setView] = useState<(typeof INDIA_VIEWS)[number][0]>(INDIA_VIEWS[0][0]);
  return (
    <section aria-labelledby="india-views">
      <h3 id="india-views">India</h3>
      <p>
        India reports for {id}:{' '}
        {INDIA_REPORTS.map((r, i) => (
          <span key={r}>
            {i > 0 ? ' · ' : ''}
            <a href={href('india', r, { customer: id })}>{r}</a>
          </span>
        ))}
      </p>
      <div className="tabs" role="group" aria-label="India view">
        {INDIA_VIEWS.map(([name, title]) => (
          <button key={name} type="button" aria-pressed={view === name} onClick={() => setView(name)}>
            {title}
          </button>
        ))}
      </div>
      <Loaded query={document}>
        {(d) => (
          <EndpointView
            key={view}
            document={d}
            path={`/v1/customers/{customer_id}/${view}`}
            pathParams={{ customer_id: id }}
          />
        )}
      </Loaded>
    </section>
  );
}

const POSITION_COLUMNS: Column<Schemas['CustomerPortfolio']['items'][number]>[] = [
  { header: 'Symbol', cell: (row) => row.symbol },
  { header: 'Quantity', num: true, cell: (row) => row.quantity },
  { header: 'Cost (USD)', money: (row) => row.cost_usd },
  { header: 'Average cost', money: (row) => row.average_cost_usd },
  { header: 'Price', money: (row) => row.price_usd },
  {
    header: 'Market value',
    num: 'header',
    cell: (row) =>
      row.market_value_usd === null ? (
        <span className="muted">{row.unpriced_reason}</span>
      ) : (
        <Money value={row.market_value_usd} />
      ),
  },
];

/** The columns of a customer's transactions (dividends, orders): each date links its transaction. */
const OF_A_TRANSACTION = {
  date: { header: 'Date', cell: (t) => <a href={href('transactions', t.txn_id)}>{t.txn_date}</a> },
  type: { header: 'Type', cell: (t) => t.txn_type },
  symbol: { header: 'Symbol', cell: (t) => t.symbol ?? '' },
  quantity: { header: 'Quantity', num: true, cell: (t) => t.quantity ?? '' },
  usd: { header: 'USD', money: (t) => t.amount_usd },
} satisfies Record<string, Column<Schemas['TransactionSummary']>>;
const DIVIDEND_COLUMNS = [OF_A_TRANSACTION.date, OF_A_TRANSACTION.type, OF_A_TRANSACTION.symbol, OF_A_TRANSACTION.usd];
const ORDER_COLUMNS = [
  OF_A_TRANSACTION.date,
  OF_A_TRANSACTION.type,
  OF_A_TRANSACTION.symbol,
  OF_A_TRANSACTION.quantity,
  OF_A_TRANSACTION.usd,
];

/** The statement's period (each end optional), as the customer's period reads take it. */
type Period = { from: string | undefined; to: string | undefined };

function Customer({ id }: { id: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [movementsAt, setMovementsAt] = useState(0);
  const [ordersAt, setOrdersAt] = useState(0);
  const period = { from: from || undefined, to: to || undefined };
  // A new period starts its statement and orders at their first rows.
  const toPeriod = (set: (day: string) => void) => (day: string) => {
    set(day);
    setMovementsAt(0);
    setOrdersAt(0);
  };
  return (
    <>
      <CustomerOverview id={id} />

      <h3>Positions and portfolio</h3>
      <CustomerPortfolio id={id} />

      <h3>Statement</h3>
      <PeriodFields from={from} to={to} onFrom={toPeriod(setFrom)} onTo={toPeriod(setTo)} />
      <EquityCurve id={id} period={period} />
      <Statement id={id} period={period} at={movementsAt} onAt={setMovementsAt} />

      <div className="two">
        <div>
          <h3>Trial balance</h3>
          <CustomerTrialBalance id={id} />
        </div>
        <div>
          <h3>Dividends</h3>
          <CustomerDividends id={id} period={period} />
        </div>
      </div>

      <h3>Orders</h3>
      <CustomerOrders id={id} period={period} at={ordersAt} onAt={setOrdersAt} />

      <IndiaViews id={id} />
    </>
  );
}

/** Who the customer is, what they hold in total, and how active they have been. */
function CustomerOverview({ id }: { id: string }) {
  const overview = useQuery({
    queryKey: ['customer', id, 'overview'],
    queryFn: () => unwrap(api.GET('/v1/customers/{customer_id}/overview', { params: { path: { customer_id: id } } })),
  });
  return (
    <Loaded query={overview}>
      {(o) => (
        <>
          <h2>
            {o.customer.customer_id} {o.customer.name ?? ''}
          </h2>
          <div className="cards" data-testid="customer-cards">
            <Card label="Cash (USD)">
              <Money value={o.summary.cash_total_usd} />
            </Card>
            <Card label="Securities at cost (USD)">
              <Money value={o.summary.securities_at_cost_usd} />
            </Card>
            <Card label="Total (USD)">
              <Money value={o.summary.total_usd} />
            </Card>
            <Card label="Transactions">
              <a href={href('transactions', '', { customer_id: id })}>{o.activity.transaction_count}</a>
            </Card>
            <Card label="Positions">{o.activity.position_count}</Card>
            <OpenVariances customerId={id} />
            <Card label="Active">
              {o.activity.first_txn_date ?? '—'} – {o.activity.last_txn_date ?? '—'}
            </Card>
          </div>
        </>
      )}
    </Loaded>
  );
}

function CustomerPortfolio({ id }: { id: string }) {
  const portfolio = useQuery({
    queryKey: ['customer', id, 'portfolio'],
    queryFn: () => unwrap(api.GET('/v1/customers/{customer_id}/portfolio', { params: { path: { customer_id: id } } })),
  });
  return (
    <Loaded query={portfolio}>
      {(p) => (
        <Table
          testId="portfolio"
          caption={
            p.prices ? `Prices: ${p.prices.upstream} as of ${p.prices.as_of}` : 'No price snapshot: at cost only'
          }
          columns={POSITION_COLUMNS}
          rows={p.items}
          rowKey={(row) => row.symbol}
          foot={<TotalsFoot span={2} totals={[p.totals.cost_usd, { empty: 2 }, p.totals.market_value_usd]} />}
        />
      )}
    </Loaded>
  );
}

/** The customer's total, cash and securities at cost, day by day over the period. */
function EquityCurve({ id, period }: { id: string; period: Period }) {
  const curve = useQuery({
    queryKey: ['customer', id, 'equity', period],
    queryFn: () =>
      unwrap(
        api.GET('/v1/customers/{customer_id}/equity_curve', { params: { path: { customer_id: id }, query: period } }),
      ),
  });
  const points = curve.data?.points;
  const days = useMemo(() => points?.map((p) => p.day) ?? [], [points]);
  const series = useMemo(
    () => [
      { label: 'Total (USD)', color: '#0969da', values: points?.map((p) => p.total_usd) ?? [] },
      { label: 'Cash (USD)', color: '#1a7f37', values: points?.map((p) => p.cash_usd) ?? [] },
      { label: 'Securities at cost (USD)', color: '#8250df', values: points?.map((p) => p.cost_basis_usd) ?? [] },
    ],
    [points],
  );
  return (
    <Loaded query={curve}>
      {() =>
        days.length > 0 ? (
          <DayChart title="Equity curve (USD)" days={days} series={series} />
        ) : (
          <p className="muted">No activity in the period.</p>
        )
      }
    </Loaded>
  );
}

/** The period's cash movements between its opening and closing balances, ROWS at a time from `at`. */
function Statement({ id, period, at, onAt }: { id: string; period: Period; at: number; onAt: (at: number) => void }) {
  const statement = useQuery({
    queryKey: ['customer', id, 'statement', period],
    queryFn: () =>
      unwrap(
        api.GET('/v1/customers/{customer_id}/statement', { params: { path: { customer_id: id }, query: period } }),
      ),
  });
  return (
    <>
      <Loaded query={statement}>
        {(s) => (
          <table data-testid="statement">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Type</th>
                <th scope="col">Account</th>
                <th scope="col">Symbol</th>
                <th scope="col">Memo</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row" colSpan={6}>
                  Opening balance
                </th>
                <td>
                  <Money value={s.opening_balance_usd} />
                </td>
              </tr>
              {s.movements.slice(at, at + ROWS).map((m) => (
                <StatementRow key={m.line_id} m={m} />
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={5}>
                  Closing balance (movements {s.movements_total_usd})
                </th>
                <td colSpan={2}>
                  <Money value={s.closing_balance_usd} />
                </td>
              </tr>
            </tfoot>
          </table>
        )}
      </Loaded>
      {(statement.data?.movements.length ?? 0) > ROWS ? (
        <Pager total={statement.data!.movements.length} limit={ROWS} offset={at} onOffset={onAt} />
      ) : null}
    </>
  );
}

function StatementRow({ m }: { m: Schemas['CustomerStatement']['movements'][number] }) {
  return (
    <tr>
      <td>
        <a href={href('transactions', m.txn_id)}>{m.txn_date}</a>
      </td>
      <td>{m.txn_type}</td>
      <td>{m.account_code}</td>
      <td>{m.symbol ?? ''}</td>
      <td>{m.memo ?? ''}</td>
      <td>
        <Money value={m.amount_usd} />
      </td>
      <td>
        <Money value={m.balance_usd} />
      </td>
    </tr>
  );
}

function CustomerTrialBalance({ id }: { id: string }) {
  const trial = useQuery({
    queryKey: ['customer', id, 'trial'],
    queryFn: () =>
      unwrap(api.GET('/v1/customers/{customer_id}/trial_balance', { params: { path: { customer_id: id } } })),
  });
  return (
    <Loaded query={trial}>
      {(t) => <TrialBalanceTable accounts={t.accounts} totalDebit={t.total_debit} totalCredit={t.total_credit} />}
    </Loaded>
  );
}

function CustomerDividends({ id, period }: { id: string; period: Period }) {
  const dividends = useQuery({
    queryKey: ['customer', id, 'dividends', period],
    queryFn: () =>
      unwrap(
        api.GET('/v1/customers/{customer_id}/dividends', {
          params: { path: { customer_id: id }, query: { ...period, limit: 100 } },
        }),
      ),
  });
  return (
    <Loaded query={dividends}>
      {(d) => (
        <Table
          testId="dividends"
          caption={`Gross ${d.totals.gross_usd}, withheld ${d.totals.withheld_usd}, net ${d.totals.net_usd} USD`}
          columns={DIVIDEND_COLUMNS}
          rows={d.items}
          rowKey={(t) => t.txn_id}
        />
      )}
    </Loaded>
  );
}

/** The period's orders (buys and sells), ROWS at a time from `at`. */
function CustomerOrders({
  id,
  period,
  at,
  onAt,
}: {
  id: string;
  period: Period;
  at: number;
  onAt: (at: number) => void;
}) {
  const orders = useQuery({
    queryKey: ['customer', id, 'orders', period],
    queryFn: () =>
      unwrap(
        api.GET('/v1/customers/{customer_id}/orders', {
          params: { path: { customer_id: id }, query: { ...period, limit: 100 } },
        }),
      ),
  });
  return (
    <Loaded query={orders}>
      {(o) => (
        <>
          <Table testId="orders" columns={ORDER_COLUMNS} rows={o.items.slice(at, at + ROWS)} rowKey={(t) => t.txn_id} />
          {o.items.length > ROWS ? <Pager total={o.items.length} limit={ROWS} offset={at} onOffset={onAt} /> : null}
        </>
      )}
    </Loaded>
  );
}

export default function CustomersPage() {
  const { param, query } = useRoute();
  return (
    <>
      <h1>
        <a href={href('customers')}>Customers</a>
      </h1>
      {param === '' ? (
        <CustomerList q={query.get('q') ?? ''} offset={Number(query.get('offset') ?? 0)} />
      ) : (
        <Customer key={param} id={param} />
      )}
    </>
  );
}
