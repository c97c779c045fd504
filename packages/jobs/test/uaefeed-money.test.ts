import { recost, upsertCustomer, type Db } from '@ledger/core/store';
import { expect } from 'chai';
import { DEFAULT_JOB_SETTINGS, importUaefeedBatch, type UaefeedImportBatch } from '../src/index.js';
import { recostPolicyOf } from '../src/job-settings.js';
import { nockedBookPerTest } from './book-per-test.js';

/*
 * The money of uaefeed records, worked out by hand (docs/posting-rules.md#uaefeed): what a
 * record posts and what recost adds, line by line. Records go in through the import, which maps
 * and posts them as sync-uaefeed does.
 */

type Line = [account: string, debit: string, credit: string, kind: string];

const CUSTOMER = 'UAE-1';
const NUMBER = '7000001';

type OrderRecord = NonNullable<UaefeedImportBatch['orders']>[number];

const order = (o: Partial<OrderRecord>): OrderRecord => ({
  customerNumber: NUMBER,
  clOrdId: `CL-${o.orderId ?? 'ORD-1'}`,
  orderId: 'ORD-1',
  symbol: 'AAPL',
  side: 'BUY',
  ordQty: '3',
  cumQty: '3',
  avgPx: '200.00',
  netSettle: '600.60',
  ordStatus: 'FILLED',
  tradeDate: '2026-02-02',
  currency: 'USD',
  exchange: 'NASDAQ',
  ...o,
});

/** An order of EMAAR on DFM, in AED. */
const aedOrder = (o: Partial<OrderRecord>) => order({ symbol: 'EMAAR', currency: 'AED', exchange: 'DFM', ...o });

/** 100 EMAAR at 10.01 AED (gross 1,001.00) settling 1,002.50 AED. */
const AED_BUY = aedOrder({ orderId: 'ORD-AED', ordQty: '100', cumQty: '100', avgPx: '10.01', netSettle: '1002.50' });

async function post(db: Db, batch: UaefeedImportBatch) {
  const answer = await importUaefeedBatch(db, batch, DEFAULT_JOB_SETTINGS);
  expect(answer.outcome, JSON.stringify(answer)).to.equal('posted');
  return answer.outcome === 'posted' ? answer : null;
}

/** The lines of the uaefeed transactions keyed `sourceTxnId`, in order. */
async function linesOf(db: Db, sourceTxnId: string): Promise<Line[]> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string }>;
  }>(
    `SELECT l.account_code, l.debit::numeric(20,2)::text AS debit, l.credit::numeric(20,2)::text AS credit, l.posting_kind
       FROM journal_lines l JOIN transactions t ON t.txn_id = l.txn_id
      WHERE t.source = 'uaefeed' AND t.source_txn_id = ? ORDER BY l.line_id`,
    [sourceTxnId],
  );
  return rows.map((r) => [r.account_code, r.debit, r.credit, r.posting_kind]);
}

/** The lines of the uaefeed transactions keyed `sourceTxnId` with their AED amounts (null: a USD line), in order. */
async function aedLinesOf(db: Db, sourceTxnId: string): Promise<Array<[string, string, string, string | null]>> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; native_amount: string | null }>;
  }>(
    `SELECT l.account_code, l.debit::numeric(20,2)::text AS debit, l.credit::numeric(20,2)::text AS credit, l.native_amount::text AS native_amount
       FROM journal_lines l JOIN transactions t ON t.txn_id = l.txn_id
      WHERE t.source = 'uaefeed' AND t.source_txn_id = ? ORDER BY l.line_id`,
    [sourceTxnId],
  );
  return rows.map((r) => [r.account_code, r.debit, r.credit, r.native_amount]);
}

/** The customer's AED wallet: credits − debits in AED (its lines' AED amounts) and in USD. */
async function aedWallet(db: Db): Promise<{ aed: string; usd: string }> {
  const { rows } = await db.raw<{ rows: Array<{ aed: string; usd: string }> }>(
    `SELECT sum(CASE WHEN credit > 0 THEN native_amount ELSE -native_amount END)::text AS aed, sum(credit - debit)::text AS usd
       FROM journal_lines WHERE customer_id = ? AND account_code = '2020'`,
    [CUSTOMER],
  );
  return rows[0]!;
}

