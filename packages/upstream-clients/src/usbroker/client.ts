import type { z } from 'zod';
import {
  createUpstreamHttp,
  retryOptionsOf,
  UpstreamError,
  type SearchParams,
  type UpstreamHttp,
  type UpstreamRetryOptions,
} from '../http.js';
import { parsePayload, UpstreamPayloadError, type PayloadSource } from '../payload-error.js';
import { parseDailyLedger } from './daily-ledger.js';
import {
  UsbrokerAuthError,
  UsbrokerNotFoundError,
  UsbrokerPageCapError,
  usbrokerErrorDetail,
  type UsbrokerResource,
} from './errors.js';
import {
  accountSchema,
  balanceSchema,
  orderPreviewSchema,
  ordersPageSchema,
  positionsSchema,
  quotesSchema,
  statementSchema,
  tokenSchema,
  wiresPageSchema,
} from './schemas.js';
import { createTokenSource, type TokenSource } from './token.js';
import type {
  IsoDate,
  IsoMonth,
  UsbrokerAccount,
  UsbrokerBalance,
  UsbrokerDailyLedgerRow,
  UsbrokerMonthlyStatement,
  UsbrokerOrder,
  UsbrokerOrderPreview,
  UsbrokerOrderPreviewRequest,
  UsbrokerOrderStatus,
  UsbrokerPosition,
  UsbrokerQuote,
  UsbrokerWire,
  UsbrokerWireDirection,
} from './types.js';
import { ifConfigured } from '../configured.js';

const UPSTREAM = 'usbroker';

/** Largest `limit` of one orders or wires page (the broker's default and maximum). */
export const USBROKER_PAGE_LIMIT_MAX = 100;
/** Pages one cursor walk reads at most (100,000 records at the maximum limit). */
export const USBROKER_PAGE_CAP = 1_000;
/** Symbols asked for in one quotes call; longer lists are split. */
export const USBROKER_QUOTE_SYMBOLS_MAX = 100;

export interface UsbrokerClientOptions extends UpstreamRetryOptions {
  /** The broker's origin, e.g. `https://broker.example` (`USBROKER_BASE_URL`); paths `oauth2/token`, `v1/...` are resolved against it. */
  baseUrl: string;
  /** OAuth client id (`USBROKER_API_KEY`). */
  apiKey: string;
  /** OAuth client secret (`USBROKER_API_SECRET`). */
  apiSecret: string;
  /** Pages one cursor walk reads at most (default USBROKER_PAGE_CAP). */
  pageCap?: number;
  /** Clock for token expiry, in ms (default Date.now); tests move it. */
  now?: () => number;
}

export interface UsbrokerOrdersQuery {
  /** Strictly after this order id; absent: from the first. */
  afterId?: string;
  status?: UsbrokerOrderStatus;
}

export interface UsbrokerWiresQuery {
  /** Strictly after this transfer id; absent: from the first. */
  afterId?: string;
  accountNo?: string;
  direction?: UsbrokerWireDirection;
}

export interface UsbrokerClient {
  getAccount(accountNo: string): Promise<UsbrokerAccount>;
  getBalance(accountNo: string): Promise<UsbrokerBalance>;
  listPositions(accountNo: string): Promise<UsbrokerPosition[]>;
  /** One page of orders, ascending by id, strictly after `afterId`; empty = the end. */
  listOrdersPage(accountNo: string, query?: UsbrokerOrdersQuery & { limit?: number }): Promise<UsbrokerOrder[]>;
  /** Every order after `afterId`, page by page to the empty page; UsbrokerPageCapError past the cap. */
  listOrders(accountNo: string, query?: UsbrokerOrdersQuery): Promise<UsbrokerOrder[]>;
  getMonthlyStatement(accountNo: string, month: IsoMonth): Promise<UsbrokerMonthlyStatement>;
  /** One page of funding wires (firm-wide unless `accountNo`), ascending by id; empty = the end. */
  listWiresPage(query?: UsbrokerWiresQuery & { limit?: number }): Promise<UsbrokerWire[]>;
  /** Every wire after `afterId`, page by page to the empty page; UsbrokerPageCapError past the cap. */
  listWires(query?: UsbrokerWiresQuery): Promise<UsbrokerWire[]>;
  /** Estimated fees of an order. A POST: never retried. */
  previewOrder(request: UsbrokerOrderPreviewRequest): Promise<UsbrokerOrderPreview>;
  /** Last prices; an empty list asks nothing. Symbols the broker does not know are absent from the answer. */
  getQuotes(symbols: readonly string[]): Promise<UsbrokerQuote[]>;
  /** The daily ledger of `date` for `firm`, typed row by row; [] for a day without activity. UsbrokerNotFoundError for an unknown firm. */
  getDailyLedger(date: IsoDate, firm: string): Promise<UsbrokerDailyLedgerRow[]>;
}

