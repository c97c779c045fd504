import type { z } from 'zod';
import {
  createUpstreamHttp,
  retryOptionsOf,
  UpstreamError,
  type SearchParams,
  type UpstreamRetryOptions,
} from '../http.js';
import { parsePayload, UpstreamPayloadError, type PayloadSource } from '../payload-error.js';
import {
  RemitApiError,
  RemitAuthError,
  RemitNotFoundError,
  RemitPageCapError,
  remitErrorDetail,
  type RemitResource,
} from './errors.js';
import {
  balancesSchema,
  customerSchema,
  midRateSchema,
  orderSchema,
  pageSchema,
  paymentSchema,
  quoteSchema,
  refundSchema,
  settlementSchema,
} from './schemas.js';
import type {
  IsoDateTime,
  RemitBalances,
  RemitCustomer,
  RemitMidRate,
  RemitOrder,
  RemitOrderStatus,
  RemitPage,
  RemitPayment,
  RemitPaymentStatus,
  RemitQuote,
  RemitRefund,
  RemitSettlement,
} from './types.js';
import { ifConfigured } from '../configured.js';

const UPSTREAM = 'remit';
/** Every path sits under the API's version prefix. */
const API = 'api/v1';
/** The prefix at the end of a base URL given as the provider documents its API (`https://remit.example/api/v1`). */
const API_SUFFIX = /\/api\/v1\/*$/;

/** Largest `per_page` remit accepts (more is a 400): also our default, fewest calls. */
export const REMIT_PER_PAGE_MAX = 100;
/** Pages one list walk reads at most (50,000 records at the maximum per_page). */
export const REMIT_PAGE_CAP = 500;

export interface RemitClientOptions extends UpstreamRetryOptions {
  /**
   * The provider's origin, e.g. `https://remit.example` (`REMIT_BASE_URL`); the client adds
   * `/api/v1`. Given with that suffix (`https://remit.example/api/v1`, as the provider's docs
   * write it), the suffix is taken once, not twice.
   */
  baseUrl: string;
  /** The secret key, sent as the bearer token (`REMIT_API_KEY`). */
  apiKey: string;
  /** `REMIT_API_SECRET`: this API does not use it. Accepted so every client takes the same options; only kept out of errors. */
  apiSecret?: string;
  /** Records per page of a list walk, 1–100 (default 100). */
  perPage?: number;
  /** Pages one list walk reads at most (default REMIT_PAGE_CAP). */
  pageCap?: number;
}

/** Creation-time window of a list; both bounds exclusive. */
export interface RemitCreatedWindow {
  before?: IsoDateTime;
  after?: IsoDateTime;
}

export interface RemitPageRequest {
  /** From 1. */
  page: number;
  /** 1–100. */
  perPage: number;
}

export interface RemitOrdersQuery extends RemitCreatedWindow {
  customerId?: string;
  status?: RemitOrderStatus;
}

export interface RemitPaymentsQuery extends RemitCreatedWindow {
  /** The order (`order_…`) the payments pay. */
  payinId?: string;
  customerId?: string;
  status?: RemitPaymentStatus;
}

export interface RemitClient {
  /** One page of orders, newest first. */
  listOrdersPage(query: RemitOrdersQuery, page: RemitPageRequest): Promise<RemitPage<RemitOrder>>;
  /** Every order matching `query`: pages until `page_meta.next` is null; RemitPageCapError past the cap. */
  listOrders(query?: RemitOrdersQuery): Promise<RemitOrder[]>;
  getOrder(orderId: string): Promise<RemitOrder>;
  getQuote(quoteId: string): Promise<RemitQuote>;
  listPaymentsPage(query: RemitPaymentsQuery, page: RemitPageRequest): Promise<RemitPage<RemitPayment>>;
  listPayments(query?: RemitPaymentsQuery): Promise<RemitPayment[]>;
  getPayment(paymentId: string): Promise<RemitPayment>;
  getSettlement(settlementId: string): Promise<RemitSettlement>;
  /** Ours. */
  listRefunds(query?: RemitCreatedWindow): Promise<RemitRefund[]>;
  /** Ours. */
  listCustomers(query?: RemitCreatedWindow): Promise<RemitCustomer[]>;
  /** Ours. */
  getCustomer(customerId: string): Promise<RemitCustomer>;
  getBalances(): Promise<RemitBalances>;
  /** Ours: the INR→USD mid-market rate (USD per INR). */
  getMidRate(): Promise<RemitMidRate>;
}

