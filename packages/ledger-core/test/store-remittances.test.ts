import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  draftFxSpreadSettle,
  fxSpreadUsd,
  snapshotWins,
  type RemittanceFacts,
  type RemittanceStatus,
} from '../src/domain/remittances.js';
import { accrualsDue, Decimal, draftFxSpread, isPan, istDate, settlementsDue } from '../src/entry-points/posting.js';
import {
  findRemittancesOf,
  outstandingSweptPostings,
  postTransactions,
  remittancePostings,
  reverseTransaction,
  upsertRemittances,
  type RemittanceRecord,
} from '../src/entry-points/store.js';
import type { TestDatabase } from '../src/testing/index.js';
import { randomUUID } from 'node:crypto';
import { rowCount, storeDatabase } from './helpers.js';

function remittance(
  orderId: string,
  status: RemittanceStatus,
  overrides: Partial<RemittanceRecord> = {},
): RemittanceRecord {
  return {
    order_id: orderId,
    customer_id: 'C-1',
    remit_customer_id: 'cust_1',
    pan: 'ABCPS1234K',
    status,
    purpose_code: 'S0001',
    reference_number: null,
    amount_inr: '100000.00',
    amount_usd: '1142.40',
    quote_id: 'quote_1',
    quoted_at: '2026-01-05T04:00:00Z',
    quote_expires_at: '2026-01-05T04:30:00Z',
    fx_rate: '0.011424',
    mid_rate: null,
    mid_rate_source: null,
    mid_rate_at: null,
    tcs_inr: '0.00',
    payment_id: null,
    payment_status: null,
    funds_available: null,
    payment_error_code: null,
    paid_at: null,
    settlement_id: null,
    settlement_status: null,
    settlement_amount_usd: null,
    settlement_fx_fee_usd: null,
    settlement_txn_fee_usd: null,
    utr: null,
    settled_at: null,
    remitted_on: '2026-01-05',
    order_created_at: '2026-01-05T04:00:00Z',
    order_updated_at: '2026-01-05T04:00:00Z',
    ...overrides,
  };
}

describe('remittances: the status rule', () => {
  it('a snapshot behind the stored status loses; a final status takes only itself', () => {
    expect(snapshotWins('paid', 'active')).to.equal(false);
    expect(snapshotWins('paid', 'action_required')).to.equal(false);
    expect(snapshotWins('paid', 'paid')).to.equal(true);
    expect(snapshotWins('paid', 'failed')).to.equal(true);
    expect(snapshotWins('active', 'under_review')).to.equal(true);
    expect(snapshotWins('under_review', 'active')).to.equal(true);
    expect(snapshotWins('failed', 'paid')).to.equal(false);
    expect(snapshotWins('failed', 'cancelled')).to.equal(false);
    expect(snapshotWins('expired', 'expired')).to.equal(true);
  });

  it('fx_spread is the order USD times bps over 10,000, half-up to cents', () => {
    expect(fxSpreadUsd(new Decimal('1142.40'), new Decimal(50)).toString()).to.equal('5.71');
    expect(fxSpreadUsd(new Decimal('1000.00'), new Decimal('12.5')).toString()).to.equal('1.25');
    expect(fxSpreadUsd(new Decimal('3.00'), new Decimal(25)).toString()).to.equal('0.01');
    expect(fxSpreadUsd(new Decimal('1.00'), new Decimal(49)).toString()).to.equal('0');
  });

  it('a remittance date is its IST date; PANs are checked by format', () => {
    expect(istDate('2026-01-05T18:29:59Z')).to.equal('2026-01-05');
    expect(istDate('2026-01-05T18:30:00Z')).to.equal('2026-01-06');
    expect(isPan('ABCPS1234K')).to.equal(true);
    for (const bad of ['abcps1234k', 'ABCPS1234', 'ABCXS1234K', 'ABCPS12345', ''])
      expect(isPan(bad), bad).to.equal(false);
  });

  it('the postings balance: Dr 1300 / Cr 4030, then Dr 1010 + Dr 5030 (the settlement’s fees) / Cr 1300', () => {
    const accrual = draftFxSpread(
      {
        orderId: 'order_1',
        customerId: 'C-1',
        remittedOn: '2026-01-05',
        orderUsd: new Decimal('1142.40'),
        fxSpreadBps: new Decimal(50),
        amountUsd: new Decimal('5.71'),
      },
      randomUUID(),
    );
    expect(accrual.lines.map((l) => [l.accountCode, l.debit.toString(), l.credit.toString()])).to.deep.equal([
      ['1300', '5.71', '0'],
      ['4030', '0', '5.71'],
    ]);
    expect(accrual).to.include({
      source: 'remit',
      sourceTxnId: 'fx_spread:order_1',
      txnType: 'fx_spread',
      customerId: 'C-1',
      txnDate: '2026-01-05',
    });
    const fees = { fxFeeUsd: new Decimal('1.14'), txnFeeUsd: new Decimal('5.00') };
    const settle = (accrued: string) =>
      draftFxSpreadSettle(
        {
          orderId: 'order_1',
          customerId: 'C-1',
          settlementId: 'setl_1',
          settledOn: '2026-01-06',
          accruedUsd: new Decimal(accrued),
          fees,
        },
        randomUUID(),
      );
    const linesOf = (d: ReturnType<typeof settle>) =>
      d.lines.map((l) => [l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), l.postingKind]);
    // 8.57 accrued, fees 1.14 + 5.00 = 6.14: the bank gets 2.43.
    expect(linesOf(settle('8.57'))).to.deep.equal([
      ['1010', '2.43', '0.00', 'fx_spread_settle'],
      ['5030', '6.14', '0.00', 'remittance_fee'],
      ['1300', '0.00', '8.57', 'fx_spread_settle'],
    ]);
    // 5.71 accrued, fees 6.14: the bank pays the 0.43 the accrual does not cover.
    expect(linesOf(settle('5.71'))).to.deep.equal([
      ['1010', '0.00', '0.43', 'fx_spread_settle'],
      ['5030', '6.14', '0.00', 'remittance_fee'],
      ['1300', '0.00', '5.71', 'fx_spread_settle'],
    ]);
    // Fees exactly the accrual: nothing reaches the bank.
    expect(linesOf(settle('6.14'))).to.deep.equal([
      ['5030', '6.14', '0.00', 'remittance_fee'],
      ['1300', '0.00', '6.14', 'fx_spread_settle'],
    ]);
    expect(settle('8.57')).to.deep.include({ sourceTxnId: 'fx_spread_settle:order_1', amountUsd: new Decimal('8.57') });
    expect(settle('8.57').metadata).to.deep.equal({
      order_id: 'order_1',
      settlement_id: 'setl_1',
      fx_fee_usd: '1.14',
      txn_fee_usd: '5.00',
    });
  });
});

