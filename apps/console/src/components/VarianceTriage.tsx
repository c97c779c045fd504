import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import { href } from '../router.js';
import { useSession } from '../session-context.js';
import { Confirm } from './Confirm.js';
import { Table, type Column } from './List.js';
import { Card, Loaded, Status } from './ui.js';

type Detail = Schemas['TrackedVarianceDetail'];
type Acting = 'assign' | 'resolve' | null;

/** Every query a triage action changes: the variance, the lists, the counts, the runs that show states. */
const TRIAGE_KEYS = [['variance'], ['variances'], ['variance-counts'], ['reconciliation/run']];

const HISTORY: Column<Detail['history'][number]>[] = [
  { header: 'When', cell: (e) => e.at.slice(0, 19).replace('T', ' ') },
  { header: 'What', cell: (e) => e.action },
  { header: 'State after', cell: (e) => <Status value={e.state} /> },
  { header: 'Assignee', cell: (e) => e.assignee ?? '' },
  { header: 'Note', cell: (e) => e.note ?? '' },
  {
    header: 'Run',
    cell: (e) => (e.run_id ? <a href={href('reconciliation', e.run_id)}>{e.run_id.slice(0, 8)}</a> : ''),
  },
  { header: 'By', cell: (e) => <code>{e.actor}</code> },
];

const RUNS: Column<Detail['runs'][number]>[] = [
  { header: 'Run', cell: (r) => <a href={href('reconciliation', r.run_id)}>{r.started_at}</a> },
  { header: 'Status', cell: (r) => <Status value={r.status} /> },
  { header: 'Expected', num: true, cell: (r) => r.expected ?? '—' },
  { header: 'Actual', num: true, cell: (r) => r.actual ?? '—' },
  { header: 'Difference', num: true, cell: (r) => r.difference ?? '—' },
];

/** What the variance names, in words. */
const named = (v: Detail) =>
  [
    v.check_name,
    v.kind,
    v.customer_id && `customer ${v.customer_id}`,
    v.account_code && `account ${v.account_code}`,
    v.symbol,
    v.txn_id && `transaction ${v.txn_id.slice(0, 8)}`,
    v.source_txn_id && `record ${v.source_txn_id}`,
  ]
    .filter(Boolean)
    .join(' · ');

/**
 * The triage state of one variance (the action being confirmed and its fields) and its actions;
 * every action, once done, refreshes what it changed and clears the note.
 */
function useTriage(id: number) {
  const client = useQueryClient();
  const [acting, setActing] = useState<Acting>(null);
  const [assignee, setAssignee] = useState('');
  const [note, setNote] = useState('');
  const path = { variance_id: id };
  const done = () => {
    for (const queryKey of TRIAGE_KEYS) void client.invalidateQueries({ queryKey });
    setActing(null);
    setNote('');
  };
  const withNote = () => (note.trim() === '' ? {} : { note: note.trim() });
  const acknowledge = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/reconciliation/variances/{variance_id}/acknowledge', { params: { path }, body: withNote() }),
      ),
    onSuccess: done,
  });
  const assign = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/reconciliation/variances/{variance_id}/assign', {
          params: { path },
          body: { assignee: assignee.trim(), ...withNote() },
        }),
      ),
    onSuccess: done,
  });
  const addNote = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/reconciliation/variances/{variance_id}/note', { params: { path }, body: { note: note.trim() } }),
      ),
    onSuccess: done,
  });
  const resolve = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/reconciliation/variances/{variance_id}/resolve', {
          params: { path },
          body: { note: note.trim() },
        }),
      ),
    onSuccess: done,
  });
  return { acting, setActing, assignee, setAssignee, note, setNote, acknowledge, assign, addNote, resolve };
}

type Triage = ReturnType<typeof useTriage>;

function NoteField({ t, label, autoFocus = false }: { t: Triage; label: string; autoFocus?: boolean }) {
  return (
    <label>
      {label}{' '}
      <input autoFocus={autoFocus} value={t.note} maxLength={2000} onChange={(e) => t.setNote(e.target.value)} />
    </label>
  );
}

