import type { z } from 'zod';
import { ifConfigured } from '../configured.js';
import { createUpstreamHttp, retryOptionsOf, UpstreamError, type UpstreamRetryOptions } from '../http.js';
import { parsePayload, UpstreamPayloadError, type PayloadSource } from '../payload-error.js';
import { remitErrorDetail } from '../remit/errors.js';
import { indiaCustomerSchema, pageSchemaOf, uaeCustomerSchema } from './schemas.js';
import type { RegistryIndiaCustomer, RegistryUaeCustomer } from './types.js';

const UPSTREAM = 'registry';
const INDIA_CUSTOMERS = 'v1/india/customers';
const UAE_CUSTOMERS = 'v1/uae/customers';

/** Largest `per_page` the registry accepts (remit-style: more is a 400); also our default. */
export const REGISTRY_PER_PAGE_MAX = 100;
/** Pages one list walk reads at most (100,000 customers at the maximum per_page). */
export const REGISTRY_PAGE_CAP = 1_000;

export interface RegistryClientOptions extends UpstreamRetryOptions {
  /** The platform's global API (`API_GLOBAL_BASE_URL`, or the job body's `api_global_base_url`). */
  baseUrl: string;
  /** Records per page, 1–100 (default 100). */
  perPage?: number;
  /** Pages one list walk reads at most (default REGISTRY_PAGE_CAP). */
  pageCap?: number;
}

export interface RegistryClient {
  /** Every India customer: pages until `page_meta.next` is null; an Error past the page cap. */
  listIndiaCustomers(): Promise<RegistryIndiaCustomer[]>;
  /** One India customer; RegistryNotFoundError when the registry does not know the id. */
  getIndiaCustomer(customerId: string): Promise<RegistryIndiaCustomer>;
  /** Every UAE customer, as listIndiaCustomers. */
  listUaeCustomers(): Promise<RegistryUaeCustomer[]>;
  /** One UAE customer, as getIndiaCustomer. */
  getUaeCustomer(customerId: string): Promise<RegistryUaeCustomer>;
}

/** 404 on one customer: the registry does not know it (permanent). */
export class RegistryNotFoundError extends UpstreamError {
  override name = 'RegistryNotFoundError';
  constructor(
    cause: UpstreamError,
    readonly customerId: string,
  ) {
    super(cause.upstream, cause.failure, cause.status, cause.method, cause.path, cause.attempts, cause.code);
    this.detail = cause.detail;
    this.message = `${this.message} (unknown customer ${customerId})`;
  }
}

/** The client when its base URL is set, else null (not configured). */
export const createRegistryClientIfConfigured = ifConfigured(createRegistryClient);

/** The customer registry's client (no credential: the registry is on the platform's network). */
export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  try {
    new URL(options.baseUrl);
  } catch {
    throw new RangeError('registry: baseUrl is not a URL');
  }
  const perPage = options.perPage ?? REGISTRY_PER_PAGE_MAX;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > REGISTRY_PER_PAGE_MAX) {
    throw new RangeError(`registry: per_page must be a whole number from 1 to ${REGISTRY_PER_PAGE_MAX}`);
  }
  const pageCap = options.pageCap ?? REGISTRY_PAGE_CAP;
  const http = createUpstreamHttp({
    upstream: UPSTREAM,
    baseUrl: options.baseUrl,
    ...retryOptionsOf(options),
    // The registry's errors are remit's flat shape; it holds no secret to blank out.
    readErrorDetail: remitErrorDetail([]),
  });
  const source = (path: string): PayloadSource => ({ upstream: UPSTREAM, method: 'GET', path });

  /** Every customer of a list: pages until `page_meta.next` is null; an Error past the page cap. */
  async function listAll<T extends { customer_id: string }>(path: string, customer: z.ZodType<T>): Promise<T[]> {
    const pageSchema = pageSchemaOf(customer);
    const byId = new Map<string, T>();
    let page: number | null = 1;
    for (let pages = 0; page !== null; pages += 1) {
      if (pages === pageCap) throw new Error(`registry GET /${path}: more than ${pageCap} pages; stopped`);
      const answer: z.output<typeof pageSchema> = parsePayload(
        pageSchema,
        await http.getJson(path, { page, per_page: perPage }),
        source(path),
      );
      const meta = answer.page_meta;
      const fail = (field: string, problem: string): never => {
        throw new UpstreamPayloadError(UPSTREAM, 'GET', path, field, problem);
      };
      if (meta.current !== page) fail('page_meta.current', 'is not the page asked for');
      if (answer.data.length > perPage) fail('data', `holds more than the ${perPage} records asked for`);
      if (meta.next !== null && meta.next <= meta.current)
        fail('page_meta.next', 'does not point past the current page');
      // A customer met twice (the list moved under us) is kept once.
      for (const entry of answer.data) if (!byId.has(entry.customer_id)) byId.set(entry.customer_id, entry);
      page = meta.next;
    }
    return [...byId.values()];
  }

  /** One customer of a list; RegistryNotFoundError on a 404. */
  async function getOne<T>(path: string, customer: z.ZodType<T>, customerId: string): Promise<T> {
    if (typeof customerId !== 'string' || customerId === '')
      throw new RangeError('registry: a customer id is required');
    let answer: unknown;
    try {
      answer = await http.getJson(`${path}/${encodeURIComponent(customerId)}`);
    } catch (error) {
      throw error instanceof UpstreamError && error.status === 404
        ? new RegistryNotFoundError(error, customerId)
        : error;
    }
    return parsePayload(customer, answer, source(path));
  }

  return {
    listIndiaCustomers: () => listAll(INDIA_CUSTOMERS, indiaCustomerSchema),
    getIndiaCustomer: (customerId) => getOne(INDIA_CUSTOMERS, indiaCustomerSchema, customerId),
    listUaeCustomers: () => listAll(UAE_CUSTOMERS, uaeCustomerSchema),
    getUaeCustomer: (customerId) => getOne(UAE_CUSTOMERS, uaeCustomerSchema, customerId),
  };
}