describe('remittances: which accrual and settlement a run posts (pure)', () => {
  const fees = { fxFeeUsd: new Decimal('1.14'), txnFeeUsd: new Decimal('5.00') };
  const facts = (overrides: Partial<RemittanceFacts> = {}): RemittanceFacts => ({
    orderId: 'order_1',
    customerId: 'C-1',
    status: 'paid',
    amountUsd: new Decimal('1142.40'),
    remittedOn: '2026-01-06',
    settlementId: 'setl_1',
    settlementStatus: 'settled',
    settledAt: '2026-01-07T06:00:00Z',
    settlementFees: fees,
    ...overrides,
  });
  let n = 0;
  const newId = () => `00000000-0000-7000-8000-${String((n += 1)).padStart(12, '0')}`;
  const accrual = { order_id: 'order_1', txn_type: 'fx_spread' as const, amount_usd: '8.57', reversed: false };
  const lines = (d: { lines: Array<{ accountCode: string; debit: Decimal; credit: Decimal }> }) =>
    d.lines.map(
      (l) => `${l.accountCode} ${l.debit.isZero() ? 'Cr' : 'Dr'} ${(l.debit.isZero() ? l.credit : l.debit).toFixed(2)}`,
    );

  it('accrues a paid order once, at the bps: 1,142.40 × 75 bps = 8.57; nothing at 0 bps, for an order accrued before, or unpriced', () => {
    const due = accrualsDue(
      [facts(), facts({ orderId: 'order_2', amountUsd: null }), facts({ orderId: 'order_3', status: 'active' })],
      [],
      new Decimal(75),
      newId,
    );
    expect(due.drafts.map(lines)).to.deep.equal([['1300 Dr 8.57', '4030 Cr 8.57']]);
    expect(due).to.deep.include({ unpriced: ['order_2'], belowACent: [] });
    expect(accrualsDue([facts()], [], new Decimal(0), newId).drafts).to.deep.equal([]);
    expect(accrualsDue([facts()], [{ ...accrual, reversed: true }], new Decimal(75), newId).drafts).to.deep.equal([]);
  });

  it('settles a landed settlement of an accrued order: Dr 1010 2.43 + Dr 5030 6.14 / Cr 1300 8.57; nothing when reversed, settled before, or not landed', () => {
    expect(settlementsDue([facts()], [accrual], [], newId).map(lines)).to.deep.equal([
      ['1010 Dr 2.43', '5030 Dr 6.14', '1300 Cr 8.57'],
    ]);
    expect(settlementsDue([facts()], [{ ...accrual, reversed: true }], [], newId)).to.deep.equal([]);
    expect(settlementsDue([facts()], [accrual, { ...accrual, txn_type: 'fx_spread_settle' }], [], newId)).to.deep.equal(
      [],
    );
    expect(settlementsDue([facts({ settlementStatus: 'pending' })], [accrual], [], newId)).to.deep.equal([]);
    // A dry run's planned accrual counts as posted.
    const planned = accrualsDue([facts()], [], new Decimal(75), newId).drafts;
    expect(settlementsDue([facts()], [], planned, newId).map(lines)).to.deep.equal([
      ['1010 Dr 2.43', '5030 Dr 6.14', '1300 Cr 8.57'],
    ]);
  });
});

