import { assert } from './errors.js';
import { Decimal } from './money.js';
import { ENTERABLE_SOURCES, type EnterableSource, type Source } from './sources.js';

/** The contract's customer fee where the schedule names none: 22 bps of notional. */
export const CUSTOMER_FEE_BPS_DEFAULT = new Decimal(22);

const isTradeSource = (source: string): source is EnterableSource => (ENTERABLE_SOURCES as readonly string[]).includes(source);

function assertBps(bps: Decimal | undefined, of: string): void {
  assert(bps !== undefined && bps.isFinite() && !bps.isNegative(), `the customer fee of ${of} must be finite and not negative`);
}

/**
 * The customer's fee on a trade, in basis points of notional (contract: Recost, "default 22 bps
 * of notional, per source"): one default, overridden per source. What a trade itself states (a
 * `fee_usd`, a `metadata.brokerage_bps`) wins over the schedule; the callers decide that.
 */
export class FeeSchedule {
  readonly bySource: Readonly<Partial<Record<EnterableSource, Decimal>>>;

  constructor(
    readonly defaultBps: Decimal,
    bySource: Partial<Record<EnterableSource, Decimal>> = {},
  ) {
    assertBps(defaultBps, 'the default');
    for (const [source, bps] of Object.entries(bySource)) {
      assert(isTradeSource(source), `${source} is not a source trades come from`);
      assertBps(bps, source);
    }
    this.bySource = Object.freeze({ ...bySource });
  }

  /** The fee of a trade of `source`: its own, else the default. */
  customerFeeBps(source: Source): Decimal {
    // Trades come from manual entry and the upstreams; the ledger's own entries are never trades.
    assert(isTradeSource(source), `${source} posts no trades: it has no customer fee`);
    return this.bySource[source] ?? this.defaultBps;
  }
}
