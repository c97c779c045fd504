import type { Decimal } from './money.js';

/**
 * An order's filled quantity against what was ordered, wherever an order enters (the uaefeed
 * import and sync, the usbroker sync): a fill above its order is a corrupt record, not a trade,
 * and is refused rather than posted as shares the customer never asked for.
 */
export const FILLED_QUANTITY_RULE = 'at most the quantity ordered';

export function isFillWithinOrder(filled: Decimal, ordered: Decimal): boolean {
  return !filled.isGreaterThan(ordered);
}
