import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, download, unwrap, type Schemas } from '../api/client.js';
import { ENUMS } from '../api/enums.js';
import { ErrorBox, Loaded, Money, Pager } from '../components/ui.js';
import { useSession } from '../App.js';
import { href, navigate, useRoute } from '../router.js';

/** The list's filters, kept in the route's query so a filtered list can be linked to. */
const FILTERS = [
  'customer_id',
  'txn_type',
  'source',
  'category',
  'symbol',
  'from',
  'to',
  'amount_min',
  'amount_max',
  'sort',
  'order',
  'limit',
  'offset',
] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const today = () => new Date().toISOString().slice(0, 10);

function JournalLines({
  lines,
}: {
  lines: Pick<
    Schemas['PreviewLine'],
    'account_code' | 'account_name' | 'debit' | 'credit' | 'posting_kind' | 'customer_id'
  >[];
}) {
  return (
    <table data-testid="journal-lines">
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Kind</th>
          <th scope="col">Customer</th>
          <th scope="col" className="num">
            Debit
          </th>
          <th scope="col" className="num">
            Credit
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i}>
            <td>
              {l.account_code} {l.account_name}
            </td>
            <td>{l.posting_kind ?? ''}</td>
            <td>{l.customer_id ?? ''}</td>
            <td>
              <Money value={l.debit} />
            </td>
            <td>
              <Money value={l.credit} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TransactionList({ filters }: { filters: Filters }) {
  const [draft, setDraft] = useState<Filters>(filters);
  const applied = JSON.stringify(filters);
  useEffect(() => setDraft(JSON.parse(applied) as Filters), [applied]);
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')) as Filters;
  const limit = Number(query.limit ?? 50);
  const offset = Number(query.offset ?? 0);
  const list = useQuery({
    queryKey: ['transactions', query],
    queryFn: () =>
      unwrap(
        api.GET('/v1/transactions', {
          params: {
            query: {
              ...query,
              txn_type: query.txn_type as Schemas['TxnType'] | undefined,
              source: query.source as Schemas['Source'] | undefined,
              sort: query.sort as 'txn_date' | undefined,
              order: query.order as 'asc' | undefined,
              limit,
              offset,
            },
          },
        }),
      ),
  });
  const [csvError, setCsvError] = useState<unknown>(null);
  const apply = (next: Filters) => navigate(href('transactions', '', next));
  const field = (name: keyof Filters, label: string, type = 'text') => (
    <label>
      {label}{' '}
      <input type={type} value={draft[name] ?? ''} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
    </label>
  );
  const select = (name: keyof Filters, label: string, options: readonly string[]) => (
    <label>
      {label}{' '}
      <select value={draft[name] ?? ''} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
  const exportCsv = () => {
    setCsvError(null);
    const search = new URLSearchParams({
      format: 'csv',
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
    });
    download(`/v1/journal/export?${search}`, `journal-${query.from ?? 'start'}-${query.to ?? 'now'}.csv`).catch(
      setCsvError,
    );
  };

  return (
    <>
      <form
        className="filters"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          apply({ ...draft, offset: '0' });
        }}
      >
        {field('customer_id', 'Customer')}
        {select('txn_type', 'Type', ENUMS.TxnType)}
        {select('source', 'Source', ENUMS.Source)}
        {field('category', 'Category')}
        {field('symbol', 'Symbol')}
        {field('from', 'From', 'date')}
        {field('to', 'To', 'date')}
        {field('amount_min', 'Min USD')}
        {field('amount_max', 'Max USD')}
        {select('sort', 'Sort', ['txn_date', 'posted_at', 'amount_usd'])}
        {select('order', 'Order', ['desc', 'asc'])}
        {select('limit', 'Per page', ['50', '100', '500'])}
        <button type="submit">Apply</button>
        <button type="button" onClick={exportCsv} title="Journal lines of the period (from/to) as CSV">
          CSV (journal export)
        </button>
      </form>
      <ErrorBox error={csvError} />
      <Loaded query={list}>
        {(page) => (
          <>
            <table data-testid="transactions">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Type</th>
                  <th scope="col">Source</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Symbol</th>
                  <th scope="col" className="num">
                    Quantity
                  </th>
                  <th scope="col" className="num">
                    USD
                  </th>
                  <th scope="col">Memo</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((t) => (
                  <tr key={t.txn_id}>
                    <td>
                      <a href={href('transactions', t.txn_id)}>{t.txn_date}</a>
                    </td>
                    <td>
                      {t.txn_type}
                      {t.reversed_by_txn_id ? ' (reversed)' : ''}
                    </td>
                    <td>{t.source}</td>
                    <td>{t.customer_id ? <a href={href('customers', t.customer_id)}>{t.customer_id}</a> : ''}</td>
                    <td>{t.symbol ?? ''}</td>
                    <td className="num">{t.quantity ?? ''}</td>
                    <td>
                      <Money value={t.amount_usd} />
                    </td>
                    <td>{t.memo ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              total={page.total}
              limit={limit}
              offset={offset}
              onOffset={(o) => apply({ ...filters, offset: String(o) })}
            />
          </>
        )}
      </Loaded>
    </>
  );
}

const BLANK_ENTRY = {
  txn_type: 'deposit' as Schemas['EnterableTxnType'],
  customer_id: '',
  txn_date: today(),
  amount_usd: '',
  symbol: '',
  quantity: '',
  memo: '',
};

/** Manual entry (admin): the lines it would post, previewed as it is typed, then posted. */
function ManualEntry() {
  const [entry, setEntry] = useState(BLANK_ENTRY);
  const body: Schemas['EntryRequest'] = {
    txn_type: entry.txn_type,
    source: 'manual',
    txn_date: entry.txn_date,
    amount_usd: entry.amount_usd,
    customer_id: entry.customer_id || null,
    symbol: entry.symbol || null,
    quantity: entry.quantity || null,
    memo: entry.memo || null,
  };
  // The preview follows the form, a moment after typing stops.
  const [previewed, setPreviewed] = useState(body);
  useEffect(() => {
    const timer = setTimeout(() => setPreviewed(body), 300);
    return () => clearTimeout(timer);
  }, [JSON.stringify(body)]);
  const preview = useQuery({
    queryKey: ['preview', previewed],
    queryFn: () => unwrap(api.POST('/v1/transactions/preview', { body: previewed })),
    enabled: previewed.amount_usd !== '',
    retry: false,
  });
  const client = useQueryClient();
  const post = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/transactions', { body })),
    onSuccess: (posted) => {
      void client.invalidateQueries();
      setEntry(BLANK_ENTRY);
      navigate(href('transactions', posted.txn_id));
    },
  });
  const input = (name: keyof typeof entry, label: string, type = 'text') => (
    <label>
      {label} <input type={type} value={entry[name]} onChange={(e) => setEntry({ ...entry, [name]: e.target.value })} />
    </label>
  );
  return (
    <details className="panel">
      <summary>Manual entry</summary>
      <form
        className="filters"
        aria-label="Manual entry"
        onSubmit={(e) => {
          e.preventDefault();
          post.mutate();
        }}
      >
        <label>
          Type{' '}
          <select
            value={entry.txn_type}
            onChange={(e) => setEntry({ ...entry, txn_type: e.target.value as Schemas['EnterableTxnType'] })}
          >
            {ENUMS.EnterableTxnType.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        {input('customer_id', 'Customer')}
        {input('txn_date', 'Date', 'date')}
        {input('amount_usd', 'Amount USD')}
        {input('symbol', 'Symbol')}
        {input('quantity', 'Quantity')}
        {input('memo', 'Memo')}
        <button type="submit" disabled={!preview.data || post.isPending}>
          Post
        </button>
      </form>
      {preview.error ? (
        <ErrorBox error={preview.error} />
      ) : preview.data ? (
        <>
          <h3>Preview: the lines it will post</h3>
          <JournalLines lines={preview.data.journal_lines} />
        </>
      ) : (
        <p className="muted">Fill in the amount to see the lines it would post.</p>
      )}
      <ErrorBox error={post.error} />
    </details>
  );
}

function TransactionDetail({ txnId }: { txnId: string }) {
  const { admin } = useSession();
  const client = useQueryClient();
  const txn = useQuery({
    queryKey: ['transaction', txnId],
    queryFn: () => unwrap(api.GET('/v1/transactions/{txn_id}', { params: { path: { txn_id: txnId } } })),
  });
  const [confirming, setConfirming] = useState(false);
  const reverse = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/transactions/{txn_id}/reverse', {
          params: { path: { txn_id: txnId } },
          body: { memo: `reversal of ${txnId} from the console` },
        }),
      ),
    onSuccess: (reversal) => {
      void client.invalidateQueries();
      setConfirming(false);
      navigate(href('transactions', reversal.txn_id));
    },
  });
  return (
    <Loaded query={txn}>
      {(t) => (
        <>
          <h2>
            {t.txn_type} of <Money value={t.amount_usd} /> USD on {t.txn_date}
          </h2>
          <dl className="facts">
            <dt>Transaction</dt>
            <dd>{t.txn_id}</dd>
            <dt>Customer</dt>
            <dd>{t.customer_id ? <a href={href('customers', t.customer_id)}>{t.customer_id}</a> : '—'}</dd>
            <dt>Source</dt>
            <dd>
              {t.source} {t.source_txn_id}
            </dd>
            <dt>Category</dt>
            <dd>{t.category}</dd>
            {t.symbol ? (
              <>
                <dt>Security</dt>
                <dd>
                  {t.quantity} {t.symbol}
                </dd>
              </>
            ) : null}
            <dt>Posted at</dt>
            <dd>{t.posted_at}</dd>
            <dt>Memo</dt>
            <dd>{t.memo ?? '—'}</dd>
            {t.reverses_txn_id ? (
              <>
                <dt>Reverses</dt>
                <dd>
                  <a href={href('transactions', t.reverses_txn_id)}>{t.reverses_txn_id}</a>
                </dd>
              </>
            ) : null}
            {t.reversed_by_txn_id ? (
              <>
                <dt>Reversed by</dt>
                <dd>
                  <a href={href('transactions', t.reversed_by_txn_id)}>{t.reversed_by_txn_id}</a>
                </dd>
              </>
            ) : null}
          </dl>
          <JournalLines lines={t.journal_lines} />
          {admin && !t.reversed_by_txn_id && t.txn_type !== 'reversal' ? (
            confirming ? (
              <div
                className="panel confirm"
                role="dialog"
                aria-label="Confirm reversal"
                onKeyDown={(e) => {
                  if (e.key === 'Escape') setConfirming(false);
                }}
              >
                <p>
                  This posts a reversal of the {t.txn_type} of {t.amount_usd} USD
                  {t.customer_id ? ` for ${t.customer_id}` : ''}, dated today: the {t.journal_lines.length} lines above
                  with debits and credits swapped.
                </p>
                <button type="button" className="danger" onClick={() => reverse.mutate()} disabled={reverse.isPending}>
                  Post the reversal
                </button>{' '}
                {/* The focus starts on the way back, so a stray Enter never posts. */}
                <button type="button" autoFocus onClick={() => setConfirming(false)}>
                  Cancel
                </button>
                <ErrorBox error={reverse.error} />
              </div>
            ) : (
              <button type="button" onClick={() => setConfirming(true)}>
                Reverse…
              </button>
            )
          ) : null}
        </>
      )}
    </Loaded>
  );
}

export default function TransactionsPage() {
  const { param, query } = useRoute();
  const { admin } = useSession();
  const filters = Object.fromEntries(
    FILTERS.flatMap((name) => (query.has(name) ? [[name, query.get(name)!]] : [])),
  ) as Filters;
  return (
    <>
      <h1>
        <a href={href('transactions')}>Transactions</a>
      </h1>
      {param !== '' ? (
        <TransactionDetail txnId={param} />
      ) : (
        <>
          {admin ? <ManualEntry /> : null}
          <TransactionList filters={filters} />
        </>
      )}
    </>
  );
}
