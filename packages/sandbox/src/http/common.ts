import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'lossless-json';
import type { RegistryCustomer } from '../data/generate.js';

export type UpstreamName = 'uaefeed' | 'custodian' | 'registry' | 'usbroker' | 'remit';
export const UPSTREAM_NAMES: readonly UpstreamName[] = ['uaefeed', 'custodian', 'registry', 'usbroker', 'remit'];

/** An answer before it is written: `encode` is JSON.stringify, or lossless-json for uaefeed's numbers. */
export interface Reply {
  status: number;
  body: unknown;
  /** A body that is not JSON (usbroker's daily-ledger CSV): written as is with this content type. */
  text?: { contentType: string; content: string };
}

/** One fake upstream: what it answers and how it answers the injected faults. */
export interface UpstreamHandler {
  readonly name: UpstreamName;
  /** The customer the request names (a query parameter or path segment), if any. */
  customerOf(url: URL): Pick<RegistryCustomer, 'customer_id'> | null;
  answer(req: IncomingMessage, url: URL): Promise<Reply>;
  /** The upstream's own 500. */
  internalError(): Reply;
  /** Whether an `expired_token` fault applies to this request (it carries a credential that can expire). */
  canExpireToken(req: IncomingMessage, url: URL): boolean;
  /** Expires the request's credential and answers as the upstream does to an expired one. */
  expireToken(req: IncomingMessage): Reply;
  encode(body: unknown): string;
  /** The `malformed` fault for this upstream's answer; absent: the JSON body's first amount is broken. */
  malform?(reply: Reply): Reply;
}

export const encodeJson = (body: unknown): string => JSON.stringify(body);
/** uaefeed's bodies: LosslessNumber values are written as their exact number text. */
export const encodeLossless = (body: unknown): string => stringify(body) ?? 'null';

export function send(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = 'application/json; charset=utf-8',
): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Bodies the sandbox reads (token requests, fault specs) are small. */
const BODY_BYTES_MAX = 64 * 1024;

export class BadRequest extends Error {}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readTextBody(req);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequest('body is not JSON');
  }
}

export async function readTextBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_BYTES_MAX) throw new BadRequest(`body over ${BODY_BYTES_MAX} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An integer query parameter within [min, max]; `fallback` when absent; null when invalid. */
export function intParam(url: URL, name: string, fallback: number | null, min: number, max: number): number | null {
  const text = url.searchParams.get(name);
  if (text === null || text === '') return fallback;
  if (!/^-?\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
  pages: number;
  next: number | null;
  previous: number | null;
}

export function paginate<T>(all: readonly T[], page: number, perPage: number): Page<T> {
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  return {
    items: all.slice((page - 1) * perPage, page * perPage),
    page,
    perPage,
    total: all.length,
    pages,
    next: page < pages ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
  };
}

/** A page as remit (and the registry, which follows it) answers one: `data` and `page_meta`. */
export function pageMetaReply<T>(slice: Page<T>): Reply {
  return {
    status: 200,
    body: {
      data: slice.items,
      page_meta: {
        current: slice.page,
        previous: slice.previous,
        next: slice.next,
        per_page: slice.perPage,
        pages: slice.pages,
        count: slice.total,
      },
    },
  };
}

export function bearerOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer (\S+)$/i.exec(header);
  return match?.[1] ?? null;
}
