import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, download, unwrap, type Schemas } from '../api/client.js';
import { ENUMS } from '../api/enums.js';
import {
  FilterForm,
  filtersOf,
  ListTable,
  Table,
  type Column,
  type FilterField,
  type Filters as ListFilters,
} from '../components/List.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorBox, Loaded, Money } from '../components/ui.js';
import { useSession } from '../session-context.js';
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
type Filters = ListFilters<(typeof FILTERS)[number]>;
const FILTER_FIELDS: FilterField<(typeof FILTERS)[number]>[] = [
  { name: 'customer_id', label: 'Customer' },
  { name: 'txn_type', label: 'Type', options: ENUMS.TxnType },
  { name: 'source', label: 'Source', options: ENUMS.Source },
  { name: 'category', label: 'Category' },
  { name: 'symbol', label: 'Symbol' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
  { name: 'amount_min', label: 'Min USD' },
  { name: 'amount_max', label: 'Max USD' },
  { name: 'sort', label: 'Sort', options: ['txn_date', 'posted_at', 'amount_usd'] },
  { name: 'order', label: 'Order', options: ['desc', 'asc'] },
  { name: 'limit', label: 'Per page', options: ['50', '100', '500'] },
];

const today = () => new Date().toISOString().slice(0, 10);

type JournalLine = Pick<
  Schemas['PreviewLine'],
  'account_code' | 'account_name' | 'debit' | 'credit' | 'posting_kind' | 'customer_id'
>;

const JOURNAL_LINE_COLUMNS: Column<JournalLine>[] = [
  { header: 'Account', cell: (l) => `${l.account_code} ${l.account_name}` },
  { header: 'Kind', cell: (l) => l.posting_kind ?? '' },
  { header: 'Customer', cell: (l) => l.customer_id ?? '' },
  { header: 'Debit', money: (l) => l.debit },
  { header: 'Credit', money: (l) => l.credit },
];

function JournalLines({ lines }: { lines: JournalLine[] }) {
  return <Table testId="journal-lines" columns={JOURNAL_LINE_COLUMNS} rows={lines} rowKey={(_, i) => i} />;
}

const TRANSACTION_COLUMNS: Column<Schemas['TransactionSummary']>[] = [
  { header: 'Date', cell: (t) => <a href={href('transactions', t.txn_id)}>{t.txn_date}</a> },
  { header: 'Type', cell: (t) => `${t.txn_type}${t.reversed_by_txn_id ? ' (reversed)' : ''}` },
  { header: 'Source', cell: (t) => t.source },
  {
    header: 'Customer',
    cell: (t) => (t.customer_id ? <a href={href('customers', t.customer_id)}>{t.customer_id}</a> : ''),
  },
  { header: 'Symbol', cell: (t) => t.symbol ?? '' },
  { header: 'Quantity', num: true, cell: (t) => t.quantity ?? '' },
  { header: 'USD', money: (t) => t.amount_usd },
  { header: 'Memo', cell: (t) => t.memo ?? '' },
];

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
      <FilterForm
        label="Filters"
        fields={FILTER_FIELDS}
        draft={draft}
        onDraft={setDraft}
        onApply={() => apply({ ...draft, offset: '0' })}
      >
        <button type="button" onClick={exportCsv} title="Journal lines of the period (from/to) as CSV">
          CSV (journal export)
        </button>
      </FilterForm>
      <ErrorBox error={csvError} />
      <ListTable
        query={list}
        testId="transactions"
        columns={TRANSACTION_COLUMNS}
        rowKey={(t) => t.txn_id}
        limit={limit}
        offset={offset}
        onOffset={(o) => apply({ ...filters, offset: String(o) })}
      />
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

/** The entry as the API takes it: empty fields absent (null). */
const entryRequestOf = (entry: typeof BLANK_ENTRY): Schemas['EntryRequest'] => ({
  txn_type: entry.txn_type,
  source: 'manual',
  txn_date: entry.txn_date,
  amount_usd: entry.amount_usd,
  customer_id: entry.customer_id || null,
  symbol: entry.symbol || null,
  quantity: entry.quantity || null,
  memo: entry.memo || null,
});

/** The lines `body` would post: the preview follows the form, a moment after typing stops. */
function usePreview(body: Schemas['EntryRequest']) {
  const [previewed, setPreviewed] = useState(body);
  useEffect(() => {
    const timer = setTimeout(() => setPreviewed(body), 300);
    return () => clearTimeout(timer);
  }, [JSON.stringify(body)]);
  return useQuery({
    queryKey: ['preview', previewed],
    queryFn: () => unwrap(api.POST('/v1/transactions/preview', { body: previewed })),
    enabled: previewed.amount_usd !== '',
    retry: false,
  });
}

/** Manual entry (admin): the lines it would post, previewed as it is typed, then posted. */
function ManualEntry() {
  const [entry, setEntry] = useState(BLANK_ENTRY);
  const body = entryRequestOf(entry);
  const preview = usePreview(body);
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

type Transaction = Schemas['Transaction'];

/** Reversing the transaction (admin), and whether it is being confirmed. */
function useReversal(txnId: string) {
  const client = useQueryClient();
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
  return { confirming, setConfirming, reverse };
}

function TransactionDetail({ txnId }: { txnId: string }) {
  const { admin } = useSession();
  const txn = useQuery({
    queryKey: ['transaction', txnId],
    queryFn: () => unwrap(api.GET('/v1/transactions/{txn_id}', { params: { path: { txn_id: txnId } } })),
  });
  const reversal = useReversal(txnId);
  return (
    <Loaded query={txn}>
      {(t) => (
        <>
          <TransactionFacts t={t} />
          <JournalLines lines={t.journal_lines} />
          {admin && !t.reversed_by_txn_id && t.txn_type !== 'reversal' ? <Reverse t={t} reversal={reversal} /> : null}
        </>
      )}
    </Loaded>
  );
}

/** What the transaction is, where it came from, and what reverses what. */
function TransactionFacts({ t }: { t: Transaction }) {
  return (
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
    </>
  );
}

/** The reversal, confirmed before it posts. */
function Reverse({ t, reversal }: { t: Transaction; reversal: ReturnType<typeof useReversal> }) {
  const { confirming, setConfirming, reverse } = reversal;
  return confirming ? (
    <Confirm
      label="Confirm reversal"
      says={`This posts a reversal of the ${t.txn_type} of ${t.amount_usd} USD${t.customer_id ? ` for ${t.customer_id}` : ''}, dated today: the ${t.journal_lines.length} lines above with debits and credits swapped.`}
      button="Post the reversal"
      danger
      pending={reverse.isPending}
      error={reverse.error}
      onConfirm={() => reverse.mutate()}
      onBack={() => setConfirming(false)}
    />
  ) : (
    <button type="button" onClick={() => setConfirming(true)}>
      Reverse…
    </button>
  );
}

export default function TransactionsPage() {
  const { param, query } = useRoute();
  const { admin } = useSession();
  const filters = filtersOf(query, FILTERS);
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
