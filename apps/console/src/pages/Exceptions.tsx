import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { ENUMS } from '../api/enums.js';
import { resolveSchema, useApiDocument, type OpenApiDocument } from '../api/document.js';
import { Confirm } from '../components/Confirm.js';
import { FilteredList, filtersOf, offsetOf, type Column, type FilterField, type Filters } from '../components/List.js';
import { Loaded, Status } from '../components/ui.js';
import { href, useRoute } from '../router.js';
import { useSession } from '../session-context.js';
import { startJob } from '../api/jobs.js';

type Exception = Schemas['Exception'];
const STATES = ['open', 'resolved', 'dismissed'] as const satisfies readonly Exception['state'][];
const FILTERS = ['state', 'upstream', 'reason', 'customer_id', 'from', 'to'] as const;
const FILTER_FIELDS: FilterField<(typeof FILTERS)[number]>[] = [
  { name: 'state', label: 'State', options: STATES },
  { name: 'upstream', label: 'Upstream', options: ['usbroker', 'remit', 'uaefeed'] },
  { name: 'reason', label: 'Reason code', options: ENUMS.RecordReasonCode },
  { name: 'customer_id', label: 'Customer' },
  { name: 'from', label: 'First seen from', type: 'date' },
  { name: 'to', label: 'First seen to', type: 'date' },
];
const LIMIT = 50;

const COLUMNS: Column<Exception>[] = [
  {
    header: 'Exception',
    cell: (x) => <a href={href('exceptions', String(x.exception_id))}>#{x.exception_id}</a>,
  },
  { header: 'State', cell: (x) => <Status value={x.state} /> },
  { header: 'Upstream', cell: (x) => x.upstream },
  { header: 'Record', cell: (x) => <code>{x.record_key}</code> },
  {
    header: 'Customer',
    cell: (x) => (x.customer_id ? <a href={href('customers', x.customer_id)}>{x.customer_id}</a> : ''),
  },
  { header: 'Reason', cell: (x) => `${x.reason_code}: ${x.reason}` },
  { header: 'Seen', num: true, cell: (x) => x.times_seen },
  { header: 'Last seen', cell: (x) => x.last_seen_at.slice(0, 16).replace('T', ' ') },
];

