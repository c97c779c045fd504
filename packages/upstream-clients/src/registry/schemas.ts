import { z } from 'zod';
import { pageMetaSchema } from '../remit/schemas.js';
import type { RegistryIndiaCustomer } from './types.js';

// What the registry sends, validated at the boundary; unknown fields are dropped.

/** An absent or empty field is "not known": null. */
const known = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value));

export const indiaCustomerSchema: z.ZodType<RegistryIndiaCustomer> = z.object({
  customer_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'expected a customer id of 1-128 letters, digits, _ . : -'),
  name: known,
  email: known,
  pan: known,
  remit_customer_id: known,
  usbroker_account_no: known,
  partner_id: known,
  created_at: z.iso.datetime({ offset: true }).nullish().transform((value) => value ?? null),
});

/** The registry pages like remit: `{data, page_meta}`. */
export const indiaCustomersPageSchema = z.object({ data: z.array(indiaCustomerSchema), page_meta: pageMetaSchema });
