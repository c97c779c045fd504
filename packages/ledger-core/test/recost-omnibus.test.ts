import { expect } from 'chai';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { linesFromLegs } from '../src/domain/posting-rules/index.js';
import { ACCOUNT, Decimal, derivationDraft, FeeSchedule } from '../src/entry-points/posting.js';
import {
  postTransactions,
  recordBrokerFees,
  recost,
  upsertCustomer,
  type RecostOptions,
} from '../src/entry-points/store.js';
import { up as rependUsbrokerTrades } from '../src/migrations/20270216_settle_usbroker_broker_cost_at_execution.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { draft } from './helpers.js';

const OPTIONS: RecostOptions = { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null };

/** A customer's net (debits − credits) per account, every line of its transactions. */
async function customerNets(db: Knex, customerId: string): Promise<Record<string, string>> {
  const { rows } = await db.raw<{ rows: Array<{ account_code: string; net: string }> }>(
    'SELECT account_code, sum(debit - credit)::text AS net FROM journal_lines WHERE customer_id = ? GROUP BY 1 HAVING sum(debit - credit) <> 0 ORDER BY 1',
    [customerId],
  );
  return Object.fromEntries(rows.map((r) => [r.account_code, new Decimal(r.net).toFixed(2)]));
}

/**
 * Issue 36: the broker keeps its part of a usbroker trade's fee at execution, so recost settles the
 * broker's cost out of the omnibus (Dr 2340 / Cr 1100) with the cost itself: 1100 falls by what the
 * broker kept (the modelled 4 bps until its daily ledger itemises the fee, then the itemised fee),
 * and 2340 holds nothing for usbroker trades.
 */
describe('recost settles a usbroker trade’s broker cost out of the omnibus (real Postgres, as the runtime role)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let db: Knex;
  let owner: Knex;
  let customer = 0;

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    db = t.runtime!.db;
    owner = t.db;
  });
  after(async () => {
    await t?.drop();
  });

  /** A customer of its own who bought 10 NVDA for 1000.00 and sold 4 for 500.00 at usbroker: the two drafts. */
  async function buyAndSell() {
    customer += 1;
    const c = `OMNI-${customer}`;
    await upsertCustomer(db, c, {});
    const trade = { source: 'usbroker' as const, customer_id: c, symbol: 'NVDA' };
    const drafts = [
      draft({ ...trade, txn_type: 'buy_security', quantity: '10', amount_usd: '1000.00', txn_date: '2026-01-05' }),
      draft({ ...trade, txn_type: 'sell_security', quantity: '4', amount_usd: '500.00', txn_date: '2026-01-06' }),
    ];
    expect((await postTransactions(db, drafts)).inserted).to.equal(2);
    return { c, buy: drafts[0]!, sell: drafts[1]! };
  }

  // Ingest: 1100 −1000.00 (shares bought) +500.00 (proceeds); fees 2.20 (buy, at ingest) + 1.10 (sell, by recost) to 4010.
  // Recost at 4 bps: broker cost 0.40 + 0.20 = 0.60, to 5010, settled out of 1100 at once: 1100 = −500.60, 2340 nothing.
  const MODELLED = {
    [ACCOUNT.omnibusCash]: '-500.60',
    [ACCOUNT.custodyEquities]: '600.00',
    [ACCOUNT.customerWalletUsd]: '503.30',
    [ACCOUNT.securitiesLiabilityEquities]: '-600.00',
    [ACCOUNT.brokerageRevenue]: '-3.30',
    [ACCOUNT.brokerageCost]: '0.60',
  };

  it('1100 falls by the broker’s cost and 2340 nets to nothing; a second run and a re-cost of history give the same books', async () => {
    const { c, buy, sell } = await buyAndSell();
    await recost(db, OPTIONS);
    expect(await customerNets(db, c)).to.deep.equal(MODELLED);

    expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
    await owner.raw('UPDATE recost_states SET recosted_at = NULL WHERE txn_id = ANY(?::uuid[])', [
      [buy.txnId, sell.txnId],
    ]);
    expect(await recost(db, OPTIONS)).to.deep.include({ recosted: 2, derivations_posted: 0, superseded: 0 });
    expect(await customerNets(db, c)).to.deep.equal(MODELLED);
  });

  it('a fee itemised after the first recost: re-derived, 1100 falls by what the broker kept, not by the modelled 4 bps; then idempotent', async () => {
    const { c, buy } = await buyAndSell();
    await recost(db, OPTIONS);
    const fee = { source: 'usbroker' as const, sourceTxnId: buy.sourceTxnId!, sourceRow: { row: 1 } };
    expect(await recordBrokerFees(db, [{ ...fee, amountUsd: '0.07', platformFeeUsd: '2.13' }])).to.deep.equal({
      recorded: 1,
      existing: 0,
      repending: 1,
    });
    expect(await recost(db, OPTIONS)).to.deep.include({ superseded: 1, derivations_posted: 1 });
    // The buy's 0.40 modelled becomes the 0.07 the broker kept (its TRD row): 1100 −500.60 + 0.40 − 0.07.
    const itemised = {
      ...MODELLED,
      [ACCOUNT.omnibusCash]: '-500.27',
      [ACCOUNT.brokerageCost]: '0.27',
    };
    expect(await customerNets(db, c)).to.deep.equal(itemised);
    expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
    expect(await customerNets(db, c)).to.deep.equal(itemised);
  });

  it('a usbroker buy derived and stamped before the settlement leg is re-pended by migration 20270216 and superseded: the books of a first recost', async () => {
    customer += 1;
    const c = `OMNI-${customer}`;
    await upsertCustomer(db, c, {});
    const buy = draft({
      source: 'usbroker',
      txn_type: 'buy_security',
      customer_id: c,
      symbol: 'AMD',
      quantity: '10',
      amount_usd: '1000.00',
      txn_date: '2026-01-05',
    });
    // What recost posted before: the broker's cost alone (1000.00 × 4 bps), left payable in 2340; the trade stamped.
    const old = derivationDraft(
      { txnId: buy.txnId, customerId: c, symbol: 'AMD', txnDate: '2026-01-05' },
      linesFromLegs([
        {
          debit: ACCOUNT.brokerageCost,
          credit: ACCOUNT.payableToBroker,
          amount: new Decimal('0.40'),
          postingKind: 'broker_cost',
        },
      ]),
      1,
      randomUUID(),
    );
    expect((await postTransactions(db, [buy, old])).inserted).to.equal(2);
    await owner.raw('UPDATE recost_states SET recosted_at = now() WHERE txn_id = ?', [buy.txnId]);
    expect(await customerNets(db, c)).to.deep.include({
      [ACCOUNT.omnibusCash]: '-1000.00',
      [ACCOUNT.payableToBroker]: '-0.40',
    });

    // Stamped, its pair has no pending trade: recost alone never looks at it again.
    expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
    await rependUsbrokerTrades(owner);
    expect(await recost(db, OPTIONS)).to.deep.include({ superseded: 1, derivations_posted: 1 });
    const converged = {
      [ACCOUNT.omnibusCash]: '-1000.40',
      [ACCOUNT.custodyEquities]: '1000.00',
      [ACCOUNT.customerWalletUsd]: '1002.20',
      [ACCOUNT.securitiesLiabilityEquities]: '-1000.00',
      [ACCOUNT.brokerageRevenue]: '-2.20',
      [ACCOUNT.brokerageCost]: '0.40',
    };
    expect(await customerNets(db, c)).to.deep.equal(converged);
    expect(await recost(db, OPTIONS)).to.deep.include({ recosted: 0, derivations_posted: 0, superseded: 0 });
  });
});