function ExceptionList({ filters }: { filters: Filters<(typeof FILTERS)[number] | 'offset'> }) {
  const list = useQuery({
    queryKey: ['exceptions', filters],
    queryFn: () =>
      unwrap(
        api.GET('/v1/exceptions', {
          params: {
            query: {
              state: (filters.state || undefined) as Exception['state'] | undefined,
              upstream: filters.upstream || undefined,
              reason: (filters.reason || undefined) as Exception['reason_code'] | undefined,
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
      page="exceptions"
      filters={filters}
      fields={FILTER_FIELDS}
      query={list}
      testId="exceptions"
      columns={COLUMNS}
      rowKey={(x) => x.exception_id}
      rowTestId={(x) => `exception-${x.exception_id}`}
      empty="No exception under these filters."
      limit={LIMIT}
    />
  );
}

/** The job kind of the run that last saw it (`job:<kind>:<job_id>`), when a job saw it. */
const kindOf = (x: Exception) => /^job:([a-z0-9-]+):/.exec(x.job)?.[1] ?? null;

/** The body that runs that job again for the exception's customer only, when its schema takes `customer_ids`. */
function retryBody(document: OpenApiDocument, kind: string, x: Exception): Record<string, unknown> | null {
  const operation = document.paths[`/v1/jobs/${kind}`]?.post;
  if (!operation) return null;
  const schema = resolveSchema(document, operation.requestBody?.content['application/json']?.schema ?? {});
  return x.customer_id !== null && schema.properties?.customer_ids ? { customer_ids: [x.customer_id] } : {};
}

type Acting = 'dismiss' | 'retry' | null;

/** What an operator does to an exception (dismiss it with a reason, or run its job again), and which is being confirmed. */
function useExceptionActions(id: number) {
  const client = useQueryClient();
  const [acting, setActing] = useState<Acting>(null);
  const [reason, setReason] = useState('');
  const dismiss = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/exceptions/{exception_id}/dismiss', {
          params: { path: { exception_id: id } },
          body: { reason: reason.trim() },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['exceptions'] });
      void client.invalidateQueries({ queryKey: ['exception', id] });
      setActing(null);
    },
  });
  const retry = useMutation({
    mutationFn: ({ kind, body }: { kind: string; body: Record<string, unknown> }) => startJob(`/v1/jobs/${kind}`, body),
    onSuccess: () => setActing(null),
  });
  return { acting, setActing, reason, setReason, dismiss, retry };
}

function ExceptionDetail({ id }: { id: number }) {
  const document = useApiDocument();
  const actions = useExceptionActions(id);
  const exception = useQuery({
    queryKey: ['exception', id],
    queryFn: () => unwrap(api.GET('/v1/exceptions/{exception_id}', { params: { path: { exception_id: id } } })),
  });
  return (
    <Loaded query={exception}>
      {(x) => {
        const kind = kindOf(x);
        const body = kind && document.data ? retryBody(document.data, kind, x) : null;
        return (
          <>
            <ExceptionFacts x={x} />
            <ExceptionActions x={x} retryWith={kind && body ? { kind, body } : null} actions={actions} />
          </>
        );
      }}
    </Loaded>
  );
}

/** What the exception is: its record, why it was not posted, who has seen it and its state. */
function ExceptionFacts({ x }: { x: Exception }) {
  return (
    <>
      <h2>
        Exception #{x.exception_id}: {x.upstream} record <code>{x.record_key}</code>
      </h2>
      <dl className="facts" data-testid="exception-facts">
        <dt>State</dt>
        <dd>
          <Status value={x.state} />
          {x.state_reason ? ` ${x.state_reason}` : ''}
          {x.state_changed_by ? ` (${x.state_changed_by}, ${x.state_changed_at})` : ''}
        </dd>
        <dt>Customer</dt>
        <dd>{x.customer_id ? <a href={href('customers', x.customer_id)}>{x.customer_id}</a> : '—'}</dd>
        <dt>Reason</dt>
        <dd>
          <code>{x.reason_code}</code> {x.reason}
        </dd>
        <dt>Seen</dt>
        <dd>
          {x.times_seen} time{x.times_seen === 1 ? '' : 's'}, first {x.first_seen_at}, last {x.last_seen_at} by{' '}
          <code>{x.job}</code>
        </dd>
      </dl>
      <h3>The record as the run saw it</h3>
      <pre className="record" data-testid="exception-record">
        {JSON.stringify(x.record, null, 2)}
      </pre>
    </>
  );
}

/**
 * An open exception's actions, for the admin: post it again (the job that saw it, for its
 * customer when the job takes customers: `retryWith`) or dismiss it with a reason, each confirmed.
 */
function ExceptionActions({
  x,
  retryWith,
  actions,
}: {
  x: Exception;
  retryWith: { kind: string; body: Record<string, unknown> } | null;
  actions: ReturnType<typeof useExceptionActions>;
}) {
  const { admin } = useSession();
  const { acting, setActing, reason, setReason, dismiss, retry } = actions;
  const whom = x.customer_id ? ` for ${x.customer_id}` : '';
  return (
    <>
      {retry.data ? (
        <p role="status">
          Started {retry.data.kind}: <Status value={retry.data.status} />{' '}
          <a href={href('jobs', '', { kind: retry.data.kind })}>follow it on the jobs page</a>
        </p>
      ) : null}
      {!admin ? (
        <p className="muted">Posting again and dismissing need the admin token.</p>
      ) : acting === 'dismiss' ? (
        <Confirm
          label="Dismiss exception"
          says={`This marks exception #${x.exception_id} dismissed with your reason: nothing is posted, and a later run that still fails the record only counts it.`}
          button="Dismiss"
          danger
          disabled={reason.trim() === ''}
          pending={dismiss.isPending}
          error={dismiss.error}
          onConfirm={() => dismiss.mutate()}
          onBack={() => setActing(null)}
        >
          <label>
            Reason (required) <input autoFocus required value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
        </Confirm>
      ) : acting === 'retry' && retryWith ? (
        <Confirm
          label="Post the record again"
          says={`This starts ${retryWith.kind}${'customer_ids' in retryWith.body ? whom : ' (every customer)'}: it reads ${x.upstream} again and posts the record if the ledger takes it now, which resolves the exception.`}
          button={`Start ${retryWith.kind}`}
          pending={retry.isPending}
          error={retry.error}
          onConfirm={() => retry.mutate(retryWith)}
          onBack={() => setActing(null)}
        />
      ) : x.state === 'open' ? (
        <p>
          {retryWith ? (
            <button type="button" onClick={() => setActing('retry')}>
              Post it again…
            </button>
          ) : null}{' '}
          <button type="button" onClick={() => setActing('dismiss')}>
            Dismiss…
          </button>
        </p>
      ) : null}
    </>
  );
}

export default function ExceptionsPage() {
  const { param, query } = useRoute();
  return (
    <>
      <h1>
        <a href={href('exceptions')}>Exceptions</a>
      </h1>
      {param !== '' ? (
        <ExceptionDetail id={Number(param)} />
      ) : (
        <>
          <p className="muted">
            Upstream records a sync could not post, until a later run posts them or an operator dismisses them.
          </p>
          <ExceptionList key={query.toString()} filters={filtersOf(query, [...FILTERS, 'offset'])} />
        </>
      )}
    </>
  );
}
