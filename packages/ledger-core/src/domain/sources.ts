/**
 * The fixed set of `source` values (the database refuses any other: migration 20261129 is the
 * latest to widen it). `ledger` is the ledger's own entries (reversals), `recost` the recost
 * job's derivations; the rest are manual entry and the four upstreams.
 */
export const SOURCES = ['manual', 'ledger', 'uaefeed', 'custodian', 'usbroker', 'remit', 'recost'] as const;
export type Source = (typeof SOURCES)[number];
/** The ledger's own sources: never entered by an operator or an upstream. */
export const LEDGER_OWN_SOURCES = ['ledger', 'recost'] as const satisfies readonly Source[];
/** Sources an operator may name on manual entry (the ledger's own entries are not entered). */
export type EnterableSource = Exclude<Source, (typeof LEDGER_OWN_SOURCES)[number]>;
export const ENTERABLE_SOURCES = SOURCES.filter(
  (s): s is EnterableSource => !(LEDGER_OWN_SOURCES as readonly string[]).includes(s),
);