/** Pages 1, 2, … until `page_meta.next` is null; a record met twice (the list moved under us) is kept once. */
async function everyPage<T extends { id: string }>(
  path: string,
  pageCap: number,
  pageOf: (page: number) => Promise<RemitPage<T>>,
): Promise<T[]> {
  const byId = new Map<string, T>();
  let page: number | null = 1;
  for (let pages = 0; page !== null; pages += 1) {
    if (pages === pageCap) throw new RemitPageCapError(path, pageCap);
    const answer: RemitPage<T> = await pageOf(page);
    for (const record of answer.data) if (!byId.has(record.id)) byId.set(record.id, record);
    page = answer.page_meta.next;
  }
  return [...byId.values()];
}

/** An orders query as remit's filters. */
const orderFilters = (query: RemitOrdersQuery) =>
  compact({ customer_id: query.customerId, status: query.status, ...windowOf(query) });
/** A payments query as remit's filters. */
const paymentFilters = (query: RemitPaymentsQuery) =>
  compact({ payin_id: query.payinId, customer_id: query.customerId, status: query.status, ...windowOf(query) });

/** The client when its base URL is set, else null (not configured). */
export const createRemitClientIfConfigured = ifConfigured(createRemitClient);

/**
 * The remit client. The key stays in this closure: sent as the bearer token, never logged, kept
 * on an object, or put in an error (error messages from remit are kept with it blanked out).
 */
export function createRemitClient(options: RemitClientOptions): RemitClient {
  checkOptions(options);
  const perPage = checkPerPage(options.perPage ?? REMIT_PER_PAGE_MAX);
  const pageCap = options.pageCap ?? REMIT_PAGE_CAP;
  const http = createUpstreamHttp({
    upstream: UPSTREAM,
    baseUrl: options.baseUrl.replace(API_SUFFIX, ''),
    ...retryOptionsOf(options),
    headers: { authorization: `Bearer ${options.apiKey}` },
    readErrorDetail: remitErrorDetail([options.apiKey, options.apiSecret ?? '']),
  });

  const getJson = async <S extends z.ZodType>(
    path: string,
    schema: S,
    searchParams?: SearchParams,
    notFound?: NotFound,
  ): Promise<z.output<S>> => {
    let answer: unknown;
    try {
      answer = await http.getJson(path, searchParams);
    } catch (error) {
      throw typed(error, notFound);
    }
    return parsePayload(schema, answer, source(path));
  };

  const getOne = async <S extends z.ZodType>(
    collection: string,
    resource: RemitResource,
    prefix: string,
    id: string,
    schema: S,
  ) =>
    getJson(`${API}/${collection}/${encodeURIComponent(checkId(resource, prefix, id))}`, schema, undefined, {
      resource,
      id,
    });

  const listPage = async <T>(
    collection: string,
    item: z.ZodType<T>,
    filters: SearchParams,
    page: RemitPageRequest,
  ): Promise<RemitPage<T>> => {
    const path = `${API}/${collection}`;
    checkPage(page);
    const answer = await getJson(path, pageSchema(item), { ...filters, page: page.page, per_page: page.perPage });
    return checkPageAnswer(answer, page, source(path));
  };

  const listAll = async <T extends { id: string }>(collection: string, item: z.ZodType<T>, filters: SearchParams) =>
    everyPage(`${API}/${collection}`, pageCap, (page) => listPage(collection, item, filters, { page, perPage }));

  return {
    listOrdersPage: async (query, page) => listPage('orders', orderSchema, orderFilters(query), page),
    listOrders: async (query = {}) => listAll('orders', orderSchema, orderFilters(query)),
    getOrder: async (id) => getOne('orders', 'order', 'order_', id, orderSchema),
    getQuote: async (id) => getOne('quotes', 'quote', 'quote_', id, quoteSchema),
    // `/payment` is the provider's path; `/payments` is an alias of it.
    listPaymentsPage: async (query, page) => listPage('payment', paymentSchema, paymentFilters(query), page),
    listPayments: async (query = {}) => listAll('payment', paymentSchema, paymentFilters(query)),
    getPayment: async (id) => getOne('payment', 'payment', 'payt_', id, paymentSchema),
    getSettlement: async (id) => getOne('settlements', 'settlement', 'setl_', id, settlementSchema),
    listRefunds: async (query = {}) => listAll('refunds', refundSchema, compact(windowOf(query))),
    listCustomers: async (query = {}) => listAll('customers', customerSchema, compact(windowOf(query))),
    getCustomer: async (id) => getOne('customers', 'customer', 'cust_', id, customerSchema),
    getBalances: async () => getJson(`${API}/balances`, balancesSchema),
    getMidRate: async () =>
      getJson(`${API}/fx_rates`, midRateSchema, { source_currency: 'INR', target_currency: 'USD' }),
  };
}

