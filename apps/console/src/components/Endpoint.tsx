import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, unwrap } from '../api/client.js';
import type { OpenApiDocument, Parameter } from '../api/document.js';
import { queryParameters } from '../api/document.js';
import { Loaded } from './ui.js';
import { Report } from './Report.js';

export type Query = Record<string, string>;

function ParameterField({
  parameter,
  value,
  onChange,
}: {
  parameter: Parameter;
  value: string;
  onChange: (value: string) => void;
}) {
  const hint = useId();
  const { name, schema, required, description } = parameter;
  const common = {
    value,
    required,
    'aria-describedby': description ? hint : undefined,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <label>
      {name}
      {required ? ' (required)' : ''}
      {schema.enum ? (
        <select {...common}>
          <option value="">(any)</option>
          {schema.enum.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={schema.format === 'date' ? 'date' : schema.type === 'integer' ? 'number' : 'text'}
          placeholder={name === 'fy' ? 'YYYY-YY' : undefined}
        />
      )}
      {description ? (
        <small id={hint} className="muted">
          {description}
        </small>
      ) : null}
    </label>
  );
}

/**
 * One GET of the API: its query parameters as a form built from the document, its answer as a
 * report. Asked at once when nothing required is missing, and again on each Show.
 */
export function EndpointView({
  document,
  path,
  pathParams = {},
  initial = {},
  onQuery,
  name,
}: {
  document: OpenApiDocument;
  path: string;
  pathParams?: Record<string, string>;
  initial?: Query;
  onQuery?: (query: Query) => void;
  /** The report's name, for its declared tables (`india-specs.ts`). */
  name?: string;
}) {
  const operation = document.paths[path]?.get;
  const parameters = operation ? queryParameters(document, operation) : [];
  // The address also holds the tables' sort, page and filter: only the operation's parameters are asked.
  const asks = (query: Query) =>
    Object.fromEntries(Object.entries(query).filter(([k]) => parameters.some((p) => p.name === k)));
  const [draft, setDraft] = useState<Query>(() => asks(initial));
  const ready = (query: Query) => parameters.every((p) => !p.required || (query[p.name] ?? '') !== '');
  const [asked, setAsked] = useState<Query | null>(ready(initial) ? asks(initial) : null);
  const answer = useQuery({
    queryKey: ['report', path, pathParams, asked],
    enabled: asked !== null,
    queryFn: () => {
      const query = Object.fromEntries(Object.entries(asked ?? {}).filter(([, v]) => v !== ''));
      // The path comes from the document at run time: the answer is shown whatever its schema.
      return unwrap(
        api.GET(path as never, { params: { path: pathParams, query } } as never) as Promise<{
          data?: unknown;
          response: Response;
        }>,
      );
    },
  });
  return (
    <>
      {operation?.description ? <p className="muted">{operation.description}</p> : null}
      {parameters.length > 0 ? (
        <form
          className="filters"
          aria-label="Parameters"
          onSubmit={(e) => {
            e.preventDefault();
            setAsked(draft);
            onQuery?.(draft);
          }}
        >
          {parameters.map((p) => (
            <ParameterField
              key={p.name}
              parameter={p}
              value={draft[p.name] ?? ''}
              onChange={(v) => setDraft({ ...draft, [p.name]: v })}
            />
          ))}
          <button type="submit">Show</button>
        </form>
      ) : null}
      {asked === null ? <p className="muted">Fill in the required parameters, then Show.</p> : null}
      {asked !== null ? <Loaded query={answer}>{(data) => <Report value={data} name={name} />}</Loaded> : null}
    </>
  );
}