/** The lines of the recost derivation in effect for the uaefeed trade keyed `sourceTxnId`. */
async function derivationOf(db: Db, sourceTxnId: string): Promise<Line[]> {
  const { rows } = await db.raw<{
    rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string }>;
  }>(
    `SELECT l.account_code, l.debit::numeric(20,2)::text AS debit, l.credit::numeric(20,2)::text AS credit, l.posting_kind
       FROM transactions trade
       JOIN transactions d ON d.txn_type = 'recost' AND d.metadata->>'recost_of' = trade.txn_id::text
       JOIN journal_lines l ON l.txn_id = d.txn_id
      WHERE trade.source = 'uaefeed' AND trade.source_txn_id = ?
        AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reverses_txn_id = d.txn_id)
      ORDER BY l.line_id`,
    [sourceTxnId],
  );
  return rows.map((r) => [r.account_code, r.debit, r.credit, r.posting_kind]);
}

/** The customer's net of an account, credits less debits (a wallet's balance). */
async function balance(db: Db, account: string): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ net: string }> }>(
    `SELECT coalesce(sum(credit - debit), 0)::numeric(20,2)::text AS net FROM journal_lines WHERE account_code = ? AND (customer_id = ? OR ? = '4010')`,
    [account, CUSTOMER, account],
  );
  return rows[0]!.net;
}

const recostBook = (db: Db) => recost(db, { policy: recostPolicyOf(DEFAULT_JOB_SETTINGS), limit: null });

