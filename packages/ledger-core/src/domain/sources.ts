/**
 * The fixed set of `source` values (the database refuses any other). `ledger` is the ledger's
 * own entries (reversals); the rest are manual entry and the four upstreams.
 */
export const SOURCES = ['manual', 'ledger', 'uaefeed', 'custodian', 'usbroker', 'remit'] as const;
export type Source = (typeof SOURCES)[number];
/** Sources an operator may name on manual entry (the ledger's own entries are not entered). */
export const ENTERABLE_SOURCES = SOURCES.filter((s) => s !== 'ledger');
