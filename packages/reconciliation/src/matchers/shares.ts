import { Decimal, ZERO } from '@ledger/core/posting';

/*
 * The share-count comparison of the ledger against a broker (docs/reconciliation.md, Matchers):
 * what `usbroker_holdings_recon` and `uaefeed_holdings_recon` decide, and what
 * `GET /v1/india/holdings-recon` and `/v1/india/ledger-recon` show. Its one setting is the
 * quantity tolerance, RECON_QUANTITY_TOLERANCE.
 */

export const SHARE_STATUSES = ['match', 'mismatch', 'ledger_only', 'usbroker_only'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

export interface ShareTieOut {
  symbol: string;
  status: ShareStatus;
  ledger_quantity: string;
  usbroker_quantity: string;
  /** upstream − ledger. */
  difference: string;
}

/**
 * A customer's share counts per symbol, the ledger's against the upstream's: `match` when they
 * differ by no more than `tolerance`, else `mismatch`, or held on one side only (`ledger_only`,
 * `usbroker_only`; a symbol missing on one side counts as zero there). A symbol at zero on both
 * sides is left out. In symbol order.
 */
export function matchShares(
  ledger: ReadonlyMap<string, Decimal>,
  upstream: ReadonlyMap<string, Decimal>,
  tolerance: Decimal,
): ShareTieOut[] {
  const rows: ShareTieOut[] = [];
  for (const symbol of [...new Set([...ledger.keys(), ...upstream.keys()])].sort()) {
    const held = ledger.get(symbol) ?? ZERO;
    const reported = upstream.get(symbol) ?? ZERO;
    if (held.isZero() && reported.isZero()) continue;
    const difference = reported.minus(held);
    const status: ShareStatus = !difference.abs().isGreaterThan(tolerance)
      ? 'match'
      : reported.isZero()
        ? 'ledger_only'
        : held.isZero()
          ? 'usbroker_only'
          : 'mismatch';
    rows.push({
      symbol,
      status,
      ledger_quantity: held.toFixed(),
      usbroker_quantity: reported.toFixed(),
      difference: difference.toFixed(),
    });
  }
  return rows;
}

/** A broker's positions as share counts by symbol (a symbol listed twice adds up). */
export function brokerShares(positions: ReadonlyArray<{ symbol: string; qty: string }>): Map<string, Decimal> {
  const shares = new Map<string, Decimal>();
  for (const p of positions) shares.set(p.symbol, (shares.get(p.symbol) ?? ZERO).plus(p.qty));
  return shares;
}
