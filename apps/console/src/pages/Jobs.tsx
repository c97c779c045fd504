import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { ErrorBox, Loaded, Status } from '../components/ui.js';
import { useSession } from '../App.js';

interface FieldSchema {
  type?: string | string[];
  format?: string;
  enum?: string[];
  items?: FieldSchema;
  description?: string;
  default?: unknown;
}
interface JobForm {
  kind: string;
  path: string;
  summary: string;
  fields: [string, FieldSchema][];
  required: string[];
}
interface OpenApiDocument {
  paths: Record<
    string,
    {
      post?: {
        summary?: string;
        requestBody?: {
          content: Record<
            string,
            { schema: FieldSchema & { properties?: Record<string, FieldSchema>; required?: string[]; $ref?: string } }
          >;
        };
      };
    }
  >;
  components: {
    schemas: Record<string, FieldSchema & { properties?: Record<string, FieldSchema>; required?: string[] }>;
  };
}
/** Every job's start endpoint (their request bodies differ; the form below follows each one's schema). */
type JobPath = Exclude<Extract<keyof paths, `/v1/jobs/${string}`>, `/v1/jobs/status/${string}`>;

/** The jobs and their parameters, read from the API's own document: a new job gets its form. */
function jobForms(document: OpenApiDocument): JobForm[] {
  return Object.entries(document.paths)
    .filter(([path, item]) => path.startsWith('/v1/jobs/') && item.post !== undefined)
    .map(([path, item]) => {
      let schema = item.post!.requestBody?.content['application/json']?.schema ?? {};
      if (schema.$ref) schema = document.components.schemas[schema.$ref.split('/').pop()!] ?? {};
      return {
        kind: path.slice('/v1/jobs/'.length),
        path,
        summary: item.post!.summary ?? '',
        fields: Object.entries(schema.properties ?? {}),
        required: schema.required ?? [],
      };
    });
}

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
  const types = typesOf(field);
  const label = (
    <span title={field.description}>
      {name}
      {field.description ? <small className="muted"> {field.description}</small> : null}
    </span>
  );
  if (types.includes('boolean')) {
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={value === undefined ? field.default === true : value === true}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        {label}
      </label>
    );
  }
  const options = field.enum ?? field.items?.enum;
  if (options && !types.includes('array')) {
    return (
      <label>
        {label}
        <select value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
          <option value="">(default)</option>
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
    );
  }
  const type =
    field.format === 'date' ? 'date' : types.includes('integer') || types.includes('number') ? 'number' : 'text';
  return (
    <label>
      {label}
      <input
        type={type}
        value={String(value ?? '')}
        placeholder={types.includes('array') ? 'comma-separated' : ''}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

function JobProgress({ jobId }: { jobId: string }) {
  const status = useQuery({
    queryKey: ['job', jobId],
    queryFn: () => unwrap(api.GET('/v1/jobs/status/{job_id}', { params: { path: { job_id: jobId } } })),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
    staleTime: 0,
  });
  return (
    <Loaded query={status}>
      {(s) => {
        const { done = 0, total = null, unit = '' } = s.progress ?? {};
        const finished = s.status !== 'running';
        return (
          <tr data-testid={`job-${s.kind}`}>
            <td>{s.kind}</td>
            <td>
              <progress
                max={total ?? 1}
                value={finished ? (total ?? 1) : total === null ? undefined : done}
                aria-label={`${s.kind} progress`}
              />{' '}
              <small>
                {done}
                {total === null ? '' : ` of ${total}`} {unit}
              </small>
            </td>
            <td>
              <Status value={s.status} />
            </td>
            <td className="num">{s.duration_ms === null ? '' : `${(s.duration_ms / 1000).toFixed(1)} s`}</td>
            <td>{s.error ?? (s.result ? <code>{JSON.stringify(s.result).slice(0, 160)}</code> : '')}</td>
          </tr>
        );
      }}
    </Loaded>
  );
}

const RECENT_KEY = 'ledger-console-jobs';
/** The API lists no jobs: the recent ones are those started from this tab. */
const readRecent = (): string[] => JSON.parse(sessionStorage.getItem(RECENT_KEY) ?? '[]') as string[];

export default function JobsPage() {
  const { admin } = useSession();
  const document = useQuery({
    queryKey: ['openapi'],
    queryFn: async () => (await fetch('/docs/openapi.json')).json() as Promise<OpenApiDocument>,
    staleTime: Infinity,
  });
  const [kind, setKind] = useState('');
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [recent, setRecent] = useState(readRecent);
  const forms = document.data ? jobForms(document.data) : [];
  const form = forms.find((f) => f.kind === kind);
  const start = useMutation({
    mutationFn: (job: JobForm) => {
      const body = Object.fromEntries(
        job.fields
          .filter(([name]) => values[name] !== undefined && values[name] !== '')
          .map(([name, field]) => [name, valueOf(field, values[name]!)]),
      );
      // The path and body come from the document at run time; the answer is typed (JobStatus).
      return unwrap(
        api.POST(job.path as JobPath, { body: body as never }) as Promise<{
          data?: Schemas['JobStatus'];
          response: Response;
        }>,
      );
    },
    onSuccess: (status) => {
      const next = [status.job_id, ...recent.filter((id) => id !== status.job_id)].slice(0, 20);
      sessionStorage.setItem(RECENT_KEY, JSON.stringify(next));
      setRecent(next);
    },
  });
  return (
    <>
      <h1>Jobs</h1>
      {admin ? (
        <Loaded query={document}>
          {() => (
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
          )}
        </Loaded>
      ) : (
        <p className="muted">Starting a job needs the admin token.</p>
      )}
      <h2>Recent jobs (this tab)</h2>
      {recent.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <table data-testid="jobs">
          <thead>
            <tr>
              <th>Job</th>
              <th>Progress</th>
              <th>Status</th>
              <th className="num">Duration</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {recent.map((id) => (
              <JobProgress key={id} jobId={id} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
