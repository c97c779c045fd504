import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiFailure } from '../api/client.js';
import { money } from '../format.js';

/** An error in words, with the request id to quote when asking about it. */
export function ErrorBox({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  const failure = error instanceof ApiFailure ? error : null;
  return (
    <div className="error" role="alert">
      <strong>{failure ? `${failure.status} ${failure.code}` : 'Error'}:</strong>{' '}
      {error instanceof Error ? error.message : String(error)}
      {failure?.requestId ? <span className="muted"> (request id {failure.requestId})</span> : null}
    </div>
  );
}

/** A query's data once it is there; meanwhile a line saying so, or its error. */
export function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorBox error={query.error} />;
  if (query.data === undefined) return <p className="muted">Loading…</p>;
  return <>{children(query.data)}</>;
}

export function Money({ value }: { value: string | null | undefined }) {
  return <span className={`num${value?.startsWith('-') ? ' neg' : ''}`}>{money(value)}</span>;
}

/**
 * A table's totals row: "Total" heading the first `span` columns, then each total in its column
 * (`{ empty: n }`: n columns with no total, such as prices).
 */
export function TotalsFoot({ span = 1, totals }: { span?: number; totals: Array<string | { empty: number }> }) {
  return (
    <tfoot>
      <tr>
        <th scope="row" colSpan={span}>
          Total
        </th>
        {totals.map((total, i) =>
          typeof total === 'string' ? (
            <td key={i}>
              <Money value={total} />
            </td>
          ) : (
            <td key={i} colSpan={total.empty} />
          ),
        )}
      </tr>
    </tfoot>
  );
}

export function Card({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value">{children}</div>
    </div>
  );
}

export function Pager({
  total,
  limit,
  offset,
  onOffset,
}: {
  total: number;
  limit: number;
  offset: number;
  onOffset: (offset: number) => void;
}) {
  const last = Math.min(offset + limit, total);
  return (
    <div className="pager">
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        ‹ Previous
      </button>
      <span>
        {total === 0 ? 0 : offset + 1}–{last} of {total}
      </span>
      <button type="button" disabled={last >= total} onClick={() => onOffset(offset + limit)}>
        Next ›
      </button>
    </div>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{value}</span>;
}

/** The from/to of a page's period (empty: unbounded). */
export function PeriodFields({
  from,
  to,
  onFrom,
  onTo,
}: {
  from: string;
  to: string;
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
}) {
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()}>
      <label>
        From <input type="date" value={from} onChange={(e) => onFrom(e.target.value)} />
      </label>
      <label>
        To <input type="date" value={to} onChange={(e) => onTo(e.target.value)} />
      </label>
    </form>
  );
}