describe('store: remittances', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  it('inserts, then updates; a stale non-terminal snapshot after paid changes nothing', async () => {
    expect(await upsertRemittances(db, [remittance('order_a', 'active')])).to.deep.equal({
      created: ['order_a'],
      updated: [],
      unchanged: [],
      held: [],
    });
    const paid = remittance('order_a', 'paid', {
      payment_id: 'payt_a',
      paid_at: '2026-01-05T04:10:00Z',
      order_updated_at: '2026-01-05T05:10:00Z',
    });
    expect(await upsertRemittances(db, [paid])).to.deep.equal({
      created: [],
      updated: ['order_a'],
      unchanged: [],
      held: [],
    });
    expect(
      await upsertRemittances(db, [remittance('order_a', 'active', { order_updated_at: '2026-01-05T04:00:00Z' })]),
    ).to.deep.equal({
      created: [],
      updated: [],
      unchanged: [],
      held: ['order_a'],
    });
    const row = (await findRemittancesOf(db, 'C-1')).find((r) => r.order_id === 'order_a');
    expect(row).to.include({ status: 'paid', payment_id: 'payt_a' });
    expect(row!.status_history).to.deep.equal([
      { status: 'active', at: '2026-01-05T04:00:00+00:00' },
      { status: 'paid', at: '2026-01-05T05:10:00+00:00' },
    ]);
  });

  it('the same snapshot again is unchanged, not updated: the row and its updated_at stay; a dry run answers the same and writes nothing', async () => {
    const paid = remittance('order_u', 'paid', { payment_id: 'payt_u', paid_at: '2026-01-05T04:10:00Z' });
    expect(await upsertRemittances(db, [paid], { dryRun: true })).to.deep.equal({
      created: ['order_u'],
      updated: [],
      unchanged: [],
      held: [],
    });
    expect((await findRemittancesOf(db, 'C-1')).some((r) => r.order_id === 'order_u')).to.equal(false);
    await upsertRemittances(db, [paid]);
    const before = (await findRemittancesOf(db, 'C-1')).find((r) => r.order_id === 'order_u');
    expect(await upsertRemittances(db, [paid])).to.deep.equal({
      created: [],
      updated: [],
      unchanged: ['order_u'],
      held: [],
    });
    expect(await upsertRemittances(db, [paid], { dryRun: true })).to.deep.equal({
      created: [],
      updated: [],
      unchanged: ['order_u'],
      held: [],
    });
    expect((await findRemittancesOf(db, 'C-1')).find((r) => r.order_id === 'order_u')).to.deep.equal(before);
    const settled = {
      ...paid,
      settlement_id: 'setl_u',
      settlement_status: 'settled',
      settlement_fx_fee_usd: '1.14',
      settlement_txn_fee_usd: '5.00',
    };
    expect(await upsertRemittances(db, [settled], { dryRun: true })).to.deep.equal({
      created: [],
      updated: ['order_u'],
      unchanged: [],
      held: [],
    });
    expect(await upsertRemittances(db, [settled])).to.deep.equal({
      created: [],
      updated: ['order_u'],
      unchanged: [],
      held: [],
    });
    expect((await findRemittancesOf(db, 'C-1')).find((r) => r.order_id === 'order_u')).to.include({
      settlement_fx_fee_usd: '1.14',
      settlement_txn_fee_usd: '5.00',
    });
  });

  it('a settlement once seen stays; a mid rate once read is never replaced', async () => {
    const settled = {
      settlement_id: 'setl_b',
      settlement_status: 'settled',
      settlement_amount_usd: '1142.40',
      utr: 'UTR1234567890123',
      settled_at: '2026-01-06T06:00:00Z',
    };
    const mid = { mid_rate: '0.0115', mid_rate_source: 'remit:fx_rates', mid_rate_at: '2026-01-05T04:01:00Z' };
    await upsertRemittances(db, [remittance('order_b', 'paid', { ...settled, ...mid })]);
    await upsertRemittances(db, [
      remittance('order_b', 'paid', {
        mid_rate: '0.0200',
        mid_rate_source: 'remit:fx_rates',
        mid_rate_at: '2026-02-01T00:00:00Z',
      }),
    ]);
    const row = (await findRemittancesOf(db, 'C-1')).find((r) => r.order_id === 'order_b');
    expect(row).to.include({
      settlement_id: 'setl_b',
      utr: 'UTR1234567890123',
      settlement_amount_usd: '1142.40',
      mid_rate: '0.0115',
    });
  });

  it('refuses what breaks its checks: a negative amount, an unknown customer', async () => {
    const before = await rowCount(db, 'remittances');
    for (const bad of [
      remittance('order_x', 'paid', { amount_inr: '-1.00' }),
      remittance('order_y', 'paid', { customer_id: 'NOBODY' }),
    ]) {
      const error = await upsertRemittances(db, [bad]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, bad.order_id).to.be.instanceOf(Error);
    }
    expect(await rowCount(db, 'remittances')).to.equal(before);
  });

  it('sweeps the accrual of a failed order that settled, never its settlement (that money reached the bank)', async () => {
    await upsertRemittances(db, [remittance('order_s', 'paid')]);
    const accrual = draftFxSpread(
      {
        orderId: 'order_s',
        customerId: 'C-1',
        remittedOn: '2026-01-05',
        orderUsd: new Decimal('1142.40'),
        fxSpreadBps: new Decimal(75),
        amountUsd: new Decimal('8.57'),
      },
      randomUUID(),
    );
    const settle = draftFxSpreadSettle(
      {
        orderId: 'order_s',
        customerId: 'C-1',
        settlementId: 'setl_s',
        settledOn: '2026-01-07',
        accruedUsd: new Decimal('8.57'),
        fees: { fxFeeUsd: new Decimal('1.14'), txnFeeUsd: new Decimal('5.00') },
      },
      randomUUID(),
    );
    await postTransactions(db, [accrual, settle]);
    await upsertRemittances(db, [remittance('order_s', 'failed', { order_updated_at: '2026-01-09T05:00:00Z' })]);
    expect((await outstandingSweptPostings(db)).map((p) => [p.order_id, p.txn_type, p.txn_id])).to.deep.equal([
      ['order_s', 'fx_spread', accrual.txnId],
    ]);
    await reverseTransaction(db, accrual.txnId, { txnId: randomUUID(), txnDate: '2026-01-09', memo: null });
    expect(await outstandingSweptPostings(db)).to.deep.equal([]);
  });

  it('finds an order’s postings, and sweeps those of a failed order until reversed', async () => {
    await upsertRemittances(db, [remittance('order_c', 'paid')]);
    const accrual = draftFxSpread(
      {
        orderId: 'order_c',
        customerId: 'C-1',
        remittedOn: '2026-01-05',
        orderUsd: new Decimal('1142.40'),
        fxSpreadBps: new Decimal(50),
        amountUsd: new Decimal('5.71'),
      },
      randomUUID(),
    );
    await postTransactions(db, [accrual]);
    expect(
      (await remittancePostings(db, ['order_c'])).map((p) => [p.txn_type, p.amount_usd, p.reversed]),
    ).to.deep.equal([['fx_spread', '5.71', false]]);
    expect(await outstandingSweptPostings(db)).to.deep.equal([]);
    await upsertRemittances(db, [remittance('order_c', 'failed', { order_updated_at: '2026-01-05T08:00:00Z' })]);
    const swept = await outstandingSweptPostings(db);
    expect(swept.map((p) => [p.order_id, p.txn_id, p.status])).to.deep.equal([['order_c', accrual.txnId, 'failed']]);
    await reverseTransaction(db, accrual.txnId, { txnId: randomUUID(), txnDate: '2026-01-05', memo: null });
    expect(await outstandingSweptPostings(db)).to.deep.equal([]);
    expect((await remittancePostings(db, ['order_c']))[0]?.reversed).to.equal(true);
  });
});
