import { Fragment } from 'react';
import { money } from '../format.js';
import { DataTable, ReportBar, useOnlyFlagged, useQueryState, type Json } from './DataTable.js';
import { indiaFactsOf, tablesOf } from './india-specs.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

function Fact({ value }: { value: Json }) {
  if (value === null) return <span className="muted">—</span>;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? <span className="muted">none</span> : value.join(', ');
  if (typeof value === 'string' && DECIMAL.test(value))
    return <span className={`num${value.startsWith('-') ? ' neg' : ''}`}>{money(value)}</span>;
  return String(value);
}

/**
 * Any report the API answers: its plain fields (the totals among them) as facts, then its tables
 * (declared per report in `india-specs.ts`, or derived) one at a time, chosen by a tab that
 * counts what needs action in each; the table with flagged rows first is shown first. The JSON as
 * the API sent it only behind "Show raw".
 */
export function Report({ value, name }: { value: unknown; name?: string }) {
  const json = value as Json;
  const { query, set } = useQueryState();
  const onlyFlagged = useOnlyFlagged();
  const tables = tablesOf(name, json);
  const facts = indiaFactsOf(name, json);
  const current =
    tables.find((t) => t.id === query.get('table')) ??
    tables.find((t) => t.flag !== undefined && t.rows.some(t.flag)) ??
    tables[0];
  return (
    <div className="report" data-testid="report">
      {facts.length > 0 ? (
        <dl className="facts report-facts">
          {facts.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>
                <Fact value={v} />
              </dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
      <ReportBar value={json} filter={tables.length > 0} />
      {tables.length > 1 ? (
        <nav aria-label="Tables of the report" className="tabs">
          {tables.map((t) => {
            const flagged = t.flag ? t.rows.filter(t.flag).length : 0;
            return (
              <button
                key={t.id}
                type="button"
                aria-pressed={t === current}
                className={flagged > 0 ? 'has-flags' : undefined}
                onClick={() => set({ table: t.id })}
              >
                {t.title} ({t.rows.length}
                {flagged > 0 ? `, ${flagged} need action` : ''})
              </button>
            );
          })}
        </nav>
      ) : null}
      {current ? <DataTable key={current.id} spec={current} onlyFlagged={onlyFlagged} /> : null}
    </div>
  );
}
