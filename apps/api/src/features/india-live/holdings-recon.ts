import type { Decimal } from '@ledger/core/posting';
import { brokerShares, matchShares, SHARE_STATUSES } from '@ledger/reconciliation';
import { countBy, type IndiaCustomer, type LedgerHoldings, type LiveRead } from './live.js';

export const HOLDINGS_CUSTOMER_STATUSES = ['compared', 'no_link', 'error'] as const;

/** The ledger's share counts of `holdings`, by symbol. */
export const ledgerShares = (holdings: LedgerHoldings): Map<string, Decimal> =>
  new Map([...holdings.positions].map(([symbol, p]) => [symbol, p.quantity]));

export interface HoldingsReconInput {
  customer: IndiaCustomer;
  holdings: LedgerHoldings;
  /** The broker's positions; null when the customer has no broker account. */
  positions: LiveRead<ReadonlyArray<{ symbol: string; qty: string }>> | null;
}

/**
 * GET /v1/india/holdings-recon: per (customer, symbol) the ledger's share count against the
 * broker's live position, by the matcher `usbroker_holdings_recon` decides with (`matchShares`,
 * @ledger/reconciliation; `quantityTolerance` is RECON_QUANTITY_TOLERANCE): a symbol that is not
 * `match` here is that check's variance, with the same status.
 */
export function holdingsRecon(inputs: readonly HoldingsReconInput[], quantityTolerance: Decimal) {
  const customers = inputs.map(({ customer, holdings, positions }) => {
    const base = { customer_id: customer.customer_id, account_no: customer.account_no };
    if (positions === null) return { ...base, status: 'no_link' as const, error: null, symbols: [] };
    if (positions.error !== undefined)
      return { ...base, status: 'error' as const, error: positions.error, symbols: [] };
    return {
      ...base,
      status: 'compared' as const,
      error: null,
      symbols: matchShares(ledgerShares(holdings), brokerShares(positions.value), quantityTolerance),
    };
  });
  const symbols = customers.flatMap((c) => c.symbols);
  return {
    totals: { customers: countBy(HOLDINGS_CUSTOMER_STATUSES, customers), symbols: countBy(SHARE_STATUSES, symbols) },
    customers,
  };
}
