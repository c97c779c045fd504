import type { Decimal } from '@ledger/core/posting';
import { brokerShares, matchCash, matchShares } from '@ledger/reconciliation';
import type { UsbrokerBalance, UsbrokerPosition } from '@ledger/upstream-clients';
import { ledgerShares } from './holdings-recon.js';
import { countBy, sum, cents, type IndiaCustomer, type LedgerHoldings, type LiveRead } from './live.js';

export const LEDGER_RECON_STATUSES = ['match', 'mismatch', 'error', 'no_link', 'not_applicable'] as const;
export type LedgerReconStatus = (typeof LEDGER_RECON_STATUSES)[number];

export interface BrokerAccountRead {
  balance: UsbrokerBalance;
  positions: UsbrokerPosition[];
}

/** The recon tolerances the comparison shares with the checks (RECON_MONEY_TOLERANCE_USD, RECON_QUANTITY_TOLERANCE). */
export interface ReconTolerances {
  moneyToleranceUsd: Decimal;
  quantityTolerance: Decimal;
}

/**
 * One customer's ledger against the broker, like with like (the one comparison of
 * `GET /v1/customers/{id}/ledger-recon` and `GET /v1/india/ledger-recon`), by the matchers the
 * checks decide with (@ledger/reconciliation): cash by `matchCash` (`usbroker_ledger_recon`:
 * wallet 2010 against the broker's cash) and share counts by `matchShares`
 * (`usbroker_holdings_recon`), each within its recon tolerance (default 0: exact). Cost is shown
 * on both sides and never compared: the ledger's 2100 is FIFO lots without fees, the broker's
 * cost_basis an average cost with its bundled fees, so they differ on a correct book. `broker`
 * null: no broker account (`no_link`); `'not_applicable'`: the UAE book.
 */
export function ledgerRecon(
  customer: IndiaCustomer,
  holdings: LedgerHoldings,
  broker: LiveRead<BrokerAccountRead> | null | 'not_applicable',
  tolerances: ReconTolerances,
) {
  const ledger = {
    cash_usd: cents(holdings.cash),
    securities_at_cost_usd: cents(sum([...holdings.positions.values()].map((p) => p.cost))),
  };
  const base = { customer_id: customer.customer_id, account_no: customer.account_no, ledger };
  const unread = (status: LedgerReconStatus, error: string | null) => ({
    ...base,
    status,
    broker: null,
    difference: null,
    error,
  });
  if (broker === 'not_applicable') return unread('not_applicable', null);
  if (broker === null) return unread('no_link', null);
  if (broker.error !== undefined) return unread('error', broker.error);
  const { balance, positions } = broker.value;
  const cash = matchCash(holdings.cash, balance.cash, tolerances.moneyToleranceUsd);
  const shares = matchShares(ledgerShares(holdings), brokerShares(positions), tolerances.quantityTolerance).filter(
    (s) => s.status !== 'match',
  );
  return {
    ...base,
    status: (cash.status === 'match' && shares.length === 0 ? 'match' : 'mismatch') as LedgerReconStatus,
    broker: {
      cash: balance.cash,
      securities_cost_basis: cents(sum(positions.map((p) => p.cost_basis))),
      market_value: cents(sum(positions.map((p) => p.market_value))),
      as_of: balance.as_of,
    },
    difference: {
      cash_usd: cents(holdings.cash.minus(balance.cash)),
      cash_status: cash.status,
      shares,
    },
    error: null,
  };
}

export type CustomerLedgerRecon = ReturnType<typeof ledgerRecon>;

/** GET /v1/india/ledger-recon: every India customer's ledgerRecon, with counts per status and the cash totals of those read. */
export function firmLedgerRecon(customers: readonly CustomerLedgerRecon[]) {
  const read = customers.filter((c) => c.broker !== null);
  return {
    totals: {
      customers: countBy(LEDGER_RECON_STATUSES, customers),
      ledger_cash_usd: cents(sum(read.map((c) => c.ledger.cash_usd))),
      broker_cash_usd: cents(sum(read.map((c) => c.broker!.cash))),
      cash_difference_usd: cents(sum(read.map((c) => c.difference!.cash_usd))),
    },
    customers,
  };
}
