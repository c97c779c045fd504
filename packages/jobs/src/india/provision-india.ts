import type { z } from 'zod';
import { isPan, LedgerError } from '@ledger/core/posting';
import type { RegistryIndiaCustomer } from '@ledger/upstream-clients';
import { defineJob, type JobDeps } from '../job-settings.js';
import { jobFailure } from '../kit/per-customer.js';
import { reasonText } from '../kit/results.js';
import {
  provisionInputOf,
  provisionResultOf,
  registryOf,
  runProvision,
  type ProvisionInput,
  type RegistryBook,
} from '../kit/provision.js';

export const provisionIndiaInput = provisionInputOf('v1/india/customers', 'IND-000001');
export type ProvisionIndiaInput = ProvisionInput;

const FIELDS = ['name', 'email', 'usbroker_account_no', 'remit_customer_id', 'pan', 'partner_id'] as const;
export const provisionIndiaResult = provisionResultOf('ProvisionIndiaResult', FIELDS);
export type ProvisionIndiaResult = z.infer<typeof provisionIndiaResult>;

/**
 * The India book's registry: name, email, `usbroker_account_no`, `remit_customer_id`, `pan`
 * (format-checked: a PAN that is not one is the customer's failure), `partner_id`.
 */
export const INDIA_REGISTRY: RegistryBook<RegistryIndiaCustomer, (typeof FIELDS)[number]> = {
  kind: 'provision-india',
  path: 'v1/india/customers',
  fields: FIELDS,
  list: (registry) => registry.listIndiaCustomers(),
  get: (registry, id) => registry.getIndiaCustomer(id),
  check: (entry) => {
    if (entry.pan !== null && !isPan(entry.pan)) {
      throw new LedgerError(
        'validation_error',
        'the registry’s pan is not a PAN (five letters, four digits, a letter)',
        [{ field: 'pan' }],
      );
    }
  },
};

/** provision-india (docs/jobs.md#provision-india): India customers from the platform's customer registry onto ledger customers. */
export const runProvisionIndia = (input: ProvisionIndiaInput, deps: JobDeps): Promise<ProvisionIndiaResult> =>
  runProvision(INDIA_REGISTRY, input, deps);

/**
 * Links the registry's customer of a remit customer id the book does not know yet, as
 * provision-india would (the registry is listed: it is keyed by our customer id, not remit's).
 * A remit id no registry customer carries, or a customer that cannot be linked, is a refusal.
 */
export async function linkRemitCustomer(
  remitCustomerId: string,
  deps: JobDeps,
): Promise<{ customerId: string; provisioned: ProvisionIndiaResult }> {
  const registry = registryOf({}, deps);
  const entries = await INDIA_REGISTRY.list(registry).catch((error: unknown) => Promise.reject(jobFailure(error)));
  const entry = entries.find((e) => e.remit_customer_id === remitCustomerId);
  if (entry === undefined)
    throw new LedgerError(
      'not_found',
      `remit customer ${remitCustomerId} is no customer of the registry: nothing linked, nothing synced`,
    );
  const provisioned = await runProvisionIndia({ customer_ids: [entry.customer_id] }, deps);
  const [failure] = provisioned.customers_failed;
  if (failure !== undefined)
    throw new LedgerError(
      'conflict',
      `remit customer ${remitCustomerId} (registry customer ${entry.customer_id}) could not be linked: ${reasonText(failure.reason)}`,
    );
  return { customerId: entry.customer_id, provisioned };
}

export const provisionIndiaJob = defineJob('provision-india', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: the whole customer registry, paged',
  input: provisionIndiaInput,
  result: provisionIndiaResult,
  businessKey: () => null,
  run: runProvisionIndia,
});
