import type { z } from 'zod';
import type { RegistryUaeCustomer } from '@ledger/upstream-clients';
import { defineJob } from '../job-settings.js';
import {
  provisionInputOf,
  provisionResultOf,
  runProvision,
  type ProvisionInput,
  type RegistryBook,
} from '../kit/provision.js';

export const provisionUaeInput = provisionInputOf('v1/uae/customers', 'UAE-000001');
export type ProvisionUaeInput = ProvisionInput;

const FIELDS = ['name', 'uaefeed_customer_number', 'uaefeed_account_number', 'custodian_account'] as const;
export const provisionUaeResult = provisionResultOf('ProvisionUaeResult', FIELDS);
export type ProvisionUaeResult = z.infer<typeof provisionUaeResult>;

/**
 * The UAE book's registry: name, `uaefeed_customer_number`, `uaefeed_account_number`,
 * `custodian_account` (what the UAE syncs select customers by). The cash accounts are not kept:
 * uaefeed's records name their own, and its suffix their currency.
 */
export const UAE_REGISTRY: RegistryBook<RegistryUaeCustomer, (typeof FIELDS)[number]> = {
  kind: 'provision-uae',
  path: 'v1/uae/customers',
  fields: FIELDS,
  list: (registry) => registry.listUaeCustomers(),
  get: (registry, id) => registry.getUaeCustomer(id),
};

/** provision-uae (docs/jobs.md#provision-uae): UAE customers from the platform's customer registry onto ledger customers, as provision-india does India's. */
export const provisionUaeJob = defineJob('provision-uae', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'decided: as provision-india, the UAE customers of the registry',
  input: provisionUaeInput,
  result: provisionUaeResult,
  businessKey: () => null,
  run: (input, deps) => runProvision(UAE_REGISTRY, input, deps),
});
