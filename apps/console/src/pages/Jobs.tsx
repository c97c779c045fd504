import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useIndex } from '../api/book.js';
import { api, unwrap, type Schemas } from '../api/client.js';
import { useApiDocument, type FieldSchema } from '../api/document.js';
import { jobForms, startJob, type JobForm } from '../api/jobs.js';
import type { paths } from '../api/schema.js';
import { Confirm } from '../components/Confirm.js';
import { FilteredList, filtersOf, offsetOf, type Column } from '../components/List.js';
import { ErrorBox, Loaded, Status } from '../components/ui.js';
import { useSession } from '../session-context.js';
import { useRoute } from '../router.js';
import { readTokens } from '../session.js';

const typesOf = (field: FieldSchema) => (Array.isArray(field.type) ? field.type : [field.type]);

/** A form value as the schema wants it: a list from commas, numbers and booleans typed. */
function valueOf(field: FieldSchema, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  const types = typesOf(field);
  if (types.includes('array'))
    return raw
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  if (types.includes('integer') || types.includes('number')) return Number(raw);
  return raw;
}

function Field({
  name,
  field,
  value,
  onChange,
}: {
  name: string;
  field: FieldSchema;
  value: string | boolean | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const hint = useId();
  const types = typesOf(field);
  const describedBy = field.description ? hint : undefined;
  const description = field.description ? (
    <small id={hint} className="muted">
      {field.description}
    </small>
  ) : null;
  if (types.includes('boolean')) {
    return (
      <label className="check">
        <input
          type="checkbox"
          aria-describedby={describedBy}
          checked={value === undefined ? field.default === true : value === true}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        {name} {description}
      </label>
    );
  }
  const options = field.enum ?? field.items?.enum;
  if (options && !types.includes('array')) {
    return (
      <label>
        {name}
        <select aria-describedby={describedBy} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
          <option value="">(default)</option>
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        {description}
      </label>
    );
  }
  const type =
    field.format === 'date' ? 'date' : types.includes('integer') || types.includes('number') ? 'number' : 'text';
  return (
    <label>
      {name}
      <input
        type={type}
        aria-describedby={describedBy}
        value={String(value ?? '')}
        placeholder={types.includes('array') ? 'comma-separated' : ''}
        onChange={(e) => onChange(e.target.value)}
      />
      {description}
    </label>
  );
}

const seconds = (ms: number | null) => (ms === null ? '' : `${(ms / 1000).toFixed(1)} s`);
/** A result's value in a few words: a list by its length, an object by its own plain fields. */
function brief(value: unknown): string {
  if (Array.isArray(value)) return String(value.length);
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .filter(([, v]) => v === null || typeof v !== 'object')
      .map(([k, v]) => `${k} ${String(v)}`)
      .join(', ');
  return String(value);
}

/** A run's error, or its result summed up (each field in a few words), the whole of it behind a toggle. */
function outcome(run: { error: string | null; result: Record<string, unknown> | null }) {
  if (run.error !== null) return <span className="error-text">{run.error}</span>;
  if (run.result === null) return '';
  return (
    <div className="outcome">
      <ul className="inline-facts">
        {Object.entries(run.result).map(([key, value]) => (
          <li key={key}>
            {key.replace(/_/g, ' ')}: <strong>{brief(value)}</strong>
          </li>
        ))}
      </ul>
      <details>
        <summary>show raw</summary>
        <pre>{JSON.stringify(run.result, null, 2)}</pre>
      </details>
    </div>
  );
}

/** A job this tab started, polled until it is done or failed; its state is announced as it changes. */
function JobProgress({ jobId }: { jobId: string }) {
  const client = useQueryClient();
  const status = useQuery({
    queryKey: ['job', jobId],
    queryFn: async () => {
      const s = await unwrap(api.GET('/v1/jobs/status/{job_id}', { params: { path: { job_id: jobId } } }));
      // A finished job changes the book's list of runs.
      if (s.status !== 'running') void client.invalidateQueries({ queryKey: ['job-runs'] });
      return s;
    },
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
    staleTime: 0,
  });
  return (
    <Loaded query={status}>
      {(s) => {
        const { done = 0, total = null, unit = '' } = s.progress ?? {};
        const finished = s.status !== 'running';
        const counted = `${done}${total === null ? '' : ` of ${total}`} ${unit}`;
        return (
          <tr data-testid={`job-${s.kind}`}>
            <th scope="row">{s.kind}</th>
            <td>
              <progress
                max={total ?? 1}
                value={finished ? (total ?? 1) : total === null ? undefined : done}
                aria-label={`${s.kind} progress`}
              />{' '}
              <small>{counted}</small>
            </td>
            <td>
              {/* Announced to a screen reader when the job moves on, not at each progress tick. */}
              <span role="status">
                <Status value={s.status} />
              </span>
            </td>
            <td className="num">{seconds(s.duration_ms)}</td>
            <td>{outcome(s)}</td>
          </tr>
        );
      }}
    </Loaded>
  );
}

const RECENT_KEY = 'ledger-console-jobs';
/** The jobs this tab started, to follow their progress (the book's list below has every run). */
const readRecent = (): string[] => JSON.parse(sessionStorage.getItem(RECENT_KEY) ?? '[]') as string[];

type JobKind = NonNullable<NonNullable<paths['/v1/jobs']['get']['parameters']['query']>['kind']>;
const RUN_STATUSES = ['running', 'done', 'error'] as const satisfies readonly Schemas['JobRun']['status'][];
const RUN_FILTERS = ['kind', 'status', 'from', 'to', 'offset'] as const;
const RUNS_LIMIT = 50;

const RUN_COLUMNS: Column<Schemas['JobRun']>[] = [
  { header: 'Started', cell: (r) => r.started_at.slice(0, 19).replace('T', ' ') },
  { header: 'Job', cell: (r) => r.kind },
  { header: 'Status', cell: (r) => <Status value={r.status} /> },
  { header: 'Attempts', num: true, cell: (r) => r.attempts },
  { header: 'Duration', num: true, cell: (r) => seconds(r.duration_ms) },
  { header: 'Result', cell: outcome },
  { header: 'Job id', cell: (r) => <code>{r.job_id}</code> },
];

/**
 * A failed run started again: a new job of the same kind with the run's input. A run that ended
 * `error` is final in the book (job_runs), so this is the retry; the failed run stays as it was.
 */
function RunAgain({ run, onStarted }: { run: Schemas['JobRun']; onStarted: (jobId: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const again = useMutation({
    mutationFn: () => startJob(`/v1/jobs/${run.kind}`, (run.input ?? {}) as Record<string, unknown>),
    onSuccess: (status) => {
      setConfirming(false);
      onStarted(status.job_id);
    },
  });
  return confirming ? (
    <Confirm
      label={`Run ${run.kind} again`}
      says={`This starts ${run.kind} again, as a new job, with the input of the failed run ${run.job_id}: ${JSON.stringify(run.input ?? {})}. The failed run stays as it was.`}
      button={`Start ${run.kind}`}
      pending={again.isPending}
      error={again.error}
      onConfirm={() => again.mutate()}
      onBack={() => setConfirming(false)}
    />
  ) : (
    <button type="button" onClick={() => setConfirming(true)} aria-label={`Run again… ${run.kind} ${run.job_id}`}>
      Run again…
    </button>
  );
}

/**
 * Every job run of the book (GET /v1/jobs), filtered and paged; polled while any is running. With
 * the admin token a failed run can be run again (`onStarted` follows the new job).
 */
function JobRuns({ kinds, onStarted }: { kinds: string[]; onStarted?: (jobId: string) => void }) {
  const { query } = useRoute();
  const filters = filtersOf(query, RUN_FILTERS);
  const runs = useQuery({
    queryKey: ['job-runs', filters],
    queryFn: () =>
      unwrap(
        api.GET('/v1/jobs', {
          params: {
            query: {
              kind: (filters.kind || undefined) as JobKind | undefined,
              status: (filters.status || undefined) as Schemas['JobRun']['status'] | undefined,
              from: filters.from || undefined,
              to: filters.to || undefined,
              limit: RUNS_LIMIT,
              offset: offsetOf(filters),
            },
          },
        }),
      ),
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'running') ? 2_000 : false),
    staleTime: 0,
  });
  return (
    <FilteredList
      page="jobs"
      label="Job run filters"
      filters={filters}
      fields={[
        { name: 'kind', label: 'Job', options: kinds },
        { name: 'status', label: 'Status', options: RUN_STATUSES },
        { name: 'from', label: 'Started from', type: 'date' },
        { name: 'to', label: 'Started to', type: 'date' },
      ]}
      query={runs}
      testId="job-runs"
      columns={
        onStarted
          ? [
              ...RUN_COLUMNS,
              {
                header: 'Retry',
                cell: (r) => (r.status === 'error' ? <RunAgain run={r} onStarted={onStarted} /> : null),
              },
            ]
          : RUN_COLUMNS
      }
      rowKey={(r) => r.job_id}
      empty="No job has run on this book under these filters."
      limit={RUNS_LIMIT}
    />
  );
}

/**
 * The queues board (Bull Board, served by the api at /console/queues/) is a page of its own, which
 * a navigation reaches without token headers: its session cookie is set first, from this tab's
 * tokens (read-only without the admin token), then the tab goes there.
 */
function QueuesBoardLink() {
  const open = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/console/queues/session', { headers: { 'X-Ledger-Token': readTokens()?.ledger ?? '' } })),
    onSuccess: () => window.location.assign('/console/queues/'),
  });
  return (
    <p>
      <button type="button" onClick={() => open.mutate()} disabled={open.isPending}>
        Open the queues board
      </button>{' '}
      <span className="muted">
        Waiting, active, delayed and failed jobs per queue, their errors, remove (admin), schedules. A failed job is run
        again from the list of runs below.
      </span>
      <ErrorBox error={open.error} />
    </p>
  );
}

