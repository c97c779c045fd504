import { z } from 'zod';
import { createUpstreamHttp, retryOptionsOf, UpstreamError, type SearchParams, type UpstreamHttp } from '../http.js';
import { UpstreamPayloadError, type PayloadSource } from '../payload-error.js';
import { UAEFEED_REFRESH_MARGIN_MS, UaefeedTokens } from './auth.js';
import { readEnvelope, readEnvelopeDetail } from './envelope.js';
import { parseLossless } from './lossless.js';
import {
  cashStatementSchema,
  cashSummarySchema,
  cashTransferSchema,
  holdingsStatementSchema,
  listOf,
  orderSchema,
  pageSchema,
} from './schemas.js';
import type { UaefeedClient, UaefeedClientConfig, UaefeedListQuery, UaefeedMonthQuery } from './types.js';
import { ifConfigured } from '../configured.js';

export const UAEFEED_PATHS = {
  cashTransfers: 'v1.2/cash/transfers',
  orders: 'v1.2/order/list',
  cashSummary: 'v1.2/cash/summary',
  cashStatement: 'v1.2/statement/cash',
  holdingsStatement: 'v1.2/statement/positions',
} as const;

/** Records asked for per page of a list, by default and at most (the sandbox refuses more). */
export const UAEFEED_PAGE_SIZE = 500;
export const UAEFEED_PAGE_SIZE_MAX = 1_000;
/** A list longer than this many pages is refused, not truncated: 100 × 500 records per customer call. */
export const UAEFEED_PAGES_MAX = 100;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Retries: after a timeout or a 5xx only (a refused connection is not retried). */
const RETRIED_ERROR_CODES = ['ETIMEDOUT'] as const;

function requireText(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`uaefeed: ${option} is required`);
  return value;
}

/** A programming error, not an upstream failure: the caller's query is checked before any call. */
function checkListQuery(query: UaefeedListQuery): void {
  requireText(query.customerNumber, 'customerNumber');
  for (const date of [query.fromDate, query.toDate]) {
    if (date !== undefined && !ISO_DATE.test(date)) throw new TypeError('uaefeed: fromDate and toDate are YYYY-MM-DD');
  }
}

function checkMonthQuery(query: UaefeedMonthQuery): void {
  requireText(query.customerNumber, 'customerNumber');
  if (!Number.isInteger(query.month) || query.month < 1 || query.month > 12)
    throw new TypeError('uaefeed: month is 1-12');
  if (!Number.isInteger(query.year) || query.year < 1900 || query.year > 9999)
    throw new TypeError('uaefeed: year is four digits');
}

/** The credentials of the token chain, each required. */
function credentialsOf(config: UaefeedClientConfig) {
  return {
    appKey: requireText(config.appKey, 'appKey'),
    appSecret: requireText(config.appSecret, 'appSecret'),
    privateKeyPem: requireText(config.privateKeyPem, 'privateKeyPem'),
    instCode: requireText(config.instCode, 'instCode'),
    userId: config.userId ?? config.instCode,
  };
}

/** Records asked for per page: 1 to UAEFEED_PAGE_SIZE_MAX, the most the feed serves. */
function checkPageSize(pageSize: number): number {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > UAEFEED_PAGE_SIZE_MAX) {
    throw new Error(`uaefeed: pageSize is 1-${UAEFEED_PAGE_SIZE_MAX}`);
  }
  return pageSize;
}

/** A list query (checked) as the feed's search parameters. */
function listParams(query: UaefeedListQuery): SearchParams {
  checkListQuery(query);
  return {
    customerNumber: query.customerNumber,
    ...(query.fromDate === undefined ? {} : { fromDate: query.fromDate }),
    ...(query.toDate === undefined ? {} : { toDate: query.toDate }),
  };
}

/** A GET with the bearer token; a 401 renews the token and tries once more. */
async function getWithToken(
  http: UpstreamHttp,
  tokens: UaefeedTokens,
  path: string,
  searchParams: SearchParams,
): Promise<{ body: unknown; raw: string }> {
  const source: PayloadSource = { upstream: 'uaefeed', method: 'GET', path };
  for (let attempt = 1; ; attempt++) {
    const token = await tokens.accessToken();
    let raw: string;
    try {
      raw = await http.getText(path, searchParams, { headers: { authorization: `Bearer ${token}` } });
    } catch (error) {
      if (attempt === 1 && error instanceof UpstreamError && error.status === 401) {
        tokens.expire(token);
        continue;
      }
      throw error;
    }
    let body: unknown;
    try {
      body = parseLossless(raw);
    } catch {
      throw new UpstreamError(source.upstream, 'bad_response', 200, source.method, path, 1, 'ERR_BODY_PARSE_FAILURE');
    }
    return { body, raw };
  }
}

