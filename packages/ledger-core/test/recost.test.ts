import { expect } from 'chai';
import fc from 'fast-check';
import type { Knex } from 'knex';
import { Decimal, FeeSchedule, type EntryRequest } from '../src/entry-points/posting.js';
import { customerPositions, trialBalance } from '../src/entry-points/reports.js';
import {
  postTransactions,
  recordStockSplits,
  recost,
  reverseTransaction,
  upsertCustomer,
  type RecostOptions,
  type StockSplit,
} from '../src/entry-points/store.js';
import { recostStore } from '../src/store/recost-store.js';
import { rependRecostByIds } from '../src/store/recost-states.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { recost as recostWith, type RecostStore } from '../src/use-cases/recost.js';
import { draft } from './helpers.js';
import { randomUUID } from 'node:crypto';

const OPTIONS: RecostOptions = { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null };

type Trade = Pick<EntryRequest, 'customer_id' | 'symbol' | 'quantity' | 'amount_usd' | 'txn_date'> & {
  source?: EntryRequest['source'];
  metadata?: Record<string, unknown>;
};

const buy = (t: Trade) => draft({ txn_type: 'buy_security', source: 'usbroker', ...t });
const sell = (t: Trade) => draft({ txn_type: 'sell_security', source: 'usbroker', ...t });

/** Posts drafts through the bulk path and answers their ids in order. */
async function post(db: Knex, drafts: ReturnType<typeof draft>[]): Promise<string[]> {
  const result = await postTransactions(db, drafts);
  expect(result.inserted, JSON.stringify(result.outcomes.filter((o) => o.outcome !== 'inserted'))).to.equal(
    drafts.length,
  );
  return drafts.map((d) => d.txnId);
}

/** The worked example of a sale across two lots: 10 AAPL bought for 1000.00, 5 for 600.00, 12 sold for 1500.00. */
const sellAcrossTwoLots = (db: Knex, c: string) =>
  post(db, [
    buy({ customer_id: c, symbol: 'AAPL', quantity: '10', amount_usd: '1000.00', txn_date: '2026-01-05' }),
    buy({ customer_id: c, symbol: 'AAPL', quantity: '5', amount_usd: '600.00', txn_date: '2026-01-06' }),
    sell({ customer_id: c, symbol: 'AAPL', quantity: '12', amount_usd: '1500.00', txn_date: '2026-01-10' }),
  ]);

/** A manual AED deposit, buy of 100 EMAAR and sell of them, each 100.00 USD (AED 367.25). */
function aedRoundTrip(db: Knex, c: string) {
  const aed = {
    customer_id: c,
    source: 'manual' as const,
    original_currency: 'AED' as const,
    original_amount: '367.25',
    amount_usd: '100.00',
  };
  return post(db, [
    draft({ txn_type: 'deposit', ...aed, txn_date: '2026-01-04' }),
    draft({ txn_type: 'buy_security', ...aed, symbol: 'EMAAR', quantity: '100', txn_date: '2026-01-05' }),
    draft({ txn_type: 'sell_security', ...aed, symbol: 'EMAAR', quantity: '100', txn_date: '2026-01-06' }),
  ]);
}

/**
 * A day's sale of 2 AMD (300.00) posted, then the buy of 3 (420.00) it sells from, each stating the
 * `executed_at` given (the buy none where none is given). Answers the sale's id.
 */
async function sellPostedBeforeItsBuy(db: Knex, c: string, executedAt: { sell: string; buy?: string }) {
  const day = { customer_id: c, symbol: 'AMD', txn_date: '2026-01-07' };
  const [s] = await post(db, [
    sell({ ...day, quantity: '2', amount_usd: '300.00', metadata: { executed_at: executedAt.sell } }),
  ]);
  const buyMetadata = executedAt.buy === undefined ? {} : { metadata: { executed_at: executedAt.buy } };
  await post(db, [buy({ ...day, quantity: '3', amount_usd: '420.00', ...buyMetadata })]);
  return s!;
}

/** The derivation lines in effect for a trade, as "account Dr/Cr amount kind", sorted. */
async function effectiveLines(db: Knex, tradeId: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ line: string }> }>(
    `SELECT l.account_code || CASE WHEN l.debit > 0 THEN ' Dr ' || l.debit ELSE ' Cr ' || l.credit END || ' ' || l.posting_kind AS line
       FROM transactions d JOIN journal_lines l USING (txn_id)
      WHERE d.txn_type = 'recost' AND d.metadata->>'recost_of' = ?
        AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = d.txn_id)
      ORDER BY 1`,
    [tradeId],
  );
  return rows.map((r) => r.line);
}