/** The job the admin is starting: its kind, the values of its form's fields, and the start (`onStarted` follows it). */
function useStartJob(forms: JobForm[], onStarted: (jobId: string) => void) {
  const [kind, setKind] = useState('');
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const start = useMutation({
    mutationFn: (job: JobForm) => {
      const body = Object.fromEntries(
        job.fields
          .filter(([name]) => values[name] !== undefined && values[name] !== '')
          .map(([name, field]) => [name, valueOf(field, values[name]!)]),
      );
      return startJob(job.path, body);
    },
    onSuccess: (status) => onStarted(status.job_id),
  });
  return { kind, setKind, values, setValues, form: forms.find((f) => f.kind === kind), start };
}

/** The form starting a job: its kind chosen, then its request body's fields (from the API document). */
function StartJobForm({ forms, job }: { forms: JobForm[]; job: ReturnType<typeof useStartJob> }) {
  const { kind, setKind, values, setValues, form, start } = job;
  return (
    <form
      className="panel job-form"
      aria-label="Start a job"
      onSubmit={(e) => {
        e.preventDefault();
        if (form) start.mutate(form);
      }}
    >
      <label>
        Job{' '}
        <select
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setValues({});
          }}
        >
          <option value="">choose…</option>
          {forms.map((f) => (
            <option key={f.kind} value={f.kind}>
              {f.kind}
            </option>
          ))}
        </select>
      </label>
      {form ? (
        <>
          <p className="muted">{form.summary}</p>
          {form.fields.map(([name, field]) => (
            <Field
              key={name}
              name={name}
              field={field}
              value={values[name]}
              onChange={(v) => setValues({ ...values, [name]: v })}
            />
          ))}
          <button type="submit" disabled={start.isPending}>
            Start {form.kind}
          </button>
        </>
      ) : null}
      <ErrorBox error={start.error} />
    </form>
  );
}

