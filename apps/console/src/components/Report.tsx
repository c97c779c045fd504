import { Fragment, type ReactNode } from 'react';

/**
 * Any report the API answers, as readable tables: an object's plain fields as a list of facts,
 * each list of records as a table (its columns the records' fields), each nested object under
 * its own heading. The India reports and views have many shapes; this shows them all the same way.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: Json): value is { [key: string]: Json } =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isPlain = (value: Json) =>
  !isRecord(value) && !(Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object'));
const words = (key: string) => key.replace(/_/g, ' ');
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A plain value in words: a decimal right-aligned as the API gave it (never through a float). */
function Plain({ value }: { value: Json }): ReactNode {
  if (value === null) return <span className="muted">—</span>;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? <span className="muted">none</span> : value.join(', ');
  if (typeof value === 'string' && DECIMAL.test(value))
    return <span className={`num${value.startsWith('-') ? ' neg' : ''}`}>{value}</span>;
  return String(value);
}

/** A nested value inside a table cell: its plain fields inline, deeper ones as JSON. */
function Cell({ value }: { value: Json }): ReactNode {
  if (isPlain(value)) return <Plain value={value} />;
  if (isRecord(value))
    return (
      <span className="inline-facts">
        {Object.entries(value).map(([k, v]) => (
          <span key={k}>
            {words(k)}: {isPlain(v) ? <Plain value={v} /> : <code>{JSON.stringify(v)}</code>}
          </span>
        ))}
      </span>
    );
  return <code>{JSON.stringify(value)}</code>;
}

const isRecordList = (value: Json | undefined): value is Json[] => Array.isArray(value) && value.some(isRecord);

/**
 * A list of records as a table; a field holding records of its own (a customer's symbols, a
 * symbol's disposals) becomes a table of its own under it, one per row, named after the row.
 */
function RecordTable({ name, rows, depth = 0 }: { name: string; rows: Json[]; depth?: number }) {
  const records = rows.filter(isRecord);
  const fields = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const nested = depth < 3 ? fields.filter((f) => records.some((r) => isRecordList(r[f]))) : [];
  const columns = fields.filter((f) => !nested.includes(f));
  const rowName = (r: { [key: string]: Json }) => String(r[columns[0] ?? ''] ?? '');
  return (
    <>
      <table className="report-table">
        <caption>
          {words(name)} ({rows.length})
        </caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {words(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>
                  <Cell value={r[c] ?? null} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {records.flatMap((r, i) =>
        nested
          .filter((f) => isRecordList(r[f]))
          .map((f) => (
            <div key={`${i}-${f}`} className="nested">
              <RecordTable name={`${words(f)} of ${rowName(r)}`} rows={r[f] as Json[]} depth={depth + 1} />
            </div>
          )),
      )}
    </>
  );
}

function Section({ value, depth }: { value: { [key: string]: Json }; depth: number }) {
  const entries = Object.entries(value);
  const plain = entries.filter(([, v]) => isPlain(v));
  const nested = entries.filter(([, v]) => !isPlain(v));
  const Heading = depth === 0 ? 'h3' : 'h4';
  return (
    <>
      {plain.length > 0 ? (
        <dl className="facts">
          {plain.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{words(k)}</dt>
              <dd>
                <Plain value={v} />
              </dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
      {nested.map(([k, v]) =>
        Array.isArray(v) ? (
          v.length === 0 ? (
            <p key={k}>
              <strong>{words(k)}:</strong> <span className="muted">none</span>
            </p>
          ) : (
            <RecordTable key={k} name={k} rows={v} />
          )
        ) : (
          <section key={k}>
            <Heading>{words(k)}</Heading>
            {depth < 3 ? <Section value={v as { [key: string]: Json }} depth={depth + 1} /> : <Cell value={v} />}
          </section>
        ),
      )}
    </>
  );
}

export function Report({ value }: { value: unknown }) {
  const json = value as Json;
  return (
    <div className="report" data-testid="report">
      {isRecord(json) ? <Section value={json} depth={0} /> : <Cell value={json} />}
    </div>
  );
}