type Call<T> = (headers: Record<string, string>) => Promise<T>;
type NotFound = { resource: UsbrokerResource; id: string };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The client when its base URL is set, else null (not configured). */
export const createUsbrokerClientIfConfigured = ifConfigured(createUsbrokerClient);

/**
 * The usbroker client. Credentials stay in this closure: they are sent (the token request's
 * form body, then a bearer token) and never logged, kept on an object, or put in an error.
 */
export function createUsbrokerClient(options: UsbrokerClientOptions): UsbrokerClient {
  checkOptions(options);
  const { apiKey, apiSecret } = options;
  const now = options.now ?? Date.now;
  // What an error body might echo: blanked out of any detail kept (called only once `tokens` exists).
  const secrets = () => [apiKey, apiSecret, tokens.held() ?? ''];
  const http: UpstreamHttp = createUpstreamHttp({
    upstream: UPSTREAM,
    baseUrl: options.baseUrl,
    ...retryOptionsOf(options),
    readErrorDetail: usbrokerErrorDetail(secrets),
  });
  const tokens = createTokenSource(() => requestToken(http, apiKey, apiSecret), now);
  const authorized = <T>(call: Call<T>, notFound?: NotFound) => authorizedCall(tokens, call, notFound);
  const api: UsbrokerApi = {
    http,
    pageCap: options.pageCap ?? USBROKER_PAGE_CAP,
    authorized,
    getJson: async <S extends z.ZodType>(
      path: string,
      schema: S,
      searchParams?: SearchParams,
      notFound?: NotFound,
    ): Promise<z.output<S>> => {
      const answer = await authorized((headers) => http.getJson(path, searchParams, { headers }), notFound);
      return parsePayload(schema, answer, source('GET', path));
    },
  };
  return { ...accountEndpoints(api), ...firmEndpoints(api) };
}

/** The client credentials grant: a refused client is UsbrokerAuthError. */
async function requestToken(
  http: UpstreamHttp,
  apiKey: string,
  apiSecret: string,
): Promise<{ accessToken: string; expiresInMs: number }> {
  const path = 'oauth2/token';
  let answer: unknown;
  try {
    // A token request changes nothing upstream: safe to retry on a 5xx or a network error.
    answer = await http.postForm(
      path,
      { grant_type: 'client_credentials', client_id: apiKey, client_secret: apiSecret },
      { idempotent: true },
    );
  } catch (error) {
    // RFC 6749 §5.2: a refused client is 400 (invalid_client, invalid_grant) or 401.
    if (error instanceof UpstreamError && (error.status === 400 || error.status === 401 || error.status === 403)) {
      throw new UsbrokerAuthError(error);
    }
    throw error;
  }
  const token = parsePayload(tokenSchema, answer, { upstream: UPSTREAM, method: 'POST', path });
  return { accessToken: token.access_token, expiresInMs: token.expires_in * 1000 };
}

/** Runs `call` with a bearer token; a 401 gets one more try with a fresh token (the held one may have been revoked). */
async function withToken<T>(tokens: TokenSource, call: Call<T>): Promise<T> {
  const token = await tokens.get();
  try {
    return await call(bearer(token));
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.status !== 401) throw error;
    tokens.invalidate(token);
    return await call(bearer(await tokens.get()));
  }
}

/** `withToken`, with the broker's refusals typed: 401/403 UsbrokerAuthError, 404 UsbrokerNotFoundError. */
async function authorizedCall<T>(tokens: TokenSource, call: Call<T>, notFound?: NotFound): Promise<T> {
  try {
    return await withToken(tokens, call);
  } catch (error) {
    if (!(error instanceof UpstreamError) || error instanceof UsbrokerAuthError) throw error;
    if (error.status === 401 || error.status === 403) throw new UsbrokerAuthError(error);
    if (error.status === 404 && notFound !== undefined)
      throw new UsbrokerNotFoundError(error, notFound.resource, notFound.id);
    throw error;
  }
}

/** What the endpoints call the broker through: its API with a bearer token, its refusals typed. */
interface UsbrokerApi {
  http: UpstreamHttp;
  pageCap: number;
  authorized<T>(call: Call<T>, notFound?: NotFound): Promise<T>;
  getJson<S extends z.ZodType>(
    path: string,
    schema: S,
    searchParams?: SearchParams,
    notFound?: NotFound,
  ): Promise<z.output<S>>;
}

