import type { RemitBalances, RemitMidRate } from '@ledger/upstream-clients';
import type { FirmRead } from './live.js';

export interface TreasuryRead {
  balances: RemitBalances;
  midRate: RemitMidRate;
}

const NO_BALANCES = { available: [], pending: [], deficit: [] };

/**
 * GET /v1/india/treasury: remit's merchant balance (available, pending, deficit per currency)
 * and its live INR→USD mid rate. Read-only, never posted, not a customer balance. `read` is the
 * live answer, or the reason there is none (not configured, unreachable, the UAE book): then
 * `configured` false, that warning, and the zero shape.
 */
export function treasury(read: FirmRead<TreasuryRead>) {
  if ('unavailable' in read)
    return { configured: false, warning: read.unavailable, fetched_at: null, balances: NO_BALANCES, mid_rate: null };
  const { balances, midRate } = read.value;
  return {
    configured: true,
    warning: null,
    fetched_at: read.fetchedAt,
    balances: { available: balances.available, pending: balances.pending, deficit: balances.deficit },
    mid_rate: { from: 'INR', to: midRate.currency, rate: midRate.rate },
  };
}
