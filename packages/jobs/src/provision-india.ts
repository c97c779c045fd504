import { findCustomers, isPan, LedgerError, upsertCustomer, type CustomerInput, type CustomerRow } from '@ledger/core';
import { createRegistryClient, RegistryNotFoundError, type RegistryClient, type RegistryIndiaCustomer } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob, type JobDeps } from './catalog.js';
import { customerIdsField, forEachCustomer, idOfRecord, jobFailure, type CustomerFailure } from './per-customer.js';

export const provisionIndiaInput = z
  .object({
    customer_ids: customerIdsField.describe('Registry customer ids to provision (each read on its own); null or absent: the whole India registry.'),
    dry_run: z.boolean().optional().describe('Report what would change, write nothing.'),
    api_global_base_url: z
      .url({ protocol: /^https?$/ })
      .nullable()
      .optional()
      .describe('Base URL of the customer registry (`GET {api_global_base_url}/v1/india/customers`). Null or absent: the worker’s API_GLOBAL_BASE_URL.'),
  })
  .strict()
  .meta({ examples: [{ customer_ids: ['IND-000001'], dry_run: true, api_global_base_url: null }] });
export type ProvisionIndiaInput = z.infer<typeof provisionIndiaInput>;

/** What provisioning writes of a registry customer: each a column of `customers`. */
const FIELDS = ['name', 'email', 'usbroker_account_no', 'remit_customer_id', 'pan', 'partner_id'] as const;
type Field = (typeof FIELDS)[number];

export interface ProvisionIndiaResult extends Record<string, unknown> {
  dry_run: boolean;
  customers: number;
  /** Customers new to the ledger (would be, in a dry run). */
  created: number;
  /** Known customers with at least one field changed (would be). */
  updated: number;
  unchanged: number;
  /** Per customer written (would be), the fields that change. */
  changes: Array<{ customer_id: string; created: boolean; fields: Field[] }>;
  customers_failed: CustomerFailure[];
}

/**
 * The fields of a registry customer the ledger lacks or holds otherwise. A field the registry
 * does not know (null) is left out, so it never blanks what the ledger knows; a PAN that is not a
 * PAN is the customer's failure.
 */
function changesOf(entry: RegistryIndiaCustomer, known: CustomerRow | undefined): Partial<Record<Field, string>> {
  if (entry.pan !== null && !isPan(entry.pan)) {
    throw new LedgerError('validation_error', 'the registry’s pan is not a PAN (five letters, four digits, a letter)', [{ field: 'pan' }]);
  }
  const changes: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const value = entry[field];
    if (value !== null && value !== (known?.[field] ?? null)) changes[field] = value;
  }
  return changes;
}

function customerInputOf(changes: Partial<Record<Field, string>>): CustomerInput {
  const { name, email, ...references } = changes;
  return { ...(name !== undefined && { name }), ...(email !== undefined && { email }), references };
}

/** The registry customers to provision: each named one read on its own (a 404 is its failure), or the whole list. */
async function registryCustomers(registry: RegistryClient, ids: readonly string[] | null): Promise<{ entries: RegistryIndiaCustomer[]; failed: CustomerFailure[] }> {
  // Without the list there is no customer to fail: the job fails (a refusal for good, anything else retried).
  if (ids === null) return { entries: await registry.listIndiaCustomers().catch((error: unknown) => Promise.reject(jobFailure(error))), failed: [] };
  const entries: RegistryIndiaCustomer[] = [];
  const failed: CustomerFailure[] = [];
  const { failed: unreadable } = await forEachCustomer(
    ids.map((customer_id) => ({ customer_id })),
    idOfRecord,
    async ({ customer_id }) => {
      try {
        entries.push(await registry.getIndiaCustomer(customer_id));
      } catch (error) {
        if (error instanceof RegistryNotFoundError) failed.push({ customer_id, reason: 'not in the customer registry' });
        else throw error;
      }
    },
    () => undefined,
  );
  return { entries, failed: [...failed, ...unreadable] };
}

/**
 * provision-india (docs/jobs.md#provision-india): India customers from the platform's customer
 * registry onto ledger customers: name, email, `usbroker_account_no`, `remit_customer_id`,
 * `pan` (format-checked), `partner_id`; missing customers are created; a field the registry
 * does not know keeps the ledger's value.
 */
export async function runProvisionIndia(input: ProvisionIndiaInput, deps: JobDeps): Promise<ProvisionIndiaResult> {
  const { db, logger, settings } = deps;
  const dryRun = input.dry_run ?? false;
  const baseUrl = input.api_global_base_url ?? settings.apiGlobalBaseUrl;
  // Not a customer's failure: without a registry no customer can be read. Permanent: retrying cannot help.
  if (baseUrl === undefined) throw new LedgerError('validation_error', 'no customer registry: give api_global_base_url, or set API_GLOBAL_BASE_URL on the worker');
  const registry = createRegistryClient({ baseUrl });
  const ids = input.customer_ids ?? null;
  const { entries, failed: unread } = await registryCustomers(registry, ids);
  const known = new Map((await findCustomers(db, entries.map((e) => e.customer_id))).map((c) => [c.customer_id, c]));
  const result: ProvisionIndiaResult = { dry_run: dryRun, customers: ids?.length ?? entries.length, created: 0, updated: 0, unchanged: 0, changes: [], customers_failed: [] };
  const { failed } = await forEachCustomer(
    entries,
    idOfRecord,
    async (entry) => {
      const current = known.get(entry.customer_id);
      const changes = changesOf(entry, current);
      const fields = Object.keys(changes) as Field[];
      if (current !== undefined && fields.length === 0) {
        result.unchanged += 1;
        return;
      }
      // A reference another customer holds is refused here (LedgerError conflict): this customer's failure.
      if (!dryRun) await upsertCustomer(db, entry.customer_id, customerInputOf(changes));
      result[current === undefined ? 'created' : 'updated'] += 1;
      result.changes.push({ customer_id: entry.customer_id, created: current === undefined, fields });
    },
    (done, total) => deps.progress({ done, total, unit: 'customers' }),
  );
  const order = new Map((ids ?? entries.map((e) => e.customer_id)).map((id, i) => [id, i]));
  const byOrder = (a: { customer_id: string }, b: { customer_id: string }) => (order.get(a.customer_id) ?? 0) - (order.get(b.customer_id) ?? 0);
  result.changes.sort(byOrder);
  result.customers_failed = [...unread, ...failed].sort(byOrder);
  logger.info('provision-india done', { dry_run: dryRun, created: result.created, updated: result.updated, failed: result.customers_failed.length });
  return result;
}

export const provisionIndiaJob = defineJob<ProvisionIndiaInput, ProvisionIndiaResult>('provision-india', {
  input: provisionIndiaInput,
  businessKey: () => null,
  run: runProvisionIndia,
});