const accountPath = (accountNo: string, rest = '') =>
  `v1/accounts/${encodeURIComponent(required('accountNo', accountNo))}${rest}`;
const asAccount = (accountNo: string) => ({ resource: 'account' as const, id: accountNo });

/** The endpoints of one customer account: the account, its balance, positions, orders and statements. */
function accountEndpoints({
  getJson,
  pageCap,
}: UsbrokerApi): Pick<
  UsbrokerClient,
  'getAccount' | 'getBalance' | 'listPositions' | 'listOrdersPage' | 'listOrders' | 'getMonthlyStatement'
> {
  const listOrdersPage: UsbrokerClient['listOrdersPage'] = async (accountNo, query = {}) => {
    const path = accountPath(accountNo, '/orders');
    const page = await getJson(
      path,
      ordersPageSchema,
      compact({ after_id: query.afterId, status: query.status, limit: pageLimit(query.limit) }),
      asAccount(accountNo),
    );
    return checkPage(page, (order) => order.order_id, query.afterId, pageLimit(query.limit), source('GET', path));
  };
  return {
    getAccount: async (accountNo) => {
      const path = accountPath(accountNo);
      const account = await getJson(path, accountSchema, undefined, asAccount(accountNo));
      if (account.account_no !== accountNo)
        throw payloadError('GET', path, 'account_no', 'names another account than the one asked for');
      return account;
    },
    getBalance: async (accountNo) =>
      getJson(accountPath(accountNo, '/balance'), balanceSchema, undefined, asAccount(accountNo)),
    listPositions: async (accountNo) =>
      getJson(accountPath(accountNo, '/positions'), positionsSchema, undefined, asAccount(accountNo)),
    listOrdersPage,
    listOrders: async (accountNo, query = {}) =>
      walk(
        pageCap,
        accountPath(accountNo, '/orders'),
        query.afterId,
        (afterId) => listOrdersPage(accountNo, { ...query, afterId }),
        (order) => order.order_id,
      ),
    getMonthlyStatement: async (accountNo, month) => {
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new RangeError('usbroker: month must be YYYY-MM');
      const path = accountPath(accountNo, '/statement');
      const statement = await getJson(path, statementSchema, { month }, asAccount(accountNo));
      if (statement.account_no !== accountNo)
        throw payloadError('GET', path, 'account_no', 'names another account than the one asked for');
      if (statement.month !== month)
        throw payloadError('GET', path, 'month', 'names another month than the one asked for');
      return statement;
    },
  };
}

/** The firm's endpoints: its funding wires, order previews, quotes, and its daily ledger. */
function firmEndpoints({
  http,
  pageCap,
  authorized,
  getJson,
}: UsbrokerApi): Pick<UsbrokerClient, 'listWiresPage' | 'listWires' | 'previewOrder' | 'getQuotes' | 'getDailyLedger'> {
  const listWiresPage: UsbrokerClient['listWiresPage'] = async (query = {}) => {
    const path = 'v1/funding/wires';
    const page = await getJson(
      path,
      wiresPageSchema,
      compact({
        after_id: query.afterId,
        account_no: query.accountNo,
        direction: query.direction,
        limit: pageLimit(query.limit),
      }),
    );
    return checkPage(page, (wire) => wire.transfer_id, query.afterId, pageLimit(query.limit), source('GET', path));
  };
  return {
    listWiresPage,
    listWires: async (query = {}) =>
      walk(
        pageCap,
        'v1/funding/wires',
        query.afterId,
        (afterId) => listWiresPage({ ...query, afterId }),
        (wire) => wire.transfer_id,
      ),
    previewOrder: async (request) => {
      checkPreviewRequest(request);
      const path = 'v1/orders/preview';
      const answer = await authorized(
        (headers) => http.postJson(path, request, { headers }),
        asAccount(request.account_no),
      );
      return parsePayload(orderPreviewSchema, answer, source('POST', path));
    },
    getQuotes: async (symbols) => {
      const quotes: UsbrokerQuote[] = [];
      for (const batch of chunks(
        symbols.map((symbol) => checkSymbol(symbol)),
        USBROKER_QUOTE_SYMBOLS_MAX,
      )) {
        quotes.push(...(await getJson('v1/quotes', quotesSchema, { symbols: batch.join(',') })));
      }
      return quotes;
    },
    getDailyLedger: async (date, firm) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError('usbroker: date must be YYYY-MM-DD');
      const path = 'v1/reports/daily-ledger';
      const csv = await authorized(
        (headers) =>
          http.getText(path, { date, firm: required('firm', firm) }, { headers: { ...headers, accept: 'text/csv' } }),
        { resource: 'firm', id: firm },
      );
      return parseDailyLedger(csv, { date, firm }, source('GET', path));
    },
  };
}