/** Net balance (debits − credits) per account and per (customer, account): what recost must reproduce. */
async function balances(db: Knex): Promise<Record<string, string>> {
  const { rows } = await db.raw<{ rows: Array<{ key: string; net: string }> }>(
    `SELECT account_code || '/' || coalesce(customer_id, '-') AS key, sum(debit - credit)::text AS net
       FROM journal_lines GROUP BY GROUPING SETS ((account_code), (account_code, customer_id))
     HAVING sum(debit - credit) <> 0 OR customer_id IS NULL ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.key, new Decimal(r.net).toFixed(2)]));
}

/** A customer's net (debits − credits) per account, over every line of its transactions. */
async function customerNets(db: Knex, customerId: string): Promise<Record<string, string>> {
  const { rows } = await db.raw<{ rows: Array<{ account_code: string; net: string }> }>(
    'SELECT account_code, sum(debit - credit)::text AS net FROM journal_lines WHERE customer_id = ? GROUP BY account_code HAVING sum(debit - credit) <> 0 ORDER BY account_code',
    [customerId],
  );
  return Object.fromEntries(rows.map((r) => [r.account_code, new Decimal(r.net).toFixed(2)]));
}

async function recostedAt(db: Knex, txnId: string): Promise<Date | null> {
  const { rows } = await db.raw<{ rows: Array<{ recosted_at: Date | null }> }>(
    'SELECT recosted_at FROM recost_states WHERE txn_id = ?',
    [txnId],
  );
  return rows[0]!.recosted_at;
}

describe('recost (real Postgres, as the runtime role)', function () {
  this.timeout(120_000);
  let t: TestDatabase;
  let db: Knex;
  let owner: Knex;
  let customer = 0;
  /** A customer of its own per test, so tests do not share lots. */
  const newCustomer = async () => {
    customer += 1;
    const id = `R-${customer}`;
    await upsertCustomer(db, id, {});
    return id;
  };

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    db = t.runtime!.db;
    owner = t.db;
  });
  after(async () => {
    await t?.drop();
  });

  describe('a sell across two lots', () => {
    it('posts each trade’s fee split and the sell’s FIFO cost relief, worked out by hand, and stamps them', async () => {
      const c = await newCustomer();
      const [b1, b2, s] = await sellAcrossTwoLots(db, c);
      const result = await recost(db, OPTIONS);
      expect(result).to.deep.include({ derivations_posted: 3, superseded: 0, flagged: [], remaining: 0 });
      expect(result.recosted).to.be.at.least(3);
      // Broker cost 4 bps: 1000.00 → 0.40, 600.00 → 0.24.
      expect(await effectiveLines(db, b1!)).to.deep.equal([
        '1100 Cr 0.40 broker_cost_settled',
        '2340 Cr 0.40 broker_cost',
        '2340 Dr 0.40 broker_cost_settled',
        '5010 Dr 0.40 broker_cost',
      ]);
      expect(await effectiveLines(db, b2!)).to.deep.equal([
        '1100 Cr 0.24 broker_cost_settled',
        '2340 Cr 0.24 broker_cost',
        '2340 Dr 0.24 broker_cost_settled',
        '5010 Dr 0.24 broker_cost',
      ]);
      // Sell 1500.00: customer fee 22 bps = 3.30, broker cost 4 bps = 0.60; relief 1000.00 + 600.00 × 2/5 = 1240.00.
      expect(await effectiveLines(db, s!)).to.deep.equal([
        '1100 Cr 0.60 broker_cost_settled',
        '1200 Cr 1240.00 cost_relief',
        '2010 Dr 3.30 brokerage_fee',
        '2100 Dr 1240.00 cost_relief',
        '2340 Cr 0.60 broker_cost',
        '2340 Dr 0.60 broker_cost_settled',
        '4010 Cr 3.30 brokerage_fee',
        '5010 Dr 0.60 broker_cost',
      ]);
      for (const id of [b1!, b2!, s!]) expect(await recostedAt(db, id)).to.be.instanceOf(Date);
      const { rows } = await db.raw<{
        rows: Array<{ source: string; source_txn_id: string; txn_date: string; customer_id: string; symbol: string }>;
      }>(
        `SELECT source, source_txn_id, txn_date, customer_id, symbol FROM transactions WHERE txn_type = 'recost' AND metadata->>'recost_of' = ?`,
        [s!],
      );
      expect(rows).to.deep.equal([
        { source: 'recost', source_txn_id: `${s}:1`, txn_date: '2026-01-10', customer_id: c, symbol: 'AAPL' },
      ]);
    });
  });

  describe('lots that remember', () => {
    /** The matches in effect for a sale (its derivation not reversed), as "lot acquired→transferred quantity cost". */
    async function matchesOf(saleId: string): Promise<string[]> {
      const { rows } = await db.raw<{ rows: Array<{ m: string }> }>(
        `SELECT m.lot_txn_id || ' ' || m.acquired_on || '→' || m.transferred_on || ' ' || m.quantity || ' ' || m.cost_usd AS m
           FROM lot_matches m
          WHERE m.sell_txn_id = ? AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = m.derivation_txn_id)
          ORDER BY m.acquired_on`,
        [saleId],
      );
      return rows.map((r) => r.m);
    }

    it('stores which lots a sale consumed (dates, shares, cost), once: a second recost writes nothing', async () => {
      const c = await newCustomer();
      const [b1, b2, s] = await sellAcrossTwoLots(db, c);
      await recost(db, OPTIONS);
      // 12 shares: all 10 of the first lot (1000.00), 2 of the second's 5 (600.00 × 2/5 = 240.00).
      const expected = [`${b1} 2026-01-05→2026-01-10 10 1000.00`, `${b2} 2026-01-06→2026-01-10 2 240.00`];
      expect(await matchesOf(s!)).to.deep.equal(expected);
      await rependRecostByIds(owner, [s!]);
      expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
      expect(await matchesOf(s!)).to.deep.equal(expected);
    });

    it('are guarded as the journal is: the schema owner cannot update, delete or truncate a match (42501 ledger_append_only)', async () => {
      const c = await newCustomer();
      const [, , s] = await sellAcrossTwoLots(db, c);
      await recost(db, OPTIONS);
      for (const sql of [
        'UPDATE lot_matches SET cost_usd = 0 WHERE sell_txn_id = ?',
        'DELETE FROM lot_matches WHERE sell_txn_id = ?',
        'TRUNCATE lot_matches',
      ]) {
        const error = await owner.raw(sql, sql.includes('?') ? [s!] : []).then(
          () => null,
          (e: unknown) => e as { code?: string; constraint?: string },
        );
        expect(error, sql).to.include({ code: '42501', constraint: 'ledger_append_only' });
      }
      expect(await matchesOf(s!)).to.have.length(2);
    });

    it('name transactions of the book: a match naming an unknown derivation, lot or sale is refused, even to the owner (23503), nothing written', async () => {
      const c = await newCustomer();
      const [, , s] = await sellAcrossTwoLots(db, c);
      await recost(db, OPTIONS);
      const { derivation_txn_id: derivation } = (await owner('lot_matches')
        .where({ sell_txn_id: s! })
        .first('derivation_txn_id')) as { derivation_txn_id: string };
      // The sale stands in for the lot: (derivation, lot) is the key, and the sale's own lots are taken.
      const match = {
        derivation_txn_id: derivation,
        lot_txn_id: s!,
        sell_txn_id: s!,
        customer_id: c,
        symbol: 'AAPL',
        acquired_on: '2026-01-05',
        transferred_on: '2026-01-10',
        quantity: '1',
        cost_usd: '1.00',
      };
      /** The database's refusal of the row, if any: a row it takes is rolled back. */
      async function refusalOf(row: typeof match): Promise<unknown> {
        const taken = new Error('taken, rolled back');
        try {
          await owner.transaction(async (trx) => {
            await trx('lot_matches').insert(row);
            throw taken;
          });
        } catch (e) {
          return e === taken ? null : e;
        }
        throw new Error('the transaction neither failed nor rolled back');
      }
      // Every transaction known: taken, so what refuses the others is the unknown id.
      expect(await refusalOf(match)).to.equal(null);
      const unknown = randomUUID();
      for (const column of ['derivation_txn_id', 'lot_txn_id', 'sell_txn_id'] as const) {
        const error = await refusalOf({ ...match, [column]: unknown });
        expect(error, column).to.include({ code: '23503', constraint: 'lot_matches_transactions_known' });
      }
      expect(await matchesOf(s!)).to.have.length(2);
    });

    it('supersedes a sale whose lots changed though its cost did not (a backdated buy at the same price), matches with it', async () => {
      const c = await newCustomer();
      const [b1, s] = await post(db, [
        buy({ customer_id: c, symbol: 'KO', quantity: '10', amount_usd: '600.00', txn_date: '2026-02-05' }),
        sell({ customer_id: c, symbol: 'KO', quantity: '5', amount_usd: '320.00', txn_date: '2026-02-10' }),
      ]);
      await recost(db, OPTIONS);
      expect(await matchesOf(s!)).to.deep.equal([`${b1} 2026-02-05→2026-02-10 5 300.00`]);
      const [b0] = await post(db, [
        buy({ customer_id: c, symbol: 'KO', quantity: '10', amount_usd: '600.00', txn_date: '2026-02-02' }),
      ]);
      const result = await recost(db, OPTIONS);
      // Same relief (300.00), other lot: the sale's v1 reversed and v2 posted, b0's broker cost posted.
      expect(result).to.deep.include({ derivations_posted: 2, superseded: 1 });
      expect(await matchesOf(s!)).to.deep.equal([`${b0} 2026-02-02→2026-02-10 5 300.00`]);
    });

    it('restated records (posted on a later open day, `metadata.original_txn_date`) acquire, transfer and queue in FIFO on their own dates', async () => {
      const c = await newCustomer();
      // As a sync posts what arrived after its days closed: the buy traded 02-03 and the sale 02-20, both posted 03-02.
      const restated = (date: string) => ({ txn_date: '2026-03-02', metadata: { original_txn_date: date } });
      const [onTime, late, s] = await post(db, [
        buy({ customer_id: c, symbol: 'PEP', quantity: '4', amount_usd: '700.00', txn_date: '2026-02-10' }),
        buy({ customer_id: c, symbol: 'PEP', quantity: '4', amount_usd: '600.00', ...restated('2026-02-03') }),
        sell({ customer_id: c, symbol: 'PEP', quantity: '4', amount_usd: '720.00', ...restated('2026-02-20') }),
      ]);
      await recost(db, OPTIONS);
      expect(await matchesOf(s!)).to.deep.equal([`${late} 2026-02-03→2026-02-20 4 600.00`]);
      await rependRecostByIds(owner, [onTime!]);
      expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
    });

    /** A usbroker SPLIT row of `c`'s holding, as sync-usbroker-ledger records it. */
    const split = (c: string, symbol: string, effectiveOn: string, shares: string, ratio: string): StockSplit => ({
      source: 'usbroker',
      sourceTxnId: `split-${c}-${symbol}`,
      customerId: c,
      symbol,
      effectiveOn,
      shares,
      ratio,
      sourceRow: {},
    });

    it('a lot sold across a 4:1 split keeps its cost and acquisition date; a split recorded after the sale re-derives it (worked by hand)', async () => {
      const c = await newCustomer();
      const aapl = { customer_id: c, symbol: 'AAPL' };
      const [l1, l2, s1, s2] = await post(db, [
        buy({ ...aapl, quantity: '10', amount_usd: '1000.00', txn_date: '2026-01-05' }),
        buy({ ...aapl, quantity: '5', amount_usd: '600.00', txn_date: '2026-01-06' }),
        // Before the split: 4 of L1's 10, 400.00.
        sell({ ...aapl, quantity: '4', amount_usd: '500.00', txn_date: '2026-01-08' }),
        // After it (post-split shares): 30 of the 44.
        sell({ ...aapl, quantity: '30', amount_usd: '1050.00', txn_date: '2026-01-15' }),
      ]);
      // The SPLIT row is not synced yet: 30 of the 11 held is an oversell.
      expect((await recost(db, OPTIONS)).flagged.map((f) => f.txn_id)).to.deep.equal([s2]);
      const recorded = await recordStockSplits(db, [split(c, 'AAPL', '2026-01-12', '33', '4')]);
      // The pair's newest trade (the flagged sale) is still pending: nothing more to re-pend.
      expect(recorded).to.deep.include({ recorded: 1, existing: 0, conflicts: [], repending: 0 });
      const result = await recost(db, OPTIONS);
      expect(result).to.deep.include({ flagged: [], superseded: 0 });
      // 11 held become 44: L1's 6 left (cost 1,000.00 − 400.00 = 600.00) → 24 shares, L2's 5 (600.00) → the other 20.
      // The sale of 30 takes L1's 24 (600.00) and 6 of L2's 20 (600.00 × 6/20 = 180.00): relief 780.00.
      expect(await matchesOf(s1!)).to.deep.equal([`${l1} 2026-01-05→2026-01-08 4 400.00`]);
      expect(await matchesOf(s2!)).to.deep.equal([
        `${l1} 2026-01-05→2026-01-15 24 600.00`,
        `${l2} 2026-01-06→2026-01-15 6 180.00`,
      ]);
      expect(await effectiveLines(db, s2!)).to.include.members([
        '1200 Cr 780.00 cost_relief',
        '2100 Dr 780.00 cost_relief',
      ]);
      // 10 + 5 − 4 + 33 − 30 = 14 shares at 1,600.00 − 400.00 − 780.00 = 420.00; before the split, 11 at 1,200.00.
      expect(await customerPositions(db, c)).to.deep.equal([
        { symbol: 'AAPL', quantity: '14', cost_usd: '420.00', pending_recost: 0 },
      ]);
      expect((await customerPositions(db, c, '2026-01-11'))[0]).to.include({ quantity: '11', cost_usd: '1200.00' });
      // The same row again records nothing and re-costing history posts nothing: the same books.
      expect(await recordStockSplits(db, [split(c, 'AAPL', '2026-01-12', '33', '4')])).to.deep.include({
        recorded: 0,
        existing: 1,
        repending: 0,
      });
      await rependRecostByIds(owner, [l1!, l2!, s1!, s2!]);
      expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
      // Other facts under the same key: a conflict, the recorded split stands.
      expect((await recordStockSplits(db, [split(c, 'AAPL', '2026-01-12', '30', '4')])).conflicts).to.deep.equal([
        { sourceTxnId: `split-${c}-AAPL`, customerId: c, fields: ['shares'] },
      ]);
    });

    it('a 1-for-10 reverse split with cash in lieu: the fraction is a sale of its share of the lot’s cost (worked by hand)', async () => {
      const c = await newCustomer();
      const xyz = { customer_id: c, symbol: 'XYZ' };
      const [lot] = await post(db, [buy({ ...xyz, quantity: '25', amount_usd: '500.00', txn_date: '2026-01-05' })]);
      await recordStockSplits(db, [split(c, 'XYZ', '2026-01-10', '-22.5', '0.1')]);
      // The CIL row: 0.5 share at 30.00, 15.00 credited; no fee.
      const [cil] = await post(db, [
        sell({
          ...xyz,
          quantity: '0.5',
          amount_usd: '15.00',
          txn_date: '2026-01-10',
          metadata: { brokerage_bps: '0', broker_cost_bps: '0' },
        }),
      ]);
      await recost(db, OPTIONS);
      // 25 become 2.5 at 500.00; the 0.5 sold takes 500.00 × 0.5/2.5 = 100.00, acquired on the buy's date.
      expect(await matchesOf(cil!)).to.deep.equal([`${lot} 2026-01-05→2026-01-10 0.5 100.00`]);
      expect(await customerPositions(db, c)).to.deep.equal([
        { symbol: 'XYZ', quantity: '2', cost_usd: '400.00', pending_recost: 0 },
      ]);
    });
  });

  describe('the fee schedule', () => {
    it('uses the itemised broker fee when one is recorded, and a trade’s brokerage_bps override', async () => {
      const c = await newCustomer();
      const b = buy({ customer_id: c, symbol: 'MSFT', quantity: '1', amount_usd: '400.00', txn_date: '2026-01-05' });
      const s = sell({
        customer_id: c,
        symbol: 'MSFT',
        quantity: '1',
        amount_usd: '1234.56',
        txn_date: '2026-01-06',
        metadata: { brokerage_bps: 30 },
      });
      await post(db, [b, s]);
      await db.raw(
        `INSERT INTO broker_fees (source, source_txn_id, amount_usd, source_row) VALUES (?, ?, '1.23', '{"row": 7}')`,
        [b.source, b.sourceTxnId],
      );
      await recost(db, OPTIONS);
      expect(await effectiveLines(db, b.txnId)).to.deep.equal([
        '1100 Cr 1.23 broker_cost_settled',
        '2340 Cr 1.23 broker_cost',
        '2340 Dr 1.23 broker_cost_settled',
        '5010 Dr 1.23 broker_cost',
      ]);
      // 1234.56 × 30 bps = 3.70368 → 3.70; × 4 bps = 0.493824 → 0.49.
      expect(await effectiveLines(db, s.txnId)).to.deep.equal([
        '1100 Cr 0.49 broker_cost_settled',
        '1200 Cr 400.00 cost_relief',
        '2010 Dr 3.70 brokerage_fee',
        '2100 Dr 400.00 cost_relief',
        '2340 Cr 0.49 broker_cost',
        '2340 Dr 0.49 broker_cost_settled',
        '4010 Cr 3.70 brokerage_fee',
        '5010 Dr 0.49 broker_cost',
      ]);
    });
  });

  describe('a change of the fee schedule (issue 18, money item 3)', () => {
    it('re-prices later trades only: January’s entries stand when CUSTOMER_FEE_BPS goes 22 → 30 and BROKER_COST_BPS 4 → 5 before a February buy', async () => {
      const c = await newCustomer();
      const raised = new FeeSchedule(new Decimal(30), {}, new Decimal(5));
      const [janBuy, janSell] = await post(db, [
        buy({ customer_id: c, symbol: 'ORCL', quantity: '10', amount_usd: '1000.00', txn_date: '2026-01-05' }),
        sell({ customer_id: c, symbol: 'ORCL', quantity: '4', amount_usd: '600.00', txn_date: '2026-01-20' }),
      ]);
      await recost(db, OPTIONS);
      // January, at 22 and 4 bps: the buy's broker cost 1000.00 × 4 bps = 0.40; the sell's fee
      // 600.00 × 22 bps = 1.32, broker cost 600.00 × 4 bps = 0.24, relief 1000.00 × 4/10 = 400.00.
      const january = [
        [
          '1100 Cr 0.40 broker_cost_settled',
          '2340 Cr 0.40 broker_cost',
          '2340 Dr 0.40 broker_cost_settled',
          '5010 Dr 0.40 broker_cost',
        ],
        [
          '1100 Cr 0.24 broker_cost_settled',
          '1200 Cr 400.00 cost_relief',
          '2010 Dr 1.32 brokerage_fee',
          '2100 Dr 400.00 cost_relief',
          '2340 Cr 0.24 broker_cost',
          '2340 Dr 0.24 broker_cost_settled',
          '4010 Cr 1.32 brokerage_fee',
          '5010 Dr 0.24 broker_cost',
        ],
      ];
      expect([await effectiveLines(db, janBuy!), await effectiveLines(db, janSell!)]).to.deep.equal(january);
      const { rows: pins } = await db.raw<{ rows: Array<{ brokerage_bps: string; broker_cost_bps: string }> }>(
        `SELECT metadata->>'brokerage_bps' AS brokerage_bps, metadata->>'broker_cost_bps' AS broker_cost_bps FROM transactions WHERE txn_id = ?`,
        [janSell!],
      );
      expect(pins).to.deep.equal([{ brokerage_bps: '22', broker_cost_bps: '4' }]);

      // The schedule is raised; a February buy comes in under it and recost runs with it.
      const febBuy = draft(
        {
          txn_type: 'buy_security',
          source: 'usbroker',
          customer_id: c,
          symbol: 'ORCL',
          quantity: '2',
          amount_usd: '300.00',
          txn_date: '2026-02-03',
        },
        randomUUID(),
        { feeSchedule: raised },
      );
      await post(db, [febBuy]);
      const result = await recost(db, { ...OPTIONS, policy: { feeSchedule: raised } });
      expect(result).to.deep.include({ derivations_posted: 1, superseded: 0 });
      // February at 30 and 5 bps: its fee at ingest 300.00 × 30 bps = 0.90; its broker cost 300.00 × 5 bps = 0.15.
      expect(
        febBuy.lines
          .filter((l) => l.postingKind === 'brokerage_fee')
          .map((l) => `${l.accountCode} ${l.debit.plus(l.credit).toFixed(2)}`),
      ).to.deep.equal(['2010 0.90', '4010 0.90']);
      expect(await effectiveLines(db, febBuy.txnId)).to.deep.equal([
        '1100 Cr 0.15 broker_cost_settled',
        '2340 Cr 0.15 broker_cost',
        '2340 Dr 0.15 broker_cost_settled',
        '5010 Dr 0.15 broker_cost',
      ]);
      expect([await effectiveLines(db, janBuy!), await effectiveLines(db, janSell!)]).to.deep.equal(january);

      // Re-costing history under the new schedule gives the same books: nothing is posted.
      const before = await customerNets(db, c);
      await owner.raw('UPDATE recost_states SET recosted_at = NULL WHERE txn_id = ANY(?::uuid[])', [
        [janBuy!, janSell!, febBuy.txnId],
      ]);
      expect(await recost(db, { ...OPTIONS, policy: { feeSchedule: raised } })).to.deep.include({
        derivations_posted: 0,
        superseded: 0,
      });
      expect(await customerNets(db, c)).to.deep.equal(before);
    });
  });

  describe('an AED trade (issue 18, money item 8)', () => {
    it('charges a sell’s fee to the AED wallet it was paid into: a manual AED sell of 100.00 USD leaves the USD wallet untouched', async () => {
      const c = await newCustomer();
      const [, , s] = await aedRoundTrip(db, c);
      await recost(db, OPTIONS);
      // 100.00 × 22 bps = 0.22 from the AED wallet (2020); broker cost 100.00 × 4 bps = 0.04; relief the lot's 100.00.
      expect(await effectiveLines(db, s!)).to.deep.equal([
        '1200 Cr 100.00 cost_relief',
        '2020 Dr 0.22 brokerage_fee',
        '2100 Dr 100.00 cost_relief',
        '2340 Cr 0.04 broker_cost',
        '4010 Cr 0.22 brokerage_fee',
        '5010 Dr 0.04 broker_cost',
      ]);
      // 2020: deposit −100.00, buy +100.00 and fee +0.22, sell −100.00, sell fee +0.22 = −99.56; no 2010 line at all.
      expect(await customerNets(db, c)).to.deep.equal({
        '1020': '100.00',
        '2020': '-99.56',
        '2340': '-0.08',
        '4010': '-0.44',
        '5010': '0.08',
      });
    });

    it('charges that fee in AED too (its USD at the trade’s rate), and a superseded derivation’s reversal takes it back in AED (issue 18, item 4)', async () => {
      const c = await newCustomer();
      const [, , s] = await aedRoundTrip(db, c);
      await recost(db, OPTIONS);
      /** The customer's AED lines (2020), as `USD side AED kind`, in journal order. */
      const aedLines = async () =>
        (
          await db('journal_lines')
            .where({ customer_id: c, account_code: '2020' })
            .orderBy('line_id')
            .select('debit', 'credit', 'native_amount', 'posting_kind')
        ).map((l) =>
          [Number(l.debit) > 0 ? `Dr ${l.debit}` : `Cr ${l.credit}`, `AED ${l.native_amount}`, l.posting_kind].join(
            ' ',
          ),
        );
      // The rate is 367.25 / 100.00 = 3.6725: a fee of 0.22 USD is AED 0.80795 → 0.81.
      expect(await aedLines()).to.deep.equal([
        'Cr 100.00 AED 367.25 deposit',
        'Dr 100.00 AED 367.25 securities_liability',
        'Dr 0.22 AED 0.81 brokerage_fee',
        'Cr 100.00 AED 367.25 sale_proceeds',
        'Dr 0.22 AED 0.81 brokerage_fee',
      ]);
      // The sell reversed: its lines come back in AED, and recost's derivation of it is reversed, AED 0.81 with it.
      await reverseTransaction(db, s!, { txnId: randomUUID(), txnDate: '2026-01-07', memo: null });
      await recost(db, OPTIONS);
      expect((await aedLines()).slice(5).sort()).to.deep.equal(
        ['Cr 0.22 AED 0.81 brokerage_fee', 'Dr 100.00 AED 367.25 sale_proceeds'].sort(),
      );
      const [wallet] = (
        await db.raw<{ rows: Array<{ aed: string }> }>(
          `SELECT sum(CASE WHEN credit > 0 THEN native_amount ELSE -native_amount END)::text AS aed
             FROM journal_lines WHERE customer_id = ? AND account_code = '2020'`,
          [c],
        )
      ).rows;
      // Deposit 367.25, buy −367.25 and its fee −0.81; the sell and its fee undone.
      expect(wallet).to.deep.equal({ aed: '-0.81' });
    });
  });

  describe('the customer fee per source', () => {
    it('charges each sell the fee of its own source, unless the trade states brokerage_bps', async () => {
      const c = await newCustomer();
      const feeSchedule = new FeeSchedule(new Decimal(22), { usbroker: new Decimal(30), manual: new Decimal(10) });
      const sale = { customer_id: c, symbol: 'META', quantity: '1', amount_usd: '1000.00' };
      // Posted while that schedule is in force: each sell is pinned to its source's fee.
      const sold = (t: Trade) => draft({ txn_type: 'sell_security', ...t }, randomUUID(), { feeSchedule });
      const [, fromBroker, byHand, fromFeed, stated] = await post(db, [
        buy({
          customer_id: c,
          symbol: 'META',
          quantity: '4',
          amount_usd: '400.00',
          txn_date: '2026-01-05',
          source: 'manual',
        }),
        sold({ ...sale, txn_date: '2026-01-06', source: 'usbroker' }),
        sold({ ...sale, txn_date: '2026-01-07', source: 'manual' }),
        sold({ ...sale, txn_date: '2026-01-08', source: 'uaefeed' }),
        sold({ ...sale, txn_date: '2026-01-09', source: 'usbroker', metadata: { brokerage_bps: '5' } }),
      ]);
      await recost(db, OPTIONS);
      const fee = async (id: string) => (await effectiveLines(db, id)).filter((l) => l.startsWith('4010'));
      // 1000.00 at 30 bps (usbroker's), 10 bps (manual's), 22 bps (the default: uaefeed has none), 5 bps (the trade's own).
      expect(await fee(fromBroker!)).to.deep.equal(['4010 Cr 3.00 brokerage_fee']);
      expect(await fee(byHand!)).to.deep.equal(['4010 Cr 1.00 brokerage_fee']);
      expect(await fee(fromFeed!)).to.deep.equal(['4010 Cr 2.20 brokerage_fee']);
      expect(await fee(stated!)).to.deep.equal(['4010 Cr 0.50 brokerage_fee']);
    });
  });

  describe('an oversell', () => {
    it('is flagged in the result and in recost_flags, left pending, and posts nothing for it', async () => {
      const c = await newCustomer();
      const [, s] = await post(db, [
        buy({ customer_id: c, symbol: 'TSLA', quantity: '1', amount_usd: '200.00', txn_date: '2026-01-05' }),
        sell({ customer_id: c, symbol: 'TSLA', quantity: '2', amount_usd: '450.00', txn_date: '2026-01-06' }),
      ]);
      const result = await recost(db, OPTIONS);
      expect(result.flagged).to.deep.equal([
        { txn_id: s, reason: 'insufficient_lots', detail: { quantity: '2', held: '1' } },
      ]);
      expect(result.remaining).to.equal(1);
      expect(await recostedAt(db, s!)).to.equal(null);
      expect(await effectiveLines(db, s!)).to.deep.equal([]);
      const { rows } = await db.raw<{ rows: Array<{ reason: string; cleared_at: Date | null }> }>(
        'SELECT reason, cleared_at FROM recost_flags WHERE txn_id = ?',
        [s!],
      );
      expect(rows).to.deep.equal([{ reason: 'insufficient_lots', cleared_at: null }]);

      // A missing earlier buy arrives: the sell is derived and its flag cleared.
      await post(db, [
        buy({ customer_id: c, symbol: 'TSLA', quantity: '1', amount_usd: '250.00', txn_date: '2026-01-04' }),
      ]);
      const again = await recost(db, OPTIONS);
      expect(again.flagged).to.deep.equal([]);
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 450.00 cost_relief');
      const cleared = await db.raw<{ rows: Array<{ cleared_at: Date | null }> }>(
        'SELECT cleared_at FROM recost_flags WHERE txn_id = ?',
        [s!],
      );
      expect(cleared.rows[0]!.cleared_at).to.be.instanceOf(Date);
    });
  });

  describe('within a day', () => {
    it('takes a day’s trades in the order their sync says they executed (metadata.executed_at), not the order they were posted', async () => {
      const c = await newCustomer();
      // Two jobs: the quantity sell of the day is posted first, the full-portfolio-cost buy before it later.
      const s = await sellPostedBeforeItsBuy(db, c, {
        sell: '2026-01-07T17:01:02.000Z',
        buy: '2026-01-07T15:09:02.000Z',
      });
      const result = await recost(db, OPTIONS);
      expect(result.flagged).to.deep.equal([]);
      // Two of the three shares bought for 420.00: 280.00.
      expect(await effectiveLines(db, s)).to.include('2100 Dr 280.00 cost_relief');
    });

    it('without executed_at, a day’s trades stay in posting order (a sell posted before its buy is an oversell)', async () => {
      const c = await newCustomer();
      const s = await sellPostedBeforeItsBuy(db, c, { sell: 'soon' });
      const result = await recost(db, OPTIONS);
      expect(result.flagged.map((f) => f.txn_id)).to.deep.equal([s]);
      // An earlier buy arrives: the sell is derived and nothing is left pending for the other tests.
      await post(db, [
        buy({ customer_id: c, symbol: 'AMD', quantity: '2', amount_usd: '250.00', txn_date: '2026-01-06' }),
      ]);
      expect((await recost(db, OPTIONS)).flagged).to.deep.equal([]);
    });
  });

  describe('idempotence', () => {
    it('a second run posts nothing and leaves the books as they were', async () => {
      const c = await newCustomer();
      await post(db, [
        buy({ customer_id: c, symbol: 'NVDA', quantity: '3', amount_usd: '100.00', txn_date: '2026-01-05' }),
        sell({ customer_id: c, symbol: 'NVDA', quantity: '1', amount_usd: '40.00', txn_date: '2026-01-06' }),
      ]);
      await recost(db, OPTIONS);
      const before = await balances(db);
      const second = await recost(db, OPTIONS);
      expect(second).to.deep.equal({ recosted: 0, derivations_posted: 0, superseded: 0, flagged: [], remaining: 0 });
      expect(await balances(db)).to.deep.equal(before);
    });

    it('a re-cost of a trade whose derivation has not changed posts nothing and stamps it', async () => {
      const c = await newCustomer();
      const [b] = await post(db, [
        buy({ customer_id: c, symbol: 'AMD', quantity: '3', amount_usd: '100.00', txn_date: '2026-01-05' }),
      ]);
      await recost(db, OPTIONS);
      await db.raw('UPDATE recost_states SET recosted_at = NULL WHERE txn_id = ?', [b!]);
      const again = await recost(db, OPTIONS);
      expect(again).to.deep.include({ recosted: 1, derivations_posted: 0, superseded: 0 });
    });
  });

  describe('superseding', () => {
    it('reversing the only lot under a stamped sale: the sale’s derivation is reversed, nothing replaces it, and the sale is flagged and pending again', async () => {
      const c = await newCustomer();
      const [b, s] = await post(db, [
        buy({ customer_id: c, symbol: 'ORCL', quantity: '10', amount_usd: '1000.00', txn_date: '2026-01-05' }),
        sell({ customer_id: c, symbol: 'ORCL', quantity: '10', amount_usd: '1200.00', txn_date: '2026-01-10' }),
      ]);
      await recost(db, OPTIONS);
      expect(await recostedAt(db, s!)).to.be.instanceOf(Date);
      await reverseTransaction(db, b!, { txnId: randomUUID(), txnDate: '2026-01-12', memo: 'entered in error' });
      const result = await recost(db, OPTIONS);
      expect(result.flagged).to.deep.equal([
        { txn_id: s!, reason: 'insufficient_lots', detail: { quantity: '10', held: '0' } },
      ]);
      expect(await effectiveLines(db, s!)).to.deep.equal([]);
      expect(await recostedAt(db, s!)).to.equal(null);
      const { rows } = await db.raw<{ rows: Array<{ reason: string }> }>(
        'SELECT reason FROM recost_flags WHERE txn_id = ? AND cleared_at IS NULL',
        [s!],
      );
      expect(rows).to.deep.equal([{ reason: 'insufficient_lots' }]);
      // A second run changes nothing: the sale stays flagged and pending.
      expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 0, superseded: 0 });
      expect(await recostedAt(db, s!)).to.equal(null);
      // The operator reverses the sale too: nothing is left to cost, the flag clears (and no later test sees it).
      await reverseTransaction(db, s!, { txnId: randomUUID(), txnDate: '2026-01-12', memo: 'entered in error' });
      expect(await recost(db, OPTIONS)).to.deep.include({ flagged: [], remaining: 0 });
    });

    it('after an earlier buy is reversed (which re-pends it): the sell’s old derivation is reversed and version 2 posted', async () => {
      const c = await newCustomer();
      const [b1, , s] = await post(db, [
        buy({ customer_id: c, symbol: 'IBM', quantity: '10', amount_usd: '1000.00', txn_date: '2026-01-05' }),
        buy({ customer_id: c, symbol: 'IBM', quantity: '10', amount_usd: '1500.00', txn_date: '2026-01-06' }),
        sell({ customer_id: c, symbol: 'IBM', quantity: '10', amount_usd: '2000.00', txn_date: '2026-01-10' }),
      ]);
      await recost(db, OPTIONS);
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 1000.00 cost_relief');

      await reverseTransaction(db, b1!, { txnId: randomUUID(), txnDate: '2026-01-07', memo: 'entered in error' });
      const result = await recost(db, OPTIONS);
      // The sell's v1 and the reversed buy's derivation are reversed; the sell's v2 is posted.
      expect(result).to.deep.include({ recosted: 1, derivations_posted: 1, superseded: 2, flagged: [] });
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 1500.00 cost_relief');
      expect(await effectiveLines(db, b1!)).to.deep.equal([]);
      const { rows } = await db.raw<{ rows: Array<{ source_txn_id: string; reversed: boolean }> }>(
        `SELECT d.source_txn_id, EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = d.txn_id) AS reversed
           FROM transactions d WHERE d.txn_type = 'recost' AND d.metadata->>'recost_of' = ? ORDER BY d.source_txn_id`,
        [s!],
      );
      expect(rows).to.deep.equal([
        { source_txn_id: `${s}:1`, reversed: true },
        { source_txn_id: `${s}:2`, reversed: false },
      ]);
    });
  });

  describe('reversing a trade', () => {
    it('re-pends it in the reversal’s own database transaction, once', async () => {
      const c = await newCustomer();
      const [b, s] = await post(db, [
        buy({ customer_id: c, symbol: 'CSCO', quantity: '2', amount_usd: '100.00', txn_date: '2026-01-05' }),
        sell({ customer_id: c, symbol: 'CSCO', quantity: '1', amount_usd: '60.00', txn_date: '2026-01-06' }),
      ]);
      await recost(db, OPTIONS);
      const first = await reverseTransaction(db, s!, { txnId: randomUUID(), txnDate: '2026-01-07', memo: null });
      expect(first.created).to.equal(true);
      expect(await recostedAt(db, s!)).to.equal(null);
      expect(await recostedAt(db, b!)).to.be.instanceOf(Date);
      await recost(db, OPTIONS);
      expect(await recostedAt(db, s!)).to.be.instanceOf(Date);
      // A repeat answers the first reversal and leaves the trade stamped: nothing to re-cost.
      const again = await reverseTransaction(db, s!, { txnId: randomUUID(), txnDate: '2026-01-08', memo: null });
      expect(again).to.deep.include({ created: false });
      expect(again.transaction.txn_id).to.equal(first.transaction.txn_id);
      expect(await recostedAt(db, s!)).to.be.instanceOf(Date);
    });

    it('a reversed first buy: the sell is relieved from the remaining lots, the buy’s derivation reversed, the books those of a customer who never bought it', async () => {
      const [c, fresh] = [await newCustomer(), await newCustomer()];
      const pair = { symbol: 'ADBE', quantity: '3' };
      const [b1, , s] = await post(db, [
        buy({ ...pair, customer_id: c, amount_usd: '300.00', txn_date: '2026-01-05' }),
        buy({ ...pair, customer_id: c, amount_usd: '600.00', txn_date: '2026-01-06' }),
        sell({ ...pair, customer_id: c, quantity: '2', amount_usd: '700.00', txn_date: '2026-01-10' }),
      ]);
      await post(db, [
        buy({ ...pair, customer_id: fresh, amount_usd: '600.00', txn_date: '2026-01-06' }),
        sell({ ...pair, customer_id: fresh, quantity: '2', amount_usd: '700.00', txn_date: '2026-01-10' }),
      ]);
      await recost(db, OPTIONS);
      // Two of the first lot's three shares: 300.00 × 2/3.
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 200.00 cost_relief');

      await reverseTransaction(db, b1!, { txnId: randomUUID(), txnDate: '2026-01-11', memo: 'entered in error' });
      const result = await recost(db, OPTIONS);
      // The reversed buy's derivation and the sell's version 1 are reversed; the sell's version 2 is posted.
      expect(result).to.deep.include({ recosted: 1, derivations_posted: 1, superseded: 2, flagged: [] });
      expect(await recostedAt(db, b1!)).to.be.instanceOf(Date);
      expect(await effectiveLines(db, b1!)).to.deep.equal([]);
      // Two of the second lot's three shares: 600.00 × 2/3.
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 400.00 cost_relief');

      expect((await trialBalance(db)).balanced).to.equal(true);
      expect(await customerNets(db, c)).to.deep.equal(await customerNets(db, fresh));
      expect(await recost(db, OPTIONS)).to.deep.equal({
        recosted: 0,
        derivations_posted: 0,
        superseded: 0,
        flagged: [],
        remaining: 0,
      });
    });
  });

  describe('reversing a recost entry by hand', () => {
    it('is refused (derived_entry, naming the trade) and posts nothing; reversing the trade lets recost supersede it', async () => {
      const c = await newCustomer();
      const [b] = await post(db, [
        buy({ customer_id: c, symbol: 'ORCL', quantity: '1', amount_usd: '100.00', txn_date: '2026-01-05' }),
      ]);
      await recost(db, OPTIONS);
      // The broker's cost, 100.00 × 4 bps.
      expect(await effectiveLines(db, b!)).to.deep.equal([
        '1100 Cr 0.04 broker_cost_settled',
        '2340 Cr 0.04 broker_cost',
        '2340 Dr 0.04 broker_cost_settled',
        '5010 Dr 0.04 broker_cost',
      ]);
      const { txn_id: entry } = await db('transactions')
        .where({ txn_type: 'recost' })
        .whereRaw("metadata->>'recost_of' = ?", [b!])
        .first('txn_id');
      const before = await balances(db);

      const refused = await reverseTransaction(db, entry, {
        txnId: randomUUID(),
        txnDate: '2026-01-06',
        memo: null,
      }).catch((e: unknown) => e);
      expect(refused).to.deep.include({ code: 'derived_entry', details: [{ recost_of: b }] });
      expect((refused as Error).message).to.include(`reverse trade ${b!} instead`);
      expect(await balances(db)).to.deep.equal(before);
      expect(await effectiveLines(db, b!)).to.deep.equal([
        '1100 Cr 0.04 broker_cost_settled',
        '2340 Cr 0.04 broker_cost',
        '2340 Dr 0.04 broker_cost_settled',
        '5010 Dr 0.04 broker_cost',
      ]);

      // The way that works: reverse the trade; recost reverses its derivation itself.
      await reverseTransaction(db, b!, { txnId: randomUUID(), txnDate: '2026-01-06', memo: null });
      expect(await recost(db, OPTIONS)).to.deep.include({ superseded: 1, derivations_posted: 0 });
      expect(await effectiveLines(db, b!)).to.deep.equal([]);
      const { rows } = await db.raw<{ rows: Array<{ line: string }> }>(
        `SELECT l.account_code || CASE WHEN l.debit > 0 THEN ' Dr ' || l.debit ELSE ' Cr ' || l.credit END AS line
           FROM transactions r JOIN journal_lines l USING (txn_id) WHERE r.reverses_txn_id = ? ORDER BY 1`,
        [entry],
      );
      expect(rows.map((r) => r.line)).to.deep.equal(['1100 Dr 0.04', '2340 Cr 0.04', '2340 Dr 0.04', '5010 Cr 0.04']);
      // Once superseded, still not the caller's to reverse (nor to be answered as if it were).
      const again = await reverseTransaction(db, entry, {
        txnId: randomUUID(),
        txnDate: '2026-01-07',
        memo: null,
      }).catch((e: unknown) => e);
      expect(again).to.deep.include({ code: 'derived_entry' });
    });
  });

  describe('a reversal racing a recost run', () => {
    it('a pending trade reversed after its pair was read and before its stamp is pending again after the run; the next run derives it reversed', async () => {
      const c = await newCustomer();
      const [b1, , s] = await post(db, [
        buy({ customer_id: c, symbol: 'INTC', quantity: '3', amount_usd: '300.00', txn_date: '2026-01-05' }),
        buy({ customer_id: c, symbol: 'INTC', quantity: '3', amount_usd: '600.00', txn_date: '2026-01-06' }),
        sell({ customer_id: c, symbol: 'INTC', quantity: '2', amount_usd: '700.00', txn_date: '2026-01-10' }),
      ]);
      const store = recostStore(db);
      // The reversal commits while the run is between reading the pair and stamping it.
      const racing = {
        ...store,
        stamp: async (ids: string[]) => {
          if (ids.includes(b1!))
            await reverseTransaction(db, b1!, { txnId: randomUUID(), txnDate: '2026-01-11', memo: null });
          return store.stamp(ids);
        },
      };
      const raced = await recostWith(racing, OPTIONS);
      expect(raced.remaining).to.equal(1);
      expect(await recostedAt(db, b1!)).to.equal(null);
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 200.00 cost_relief');

      const next = await recost(db, OPTIONS);
      expect(next).to.deep.include({ recosted: 1, remaining: 0 });
      expect(await effectiveLines(db, b1!)).to.deep.equal([]);
      expect(await effectiveLines(db, s!)).to.include('2100 Dr 400.00 cost_relief');
    });
  });

  describe('limit and non-trades', () => {
    it('takes at most `limit` pending transactions, oldest first, and stamps a pending non-trade', async () => {
      const c = await newCustomer();
      const [dep] = await post(db, [draft({ customer_id: c, amount_usd: '5.00', txn_date: '2026-01-01' })]);
      expect(
        await rependRecostByIds(owner, [dep!]),
        'a deposit is never pending: re-pending gives it a state',
      ).to.equal(1);
      const result = await recost(db, { ...OPTIONS, limit: 1 });
      expect(result).to.deep.include({ recosted: 1, derivations_posted: 0 });
      expect(await recostedAt(db, dep!)).to.be.instanceOf(Date);
    });
  });

  describe('a run cut off', () => {
    it('a group whose posting fails fails the run with that error, while the next group is read; stamps nothing of it; the next run completes', async () => {
      const [c1, c2] = [await newCustomer(), await newCustomer()];
      const trades = [c1, c2].flatMap((c) => [
        buy({ customer_id: c, symbol: 'IBM', quantity: '2', amount_usd: '200.00', txn_date: '2026-02-01' }),
        sell({ customer_id: c, symbol: 'IBM', quantity: '1', amount_usd: '120.00', txn_date: '2026-02-02' }),
      ]);
      const ids = await post(db, trades);
      const store = recostStore(db);
      const lost = new Error('connection lost while posting');
      const failing: RecostStore = {
        ...store,
        post: () => Promise.reject(lost),
        // The next group's read is still under way when the write fails.
        pairsHistory: (pairs) =>
          new Promise((resolve) => setTimeout(resolve, 50)).then(() => store.pairsHistory(pairs)),
      };
      // In a worker an unhandled rejection would end the process, whatever the run was doing.
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const error = await recostWith(failing, { ...OPTIONS, pairsPerGroup: 1 })
        .then(
          () => null,
          (e: unknown) => e,
        )
        .finally(() => process.off('unhandledRejection', onUnhandled));
      expect(error).to.equal(lost);
      expect(unhandled).to.deep.equal([]);
      for (const id of ids) expect(await recostedAt(db, id)).to.equal(null);
      expect(await recost(db, OPTIONS)).to.deep.include({ derivations_posted: 4, remaining: 0 });
    });

    it('two groups’ writes run at once, never more; a failed write is thrown once the other write in flight has ended', async () => {
      const customers = [await newCustomer(), await newCustomer(), await newCustomer(), await newCustomer()];
      await post(
        db,
        customers.map((c) =>
          buy({ customer_id: c, symbol: 'IBM', quantity: '1', amount_usd: '1000.00', txn_date: '2026-02-01' }),
        ),
      );
      const store = recostStore(db);
      const lost = new Error('connection lost while posting');
      let inFlight = 0;
      let most = 0;
      const ended: string[] = [];
      let writes = 0;
      const slow: RecostStore = {
        ...store,
        post: async (drafts) => {
          writes += 1;
          const write = writes;
          inFlight += 1;
          most = Math.max(most, inFlight);
          try {
            // The second write outlasts the first, which fails: the run must wait for it.
            await new Promise((resolve) => setTimeout(resolve, write === 2 ? 200 : 20));
            if (write === 1) throw lost;
            return await store.post(drafts);
          } finally {
            inFlight -= 1;
            ended.push(`write ${write}`);
          }
        },
      };
      const error = await recostWith(slow, { ...OPTIONS, pairsPerGroup: 1 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.equal(lost);
      expect(most).to.equal(2);
      expect(ended).to.deep.equal(['write 1', 'write 2']);
      expect(await recost(db, OPTIONS)).to.deep.include({ remaining: 0 });
    });
  });

  describe('concurrency', () => {
    it('two runs at once: one waits for the other (advisory lock); the books are as after one run', async () => {
      const c = await newCustomer();
      await post(db, [
        buy({ customer_id: c, symbol: 'ORCL', quantity: '4', amount_usd: '400.00', txn_date: '2026-01-05' }),
        sell({ customer_id: c, symbol: 'ORCL', quantity: '3', amount_usd: '330.00', txn_date: '2026-01-06' }),
      ]);
      const [a, b] = await Promise.all([recost(db, OPTIONS), recost(db, OPTIONS)]);
      expect(a.derivations_posted + b.derivations_posted).to.equal(2);
    });
  });

  describe('property: re-costing history gives the books a first recost gives', () => {
    it('(a) first recost, (b) null every recosted_at, (c) null a random subset: identical balances per account and customer', async () => {
      const trade = fc.record({
        pair: fc.integer({ min: 0, max: 5 }),
        buy: fc.boolean(),
        quantity: fc.integer({ min: 1, max: 2_000 }),
        cents: fc.integer({ min: 1, max: 5_000_00 }),
      });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(trade, { minLength: 150, maxLength: 300 }),
          fc.array(fc.boolean(), { minLength: 300, maxLength: 300 }),
          async (ops, subset) => {
            run += 1;
            const customers = [`P${run}-A`, `P${run}-B`, `P${run}-C`];
            for (const id of customers) await upsertCustomer(db, id, {});
            const held = new Map<number, number>();
            const drafts = ops.flatMap((op, i) => {
              const quantityOf = (q: number) => new Decimal(q).dividedBy(100).toFixed();
              const date = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
              const pair = {
                customer_id: customers[op.pair % 3]!,
                symbol: op.pair < 3 ? 'AAA' : 'BBB',
                txn_date: date,
                amount_usd: new Decimal(op.cents).dividedBy(100).toFixed(2),
              };
              const h = held.get(op.pair) ?? 0;
              if (op.buy || h === 0) {
                held.set(op.pair, h + op.quantity);
                return [buy({ ...pair, quantity: quantityOf(op.quantity) })];
              }
              const q = Math.min(h, op.quantity);
              held.set(op.pair, h - q);
              return [sell({ ...pair, quantity: quantityOf(q) })];
            });
            await post(db, drafts);
            const first = await recost(db, OPTIONS);
            expect(first.flagged).to.deep.equal([]);
            const a = await balances(db);
            const ids = drafts.map((d) => d.txnId);
            await db.raw('UPDATE recost_states SET recosted_at = NULL WHERE txn_id = ANY(?::uuid[])', [ids]);
            // Re-costed a pair at a time, the pending read in windows of 7: the same books.
            const b = await recost(db, { ...OPTIONS, pairsPerGroup: 1, batchSize: 7 });
            expect(b).to.deep.include({ derivations_posted: 0, superseded: 0, remaining: 0 });
            expect(await balances(db)).to.deep.equal(a);
            await db.raw('UPDATE recost_states SET recosted_at = NULL WHERE txn_id = ANY(?::uuid[])', [
              ids.filter((_, i) => subset[i % subset.length]),
            ]);
            await recost(db, { ...OPTIONS, pairsPerGroup: 4 });
            expect(await balances(db)).to.deep.equal(a);
          },
        ),
        { numRuns: 4 },
      );
    });
  });
});
