import http from 'node:http';
import net from 'node:net';

/** One generated bad request, sent byte for byte as described. */
export interface FuzzCase {
  operationId: string;
  /** The generator, coarse enough to group failures by (e.g. `path txn_id`, `body mutation /amount_usd`). */
  generator: string;
  /** What exactly was sent in the generator's terms (a value, a header), for the report. */
  detail: string;
  method: string;
  /** Path and query as sent (already percent-encoded; not normalised). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | Buffer[];
  /** The whole request as bytes, sent over a fresh socket instead (malformed HTTP); it should ask to close. */
  raw?: Buffer;
  /**
   * `reject`: certainly bad input, so only a 4xx will do (a 2xx is an unexpected acceptance).
   * `no-5xx`: odd but arguably acceptable (an uppercase uuid, `limit=010`): any answer but a 5xx,
   * and a list that accepts it must answer the page it was asked for (`echo`).
   */
  expect: 'reject' | 'no-5xx';
  echo?: { limit?: number; offset?: number };
}

export interface FuzzReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const TIMEOUT_MS = 15_000;

/** Sends one case over a keep-alive agent (or its raw bytes over a socket); a connection error or timeout rejects. */
export async function send(base: URL, agent: http.Agent, c: FuzzCase): Promise<FuzzReply> {
  if (c.raw) return sendRaw(base, c.raw);
  try {
    return await sendOnce(base, agent, c);
  } catch (error) {
    // A kept-alive socket the server closed just as the request went out on it (Node's documented
    // keep-alive race: `reusedSocket` and ECONNRESET): the server never saw the request, so it is
    // sent again, once, on a fresh connection.
    if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      return sendOnce(base, undefined, c);
    }
    throw error;
  }
}

function sendOnce(base: URL, agent: http.Agent | undefined, c: FuzzCase): Promise<FuzzReply> {
  const headers = { ...c.headers };
  const framed = Object.keys(headers).some((h) => ['content-length', 'transfer-encoding'].includes(h.toLowerCase()));
  // Node frames GET/DELETE/OPTIONS/TRACE bodies only with an explicit length: without one the body would read as the next request.
  if (!framed && Buffer.isBuffer(c.body)) headers['Content-Length'] = String(c.body.length);
  return new Promise((resolve, reject) => {
    let settled = false;
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: c.method,
        path: c.path,
        headers,
        agent: agent ?? false,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          settled = true;
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', (error) => {
          if (!settled) reject(error);
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    request.on('error', (error) => {
      // A server that answers early (413, 401) may close before the whole body is written: the
      // answer already counts. Only a request that got no answer at all is a failure.
      if (!settled) reject(Object.assign(error, { reusedSocket: request.reusedSocket }));
    });
    const parts = c.body === undefined ? [] : Array.isArray(c.body) ? c.body : [c.body];
    for (const part of parts) request.write(part);
    request.end();
  });
}

/** Writes raw request bytes and reads until the server closes: the first response is the answer. */
function sendRaw(base: URL, raw: Buffer): Promise<FuzzReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = net.connect(Number(base.port), base.hostname);
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      const reply = chunks.length > 0 ? parseResponse(Buffer.concat(chunks)) : undefined;
      if (reply) resolve(reply);
      else reject(error ?? new Error('the server closed the connection without an answer'));
    };
    socket.setTimeout(TIMEOUT_MS, () => finish(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish());
    socket.write(raw);
  });
}

/** The first HTTP/1.1 response in `bytes` (skipping 1xx), or undefined when there is none. */
function parseResponse(bytes: Buffer): FuzzReply | undefined {
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...headerLines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
    const headers: http.IncomingHttpHeaders = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body = rest.subarray(end + 4);
    if (status >= 100 && status < 200) {
      rest = body;
      continue;
    }
    if (String(headers['transfer-encoding'] ?? '').toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      let at = 0;
      for (;;) {
        const lineEnd = body.indexOf('\r\n', at);
        const size = lineEnd < 0 ? 0 : Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
        if (!size) break;
        parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      body = body.subarray(0, Number(headers['content-length']));
    }
    return { status, headers, text: body.toString('utf8') };
  }
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let index = 0;
  const worker = async () => {
    while (index < items.length) {
      const item = items[index++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** What is wrong with an answer to a case, or null when it is acceptable. */
export function judge(c: FuzzCase, reply: FuzzReply): string | null {
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (reply.status < 400) {
    if (c.expect === 'reject') return `accepted bad input (${reply.status})`;
    return echoProblem(c, reply);
  }
  return errorShapeProblem(reply);
}

/** The contract's error shape: `{error: {code, message, details?}, request_id}`, request_id = X-Request-Id. */
export function errorShapeProblem(reply: FuzzReply): string | null {
  if (!String(reply.headers['content-type'] ?? '').includes('application/json')) return 'error is not JSON';
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    return 'error body does not parse';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'error body is not an object';
  const record = body as Record<string, unknown>;
  if (Object.keys(record).sort().join() !== 'error,request_id')
    return `error body has keys ${Object.keys(record).sort().join()}`;
  const error = record.error as Record<string, unknown> | null;
  if (error === null || typeof error !== 'object' || Array.isArray(error)) return 'error is not an object';
  const extra = Object.keys(error).filter((k) => !['code', 'message', 'details'].includes(k));
  if (extra.length > 0) return `error has extra keys ${extra.join()}`;
  if (typeof error.code !== 'string' || !/^[a-z][a-z_]*$/.test(error.code))
    return 'error.code is not a snake_case string';
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  if (error.details !== undefined && !Array.isArray(error.details)) return 'error.details is not an array';
  if (typeof record.request_id !== 'string' || record.request_id === '') return 'request_id is not a string';
  if (record.request_id !== reply.headers['x-request-id']) return 'request_id differs from X-Request-Id';
  if (/\bat .*\.(ts|js):\d+|SELECT |INSERT /i.test(reply.text)) return 'error body leaks a stack or SQL';
  return null;
}

/** A list that accepted an odd limit/offset must answer with the page it was asked for. */
function echoProblem(c: FuzzCase, reply: FuzzReply): string | null {
  if (!c.echo) return null;
  let body: { limit?: unknown; offset?: unknown; items?: unknown[] };
  try {
    body = JSON.parse(reply.text) as typeof body;
  } catch {
    return 'a 2xx body does not parse';
  }
  if (c.echo.limit !== undefined && body.limit !== c.echo.limit)
    return `asked limit ${c.echo.limit}, answered limit ${String(body.limit)}`;
  if (c.echo.offset !== undefined && body.offset !== c.echo.offset) {
    return `asked offset ${c.echo.offset}, answered offset ${String(body.offset)}`;
  }
  if (c.echo.limit !== undefined && Array.isArray(body.items) && body.items.length > c.echo.limit) {
    return `asked limit ${c.echo.limit}, answered ${body.items.length} items`;
  }
  return null;
}
