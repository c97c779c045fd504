import type { IncomingMessage } from 'node:http';
import type { SandboxDataset } from '../data/generate.js';
import type { Remittance } from '../data/india.js';
import { newestFirst, remitBalances, remitMidRate, type IndiaDataset } from '../data/india-views.js';
import { bearerOf, encodeJson, intParam, pageMetaReply, paginate, type Reply, type UpstreamHandler } from './common.js';

export const REMIT_PER_PAGE_DEFAULT = 20;
export const REMIT_PER_PAGE_MAX = 100;

const error = (status: number, code: string, message: string): Reply => ({ status, body: { error: code, message } });

const API = '/api/v1';

const remittancesOf = (india: IndiaDataset) => india.all().flatMap((d) => d.remittances);

/**
 * The remittances an id or a customer filter can name: its owner's alone (every remit id
 * names its customer), else every one. A sync asks for one customer's orders and then each
 * of their quotes and settlements: a scan of every customer's remittances per request made a
 * run over 1,000 customers quadratic in the sandbox, not in the job.
 */
function scopedTo(india: IndiaDataset, identifier: string | null): Remittance[] {
  if (identifier === null) return remittancesOf(india);
  const owner = identifier.startsWith('cust_') ? india.find(identifier) : india.ownerOf(identifier);
  return owner === undefined ? remittancesOf(india) : india.dataOf(owner).remittances;
}

const findScoped = (india: IndiaDataset, id: string, found: (r: Remittance) => boolean): Remittance | undefined =>
  scopedTo(india, id).find(found) ?? remittancesOf(india).find(found);

/** The customer a request is about: by its `customer_id` or `payin_id` filter, or the id in its path. */
function customerOf(india: IndiaDataset, url: URL) {
  const byQuery = url.searchParams.get('customer_id') ?? url.searchParams.get('payin_id');
  if (byQuery !== null) {
    const c = byQuery.startsWith('cust_') ? india.find(byQuery) : india.ownerOf(byQuery);
    return c ?? null;
  }
  const match = /^\/api\/v1\/[a-z_]+\/([^/]+)$/.exec(url.pathname);
  if (match?.[1] === undefined) return null;
  const id = decodeURIComponent(match[1]);
  return (id.startsWith('cust_') ? india.find(id) : india.ownerOf(id)) ?? null;
}

/** A list as remit pages it: newest first, `before`/`after` on creation time, `page_meta`. */
function list<T extends { id: string; created_at: string }>(url: URL, all: readonly T[]): Reply {
  const page = intParam(url, 'page', 1, 1, 1_000_000);
  const perPage = intParam(url, 'per_page', REMIT_PER_PAGE_DEFAULT, 1, REMIT_PER_PAGE_MAX);
  if (page === null || perPage === null)
    return error(400, 'invalid_request', `page is 1 or more, per_page 1-${REMIT_PER_PAGE_MAX}`);
  const before = url.searchParams.get('before');
  const after = url.searchParams.get('after');
  for (const t of [before, after])
    if (t !== null && Number.isNaN(Date.parse(t)))
      return error(400, 'invalid_request', 'before and after are ISO-8601 times');
  const filtered = newestFirst(all).filter(
    (item) =>
      (before === null || Date.parse(item.created_at) < Date.parse(before)) &&
      (after === null || Date.parse(item.created_at) > Date.parse(after)),
  );
  return pageMetaReply(paginate(filtered, page, perPage));
}

/** The id in `/api/v1/<name>/<id>`, or null. */
const match = (url: URL, name: string) => {
  const m = new RegExp(`^${API}/${name}/([^/]+)$`).exec(url.pathname);
  return m?.[1] === undefined ? null : decodeURIComponent(m[1]);
};
const one = (found: unknown, what: string): Reply =>
  found === undefined || found === null ? error(404, 'not_found', `no such ${what}`) : { status: 200, body: found };
const filter = (url: URL, name: string) => url.searchParams.get(name);

