import { Decimal, ZERO } from '@ledger/core';
import { countBy, qty, type IndiaCustomer, type LedgerHoldings, type LiveRead } from './live.js';

export const SHARE_STATUSES = ['match', 'mismatch', 'ledger_only', 'usbroker_only'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];
export const HOLDINGS_CUSTOMER_STATUSES = ['compared', 'no_link', 'error'] as const;

export interface ShareTieOut {
  symbol: string;
  status: ShareStatus;
  ledger_quantity: string;
  usbroker_quantity: string;
  /** usbroker − ledger. */
  difference: string;
}

/**
 * A customer's share counts per symbol, the ledger's against the broker's, compared exactly:
 * `match`, `mismatch`, or held on one side only (`ledger_only`, `usbroker_only`). A symbol at
 * zero on both sides is left out. In symbol order.
 */
export function compareShares(
  ledger: ReadonlyMap<string, Decimal>,
  broker: ReadonlyMap<string, Decimal>,
): ShareTieOut[] {
  const rows: ShareTieOut[] = [];
  for (const symbol of [...new Set([...ledger.keys(), ...broker.keys()])].sort()) {
    const held = ledger.get(symbol) ?? ZERO;
    const reported = broker.get(symbol) ?? ZERO;
    if (held.isZero() && reported.isZero()) continue;
    const status: ShareStatus = held.isEqualTo(reported)
      ? 'match'
      : reported.isZero()
        ? 'ledger_only'
        : held.isZero()
          ? 'usbroker_only'
          : 'mismatch';
    rows.push({
      symbol,
      status,
      ledger_quantity: qty(held),
      usbroker_quantity: qty(reported),
      difference: qty(reported.minus(held)),
    });
  }
  return rows;
}

/** The ledger's share counts of `holdings`, by symbol. */
export const ledgerShares = (holdings: LedgerHoldings) =>
  new Map([...holdings.positions].map(([symbol, p]) => [symbol, p.quantity]));

/** The broker's positions as share counts by symbol (a symbol listed twice adds up). */
export function brokerShares(positions: ReadonlyArray<{ symbol: string; qty: string }>): Map<string, Decimal> {
  const shares = new Map<string, Decimal>();
  for (const p of positions) shares.set(p.symbol, (shares.get(p.symbol) ?? ZERO).plus(p.qty));
  return shares;
}

export interface HoldingsReconInput {
  customer: IndiaCustomer;
  holdings: LedgerHoldings;
  /** The broker's positions; null when the customer has no broker account. */
  positions: LiveRead<ReadonlyArray<{ symbol: string; qty: string }>> | null;
}

/** GET /v1/india/holdings-recon: per (customer, symbol) the ledger's share count against the broker's live position. */
export function holdingsRecon(inputs: readonly HoldingsReconInput[]) {
  const customers = inputs.map(({ customer, holdings, positions }) => {
    const base = { customer_id: customer.customer_id, account_no: customer.account_no };
    if (positions === null) return { ...base, status: 'no_link' as const, error: null, symbols: [] };
    if (positions.error !== undefined)
      return { ...base, status: 'error' as const, error: positions.error, symbols: [] };
    return {
      ...base,
      status: 'compared' as const,
      error: null,
      symbols: compareShares(ledgerShares(holdings), brokerShares(positions.value)),
    };
  });
  const symbols = customers.flatMap((c) => c.symbols);
  return {
    totals: { customers: countBy(HOLDINGS_CUSTOMER_STATUSES, customers), symbols: countBy(SHARE_STATUSES, symbols) },
    customers,
  };
}
