import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.js';
import { useApiDocument, queryParameters, type OpenApiDocument } from '../api/document.js';
import { EndpointView } from '../components/Endpoint.js';
import { Loaded } from '../components/ui.js';
import { href, navigate, useRoute } from '../router.js';

const PREFIX = '/v1/india/';

/** The India reports: every GET under /v1/india/ in the API's document, so a new one is listed as it lands. */
const reportsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths)
    .filter(([path, item]) => path.startsWith(PREFIX) && item.get !== undefined)
    .map(([path, item]) => ({
      name: path.slice(PREFIX.length),
      path,
      summary: item.get!.summary ?? path,
      parameters: queryParameters(document, item.get!),
    }));

function BookNote() {
  const index = useQuery({ queryKey: ['index'], queryFn: () => unwrap(api.GET('/')) });
  if (index.data?.book !== 'ENTITY_UAE') return null;
  return (
    <p className="note" data-testid="book-note">
      This is the UAE book: every India report answers here in the same shape, zero-valued (no India customers,
      remittances or broker accounts are kept on it).{' '}
      {index.data.peer_console ? <a href={`${index.data.peer_console}#/india`}>The India book’s reports</a> : null}
    </p>
  );
}

function ReportList({ document }: { document: OpenApiDocument }) {
  const reports = reportsOf(document);
  return (
    <table data-testid="india-reports">
      <caption>{reports.length} reports, each a GET of the API</caption>
      <thead>
        <tr>
          <th scope="col">Report</th>
          <th scope="col">Endpoint</th>
          <th scope="col">Parameters</th>
        </tr>
      </thead>
      <tbody>
        {reports.map((r) => (
          <tr key={r.path}>
            <th scope="row">
              <a href={href('india', r.name)}>{r.summary}</a>
            </th>
            <td>
              <code>GET {r.path}</code>
            </td>
            <td>
              {r.parameters.length === 0
                ? 'none'
                : r.parameters.map((p) => `${p.name}${p.required ? ' (required)' : ''}`).join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function IndiaPage() {
  const { param, query } = useRoute();
  const document = useApiDocument();
  const path = `${PREFIX}${param}`;
  return (
    <>
      <h1>
        <a href={href('india')}>India reports</a>
      </h1>
      <BookNote />
      <Loaded query={document}>
        {(d) =>
          param === '' ? (
            <ReportList document={d} />
          ) : d.paths[path]?.get ? (
            <>
              <h2>{d.paths[path].get.summary}</h2>
              <EndpointView
                key={path}
                name={param}
                document={d}
                path={path}
                initial={Object.fromEntries(query)}
                onQuery={(q) => navigate(href('india', param, q))}
              />
            </>
          ) : (
            <p role="alert">No India report {param}.</p>
          )
        }
      </Loaded>
    </>
  );
}