/** The jobs this tab started, newest first, each followed to its end. */
function StartedFromThisTab({ recent }: { recent: string[] }) {
  return (
    <>
      <h2>Started from this tab</h2>
      <table data-testid="jobs">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Progress</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {recent.map((id) => (
            <JobProgress key={id} jobId={id} />
          ))}
        </tbody>
      </table>
    </>
  );
}

export default function JobsPage() {
  const { admin } = useSession();
  const document = useApiDocument();
  const [recent, setRecent] = useState(readRecent);
  const book = useIndex().data?.book;
  const forms = document.data && book ? jobForms(document.data, book) : [];
  /** Puts a job this tab started first among the ones it follows. */
  const follow = (jobId: string) => {
    const next = [jobId, ...recent.filter((id) => id !== jobId)].slice(0, 20);
    sessionStorage.setItem(RECENT_KEY, JSON.stringify(next));
    setRecent(next);
  };
  const job = useStartJob(forms, follow);
  return (
    <>
      <h1>Jobs</h1>
      <QueuesBoardLink />
      {admin ? (
        <Loaded query={document}>{() => <StartJobForm forms={forms} job={job} />}</Loaded>
      ) : (
        <p className="muted">Starting a job needs the admin token.</p>
      )}
      {recent.length === 0 ? null : <StartedFromThisTab recent={recent} />}
      <h2>Job runs of the book</h2>
      <JobRuns kinds={forms.map((f) => f.kind)} onStarted={admin ? follow : undefined} />
    </>
  );
}