describe('uaefeed money, worked by hand', function () {
  this.timeout(60_000);
  let db: Db;
  nockedBookPerTest(
    (opened) => (db = opened),
    (opened) => upsertCustomer(opened, CUSTOMER, { references: { uaefeed_customer_number: NUMBER } }),
  );

  it('a sell’s bundled fee is revenue: proceeds at gross, the stated fee Dr 2010 / Cr 4010; recost adds only the broker’s cost and the relief; the wallet nets netSettle', async () => {
    // Bought 3 AAPL at 200.00 (cost 600.00, fee 0.60); sold 3 at 201.37: gross 604.11, netSettle 603.51, fee 0.60.
    await post(db, {
      orders: [
        order({ orderId: 'ORD-1' }),
        order({ orderId: 'ORD-2', side: 'SELL', avgPx: '201.37', netSettle: '603.51', tradeDate: '2026-02-03' }),
      ],
    });
    expect(await linesOf(db, 'ORD-2')).to.deep.equal([
      ['1100', '604.11', '0.00', 'sale_proceeds'],
      ['2010', '0.00', '604.11', 'sale_proceeds'],
      ['2010', '0.60', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '0.60', 'brokerage_fee'],
    ]);
    await recostBook(db);
    // Broker cost 4 bps of 604.11 = 0.2416 → 0.24; relief: the lot's 600.00; no second customer fee.
    expect(await derivationOf(db, 'ORD-2')).to.deep.equal([
      ['5010', '0.24', '0.00', 'broker_cost'],
      ['2340', '0.00', '0.24', 'broker_cost'],
      ['2100', '600.00', '0.00', 'cost_relief'],
      ['1200', '0.00', '600.00', 'cost_relief'],
    ]);
    // −600.60 (the buy: 600.00 + 0.60) + 603.51 (netSettle of the sell).
    expect(await balance(db, '2010')).to.equal('2.91');
    // Both bundled fees: 0.60 + 0.60.
    expect(await balance(db, '4010')).to.equal('1.20');
  });

  it('a partly filled order that fills later posts each fill increment once: 4 of 10, then the 6 (1,124.70); a re-run posts nothing', async () => {
    // First seen 4 of 10 AAPL at 187.45: gross 749.80, netSettle 751.45 (fee 1.65).
    const partial = order({
      orderId: 'ORD-5',
      ordQty: '10',
      cumQty: '4',
      avgPx: '187.45',
      netSettle: '751.45',
      ordStatus: 'PARTIALLY_FILLED',
      tradeDate: '2026-02-02',
    });
    expect((await post(db, { orders: [partial] }))!.counts).to.include({ inserted: 1 });
    expect(await linesOf(db, 'ORD-5')).to.deep.equal([
      ['1200', '749.80', '0.00', 'security_cost'],
      ['1100', '0.00', '749.80', 'security_cost'],
      ['2010', '749.80', '0.00', 'securities_liability'],
      ['2100', '0.00', '749.80', 'securities_liability'],
      ['2010', '1.65', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '1.65', 'brokerage_fee'],
    ]);
    // Later all 10: gross 1,874.50, netSettle 1,878.62 (fee 4.12). The increment: 6 shares,
    // 1,874.50 − 749.80 = 1,124.70, fee 4.12 − 1.65 = 2.47, keyed by order and cumulative quantity.
    const filled = {
      ...partial,
      cumQty: '10',
      netSettle: '1878.62',
      ordStatus: 'FILLED' as const,
      tradeDate: '2026-02-03',
    };
    const later = (await post(db, { orders: [filled] }))!;
    expect(later.counts).to.include({ inserted: 1, conflict: 0 });
    expect(later.records[0]).to.include({ source_txn_id: 'ORD-5:10', outcome: 'inserted' });
    expect(await linesOf(db, 'ORD-5:10')).to.deep.equal([
      ['1200', '1124.70', '0.00', 'security_cost'],
      ['1100', '0.00', '1124.70', 'security_cost'],
      ['2010', '1124.70', '0.00', 'securities_liability'],
      ['2100', '0.00', '1124.70', 'securities_liability'],
      ['2010', '2.47', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '2.47', 'brokerage_fee'],
    ]);
    const { rows } = await db.raw<{ rows: Array<{ quantity: string; cash_movement: string }> }>(
      `SELECT quantity::text, metadata->>'cash_movement' AS cash_movement FROM transactions WHERE source = 'uaefeed' ORDER BY source_txn_id`,
    );
    expect(rows).to.deep.equal([
      { quantity: '4', cash_movement: '-751.45' },
      { quantity: '6', cash_movement: '-1127.17' },
    ]);
    // The wallet paid netSettle in all: 1,878.62; the shares cost 1,874.50.
    expect(await balance(db, '2010')).to.equal('-1878.62');
    expect(await balance(db, '2100')).to.equal('1874.50');

    const again = (await post(db, { orders: [filled] }))!;
    expect(again.counts).to.include({ inserted: 0, duplicate: 1, conflict: 0 });
    expect((await post(db, { orders: [partial] }))!.counts, 'the first sighting again: nothing new').to.include({
      inserted: 0,
      duplicate: 1,
    });
  });

  it('an AED trade converts its settlement once and the fee by difference: a buy of AED 1,002.50 moves the AED wallet by 272.97 USD, not 272.57 + 0.41', async () => {
    // 100 EMAAR at 10.01 AED: gross 1,001.00 AED = 272.5664 → 272.57 USD; netSettle 1,002.50 AED =
    // 272.9748 → 272.97 USD; the fee is 272.97 − 272.57 = 0.40 (converted alone, 1.50 AED is 0.41).
    await post(db, {
      orders: [AED_BUY],
    });
    expect(await linesOf(db, 'ORD-AED')).to.deep.equal([
      ['1200', '272.57', '0.00', 'security_cost'],
      ['1020', '0.00', '272.57', 'security_cost'],
      ['2020', '272.57', '0.00', 'securities_liability'],
      ['2100', '0.00', '272.57', 'securities_liability'],
      ['2020', '0.40', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '0.40', 'brokerage_fee'],
    ]);
    expect(await balance(db, '2020')).to.equal('-272.97');
  });

  it('an AED trade’s AED lines keep the feed’s AED figures, with the peg as its rate: the buy of AED 1,002.50 takes exactly AED 1,002.50 from the AED wallet (issue 18, item 4)', async () => {
    await post(db, {
      orders: [AED_BUY],
    });
    // Gross 1,001.00 AED on the cost lines, the fee 1,002.50 − 1,001.00 = 1.50 AED on the fee line;
    // lines of USD accounts carry none.
    expect(await aedLinesOf(db, 'ORD-AED')).to.deep.equal([
      ['1200', '272.57', '0.00', null],
      ['1020', '0.00', '272.57', '1001.00'],
      ['2020', '272.57', '0.00', '1001.00'],
      ['2100', '0.00', '272.57', null],
      ['2020', '0.40', '0.00', '1.50'],
      ['4010', '0.00', '0.40', null],
    ]);
    const { rows } = await db.raw<{ rows: Array<{ fx_rate: string; aed: string }> }>(
      `SELECT t.fx_rate::text AS fx_rate,
              (SELECT sum(CASE WHEN credit > 0 THEN native_amount ELSE -native_amount END) FROM journal_lines
                WHERE customer_id = ? AND account_code = '2020')::text AS aed
         FROM transactions t WHERE t.source = 'uaefeed' AND t.source_txn_id = 'ORD-AED'`,
      [CUSTOMER],
    );
    // The peg, not the quotient 1,001.00 / 272.57 = 3.67245...
    expect(rows).to.deep.equal([{ fx_rate: '3.6725', aed: '-1002.50' }]);
  });

  it('100 uaefeed deposits of AED 10.00 leave the AED wallet at exactly AED 1,000.00, though their USD is 100 × 2.72 = 272.00 (issue 18, item 4)', async () => {
    const transfers = Array.from({ length: 100 }, (_, i) => ({
      customerNumber: NUMBER,
      transferId: `TRF-${i + 1}`,
      cashAccountNumber: `${NUMBER}-AED`,
      type: 'DEPOSIT' as const,
      amount: '10.00',
      currency: 'AED',
      status: 'COMPLETED' as const,
      valueDate: '2026-02-02',
    }));
    await post(db, { cash_transfers: transfers });
    expect(await aedLinesOf(db, 'TRF-1')).to.deep.equal([
      ['1020', '2.72', '0.00', '10.00'],
      ['2020', '0.00', '2.72', '10.00'],
    ]);
    expect(await aedWallet(db)).to.deep.equal({ aed: '1000.00', usd: '272.00' });
  });

  it('an AED sell likewise: proceeds at the gross’s USD, the fee the difference to netSettle’s', async () => {
    // Bought 100 at 10.00 AED (1,000.00 = 272.29 USD, no fee); sold 100 at 10.01: gross 1,001.00 AED =
    // 272.57 USD, netSettle 998.93 AED = 272.0027 → 272.00 USD: fee 272.57 − 272.00 = 0.57 (converted
    // alone, 2.07 AED is 0.5637 → 0.56, and the wallet would get 272.01).
    await post(db, {
      orders: [
        aedOrder({ orderId: 'ORD-B', ordQty: '100', cumQty: '100', avgPx: '10.00', netSettle: '1000.00' }),
        aedOrder({
          orderId: 'ORD-S',
          side: 'SELL',
          ordQty: '100',
          cumQty: '100',
          avgPx: '10.01',
          netSettle: '998.93',
          tradeDate: '2026-02-03',
        }),
      ],
    });
    expect(await linesOf(db, 'ORD-S')).to.deep.equal([
      ['1020', '272.57', '0.00', 'sale_proceeds'],
      ['2020', '0.00', '272.57', 'sale_proceeds'],
      ['2020', '0.57', '0.00', 'brokerage_fee'],
      ['4010', '0.00', '0.57', 'brokerage_fee'],
    ]);
    // −272.29 + 272.00: each record moved the wallet by its netSettle's USD.
    expect(await balance(db, '2020')).to.equal('-0.29');
  });

  it('an AED trade whose bundled fee is worth less than half a cent posts no fee line, and its AED lines carry the net settlement: the AED wallet still moves by exactly netSettle (issue 18, item 4)', async () => {
    // Bought 1 at AED 9.98 for netSettle 10.00 (fee AED 0.02 = 0.0054 USD); sold it at 10.00 for
    // netSettle 9.98. At the peg 9.98 is 2.7175 and 10.00 is 2.7229 USD, both 2.72, so the fee's
    // USD is 0.00 and no fee line is posted; the AED fee folds into the AED lines instead: the buy
    // takes AED 10.00, the sale pays AED 9.98, as the custodian settled them.
    await post(db, {
      orders: [
        aedOrder({ orderId: 'ORD-B', ordQty: '1', cumQty: '1', avgPx: '9.98', netSettle: '10.00' }),
        aedOrder({
          orderId: 'ORD-S',
          side: 'SELL',
          ordQty: '1',
          cumQty: '1',
          avgPx: '10.00',
          netSettle: '9.98',
          tradeDate: '2026-02-03',
        }),
      ],
    });
    expect(await aedLinesOf(db, 'ORD-B')).to.deep.equal([
      ['1200', '2.72', '0.00', null],
      ['1020', '0.00', '2.72', '10.00'],
      ['2020', '2.72', '0.00', '10.00'],
      ['2100', '0.00', '2.72', null],
    ]);
    expect(await aedLinesOf(db, 'ORD-S')).to.deep.equal([
      ['1020', '2.72', '0.00', '9.98'],
      ['2020', '0.00', '2.72', '9.98'],
    ]);
    // −10.00 + 9.98 in AED, as the custodian's cash says; −2.72 + 2.72 in USD.
    expect(await aedWallet(db)).to.deep.equal({ aed: '-0.02', usd: '0.00' });
  });
});
