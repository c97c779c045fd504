import { isPan, LedgerError } from '@ledger/core';
import type { RegistryIndiaCustomer } from '@ledger/upstream-clients';
import { defineJob } from './catalog.js';
import { provisionInputOf, runProvision, type ProvisionInput, type ProvisionResult, type RegistryBook } from './provision.js';

export const provisionIndiaInput = provisionInputOf('v1/india/customers', 'IND-000001');
export type ProvisionIndiaInput = ProvisionInput;

const FIELDS = ['name', 'email', 'usbroker_account_no', 'remit_customer_id', 'pan', 'partner_id'] as const;
export type ProvisionIndiaResult = ProvisionResult<(typeof FIELDS)[number]>;

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
      throw new LedgerError('validation_error', 'the registry’s pan is not a PAN (five letters, four digits, a letter)', [{ field: 'pan' }]);
    }
  },
};

/** provision-india (docs/jobs.md#provision-india): India customers from the platform's customer registry onto ledger customers. */
export const runProvisionIndia = (input: ProvisionIndiaInput, deps: Parameters<typeof runProvision>[2]): Promise<ProvisionIndiaResult> => runProvision(INDIA_REGISTRY, input, deps);

export const provisionIndiaJob = defineJob<ProvisionIndiaInput, ProvisionIndiaResult>('provision-india', {
  input: provisionIndiaInput,
  businessKey: () => null,
  run: runProvisionIndia,
});
