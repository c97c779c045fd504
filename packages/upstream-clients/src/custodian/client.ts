import type { z } from 'zod';
import { createUpstreamHttp, retryOptionsOf, type SearchParams, type UpstreamErrorDetail } from '../http.js';
import { parsePayload, UpstreamPayloadError, type PayloadSource } from '../payload-error.js';
import { accountSchema, cashStatementSchema, holdingsSchema, pagedSchema, transactionSchema } from './schemas.js';
import type { CustodianClient, CustodianClientConfig, CustodianTransactionQuery } from './types.js';
import { ifConfigured } from '../configured.js';

export const CUSTODIAN_PATHS = {
  accounts: 'accounts',
  holdings: 'holdings',
  transactions: 'transactions',
  cashStatement: 'statements/cash',
} as const;

/** Records asked for per page, by default and at most (the sandbox refuses more). */
export const CUSTODIAN_PER_PAGE = 500;
export const CUSTODIAN_PER_PAGE_MAX = 500;
/** A list longer than this many pages is refused, not truncated. */
export const CUSTODIAN_PAGES_MAX = 100;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DETAIL_LENGTH_MAX = 200;
/** Retries: after a timeout or a 5xx only. */
const RETRIED_ERROR_CODES = ['ETIMEDOUT'] as const;

function requireText(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`custodian: ${option} is required`);
  return value;
}

/** `{"error": {"code", "message"}}` of an error answer, for UpstreamError.detail. */
function readErrorDetail(body: unknown): UpstreamErrorDetail | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const detail: Record<string, string> = {};
  for (const key of ['code', 'message'] as const) {
    const value = (error as Record<string, unknown>)[key];
    if (typeof value === 'string') detail[key] = value.slice(0, DETAIL_LENGTH_MAX);
  }
  return Object.keys(detail).length === 0 ? null : detail;
}

/**
 * The custodian client: bearer API key, lists followed through `next_page` to their end (at
 * most CUSTODIAN_PAGES_MAX pages), every answer validated. Errors: UpstreamError (HTTP, timeout,
 * network; `detail` holds the custodian's error code), UpstreamPayloadError (a field that fails
 * validation). None carries the key.
 */
export function createCustodianClient(config: CustodianClientConfig): CustodianClient {
  const baseUrl = requireText(config.baseUrl, 'baseUrl');
  const apiKey = requireText(config.apiKey, 'apiKey');
  const perPage = config.perPage ?? CUSTODIAN_PER_PAGE;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > CUSTODIAN_PER_PAGE_MAX) {
    throw new Error(`custodian: perPage is 1-${CUSTODIAN_PER_PAGE_MAX}`);
  }
  const http = createUpstreamHttp({
    upstream: 'custodian',
    baseUrl,
    ...retryOptionsOf(config),
    headers: { authorization: `Bearer ${apiKey}` },
    retryErrorCodes: RETRIED_ERROR_CODES,
    readErrorDetail,
  });

  async function getOne<S extends z.ZodType>(path: string, params: SearchParams, schema: S): Promise<z.output<S>> {
    const source: PayloadSource = { upstream: 'custodian', method: 'GET', path };
    return parsePayload(schema, await http.getJson(path, params), source);
  }

  async function listAll<S extends z.ZodType>(path: string, params: SearchParams, item: S): Promise<z.output<S>[]> {
    const schema = pagedSchema(item);
    const items: z.output<S>[] = [];
    let page = 1;
    for (let fetched = 1; fetched <= CUSTODIAN_PAGES_MAX; fetched++) {
      const answer = await getOne(path, { ...params, page, per_page: perPage }, schema);
      if (answer.page !== page)
        throw new UpstreamPayloadError('custodian', 'GET', path, 'page', `expected page ${page}`);
      items.push(...(answer.data as z.output<S>[]));
      if (answer.next_page === null) return items;
      if (answer.next_page <= page) {
        throw new UpstreamPayloadError('custodian', 'GET', path, 'next_page', 'expected a page after the current one');
      }
      page = answer.next_page;
    }
    throw new UpstreamPayloadError(
      'custodian',
      'GET',
      path,
      'next_page',
      `more than ${CUSTODIAN_PAGES_MAX} pages of ${perPage} records (the page cap)`,
    );
  }

  function transactionParams(query: CustodianTransactionQuery): SearchParams {
    requireText(query.account, 'account');
    for (const date of [query.from, query.to]) {
      if (date !== undefined && !ISO_DATE.test(date)) throw new TypeError('custodian: from and to are YYYY-MM-DD');
    }
    return {
      account: query.account,
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
    };
  }

  return {
    upstream: 'custodian',
    listAccounts: () => listAll(CUSTODIAN_PATHS.accounts, {}, accountSchema),
    getHoldings({ account, asOf }) {
      requireText(account, 'account');
      if (!ISO_DATE.test(asOf)) throw new TypeError('custodian: asOf is YYYY-MM-DD');
      return getOne(CUSTODIAN_PATHS.holdings, { account, as_of: asOf }, holdingsSchema);
    },
    listTransactions: (query) => listAll(CUSTODIAN_PATHS.transactions, transactionParams(query), transactionSchema),
    getCashStatement({ account, month }) {
      requireText(account, 'account');
      if (!ISO_MONTH.test(month)) throw new TypeError('custodian: month is YYYY-MM');
      return getOne(CUSTODIAN_PATHS.cashStatement, { account, month }, cashStatementSchema);
    },
  };
}

/** The client when its base URL is set, else null (not configured). */
export const createCustodianClientIfConfigured = ifConfigured(createCustodianClient);