/** The variance's state, when runs found it, its last figures and its customer. */
function VarianceFacts({ v }: { v: Detail }) {
  return (
    <dl className="facts" data-testid="variance-facts">
      <dt>State</dt>
      <dd data-testid="variance-state">
        <Status value={v.state} />
        {v.assignee ? ` assigned to ${v.assignee}` : ''} ({v.state_changed_by}, {v.state_changed_at})
      </dd>
      <dt>Found</dt>
      <dd>
        {v.times_seen} run{v.times_seen === 1 ? '' : 's'}, first{' '}
        <a href={href('reconciliation', v.first_seen_run_id)}>{v.first_seen_at}</a>, last{' '}
        <a href={href('reconciliation', v.last_seen_run_id)}>{v.last_seen_at}</a>
        {v.present ? '' : ' — not found by the latest run of its check'}
      </dd>
      <dt>Last figures</dt>
      <dd>
        expected {v.expected ?? '—'}, actual {v.actual ?? '—'}, difference {v.difference ?? '—'}
      </dd>
      {v.customer_id ? (
        <>
          <dt>Customer</dt>
          <dd>
            <a href={href('customers', v.customer_id)}>{v.customer_id}</a>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function AssignConfirm({ v, t }: { v: Detail; t: Triage }) {
  return (
    <Confirm
      label="Assign variance"
      says={`This assigns variance #${v.variance_id} to the person you name, on its history with your name.`}
      button="Assign"
      disabled={t.assignee.trim() === ''}
      pending={t.assign.isPending}
      error={t.assign.error}
      onConfirm={() => t.assign.mutate()}
      onBack={() => t.setActing(null)}
    >
      <label>
        Assign to (required){' '}
        <input autoFocus required value={t.assignee} maxLength={200} onChange={(e) => t.setAssignee(e.target.value)} />
      </label>{' '}
      <NoteField t={t} label="Note" />
    </Confirm>
  );
}

function ResolveConfirm({ v, t }: { v: Detail; t: Triage }) {
  return (
    <Confirm
      label="Resolve variance"
      says={`This marks variance #${v.variance_id} resolved with your reason. It stays resolved while runs keep finding it as it is; if a run stops finding it and a later one finds it again, it reopens.`}
      button="Resolve"
      danger
      disabled={t.note.trim() === ''}
      pending={t.resolve.isPending}
      error={t.resolve.error}
      onConfirm={() => t.resolve.mutate()}
      onBack={() => t.setActing(null)}
    >
      <NoteField t={t} label="Why it is resolved (required)" autoFocus />
    </Confirm>
  );
}

/** The actions taken at once (acknowledge, note) and the buttons opening those confirmed first. */
function TriageForm({ v, t }: { v: Detail; t: Triage }) {
  return (
    <form
      className="filters"
      aria-label="Triage"
      onSubmit={(e) => {
        e.preventDefault();
        if (t.note.trim() !== '') t.addNote.mutate();
      }}
    >
      {v.state === 'open' ? (
        <button type="button" disabled={t.acknowledge.isPending} onClick={() => t.acknowledge.mutate()}>
          Acknowledge
        </button>
      ) : null}
      {v.state !== 'resolved' ? (
        <>
          <button type="button" onClick={() => t.setActing('assign')}>
            Assign…
          </button>
          <button type="button" onClick={() => t.setActing('resolve')}>
            Resolve…
          </button>
        </>
      ) : null}
      <NoteField t={t} label="Note" />
      <button type="submit" disabled={t.note.trim() === '' || t.addNote.isPending}>
        Add note
      </button>
      {[t.acknowledge.error, t.addNote.error].map((error, i) =>
        error ? (
          <span key={i} className="error" role="alert">
            {error instanceof Error ? error.message : String(error)}
          </span>
        ) : null,
      )}
    </form>
  );
}

/** What the session may do with the variance now: nothing without the admin token. */
function TriageActions({ v, t }: { v: Detail; t: Triage }) {
  const { admin } = useSession();
  if (!admin) return <p className="muted">Acknowledging, assigning, noting and resolving need the admin token.</p>;
  if (t.acting === 'assign') return <AssignConfirm v={v} t={t} />;
  if (t.acting === 'resolve') return <ResolveConfirm v={v} t={t} />;
  return <TriageForm v={v} t={t} />;
}

/**
 * One variance across runs: what it names, its state, its history and the runs that found it;
 * for the admin token, acknowledge, assign, note and resolve (assigning and resolving after a
 * confirmation saying what follows). Shown on its own page and under a run's variances.
 */
export function VarianceTriage({ id }: { id: number }) {
  // The triage state lives above `Loaded`, so a half-typed note outlives a refetch that fails.
  const triage = useTriage(id);
  const variance = useQuery({
    queryKey: ['variance', id],
    queryFn: () =>
      unwrap(api.GET('/v1/reconciliation/variances/{variance_id}', { params: { path: { variance_id: id } } })),
  });
  return (
    <Loaded query={variance}>
      {(v) => (
        <section aria-label={`Variance #${v.variance_id}`} data-testid="variance-triage">
          <h2>
            Variance #{v.variance_id}: {named(v)}
          </h2>
          <VarianceFacts v={v} />
          <TriageActions v={v} t={triage} />
          <h3>History</h3>
          <Table testId="variance-history" columns={HISTORY} rows={v.history} rowKey={(e) => e.event_id} />
          <h3>Runs that found it (latest {v.runs.length})</h3>
          <Table testId="variance-runs" columns={RUNS} rows={v.runs} rowKey={(r) => r.run_id} />
        </section>
      )}
    </Loaded>
  );
}

/**
 * The unresolved variances (of one customer), linked to their list: the Firm page's first screen
 * and a customer's page.
 */
export function OpenVariances({ customerId }: { customerId?: string }) {
  const counts = useQuery({
    queryKey: ['variance-counts', customerId ?? null],
    queryFn: () =>
      unwrap(api.GET('/v1/reconciliation/variance-counts', { params: { query: { customer_id: customerId } } })),
  });
  const c = counts.data;
  return (
    <Card label="Open variances">
      {c ? (
        <a href={href('variances', '', { state: 'unresolved', customer_id: customerId })} data-testid="open-variances">
          {c.unresolved}
          {c.unresolved > 0 ? (
            <small>
              {' '}
              ({c.by_state.open} new, {c.by_state.acknowledged} acknowledged, {c.by_state.assigned} assigned)
            </small>
          ) : null}
        </a>
      ) : (
        '…'
      )}
    </Card>
  );
}
