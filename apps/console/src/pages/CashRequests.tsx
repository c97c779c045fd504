import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import {
  FilteredList,
  filtersOf,
  offsetOf,
  type Column,
  type FilterField,
  type Filters as ListFilters,
} from '../components/List.js';
import { Confirm } from '../components/Confirm.js';
import { ErrorBox, Money, Status } from '../components/ui.js';
import { useSession } from '../session-context.js';
import { href, useRoute } from '../router.js';

type CashRequest = Schemas['CashRequest'];
type Action = 'confirm' | 'fail' | 'cancel';

const STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const satisfies readonly CashRequest['status'][];
const DIRECTIONS = ['deposit', 'withdrawal'] as const satisfies readonly CashRequest['direction'][];
const CURRENCIES = ['USD', 'AED'] as const satisfies readonly CashRequest['currency'][];
const FILTERS = ['status', 'direction', 'customer_id', 'from', 'to'] as const;
type Filters = ListFilters<(typeof FILTERS)[number] | 'offset'>;
const FILTER_FIELDS: FilterField<(typeof FILTERS)[number]>[] = [
  { name: 'status', label: 'Status', options: STATUSES },
  { name: 'direction', label: 'Direction', options: DIRECTIONS },
  { name: 'customer_id', label: 'Customer' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
];
const LIMIT = 50;

/** What each transition does, in the words the operator confirms (the API's: only a pending request moves). */
const ACTIONS: Record<Action, { verb: string; button: string; says: (r: CashRequest) => string }> = {
  confirm: {
    verb: 'Confirm',
    button: 'Post and mark completed',
    says: (r) =>
      `This posts the ${r.direction} of ${r.amount} ${r.currency}${r.currency === 'USD' ? '' : ` (${r.amount_usd} USD)`} for ${r.customer_id} today and marks the request completed.`,
  },
  fail: {
    verb: 'Fail',
    button: 'Mark failed',
    says: (r) =>
      `This marks the ${r.direction} of ${r.amount} ${r.currency} for ${r.customer_id} failed: nothing is posted.`,
  },
  cancel: {
    verb: 'Cancel',
    button: 'Cancel the request',
    says: (r) =>
      `This cancels the ${r.direction} of ${r.amount} ${r.currency} for ${r.customer_id}: nothing is posted.`,
  },
};

function NewCashRequest() {
  const client = useQueryClient();
  const empty = { customer_id: '', direction: 'deposit', amount: '', currency: 'USD', reference: '', memo: '' };
  const [draft, setDraft] = useState(empty);
  // One key per request meant: a retry after a lost answer cannot make a second request.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/cash-requests', {
          params: { header: { 'Idempotency-Key': key } },
          body: {
            customer_id: draft.customer_id.trim(),
            direction: draft.direction as CashRequest['direction'],
            amount: draft.amount.trim(),
            currency: draft.currency as CashRequest['currency'],
            reference: draft.reference.trim() || null,
            memo: draft.memo.trim() || null,
          },
        }),
      ),
    onSuccess: () => {
      setDraft(empty);
      setKey(crypto.randomUUID());
      void client.invalidateQueries({ queryKey: ['cash-requests'] });
    },
  });
  const field = (name: keyof typeof empty, label: string, required = false) => (
    <label>
      {label}
      <input value={draft[name]} required={required} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
    </label>
  );
  const select = (name: keyof typeof empty, label: string, options: readonly string[]) => (
    <label>
      {label}
      <select value={draft[name]} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
  return (
    <details className="panel">
      <summary>New cash request</summary>
      <form
        className="filters"
        aria-label="New cash request"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        {field('customer_id', 'Customer', true)}
        {select('direction', 'Direction', DIRECTIONS)}
        {field('amount', 'Amount', true)}
        {select('currency', 'Currency', CURRENCIES)}
        {field('reference', 'Reference')}
        {field('memo', 'Memo')}
        <button type="submit" disabled={create.isPending}>
          Make the request
        </button>
      </form>
      <p className="muted">Nothing is posted until the request is confirmed.</p>
      <ErrorBox error={create.error} />
    </details>
  );
}

