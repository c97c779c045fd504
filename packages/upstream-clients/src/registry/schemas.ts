import { z } from 'zod';
import { pageMetaSchema } from '../remit/schemas.js';
import type { RegistryIndiaCustomer, RegistryUaeCustomer } from './types.js';

// What the registry sends, validated at the boundary; unknown fields are dropped.

/** An absent or empty field is "not known": null. */
const known = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value));

const customerId = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'expected a customer id of 1-128 letters, digits, _ . : -');

export const indiaCustomerSchema: z.ZodType<RegistryIndiaCustomer> = z.object({
  customer_id: customerId,
  name: known,
  email: known,
  pan: known,
  remit_customer_id: known,
  usbroker_account_no: known,
  partner_id: known,
  created_at: z.iso
    .datetime({ offset: true })
    .nullish()
    .transform((value) => value ?? null),
});

export const uaeCustomerSchema: z.ZodType<RegistryUaeCustomer> = z.object({
  customer_id: customerId,
  name: known,
  uaefeed_customer_number: known,
  uaefeed_account_number: known,
  uaefeed_cash_accounts: z
    .array(z.string().min(1))
    .nullish()
    .transform((value) => value ?? []),
  custodian_account: known,
});

/** The registry pages like remit: `{data, page_meta}`. */
export const pageSchemaOf = <T>(customer: z.ZodType<T>) =>
  z.object({ data: z.array(customer), page_meta: pageMetaSchema });
