import type { RegistryCustomer, SandboxDataset } from '../data/generate.js';
import { encodeJson, intParam, pageMetaReply, paginate, type Reply, type UpstreamHandler } from './common.js';

export const REGISTRY_PER_PAGE_DEFAULT = 20;
/** remit-style paging: `per_page` over 100 is a 400. */
export const REGISTRY_PER_PAGE_MAX = 100;

const PREFIX = '/v1/uae/customers';
const INDIA_PREFIX = '/v1/india/customers';
const error = (status: number, code: string, message: string): Reply => ({ status, body: { error: code, message } });

function customerIdOf(url: URL, prefix = PREFIX): string | null {
  if (!url.pathname.startsWith(`${prefix}/`)) return null;
  const id = decodeURIComponent(url.pathname.slice(prefix.length + 1));
  return id === '' || id.includes('/') ? null : id;
}

/**
 * The customer registry (ours): `GET /v1/uae/customers[/{id}]`, remit-style paging
 * (`{data, page_meta: {current, previous, next, per_page, pages, count}}`), flat errors.
 */
export function createRegistryHandler(dataset: SandboxDataset): UpstreamHandler {
  function customerOf(url: URL): Pick<RegistryCustomer, 'customer_id'> | null {
    const indiaId = customerIdOf(url, INDIA_PREFIX);
    if (indiaId !== null) {
      const found = dataset.india.find(indiaId);
      return found !== undefined && found.customer_id === indiaId ? found : null;
    }
    const id = customerIdOf(url);
    const customer = id === null ? undefined : dataset.find(id);
    return customer !== undefined && customer.customer_id === id ? customer : null;
  }

  return {
    name: 'registry',
    customerOf,
    async answer(req, url) {
      if (req.method !== 'GET') return error(405, 'method_not_allowed', 'GET only');
      if (url.pathname === PREFIX || url.pathname === INDIA_PREFIX) {
        const all = url.pathname === PREFIX ? dataset.customers : dataset.india.customers;
        const page = intParam(url, 'page', 1, 1, 1_000_000);
        const perPage = intParam(url, 'per_page', REGISTRY_PER_PAGE_DEFAULT, 1, REGISTRY_PER_PAGE_MAX);
        if (page === null || perPage === null)
          return error(400, 'invalid_request', `page is 1 or more, per_page 1-${REGISTRY_PER_PAGE_MAX}`);
        return pageMetaReply(paginate<unknown>(all, page, perPage));
      }
      if (customerIdOf(url, INDIA_PREFIX) !== null) {
        const customer = customerOf(url);
        return customer === null ? error(404, 'not_found', 'no such customer') : { status: 200, body: customer };
      }
      if (customerIdOf(url) !== null) {
        const customer = customerOf(url);
        return customer === null ? error(404, 'not_found', 'no such customer') : { status: 200, body: customer };
      }
      return error(404, 'not_found', 'no such endpoint');
    },
    internalError: () => error(500, 'internal_error', 'internal error'),
    canExpireToken: () => true,
    expireToken: () => error(401, 'unauthorized', 'token expired'),
    encode: encodeJson,
  };
}
