import { Decimal } from '@ledger/core/posting';
import type { UsbrokerQuote } from '@ledger/upstream-clients';
import { countBy, qty, sum, cents, type IndiaCustomer, type LedgerHoldings, type LiveRead } from './live.js';

export const NAV_STATUSES = ['valued', 'no_link', 'error'] as const;

export interface NavInput {
  customer: IndiaCustomer;
  holdings: LedgerHoldings;
  /** The broker's last prices (of the customer's symbols, perhaps of others too); null when the customer has no broker account. */
  quotes: LiveRead<readonly UsbrokerQuote[]> | null;
}

/** The prices of a customer holding nothing: none needed. */
export const NO_QUOTES: LiveRead<readonly UsbrokerQuote[]> = { value: [] };

/** The symbols a customer holds (non-zero quantity): what NAV asks prices for. */
export const heldSymbols = (holdings: LedgerHoldings) =>
  [...holdings.positions]
    .filter(([, p]) => !p.quantity.isZero())
    .map(([symbol]) => symbol)
    .sort();

/**
 * One customer's net asset value, marked to market (reporting only: the ledger is cost-only):
 * the ledger's shares at the broker's last price, the ledger's cash wallet, cost from 2100.
 * A symbol the broker has no price for is listed in `unpriced_symbols` and left out of
 * market value, unrealized P&L and NAV (never guessed).
 */
function customerNav({ customer, holdings, quotes }: NavInput) {
  const base = { customer_id: customer.customer_id, account_no: customer.account_no, cash_usd: cents(holdings.cash) };
  const cost = sum([...holdings.positions.values()].map((p) => p.cost));
  const unvalued = (status: 'no_link' | 'error', error: string | null) => ({
    ...base,
    status,
    error,
    cost_usd: cents(cost),
    market_value_usd: null,
    unrealized_pnl_usd: null,
    nav_usd: null,
    unpriced_symbols: [],
    positions: [],
  });
  if (quotes === null) return unvalued('no_link', null);
  if (quotes.error !== undefined) return unvalued('error', quotes.error);
  const price = new Map(quotes.value.map((q) => [q.symbol, q.last]));
  const positions = heldSymbols(holdings).map((symbol) => {
    const { quantity, cost: held } = holdings.positions.get(symbol)!;
    const last = price.get(symbol);
    const value = last === undefined ? null : new Decimal(last).times(quantity);
    return {
      symbol,
      quantity: qty(quantity),
      cost_usd: cents(held),
      price_usd: last ?? null,
      market_value_usd: value === null ? null : cents(value),
      unrealized_pnl_usd: value === null ? null : cents(value.minus(held)),
    };
  });
  const priced = positions.filter((p) => p.market_value_usd !== null);
  const marketValue = sum(priced.map((p) => p.market_value_usd!));
  const pricedCost = sum(priced.map((p) => p.cost_usd));
  return {
    ...base,
    status: 'valued' as const,
    error: null,
    cost_usd: cents(cost),
    market_value_usd: cents(marketValue),
    unrealized_pnl_usd: cents(marketValue.minus(pricedCost)),
    nav_usd: cents(holdings.cash.plus(marketValue)),
    unpriced_symbols: positions.filter((p) => p.market_value_usd === null).map((p) => p.symbol),
    positions,
  };
}

/** GET /v1/india/nav: every India customer's NAV and the firm's, the sum over the customers valued. */
export function nav(inputs: readonly NavInput[]) {
  const customers = inputs.map(customerNav);
  const valued = customers.filter((c) => c.status === 'valued');
  const total = (field: 'cash_usd' | 'cost_usd' | 'market_value_usd' | 'unrealized_pnl_usd' | 'nav_usd') =>
    cents(sum(valued.map((c) => c[field] ?? '0')));
  const warnings = [
    ...customers
      .filter((c) => c.status === 'error')
      .map((c) => `${c.customer_id}: not valued, the broker could not be read (${c.error})`),
    ...valued
      .filter((c) => c.unpriced_symbols.length > 0)
      .map((c) => `${c.customer_id}: no broker price for ${c.unpriced_symbols.join(', ')}; left out of market value`),
  ];
  return {
    firm: {
      customers: countBy(NAV_STATUSES, customers),
      cash_usd: total('cash_usd'),
      cost_usd: total('cost_usd'),
      market_value_usd: total('market_value_usd'),
      unrealized_pnl_usd: total('unrealized_pnl_usd'),
      nav_usd: total('nav_usd'),
    },
    customers,
    warnings,
  };
}
