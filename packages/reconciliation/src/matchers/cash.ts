import { Decimal, formatDecimal, roundToCents } from '@ledger/core/posting';

/*
 * The cash comparison of the ledger against the broker (docs/reconciliation.md, Matchers): what
 * wallet 2010 owes a customer against the cash usbroker holds for their account, as
 * `usbroker_ledger_recon` decides it and `GET /v1/india/ledger-recon` shows it. Its one setting
 * is the money tolerance, RECON_MONEY_TOLERANCE_USD.
 */

export const CASH_STATUSES = ['match', 'mismatch'] as const;
export type CashStatus = (typeof CASH_STATUSES)[number];

/** `match` when the broker's cash is within `tolerance` of the ledger's; `difference` is broker − ledger, to the cent. */
export function matchCash(
  ledgerCash: Decimal | string,
  brokerCash: Decimal | string,
  tolerance: Decimal,
): { status: CashStatus; difference: string } {
  const difference = new Decimal(brokerCash).minus(ledgerCash);
  return {
    status: difference.abs().isGreaterThan(tolerance) ? 'mismatch' : 'match',
    difference: formatDecimal(roundToCents(difference)),
  };
}
