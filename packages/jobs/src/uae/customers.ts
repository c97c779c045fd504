import { z } from 'zod';
import { customerIdsField } from '../kit/per-customer.js';

/** `customer_ids` and `dry_run`, the fields every UAE sync job takes (spec: Jobs). */
export const customerSelection = {
  customer_ids: customerIdsField.describe(
    'The customers to run for; null or absent: every customer linked to the upstream.',
  ),
  dry_run: z.boolean().optional().describe('Compute and report everything, write nothing. Default false.'),
};

/** `YYYY-MM-DD` of a day `days` before `now` (UTC). */
export function isoDay(now: Date, days = 0): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}