/** The confirmation of one transition, naming what it does; Escape goes back. */
function Transition({ request, action, onDone }: { request: CashRequest; action: Action; onDone: () => void }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const { verb, button, says } = ACTIONS[action];
  const path = { cash_request_id: request.cash_request_id };
  const move = useMutation({
    mutationFn: () =>
      action === 'fail'
        ? unwrap(
            api.POST('/v1/cash-requests/{cash_request_id}/fail', {
              params: { path },
              body: { reason: reason.trim() || null },
            }),
          )
        : unwrap(api.POST(`/v1/cash-requests/{cash_request_id}/${action}`, { params: { path }, body: {} })),
    onSuccess: () => {
      void client.invalidateQueries();
      onDone();
    },
  });
  return (
    <Confirm
      label={`${verb} cash request`}
      says={says(request)}
      button={button}
      danger={action === 'confirm'}
      pending={move.isPending}
      error={move.error}
      onConfirm={() => move.mutate()}
      onBack={onDone}
    >
      {action === 'fail' ? (
        <label>
          Reason (optional) <input autoFocus value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      ) : undefined}
    </Confirm>
  );
}

/** The list's columns; for the admin, a pending request's transitions (`onAct` asks to confirm one). */
function cashRequestColumns(admin: boolean, onAct: (request: CashRequest, action: Action) => void) {
  const columns: Column<CashRequest>[] = [
    { header: 'Made', cell: (r) => r.created_at.slice(0, 16).replace('T', ' ') },
    { header: 'Customer', cell: (r) => <a href={href('customers', r.customer_id)}>{r.customer_id}</a> },
    { header: 'Direction', cell: (r) => r.direction },
    {
      header: 'Amount',
      num: 'header',
      cell: (r) => (
        <>
          <Money value={r.amount} /> {r.currency}
        </>
      ),
    },
    { header: 'USD', money: (r) => r.amount_usd },
    {
      header: 'Status',
      cell: (r) => (
        <>
          <Status value={r.status} />
          {r.failure_reason ? <span className="muted"> {r.failure_reason}</span> : null}
        </>
      ),
    },
    { header: 'Reference', cell: (r) => r.reference ?? '' },
    { header: 'Posted', cell: (r) => (r.txn_id ? <a href={href('transactions', r.txn_id)}>transaction</a> : '') },
  ];
  if (admin)
    columns.push({
      header: 'Actions',
      className: 'actions',
      cell: (r) =>
        r.status === 'pending'
          ? (Object.keys(ACTIONS) as Action[]).map((action) => (
              <button
                key={action}
                type="button"
                aria-label={`${ACTIONS[action].verb} the ${r.direction} of ${r.amount} ${r.currency} for ${r.customer_id}`}
                onClick={() => onAct(r, action)}
              >
                {ACTIONS[action].verb}…
              </button>
            ))
          : null,
    });
  return columns;
}

function CashRequestList({ filters }: { filters: Filters }) {
  const { admin } = useSession();
  const [acting, setActing] = useState<{ request: CashRequest; action: Action } | null>(null);
  const list = useQuery({
    queryKey: ['cash-requests', filters],
    queryFn: () =>
      unwrap(
        api.GET('/v1/cash-requests', {
          params: {
            query: {
              status: (filters.status || undefined) as CashRequest['status'] | undefined,
              direction: (filters.direction || undefined) as CashRequest['direction'] | undefined,
              customer_id: filters.customer_id || undefined,
              from: filters.from || undefined,
              to: filters.to || undefined,
              limit: LIMIT,
              offset: offsetOf(filters),
            },
          },
        }),
      ),
  });
  return (
    <FilteredList
      page="cash-requests"
      filters={filters}
      fields={FILTER_FIELDS}
      between={acting ? <Transition {...acting} onDone={() => setActing(null)} /> : null}
      query={list}
      testId="cash-requests"
      columns={cashRequestColumns(admin, (request, action) => setActing({ request, action }))}
      rowKey={(r) => r.cash_request_id}
      rowTestId={(r) => `cash-request-${r.cash_request_id}`}
      limit={LIMIT}
    />
  );
}

export default function CashRequestsPage() {
  const { query } = useRoute();
  const { admin } = useSession();
  const filters = filtersOf(query, [...FILTERS, 'offset']);
  return (
    <>
      <h1>Cash requests</h1>
      {admin ? <NewCashRequest /> : <p className="muted">Making and moving cash requests needs the admin token.</p>}
      <CashRequestList key={query.toString()} filters={filters} />
    </>
  );
}