type NotFound = { resource: RemitResource; id: string };

/** Remit's refusals typed: 401/403 RemitAuthError, 404 on a named object RemitNotFoundError, other 4xx RemitApiError. */
function typed(error: unknown, notFound?: NotFound): unknown {
  if (!(error instanceof UpstreamError) || error.status === null) return error;
  if (error.status === 401 || error.status === 403) return new RemitAuthError(error);
  if (error.status === 404 && notFound !== undefined)
    return new RemitNotFoundError(error, notFound.resource, notFound.id);
  if (error.status >= 400 && error.status < 500) return new RemitApiError(error);
  // 5xx after the retries: the transport's error, with remit's detail when it sent one.
  return error;
}

function source(path: string): PayloadSource {
  return { upstream: UPSTREAM, method: 'GET', path };
}

/** The page must be the one asked for, within its size, and point forward (or nowhere). */
function checkPageAnswer<T>(answer: RemitPage<T>, asked: RemitPageRequest, at: PayloadSource): RemitPage<T> {
  const fail = (field: string, problem: string): never => {
    throw new UpstreamPayloadError(at.upstream, at.method, at.path, field, problem);
  };
  const meta = answer.page_meta;
  if (meta.current !== asked.page) fail('page_meta.current', 'is not the page asked for');
  if (answer.data.length > asked.perPage) fail('data', `holds more than the ${asked.perPage} records asked for`);
  if (meta.next !== null && meta.next <= meta.current) fail('page_meta.next', 'does not point past the current page');
  return answer;
}

function checkPage(page: RemitPageRequest): void {
  if (!Number.isInteger(page.page) || page.page < 1) throw new RangeError('remit: page must be a whole number from 1');
  checkPerPage(page.perPage);
}

function checkPerPage(perPage: number): number {
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > REMIT_PER_PAGE_MAX) {
    throw new RangeError(
      `remit: per_page must be a whole number from 1 to ${REMIT_PER_PAGE_MAX} (remit answers 400 above it)`,
    );
  }
  return perPage;
}

function checkId(resource: RemitResource, prefix: string, id: string): string {
  if (typeof id !== 'string' || !id.startsWith(prefix) || id.length === prefix.length) {
    throw new RangeError(`remit: a ${resource} id starts with ${prefix}`);
  }
  return id;
}

function windowOf(window: RemitCreatedWindow): Record<string, string | undefined> {
  for (const [name, value] of Object.entries({ before: window.before, after: window.after })) {
    if (value !== undefined && Number.isNaN(Date.parse(value)))
      throw new RangeError(`remit: ${name} must be an ISO-8601 time`);
  }
  return { before: window.before, after: window.after };
}

function compact(params: Record<string, string | number | undefined>): SearchParams {
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined),
  );
}

function checkOptions(options: RemitClientOptions): void {
  // Names only: a bad value may be a credential pasted in the wrong variable.
  try {
    new URL(options.baseUrl);
  } catch {
    throw new RangeError('remit: baseUrl is not a URL');
  }
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new RangeError('remit: apiKey is required');
  if (options.pageCap !== undefined && (!Number.isInteger(options.pageCap) || options.pageCap < 1))
    throw new RangeError('remit: pageCap must be a whole number above 0');
}
