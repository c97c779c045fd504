import { recost, upsertCustomer, type Db } from '@ledger/core';
import { expect } from 'chai';
import { DEFAULT_JOB_SETTINGS, importUaefeedBatch, type UaefeedImportBatch } from '../src/index.js';
import { recostPolicyOf } from '../src/catalog.js';
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

async function post(db: Db, batch: UaefeedImportBatch) {
  const answer = await importUaefeedBatch(db, batch, DEFAULT_JOB_SETTINGS);
  expect(answer.outcome, JSON.stringify(answer)).to.equal('posted');
  return answer.outcome === 'posted' ? answer : null;
}

/** The lines of the uaefeed transactions keyed `sourceTxnId`, in order. */
async function linesOf(db: Db, sourceTxnId: string): Promise<Line[]> {
  const { rows } = await db.raw<{ rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string }> }>(
    `SELECT l.account_code, l.debit::numeric(20,2)::text AS debit, l.credit::numeric(20,2)::text AS credit, l.posting_kind
       FROM journal_lines l JOIN transactions t ON t.txn_id = l.txn_id
      WHERE t.source = 'uaefeed' AND t.source_txn_id = ? ORDER BY l.line_id`,
    [sourceTxnId],
  );
  return rows.map((r) => [r.account_code, r.debit, r.credit, r.posting_kind]);
}

/** The lines of the recost derivation in effect for the uaefeed trade keyed `sourceTxnId`. */
async function derivationOf(db: Db, sourceTxnId: string): Promise<Line[]> {
  const { rows } = await db.raw<{ rows: Array<{ account_code: string; debit: string; credit: string; posting_kind: string }> }>(
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
});
