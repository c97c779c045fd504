import { Decimal, formatDecimal, roundToCents, ZERO } from '@ledger/core/posting';
import { customerPositions } from '@ledger/core/reports';
import type { FeatureContext } from '../feature.js';
import { cachedHoldings, HOLDINGS_UPSTREAM } from './holdings.js';
import { presentPosition } from './present.js';

/** Prices per share in USD by symbol, from a snapshot's market values (AED converted at the peg). */
function pricesOf(
  positions: Array<{ symbol: string; quantity: string; market_value: string | null }>,
  currency: string,
  aedPerUsd: Decimal,
) {
  const prices = new Map<string, Decimal | null>();
  for (const p of positions) {
    const quantity = new Decimal(p.quantity);
    if (p.market_value === null || quantity.isZero()) {
      prices.set(p.symbol, null);
      continue;
    }
    const value = new Decimal(p.market_value);
    prices.set(p.symbol, (currency === 'AED' ? value.dividedBy(aedPerUsd) : value).dividedBy(quantity));
  }
  return prices;
}

/**
 * The customer's positions at cost (the journal), valued where a price is known: the last
 * snapshot of the book's upstream gives market value per share. Reporting only: the ledger
 * stays cost-only. No upstream is called (holdings is the live view).
 */
export async function portfolioOf(context: FeatureContext, customerId: string) {
  const upstream = HOLDINGS_UPSTREAM[context.config.book];
  const [positions, snapshot] = await Promise.all([
    customerPositions(context.db, customerId),
    cachedHoldings(context, customerId, upstream),
  ]);
  const prices = snapshot === null ? null : pricesOf(snapshot.positions, snapshot.currency, context.config.aedPerUsd);
  let cost = ZERO;
  let marketValue = ZERO;
  let unpriced = 0;
  const items = positions.map((position) => {
    cost = cost.plus(position.cost_usd);
    const price = prices?.get(position.symbol) ?? null;
    if (price === null) {
      unpriced += 1;
      const reason =
        prices === null ? 'no_snapshot' : prices.has(position.symbol) ? 'no_market_value' : 'not_in_snapshot';
      return { ...presentPosition(position), price_usd: null, market_value_usd: null, unpriced_reason: reason };
    }
    const value = roundToCents(price.times(position.quantity));
    marketValue = marketValue.plus(value);
    return {
      ...presentPosition(position),
      price_usd: price.decimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(),
      market_value_usd: formatDecimal(value),
      unpriced_reason: null,
    };
  });
  return {
    customer_id: customerId,
    prices: snapshot === null ? null : { upstream, as_of: snapshot.as_of, taken_at: snapshot.taken_at },
    items,
    totals: { cost_usd: formatDecimal(cost), market_value_usd: formatDecimal(marketValue), unpriced_count: unpriced },
  };
}