/** The lists and the firm's reads (balances, the mid rate) at `path`; null: none is there. */
function readCollection(dataset: SandboxDataset, path: string, url: URL): Reply | null {
  const { india } = dataset;
  if (path === `${API}/orders`) {
    const customer = filter(url, 'customer_id');
    const status = filter(url, 'status');
    return list(
      url,
      scopedTo(india, customer)
        .map((r) => r.order)
        .filter((o) => (customer === null || o.customer_id === customer) && (status === null || o.status === status)),
    );
  }
  if (path === `${API}/payment` || path === `${API}/payments`) {
    const customer = filter(url, 'customer_id');
    const status = filter(url, 'status');
    const payin = filter(url, 'payin_id');
    return list(
      url,
      scopedTo(india, customer ?? payin)
        .flatMap((r) => (r.payment === null ? [] : [r.payment]))
        .filter(
          (p) =>
            (customer === null || p.customer_id === customer) &&
            (status === null || p.status === status) &&
            (payin === null || p.payin_id === payin),
        ),
    );
  }
  if (path === `${API}/refunds`)
    return list(
      url,
      remittancesOf(india).flatMap((r) => (r.refund === null ? [] : [r.refund])),
    );
  if (path === `${API}/customers`) return list(url, india.customers.map(remitCustomer));
  if (path === `${API}/balances`) return { status: 200, body: remitBalances(india.all()) };
  if (path === `${API}/fx_rates`) {
    if (filter(url, 'source_currency') !== 'INR' || filter(url, 'target_currency') !== 'USD')
      return error(400, 'invalid_request', 'only INR to USD');
    return { status: 200, body: remitMidRate(dataset.config, dataset.period.to) };
  }
  return null;
}

/** One order, quote, payment, settlement or customer by its id (404: none such, or no such endpoint). */
function readOne(india: IndiaDataset, url: URL): Reply {
  let id = match(url, 'orders');
  if (id !== null) return one(india.remittance(id)?.order, 'order');
  id = match(url, 'quotes');
  if (id !== null) return one(findScoped(india, id, (r) => r.quote.id === id)?.quote, 'quote');
  id = match(url, 'payment') ?? match(url, 'payments');
  if (id !== null) return one(findScoped(india, id, (r) => r.payment?.id === id)?.payment, 'payment');
  id = match(url, 'settlements');
  if (id !== null) return one(findScoped(india, id, (r) => r.settlement?.id === id)?.settlement, 'settlement');
  id = match(url, 'customers');
  if (id !== null) {
    const c = india.find(id);
    return one(c !== undefined && c.remit_customer_id === id ? remitCustomer(c) : undefined, 'customer');
  }
  return error(404, 'not_found', 'no such endpoint');
}

/** The remit sandbox: bearer secret key under `/api/v1`, newest-first paged lists, flat errors. */
export function createRemitHandler(dataset: SandboxDataset, apiKey: string): UpstreamHandler {
  function read(req: IncomingMessage, url: URL): Reply {
    const key = bearerOf(req);
    if (key === null || key !== apiKey) return error(401, 'unauthorized', 'API key is missing or wrong');
    if (req.method !== 'GET') return error(405, 'method_not_allowed', 'GET only');
    const path = url.pathname.replace(/\/+$/, '');
    return readCollection(dataset, path, url) ?? readOne(dataset.india, url);
  }

  return {
    name: 'remit',
    customerOf: (url) => customerOf(dataset.india, url),
    answer: (req, url) => Promise.resolve(read(req, url)),
    internalError: () => error(500, 'internal_error', 'internal error'),
    canExpireToken: (req) => bearerOf(req) !== null,
    // A secret key does not expire by itself: only this answer is 401 (the client cannot renew it).
    expireToken: () => error(401, 'unauthorized', 'API key expired'),
    encode: encodeJson,
  };
}

export function remitCustomer(c: {
  remit_customer_id: string;
  name: string;
  email: string;
  pan: string;
  created_at: string;
}) {
  return { id: c.remit_customer_id, name: c.name, email: c.email, pan: c.pan, created_at: c.created_at };
}
