import { assert } from './errors.js';
import { Decimal } from './money.js';
import { ENTERABLE_SOURCES, type EnterableSource, type Source } from './sources.js';

/** The contract's customer fee where the schedule names none: 22 bps of notional. */
export const CUSTOMER_FEE_BPS_DEFAULT = new Decimal(22);

/** The contract's broker cost of a trade without an itemised fee: 4 bps of notional. */
export const BROKER_COST_BPS_DEFAULT = new Decimal(4);

const isTradeSource = (source: string): source is EnterableSource =>
  (ENTERABLE_SOURCES as readonly string[]).includes(source);

function assertBps(bps: Decimal | undefined, of: string): void {
  assert(bps !== undefined && bps.isFinite() && !bps.isNegative(), `${of} must be finite and not negative`);
}

/**
 * The fee bps a trade is pinned to when it is ingested (`metadata.brokerage_bps`,
 * `metadata.broker_cost_bps`): recost derives it with these, whatever the schedule is by then.
 */
export interface TradeFeePins {
  brokerage_bps: string;
  broker_cost_bps: string;
}

/**
 * The fees in force, in basis points of notional (contract: Recost): the customer's fee, "default
 * 22 bps of notional, per source", one default overridden per source; and the broker's cost of a
 * trade the broker has itemised no fee for (`BROKER_COST_BPS`, default 4). What a trade itself
 * states (a `fee_usd`, a `metadata.brokerage_bps`) wins over the schedule; the callers decide that.
 */
export class FeeSchedule {
  readonly bySource: Readonly<Partial<Record<EnterableSource, Decimal>>>;

  constructor(
    readonly defaultBps: Decimal,
    bySource: Partial<Record<EnterableSource, Decimal>> = {},
    readonly brokerCostBps: Decimal = BROKER_COST_BPS_DEFAULT,
  ) {
    assertBps(defaultBps, 'the default customer fee');
    assertBps(brokerCostBps, 'the broker cost');
    for (const [source, bps] of Object.entries(bySource)) {
      assert(isTradeSource(source), `${source} is not a source trades come from`);
      assertBps(bps, `the customer fee of ${source}`);
    }
    this.bySource = Object.freeze({ ...bySource });
  }

  /** The fee of a trade of `source`: its own, else the default. */
  customerFeeBps(source: Source): Decimal {
    // Trades come from manual entry and the upstreams; the ledger's own entries are never trades.
    assert(isTradeSource(source), `${source} posts no trades: it has no customer fee`);
    return this.bySource[source] ?? this.defaultBps;
  }

  /** What a trade of `source` is pinned to at ingest, so that a later change of the schedule re-prices only later trades. */
  pinsOf(source: Source): TradeFeePins {
    return { brokerage_bps: this.customerFeeBps(source).toFixed(), broker_cost_bps: this.brokerCostBps.toFixed() };
  }
}
