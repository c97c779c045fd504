import { assert, Decimal, roundToCents } from '@ledger/core/posting';
import type { Book } from '@ledger/core/runtime';
import {
  latestHoldingsSnapshot,
  portfolioSnapshot,
  savePortfolioSnapshots,
  type CustomerRow,
  type SnapshotPosition,
  type SnapshotUpstream,
} from '@ledger/core/store';
import type { FeatureContext } from '../feature.js';
import { readBrokerAccount } from '../india-live/upstream.js';

/** Where each book's customers hold their securities: the upstream their holdings are read from. */
export const HOLDINGS_UPSTREAM: Record<Book, SnapshotUpstream> = {
  ENTITY_UAE: 'custodian',
  ENTITY_IND_IFSC: 'usbroker',
};
/** The currency each upstream reports holdings in (upstreams.md: the custodian in AED, the broker in USD). */
const UPSTREAM_CURRENCY: Record<SnapshotUpstream, string> = { custodian: 'AED', usbroker: 'USD' };

export interface Holdings {
  customer_id: string;
  upstream: SnapshotUpstream;
  account: string | null;
  source: 'live' | 'cache' | 'none';
  reason: string | null;
  as_of: string | null;
  taken_at: string | null;
  currency: string | null;
  positions: Array<{ symbol: string; quantity: string; cost: string | null; market_value: string | null }>;
  cash: Record<string, unknown> | null;
}

type Read = Pick<Holdings, 'as_of' | 'currency' | 'positions' | 'cash'>;

const accountOf = (customer: CustomerRow, upstream: SnapshotUpstream) =>
  upstream === 'custodian' ? customer.custodian_account : customer.usbroker_account_no;
const today = () => new Date().toISOString().slice(0, 10);
const isoOf = (value: Date | string) => (value instanceof Date ? value.toISOString() : value);

/** The customer's holdings read from the upstream now, or why they could not be. */
async function readLive(context: FeatureContext, upstream: SnapshotUpstream, account: string): Promise<Read> {
  const { custodian, usbroker } = context.config.upstreams;
  if (upstream === 'custodian') {
    assert(custodian !== null, 'readLive is called for a configured upstream');
    const holdings = await custodian.getHoldings({ account, asOf: today() });
    return {
      as_of: holdings.as_of,
      currency: holdings.currency,
      positions: holdings.positions.map((p) => ({
        symbol: p.symbol,
        quantity: p.qty,
        cost: roundToCents(new Decimal(p.qty).times(p.avg_cost)).toFixed(2),
        market_value: p.market_value,
      })),
      cash: { ...holdings.cash },
    };
  }
  assert(usbroker !== null, 'readLive is called for a configured upstream');
  const { balance, positions } = await readBrokerAccount(usbroker, account);
  return {
    as_of: balance.as_of.slice(0, 10),
    currency: balance.currency,
    positions: positions.map((p) => ({
      symbol: p.symbol,
      quantity: p.qty,
      cost: p.cost_basis,
      market_value: p.market_value,
    })),
    cash: { ...balance },
  };
}

const field = (position: SnapshotPosition, name: 'cost' | 'market_value') => {
  const value = position[name];
  return typeof value === 'string' ? value : null;
};

/** The last portfolio kept for the customer (the cache), else the latest daily holdings snapshot, else null. */
export async function cachedHoldings(context: FeatureContext, customerId: string, upstream: SnapshotUpstream) {
  const cached = await portfolioSnapshot(context.db, customerId, upstream);
  const snapshot = cached
    ? {
        as_of: cached.as_of,
        taken_at: cached.taken_at,
        currency: UPSTREAM_CURRENCY[upstream],
        positions: cached.positions,
        cash: cached.cash,
      }
    : await latestHoldingsSnapshot(context.db, customerId, upstream).then(
        (row) =>
          row && {
            as_of: row.as_of,
            taken_at: row.fetched_at,
            currency: row.currency,
            positions: row.positions,
            cash: row.cash,
          },
      );
  if (snapshot === null) return null;
  const positions = snapshot.positions as unknown as SnapshotPosition[];
  return {
    as_of: snapshot.as_of,
    taken_at: isoOf(snapshot.taken_at as Date | string),
    currency: snapshot.currency,
    positions: positions.map((p) => ({
      symbol: p.symbol,
      quantity: p.quantity,
      cost: field(p, 'cost'),
      market_value: field(p, 'market_value'),
    })),
    cash: (snapshot.cash as Record<string, unknown> | null) ?? null,
  };
}

/** Why the upstream is not read live for this customer, or null when it can be. */
function notLive(context: FeatureContext, upstream: SnapshotUpstream, account: string | null): string | null {
  if (context.config.upstreams[upstream] === null) return `${upstream} is not configured on this book`;
  if (account === null) return `the customer has no ${upstream} account linked`;
  return null;
}

/**
 * The customer's holdings: live from the book's upstream when it is configured, the customer is
 * linked and it answers (the read then replaces the customer's cached portfolio); else the cache,
 * saying why; else an empty shape saying why.
 */
export async function holdingsOf(context: FeatureContext, customer: CustomerRow): Promise<Holdings> {
  const upstream = HOLDINGS_UPSTREAM[context.config.book];
  const account = accountOf(customer, upstream);
  const base = { customer_id: customer.customer_id, upstream, account };
  let reason = notLive(context, upstream, account);
  if (reason === null) {
    let live: Read | undefined;
    try {
      live = await readLive(context, upstream, account as string);
    } catch (error) {
      // Any failure of the upstream (down, refusing, answering nonsense) falls back; the log keeps the cause.
      context.logger.warn('holdings: live read failed, answering from the cache', {
        customer_id: customer.customer_id,
        upstream,
        error: String(error),
      });
      reason = `${upstream} could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (live !== undefined) {
      await savePortfolioSnapshots(context.db, [
        {
          customerId: customer.customer_id,
          upstream,
          asOf: live.as_of as string,
          positions: live.positions,
          cash: live.cash,
        },
      ]);
      return { ...base, source: 'live', reason: null, taken_at: new Date().toISOString(), ...live };
    }
  }
  const cached = await cachedHoldings(context, customer.customer_id, upstream);
  if (cached !== null) return { ...base, source: 'cache', reason, ...cached };
  return {
    ...base,
    source: 'none',
    reason: `${reason}; no snapshot is cached`,
    as_of: null,
    taken_at: null,
    currency: null,
    positions: [],
    cash: null,
  };
}
