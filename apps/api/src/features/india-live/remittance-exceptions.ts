import type { RemitOrder, RemitOrderStatus } from '@ledger/upstream-clients';
import { countBy, type FirmRead } from './live.js';

/** Actionable first (failed, action_required, under_review), then waiting (pending), then closed (expired, cancelled). */
export const EXCEPTION_CATEGORIES = [
  'failed',
  'action_required',
  'under_review',
  'pending',
  'expired',
  'cancelled',
] as const;
type Category = (typeof EXCEPTION_CATEGORIES)[number];

/** remit's non-paid statuses, each with its category (remit's `active` is an order still waiting: `pending`). */
export const CATEGORY_OF: Record<Exclude<RemitOrderStatus, 'paid'>, Category> = {
  failed: 'failed',
  action_required: 'action_required',
  under_review: 'under_review',
  active: 'pending',
  expired: 'expired',
  cancelled: 'cancelled',
};
export const NON_PAID_STATUSES = Object.keys(CATEGORY_OF) as Array<keyof typeof CATEGORY_OF>;

const DAY_MS = 86_400_000;

/**
 * GET /v1/india/remittance-exceptions: every remit order that is not paid, read live, with its
 * category, actionable first, oldest first within a category; counts per category and per
 * customer. `read` unavailable (remit not configured or unreachable, the UAE book): the empty
 * snapshot with that warning. `customerOf` maps remit's customer id to the book's.
 */
export function remittanceExceptions(
  read: FirmRead<readonly RemitOrder[]>,
  customerOf: ReadonlyMap<string, string>,
  now: Date,
) {
  const orders =
    'unavailable' in read
      ? []
      : read.value.filter((o): o is RemitOrder & { status: keyof typeof CATEGORY_OF } => o.status !== 'paid');
  const rank = (category: Category) => EXCEPTION_CATEGORIES.indexOf(category);
  const items = orders
    .map((o) => ({
      order_id: o.id,
      category: CATEGORY_OF[o.status],
      status: o.status,
      customer_id: customerOf.get(o.customer_id) ?? null,
      remit_customer_id: o.customer_id,
      amount_inr: o.amount,
      purpose_code: o.purpose_code,
      reference_number: o.reference_number,
      created_at: o.created_at,
      updated_at: o.updated_at,
      age_days: Math.max(0, Math.floor((now.getTime() - Date.parse(o.created_at)) / DAY_MS)),
    }))
    .sort(
      (a, b) =>
        rank(a.category) - rank(b.category) ||
        a.created_at.localeCompare(b.created_at) ||
        a.order_id.localeCompare(b.order_id),
    );
  const byCustomer = new Map<string, typeof items>();
  for (const item of items)
    byCustomer.set(item.remit_customer_id, [...(byCustomer.get(item.remit_customer_id) ?? []), item]);
  return {
    warning: 'unavailable' in read ? read.unavailable : null,
    fetched_at: 'unavailable' in read ? null : read.fetchedAt,
    total: items.length,
    by_category: countBy(
      EXCEPTION_CATEGORIES,
      items.map((i) => ({ status: i.category })),
    ),
    by_customer: [...byCustomer]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([remitCustomerId, mine]) => ({
        customer_id: mine[0]!.customer_id,
        remit_customer_id: remitCustomerId,
        total: mine.length,
        by_category: countBy(
          EXCEPTION_CATEGORIES,
          mine.map((i) => ({ status: i.category })),
        ),
      })),
    items,
  };
}
