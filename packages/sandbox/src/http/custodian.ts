import type { IncomingMessage } from 'node:http';
import { isIsoDate, isIsoMonth } from '../data/dates.js';
import type { RegistryCustomer, SandboxDataset } from '../data/generate.js';
import { custodianAccount, custodianCashStatement, custodianHoldings, custodianTransactions } from '../data/views.js';
import { bearerOf, encodeJson, intParam, paginate, type Reply, type UpstreamHandler } from './common.js';

export const CUSTODIAN_PER_PAGE_DEFAULT = 100;
export const CUSTODIAN_PER_PAGE_MAX = 500;

const error = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: { code, message } },
});

/** A page of `all` as `page` and `per_page` ask (400 when out of range), in the custodian's envelope. */
function paged(url: URL, all: readonly unknown[]): Reply {
  const page = intParam(url, 'page', 1, 1, 1_000_000);
  const perPage = intParam(url, 'per_page', CUSTODIAN_PER_PAGE_DEFAULT, 1, CUSTODIAN_PER_PAGE_MAX);
  if (page === null || perPage === null)
    return error(400, 'invalid_request', `page is 1 or more, per_page 1-${CUSTODIAN_PER_PAGE_MAX}`);
  const slice = paginate(all, page, perPage);
  return {
    status: 200,
    body: { data: slice.items, page, per_page: perPage, total: slice.total, next_page: slice.next },
  };
}

/** The custodian sandbox: bearer API key, `{data, page, per_page, total, next_page}` paging, AED only. */
export function createCustodianHandler(dataset: SandboxDataset, apiKey: string): UpstreamHandler {
  function customerOf(url: URL): RegistryCustomer | null {
    const account = url.searchParams.get('account');
    const customer = account === null ? undefined : dataset.find(account);
    return customer !== undefined && customer.custodian_account === account ? customer : null;
  }

  type Read = (url: URL) => Reply;
  /** A read about one account: `account` must name one. */
  const ofAccount =
    (read: (customer: RegistryCustomer, url: URL) => Reply): Read =>
    (url) => {
      if (!url.searchParams.get('account')) return error(400, 'invalid_request', 'account is required');
      const customer = customerOf(url);
      return customer === null ? error(404, 'account_not_found', 'no such account') : read(customer, url);
    };

  const reads: Record<string, Read> = {
    '/accounts': (url) =>
      paged(
        url,
        dataset.customers.map((customer) => custodianAccount({ customer }, dataset.period.from)),
      ),
    '/holdings': ofAccount((customer, url) => {
      const asOf = url.searchParams.get('as_of') ?? '';
      if (!isIsoDate(asOf)) return error(400, 'invalid_request', 'as_of is YYYY-MM-DD');
      return { status: 200, body: custodianHoldings(dataset.config, dataset.dataOf(customer), asOf) };
    }),
    '/transactions': ofAccount((customer, url) => {
      const from = url.searchParams.get('from') ?? undefined;
      const to = url.searchParams.get('to') ?? undefined;
      if ((from !== undefined && !isIsoDate(from)) || (to !== undefined && !isIsoDate(to))) {
        return error(400, 'invalid_request', 'from and to are YYYY-MM-DD');
      }
      const all = custodianTransactions(dataset.config, dataset.dataOf(customer)).filter(
        (t) => (from === undefined || t.trade_date >= from) && (to === undefined || t.trade_date <= to),
      );
      return paged(url, all);
    }),
    '/statements/cash': ofAccount((customer, url) => {
      const month = url.searchParams.get('month') ?? '';
      if (!isIsoMonth(month)) return error(400, 'invalid_request', 'month is YYYY-MM');
      return { status: 200, body: custodianCashStatement(dataset.dataOf(customer), month) };
    }),
  };

  async function answer(req: IncomingMessage, url: URL): Promise<Reply> {
    const key = bearerOf(req);
    if (key === null || key !== apiKey) return error(401, 'unauthorized', 'API key is missing or wrong');
    const read = reads[url.pathname];
    if (read === undefined) return error(404, 'not_found', 'no such endpoint');
    if (req.method !== 'GET') return error(405, 'method_not_allowed', 'GET only');
    return read(url);
  }

  return {
    name: 'custodian',
    customerOf,
    answer,
    internalError: () => error(500, 'internal_error', 'internal error'),
    canExpireToken: (req) => bearerOf(req) !== null,
    // The key itself stays valid (it cannot be renewed by the client): only this answer is 401.
    expireToken: () => error(401, 'token_expired', 'API key expired'),
    encode: encodeJson,
  };
}