function source(method: string, path: string): PayloadSource {
  return { upstream: UPSTREAM, method, path };
}

function payloadError(method: string, path: string, field: string, problem: string): UpstreamPayloadError {
  return new UpstreamPayloadError(UPSTREAM, method, path, field, problem);
}

/**
 * A page must move forward: at most `limit` records, none repeated, none at or before the
 * cursor it was asked from (ids are opaque, so "before" is only checked as "equal").
 */
function checkPage<T>(
  page: T[],
  idOf: (record: T) => string,
  afterId: string | undefined,
  limit: number,
  at: PayloadSource,
): T[] {
  if (page.length > limit) throw payloadError(at.method, at.path, '(body)', `more than the ${limit} records asked for`);
  const ids = new Set<string>();
  page.forEach((record, i) => {
    const id = idOf(record);
    if (id === afterId || ids.has(id))
      throw payloadError(at.method, at.path, `[${i}]`, 'repeats an id already read: the cursor does not move forward');
    ids.add(id);
  });
  return page;
}

/** Follows `after_id` from page to page until an empty page, at most `pageCap` pages. */
async function walk<T>(
  pageCap: number,
  path: string,
  startAfter: string | undefined,
  fetchPage: (afterId: string | undefined) => Promise<T[]>,
  idOf: (record: T) => string,
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let afterId = startAfter;
  for (let pages = 0; ; pages += 1) {
    const page = await fetchPage(afterId);
    if (page.length === 0) return all;
    if (pages + 1 > pageCap) throw new UsbrokerPageCapError(path, pageCap, afterId ?? '');
    for (const [i, record] of page.entries()) {
      const id = idOf(record);
      if (seen.has(id))
        throw payloadError('GET', path, `[${i}]`, 'repeats an id of an earlier page: the cursor does not move forward');
      seen.add(id);
      all.push(record);
    }
    afterId = idOf(page[page.length - 1] as T);
  }
}

function pageLimit(limit: number | undefined): number {
  const value = limit ?? USBROKER_PAGE_LIMIT_MAX;
  if (!Number.isInteger(value) || value < 1 || value > USBROKER_PAGE_LIMIT_MAX) {
    throw new RangeError(`usbroker: limit must be a whole number from 1 to ${USBROKER_PAGE_LIMIT_MAX}`);
  }
  return value;
}

function compact(params: Record<string, string | number | undefined>): SearchParams {
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined),
  );
}

function required(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new RangeError(`usbroker: ${name} is required`);
  return value;
}

function checkSymbol(symbol: string): string {
  if (!/^[A-Za-z0-9.\-/]{1,16}$/.test(symbol))
    throw new RangeError('usbroker: a quote symbol is 1 to 16 letters, digits, ".", "-" or "/"');
  return symbol;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function checkPreviewRequest(request: UsbrokerOrderPreviewRequest): void {
  required('account_no', request.account_no);
  checkSymbol(request.symbol);
  if (request.side !== 'BUY' && request.side !== 'SELL') throw new RangeError('usbroker: side must be BUY or SELL');
  const amounts = [request.qty, request.notional].filter((value) => value !== undefined);
  if (amounts.length !== 1 || !/^\d+(\.\d+)?$/.test(amounts[0] ?? '') || !/[1-9]/.test(amounts[0] ?? '')) {
    throw new RangeError('usbroker: an order preview has exactly one of qty and notional, a decimal string above zero');
  }
}

function checkOptions(options: UsbrokerClientOptions): void {
  // Names only: a bad value may be a credential pasted in the wrong variable.
  try {
    new URL(options.baseUrl);
  } catch {
    throw new RangeError('usbroker: baseUrl is not a URL');
  }
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new RangeError('usbroker: apiKey is required');
  if (typeof options.apiSecret !== 'string' || options.apiSecret === '')
    throw new RangeError('usbroker: apiSecret is required');
  if (options.pageCap !== undefined && (!Number.isInteger(options.pageCap) || options.pageCap < 1))
    throw new RangeError('usbroker: pageCap must be a whole number above 0');
}
