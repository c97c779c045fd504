import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxDataset } from '../data/generate.js';
import { BadRequest, encodeJson, readJsonBody, send, type Reply, type UpstreamHandler } from './common.js';
import { FaultSpecError, type FaultSpec, type FaultStore } from './faults.js';
import { malform } from './malformed.js';

export const ADMIN_PREFIX = '/__sandbox';

export interface ServerContext {
  dataset: SandboxDataset;
  faults: FaultStore;
  /** Everything a client needs to know but its credentials: seed, sizes, the servers' URLs. */
  info: () => Record<string, unknown>;
  /** More admin endpoints (remit's lifecycle and webhooks): a reply, or null when the path is not theirs. */
  moreAdmin?: (req: IncomingMessage, url: URL, path: string) => Promise<Reply | null>;
}

/**
 * The admin API, on every server of a sandbox (the faults are shared):
 * `GET /__sandbox`, `GET|POST|DELETE /__sandbox/faults`, `DELETE /__sandbox/faults/{id}`.
 */
async function admin(context: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const reply = (status: number, body: unknown) => send(res, status, encodeJson(body));
  const path = url.pathname.replace(/\/+$/, '');
  if (path === ADMIN_PREFIX && req.method === 'GET') return reply(200, context.info());
  if (path === `${ADMIN_PREFIX}/faults`) {
    if (req.method === 'GET') return reply(200, { faults: context.faults.list() });
    if (req.method === 'POST') {
      try {
        return reply(201, context.faults.add((await readJsonBody(req)) as FaultSpec));
      } catch (error) {
        if (error instanceof FaultSpecError || error instanceof BadRequest)
          return reply(400, { error: 'invalid_fault', message: error.message });
        throw error;
      }
    }
    if (req.method === 'DELETE') {
      const filter = {
        ...(url.searchParams.get('upstream') ? { upstream: url.searchParams.get('upstream')! } : {}),
        ...(url.searchParams.get('customer') ? { customer: url.searchParams.get('customer')! } : {}),
      };
      return reply(200, { cleared: context.faults.clear(filter) });
    }
  }
  if (context.moreAdmin !== undefined) {
    const more = await context.moreAdmin(req, url, path);
    if (more !== null) return reply(more.status, more.body);
  }
  const one = /^\/__sandbox\/faults\/([^/]+)$/.exec(path);
  if (one?.[1] !== undefined && req.method === 'DELETE') {
    const cleared = context.faults.clear({ id: decodeURIComponent(one[1]) });
    return cleared === 0 ? reply(404, { error: 'not_found', message: 'no such fault' }) : reply(200, { cleared });
  }
  return reply(404, { error: 'not_found', message: 'no such admin endpoint' });
}

function write(res: ServerResponse, handler: UpstreamHandler, reply: Reply): void {
  if (reply.text !== undefined) send(res, reply.status, reply.text.content, reply.text.contentType);
  else send(res, reply.status, handler.encode(reply.body));
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * One request: the admin API, or the upstream's answer after the fault the faults queue holds for
 * it (latency, a timeout held in `held`, a 500, an expired token, a malformed body), if any.
 */
async function handle(
  handler: UpstreamHandler,
  context: ServerContext,
  held: Set<NodeJS.Timeout>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`))
    return admin(context, req, res, url);
  const customer = handler.customerOf(url);
  const fault = context.faults.take(
    handler.name,
    customer?.customer_id ?? null,
    (kind) => kind !== 'expired_token' || handler.canExpireToken(req, url),
  );
  switch (fault?.fault) {
    case 'latency':
      await sleep(fault.ms);
      break;
    case 'timeout': {
      const timer = setTimeout(() => {
        held.delete(timer);
        req.socket.destroy();
      }, fault.ms);
      held.add(timer);
      return;
    }
    case '500': {
      return write(res, handler, handler.internalError());
    }
    case 'expired_token': {
      return write(res, handler, handler.expireToken(req));
    }
    default:
      break;
  }
  const reply = await handler.answer(req, url);
  if (fault?.fault !== 'malformed') return write(res, handler, reply);
  write(
    res,
    handler,
    handler.malform === undefined ? { status: reply.status, body: malform(reply.body) } : handler.malform(reply),
  );
}

/** Resolves once `server` listens on `host:port`; rejects if it cannot. */
function listening(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts one upstream's server on `host:port` (0: any free port). */
export async function startUpstreamServer(
  handler: UpstreamHandler,
  context: ServerContext,
  host: string,
  port: number,
): Promise<RunningServer> {
  /** Requests held by a `timeout` fault: cut when their time is up or the server closes. */
  const held = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    handle(handler, context, held, req, res).catch((error: unknown) => {
      // A bug of the sandbox, not a fault: say so and keep serving.
      console.error(
        `sandbox ${handler.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      send(res, 500, JSON.stringify({ error: 'sandbox_error' }));
    });
  });
  server.keepAliveTimeout = 5_000;
  await listening(server, host, port);
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${hostInUrl}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of held) clearTimeout(timer);
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