/**
 * The uaefeed client: the token chain of auth.ts, every answer's envelope checked, every JSON
 * number read losslessly into a decimal string, lists followed to their end (at most
 * UAEFEED_PAGES_MAX pages). Errors: UpstreamError (HTTP, timeout, network), UaefeedRejectedError
 * (status FAILED), UpstreamPayloadError (a field that fails validation). None carries a credential.
 */
export function createUaefeedClient(config: UaefeedClientConfig): UaefeedClient {
  const baseUrl = requireText(config.baseUrl, 'baseUrl');
  const credentials = credentialsOf(config);
  const pageSize = checkPageSize(config.pageSize ?? UAEFEED_PAGE_SIZE);
  const http = createUpstreamHttp({
    upstream: 'uaefeed',
    baseUrl,
    ...retryOptionsOf(config),
    retryErrorCodes: RETRIED_ERROR_CODES,
    readErrorDetail: readEnvelopeDetail,
  });
  const tokens = new UaefeedTokens(
    http,
    credentials,
    config.now ?? Date.now,
    config.refreshMarginMs ?? UAEFEED_REFRESH_MARGIN_MS,
  );

  const get = (path: string, searchParams: SearchParams) => getWithToken(http, tokens, path, searchParams);

  async function listAll<S extends z.ZodType>(path: string, params: SearchParams, item: S): Promise<z.output<S>[]> {
    const source: PayloadSource = { upstream: 'uaefeed', method: 'GET', path };
    const schema = pageSchema.extend({ list: z.array(item) });
    const items: z.output<S>[] = [];
    for (let pageNumber = 1; pageNumber <= UAEFEED_PAGES_MAX; pageNumber++) {
      const { body } = await get(path, { ...params, pageNumber, pageSize });
      const page = readEnvelope(schema, body, source);
      if (page.pageNumber !== pageNumber) {
        throw new UpstreamPayloadError('uaefeed', 'GET', path, 'pageNumber', `expected page ${pageNumber}`);
      }
      items.push(...(page.list as z.output<S>[]));
      if (!page.hasNextPage) return items;
      if (page.list.length === 0) {
        throw new UpstreamPayloadError('uaefeed', 'GET', path, 'hasNextPage', 'an empty page says more pages follow');
      }
    }
    throw new UpstreamPayloadError(
      'uaefeed',
      'GET',
      path,
      'hasNextPage',
      `more than ${UAEFEED_PAGES_MAX} pages of ${pageSize} records (the page cap)`,
    );
  }

  async function monthStatement<S extends z.ZodType>(path: string, query: UaefeedMonthQuery, schema: S) {
    checkMonthQuery(query);
    const { body, raw } = await get(path, {
      month: query.month,
      year: query.year,
      customerNumber: query.customerNumber,
    });
    const statement: z.output<S> = readEnvelope(schema, body, { upstream: 'uaefeed', method: 'GET', path });
    return { statement, raw };
  }

  return {
    upstream: 'uaefeed',
    listCashTransfers: (query) => listAll(UAEFEED_PATHS.cashTransfers, listParams(query), cashTransferSchema),
    listOrders: (query) => listAll(UAEFEED_PATHS.orders, listParams(query), orderSchema),
    async getCashSummary(customerNumber) {
      requireText(customerNumber, 'customerNumber');
      const path = UAEFEED_PATHS.cashSummary;
      const { body } = await get(path, { customerNumber });
      return readEnvelope(listOf(cashSummarySchema), body, { upstream: 'uaefeed', method: 'GET', path }).list;
    },
    getCashStatement: (query) => monthStatement(UAEFEED_PATHS.cashStatement, query, cashStatementSchema),
    getHoldingsStatement: (query) => monthStatement(UAEFEED_PATHS.holdingsStatement, query, holdingsStatementSchema),
  };
}

/** The client when its base URL is set, else null (not configured). */
export const createUaefeedClientIfConfigured = ifConfigured(createUaefeedClient);
