import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Decimal, formatDecimal } from '@ledger/core/posting';
import { trialBalance } from '@ledger/core/reports';
import { cleanBook, corrupt, NO_VARIANCE, outcome, plantTransaction, post } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

describe('category A checks', function () {
  this.timeout(60_000);
  let book: Book;
  beforeEach(async () => {
    book = await cleanBook();
  });
  afterEach(async () => book?.drop());

  it('on a clean book › every A check is ok with no variances', async () => {
    for (const name of [
      'trial_balance_zero',
      'journal_line_completeness',
      'source_txn_uniqueness',
      'dr_cr_sign_convention',
      'stated_fee_posted',
    ]) {
      const result = await outcome(book.runtimeDb, name);
      expect(result.status, `${name}: ${JSON.stringify(result)}`).to.equal('ok');
      expect(result.variances, name).to.deep.equal([]);
    }
  });

  describe('trial_balance_zero', () => {
    it('reports the same totals as /v1/firm/trial_balance', async () => {
      const tb = await trialBalance(book.db);
      const result = await outcome(book.runtimeDb, 'trial_balance_zero');
      expect(result.metrics).to.include({
        total_debit: tb.total_debit,
        total_credit: tb.total_credit,
        difference: '0.00',
      });
    });

    it('when an account total drifts by 1.00 › fails naming the totals and the difference', async () => {
      const before = await trialBalance(book.db);
      await corrupt(
        book.db,
        `INSERT INTO account_totals (account_code, slot, debit_total, credit_total, line_count) VALUES ('1010', 99, 1.00, 0, 0)`,
      );
      const result = await outcome(book.runtimeDb, 'trial_balance_zero');
      expect(result.status).to.equal('fail');
      const debit = formatDecimal(new Decimal(before.total_debit).plus(1));
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          expected: debit,
          actual: before.total_credit,
          difference: '-1.00',
          detail: { total_debit: debit, total_credit: before.total_credit },
        },
      ]);
    });
  });

  describe('journal_line_completeness', () => {
    it('when a transaction has one line and a trade has no recost state › fails naming both', async () => {
      const oneLine = await plantTransaction(book.db, { sourceTxnId: 'broken-1' }, [
        { account: '1100', debit: '5.00', credit: '0' },
      ]);
      const trade = await plantTransaction(
        book.db,
        { sourceTxnId: 'buy-untracked', txnType: 'buy_security', symbol: 'MSFT' },
        [
          { account: '1200', debit: '5.00', credit: '0' },
          { account: '1100', debit: '0', credit: '5.00' },
        ],
      );
      const result = await outcome(book.runtimeDb, 'journal_line_completeness');
      expect(result.status).to.equal('fail');
      expect(result.metrics).to.include({ incomplete_transactions: 1, trades_without_recost_state: 1, variances: 2 });
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: oneLine,
          source_txn_id: 'broken-1',
          customer_id: 'C-1',
          expected: '5.00',
          actual: '0.00',
          difference: '-5.00',
          detail: { problem: 'fewer_than_two_lines', line_count: 1, debit: '5.00', credit: '0.00' },
        },
        {
          ...NO_VARIANCE,
          txn_id: trade,
          source_txn_id: 'buy-untracked',
          customer_id: 'C-1',
          symbol: 'MSFT',
          detail: { problem: 'trade_without_recost_state', txn_type: 'buy_security' },
        },
      ]);
    });

    it('when two lines do not balance › fails with the debits, credits and difference', async () => {
      const txnId = await plantTransaction(book.db, { sourceTxnId: 'unbalanced-1' }, [
        { account: '1100', debit: '5.00', credit: '0' },
        { account: '2010', debit: '0', credit: '4.99' },
      ]);
      const result = await outcome(book.runtimeDb, 'journal_line_completeness');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: txnId,
          source_txn_id: 'unbalanced-1',
          customer_id: 'C-1',
          expected: '5.00',
          actual: '4.99',
          difference: '-0.01',
          detail: { problem: 'unbalanced', line_count: 2, debit: '5.00', credit: '4.99' },
        },
      ]);
    });

    it('when a transaction’s lines name another customer or day than it does › fails naming it', async () => {
      const txnId = await plantTransaction(book.db, { sourceTxnId: 'elsewhere-1' }, [
        { account: '1100', debit: '4.00', credit: '0' },
        { account: '2010', debit: '0', credit: '4.00', customerId: 'C-2' },
      ]);
      const other = await plantTransaction(book.db, { sourceTxnId: 'elsewhen-1' }, [
        { account: '1100', debit: '4.00', credit: '0' },
        { account: '2010', debit: '0', credit: '4.00', txnDate: '2026-01-21' },
      ]);
      const result = await outcome(book.runtimeDb, 'journal_line_completeness');
      const disagreeing = { problem: 'lines_disagree_with_transaction', line_count: 2, debit: '4.00', credit: '4.00' };
      const of = (id: string, sourceTxnId: string) => ({
        ...NO_VARIANCE,
        txn_id: id,
        source_txn_id: sourceTxnId,
        customer_id: 'C-1',
        expected: '4.00',
        actual: '4.00',
        difference: '0.00',
        detail: disagreeing,
      });
      expect(result.status).to.equal('fail');
      expect(result.variances).to.deep.equal(
        [of(txnId, 'elsewhere-1'), of(other, 'elsewhen-1')].sort((a, b) => a.txn_id.localeCompare(b.txn_id)),
      );
    });
  });

  describe('source_txn_uniqueness', () => {
    it('when a source record is posted twice around the unique key › fails naming the source id and both transactions', async () => {
      const original = await book.db('transactions').where({ source_txn_id: 'dep-2' }).first('txn_id');
      const copy = randomUUID();
      await book.db.raw('ALTER TABLE transactions DROP CONSTRAINT transactions_source_txn_unique');
      await corrupt(
        book.db,
        `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd, posted_at)
         SELECT ?, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd, posted_at + interval '1 second' FROM transactions WHERE source_txn_id = 'dep-2'`,
        [copy],
      );
      const result = await outcome(book.runtimeDb, 'source_txn_uniqueness');
      expect(result.status).to.equal('fail');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: original.txn_id,
          source_txn_id: 'dep-2',
          expected: '1',
          actual: '2',
          difference: '1',
          detail: { problem: 'duplicate_source_txn_id', source: 'manual', txn_ids: [original.txn_id, copy] },
        },
      ]);
    });

    it('when a transaction is reversed twice around the one-reversal index › fails naming it and both reversals', async () => {
      const original = await book.db('transactions').where({ source_txn_id: 'dep-1' }).first('txn_id');
      await book.db.raw('DROP INDEX transactions_one_reversal');
      const reversals = [randomUUID(), randomUUID()];
      for (const [i, id] of reversals.entries()) {
        await corrupt(
          book.db,
          `INSERT INTO transactions (txn_id, customer_id, txn_type, source, source_txn_id, category, txn_date, amount_usd, reverses_txn_id)
           VALUES (?, 'C-1', 'reversal', 'ledger', ?, 'funding', '2026-01-20', 1000.00, ?)`,
          [id, `reversal:${original.txn_id}:${i}`, original.txn_id],
        );
      }
      const result = await outcome(book.runtimeDb, 'source_txn_uniqueness');
      expect(result.status).to.equal('fail');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: original.txn_id,
          expected: '1',
          actual: '2',
          difference: '1',
          detail: { problem: 'reversed_more_than_once', reversals },
        },
      ]);
    });
  });

  describe('dr_cr_sign_convention', () => {
    it('when a revenue account stands in debit by lines the maintained totals do not carry › the full sweep reads the lines and fails naming the account and its net', async () => {
      await misposted('4010', '1000.00');
      const result = await outcome(book.runtimeDb, 'dr_cr_sign_convention');
      expect(result.status).to.equal('fail');
      // 4010 held the buy's fee, 22 bps of 500.00, in credit.
      const net = '998.90';
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          account_code: '4010',
          expected: '0.00',
          actual: net,
          difference: net,
          detail: { problem: 'account_on_wrong_side', account_type: 'revenue', normal_side: 'credit', net },
        },
      ]);
    });

    it('when a customer’s wallet is overdrawn › warns naming the customer, the wallet and its debit balance', async () => {
      await plantTransaction(book.db, { sourceTxnId: 'overdraft-1', customerId: 'C-2' }, [
        { account: '2010', debit: '500.00', credit: '0' },
        { account: '1100', debit: '0', credit: '500.00' },
      ]);
      const result = await outcome(book.runtimeDb, 'dr_cr_sign_convention');
      expect(result.status).to.equal('warn');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          customer_id: 'C-2',
          account_code: '2010',
          expected: '0.00',
          actual: '350.00',
          difference: '350.00',
          detail: { problem: 'wallet_in_debit', net: '350.00' },
        },
      ]);
    });

    it('retained earnings in debit is the one named exception › ok', async () => {
      await misposted('3000', '10.00');
      expect((await outcome(book.runtimeDb, 'dr_cr_sign_convention')).status).to.equal('ok');
    });

    /** A balanced transaction debiting `account` against C-1's wallet, written with the triggers off: no maintained total moves. */
    async function misposted(account: string, amount: string): Promise<void> {
      await plantTransaction(book.db, { sourceTxnId: `misposted-${account}` }, [
        { account, debit: amount, credit: '0', customerId: null },
        { account: '2010', debit: '0', credit: amount },
      ]);
    }
  });

  describe('stated_fee_posted', () => {
    /** uaefeed trades as sync-uaefeed posts them: gross proceeds or cost, the stated fee by difference to netSettle's USD. */
    const uaefeed = (
      sourceTxnId: string,
      fields: { side: 'buy' | 'sell'; amountUsd: string; feeUsd: string; cashMovement: string; bundledFee: string },
      aed?: { gross: string },
    ) =>
      post(book.db, {
        txn_type: fields.side === 'buy' ? 'buy_security' : 'sell_security',
        source: 'uaefeed',
        source_txn_id: sourceTxnId,
        symbol: aed ? 'EMAAR' : 'AAPL',
        quantity: '1',
        amount_usd: fields.amountUsd,
        fee_usd: fields.feeUsd,
        ...(aed && {
          original_currency: 'AED',
          original_amount: aed.gross,
          fx_rate: '3.6725',
          original_fee: fields.bundledFee,
        }),
        metadata: { cash_movement: fields.cashMovement, bundled_fee: fields.bundledFee },
      });

    it('on uaefeed trades posted by the rules (a USD sell, an AED buy, an AED sell whose fee is worth 0.00 USD) › ok', async () => {
      await uaefeed('S-USD', {
        side: 'sell',
        amountUsd: '120.00',
        feeUsd: '0.30',
        cashMovement: '119.70',
        bundledFee: '0.30',
      });
      // AED 1,001.00 gross (272.57 USD), netSettle 1,002.50 (272.97): the fee's USD 0.40, in AED 1.50.
      await uaefeed(
        'B-AED',
        { side: 'buy', amountUsd: '272.57', feeUsd: '0.40', cashMovement: '-1002.50', bundledFee: '1.50' },
        { gross: '1001.00' },
      );
      // AED 10.00 gross, netSettle 9.98: both 2.72 USD, so no fee line; the AED lines carry 9.98.
      await uaefeed(
        'S-AED',
        { side: 'sell', amountUsd: '2.72', feeUsd: '0.00', cashMovement: '9.98', bundledFee: '0.02' },
        { gross: '10.00' },
      );
      const result = await outcome(book.runtimeDb, 'stated_fee_posted');
      expect(result, JSON.stringify(result)).to.deep.include({ status: 'ok', variances: [] });
    });

    it('when a sell booked its net as proceeds and no fee (the rule before fees were revenue) › warns naming the trade and the fee never booked', async () => {
      const txnId = await uaefeed('S-OLD', {
        side: 'sell',
        amountUsd: '119.70',
        feeUsd: '0.00',
        cashMovement: '119.70',
        bundledFee: '0.30',
      });
      const result = await outcome(book.runtimeDb, 'stated_fee_posted');
      expect(result.status).to.equal('warn');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: txnId,
          source_txn_id: 'S-OLD',
          customer_id: 'C-1',
          account_code: '2010',
          symbol: 'AAPL',
          expected: '0.30',
          actual: '0.00',
          difference: '-0.30',
          detail: {
            problem: 'stated_fee_not_posted',
            txn_type: 'sell_security',
            currency: 'USD',
            cash_movement: '119.70',
            bundled_fee: '0.30',
            fee_posted: '0.00',
          },
        },
      ]);
    });

    it('when a uaefeed trade’s stated fee is missing from its metadata › warns naming the trade and what is missing (never skipped)', async () => {
      const txnId = await uaefeed('S-GONE', {
        side: 'sell',
        amountUsd: '120.00',
        feeUsd: '0.30',
        cashMovement: '119.70',
        bundledFee: '0.30',
      });
      await corrupt(book.db, `UPDATE transactions SET metadata = metadata - 'bundled_fee' WHERE txn_id = ?`, [txnId]);
      const result = await outcome(book.runtimeDb, 'stated_fee_posted');
      expect(result.status).to.equal('warn');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: txnId,
          source_txn_id: 'S-GONE',
          customer_id: 'C-1',
          account_code: '2010',
          symbol: 'AAPL',
          actual: '119.70',
          detail: {
            problem: 'stated_fee_missing',
            txn_type: 'sell_security',
            currency: 'USD',
            missing: ['bundled_fee'],
            fee_posted: '0.30',
          },
        },
      ]);
    });

    it('when an AED sell’s wallet line carries the gross AED 10.00 for a netSettle of 9.98 › warns naming the trade and the AED difference', async () => {
      const txnId = await uaefeed(
        'S-AED',
        { side: 'sell', amountUsd: '2.72', feeUsd: '0.00', cashMovement: '9.98', bundledFee: '0.02' },
        { gross: '10.00' },
      );
      await corrupt(book.db, `UPDATE journal_lines SET native_amount = 10.00 WHERE txn_id = ?`, [txnId]);
      const result = await outcome(book.runtimeDb, 'stated_fee_posted');
      expect(result.status).to.equal('warn');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: txnId,
          source_txn_id: 'S-AED',
          customer_id: 'C-1',
          account_code: '2020',
          symbol: 'EMAAR',
          expected: '9.98',
          actual: '10.00',
          difference: '0.02',
          detail: {
            problem: 'wallet_moved_by_other_than_settlement',
            txn_type: 'sell_security',
            currency: 'AED',
            cash_movement: '9.98',
            bundled_fee: '0.02',
            fee_posted: '0.00',
          },
        },
      ]);
    });
  });
});
