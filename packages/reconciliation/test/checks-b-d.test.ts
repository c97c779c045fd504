import { randomUUID } from 'node:crypto';
import { Decimal, draftFxSpread, FeeSchedule, jobActor } from '@ledger/core/posting';
import { withActor } from '@ledger/core/runtime';
import {
  createCashRequest,
  postEntry,
  closePeriod,
  recordExceptions,
  reopenPeriod,
  recost,
  reverseTransaction,
} from '@ledger/core/store';
import { expect } from 'chai';
import { DEFAULT_RECON_SETTINGS, FULL_SWEEP_SETTINGS } from '../src/index.js';
import { cleanBook, corrupt, NO_VARIANCE, outcome, outcomeAt, plantTransaction, post } from './book.js';

type Book = Awaited<ReturnType<typeof cleanBook>>;

const snapshot = (book: Book, asOf: string, positions: Array<{ symbol: string; quantity: string }>) =>
  book.runtimeDb('holdings_snapshots').insert({
    customer_id: 'C-1',
    upstream: 'custodian',
    as_of: asOf,
    account: 'CUST-1',
    currency: 'USD',
    positions: JSON.stringify(positions),
  });

describe('category B and D checks', function () {
  this.timeout(60_000);
  let book: Book;
  beforeEach(async () => {
    book = await cleanBook();
  });
  afterEach(async () => book?.drop());

  it('on a clean book (with a snapshot that agrees) › every B and D check is ok with no variances', async () => {
    await snapshot(book, '2026-01-15', [{ symbol: 'AAPL', quantity: '10' }]);
    for (const name of [
      'wallet_derivation',
      'account_totals',
      'snapshot_reconcile',
      'sale_lot_matches',
      'stamped_trade_derivation',
      'pending_flow_age',
      'open_exceptions_age',
      'period_reopens',
    ]) {
      const result = await outcome(book.runtimeDb, name);
      expect(result.status, `${name}: ${JSON.stringify(result)}`).to.equal('ok');
      expect(result.variances, name).to.deep.equal([]);
    }
  });

  describe('wallet_derivation', () => {
    it('when the wallet account’s maintained total drifts from its customers’ lines › fails naming the account and the difference', async () => {
      await corrupt(
        book.db,
        `INSERT INTO account_totals (account_code, slot, debit_total, credit_total, line_count) VALUES ('2010', 99, 0, 2.50, 0)`,
      );
      const result = await outcome(book.runtimeDb, 'wallet_derivation');
      expect(result.status).to.equal('fail');
      // C-1: 1,000.00 in, 500.00 and its 1.10 fee out; C-2: 200.00 in, 50.00 out: 648.90 owed, a net of −648.90.
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          account_code: '2010',
          expected: '-648.90',
          actual: '-651.40',
          difference: '-2.50',
          detail: { problem: 'wallet_total_differs_from_customers_lines' },
        },
      ]);
    });

    it('when a wallet line names no customer (posted before the database refused such lines) › fails naming the line’s transaction', async () => {
      // The check on journal_lines (20261220) is NOT VALID: lines posted before it stand. Such a line, as then:
      await book.db.raw('ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_customer_account_has_customer');
      const txnId = await plantTransaction(book.db, { sourceTxnId: 'stray-1' }, [
        { account: '1100', debit: '6.00', credit: '0', postingKind: 'deposit' },
        { account: '2010', debit: '0', credit: '6.00', customerId: null, postingKind: 'deposit' },
      ]);
      await book.db.raw(
        `ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_customer_account_has_customer CHECK (account_code NOT IN ('2010', '2020', '2100') OR customer_id IS NOT NULL) NOT VALID`,
      );
      const result = await outcome(book.runtimeDb, 'wallet_derivation');
      expect(result.status).to.equal('fail');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          txn_id: txnId,
          source_txn_id: 'stray-1',
          account_code: '2010',
          detail: { problem: 'wallet_line_without_customer', net: '-6.00' },
        },
      ]);
    });
  });

  describe('account_totals', () => {
    it('when a daily total drifts by a cent › fails naming the account, day, posting kind and figure', async () => {
      await corrupt(
        book.db,
        `INSERT INTO account_daily_totals (account_code, day, posting_kind, slot, debit_total, credit_total, line_count) VALUES ('4010', '2026-01-15', 'brokerage_fee', 99, 0, 0.01, 0)`,
      );
      const result = await outcome(book.runtimeDb, 'account_totals');
      expect(result.status).to.equal('fail');
      expect(result.variances).to.deep.equal([
        {
          ...NO_VARIANCE,
          account_code: '4010',
          expected: '1.10',
          actual: '1.11',
          difference: '0.01',
          detail: {
            problem: 'account_daily_totals_differs',
            figure: 'credit',
            day: '2026-01-15',
            posting_kind: 'brokerage_fee',
            summarised: { debit: '0.00', credit: '1.10', count: '1' },
            maintained: { debit: '0.00', credit: '1.11', count: '1' },
          },
        },
      ]);
    });

    it('when lines and a transaction are written around the totals › fails on every total they should have moved', async () => {
      await plantTransaction(book.db, { sourceTxnId: 'uncounted-1' }, [
        { account: '1100', debit: '5.00', credit: '0', postingKind: 'deposit' },
        { account: '2010', debit: '0', credit: '5.00', postingKind: 'deposit' },
      ]);
      const result = await outcome(book.runtimeDb, 'account_totals');
      expect(
        result.variances.map((v) => [
          v.detail.problem,
          v.account_code,
          v.detail.day ?? null,
          v.detail.figure,
          v.expected,
          v.actual,
          v.difference,
        ]),
      ).to.deep.equal([
        ['account_daily_totals_differs', '1100', '2026-01-20', 'debit', '5.00', '0.00', '-5.00'],
        ['account_daily_totals_differs', '2010', '2026-01-20', 'credit', '5.00', '0.00', '-5.00'],
        ['account_totals_differs', '1100', null, 'debit', '1205.00', '1200.00', '-5.00'],
        ['account_totals_differs', '2010', null, 'credit', '1205.00', '1200.00', '-5.00'],
        ['transaction_daily_totals_differs', null, '2026-01-20', 'amount_usd', '5.00', '0.00', '-5.00'],
      ]);
    });
  });

  describe('snapshot_reconcile', () => {
    it('when snapshots disagree with the lots (a share short, a day before the buy, a position missing) › warns with each customer, symbol and day', async () => {
      await snapshot(book, '2026-01-14', [{ symbol: 'AAPL', quantity: '10' }]);
      await snapshot(book, '2026-01-15', [{ symbol: 'AAPL', quantity: '10' }]);
      await snapshot(book, '2026-01-16', [{ symbol: 'AAPL', quantity: '9' }]);
      await snapshot(book, '2026-01-17', []);
      const result = await outcome(book.runtimeDb, 'snapshot_reconcile');
      expect(result.status).to.equal('warn');
      expect(result.metrics).to.include({ snapshots: 4, variances: 3 });
      const of = (asOf: string, expected: string, actual: string, difference: string) => ({
        ...NO_VARIANCE,
        customer_id: 'C-1',
        symbol: 'AAPL',
        expected,
        actual,
        difference,
        detail: { problem: 'snapshot_differs_from_ledger', upstream: 'custodian', as_of: asOf },
      });
      expect(result.variances).to.deep.equal([
        of('2026-01-17', '10', '0', '-10'),
        of('2026-01-16', '10', '9', '-1'),
        of('2026-01-14', '0', '10', '10'),
      ]);
    });

    it('within RECON_QUANTITY_TOLERANCE › ok', async () => {
      await snapshot(book, '2026-01-16', [{ symbol: 'AAPL', quantity: '9.9999' }]);
      const result = await outcome(book.runtimeDb, 'snapshot_reconcile', {
        ...DEFAULT_RECON_SETTINGS,
        quantityTolerance: new Decimal('0.001'),
      });
      expect(result.status).to.equal('ok');
    });
  });

  describe('sale_lot_matches', () => {
    /** C-1 sells 4 of the clean book's 10 AAPL (bought for 500.00) and recost derives the sale: one lot match, 4 shares, 200.00. */
    async function recostedSale(): Promise<string> {
      const sale = await post(book.db, {
        txn_type: 'sell_security',
        symbol: 'AAPL',
        quantity: '4',
        amount_usd: '260.00',
        txn_date: '2026-01-16',
        source_txn_id: 'sell-1',
      });
      await recost(book.db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
      return sale;
    }

    it('a recosted sale whose matches account for it › ok', async () => {
      await recostedSale();
      const result = await outcome(book.runtimeDb, 'sale_lot_matches');
      expect(result, JSON.stringify(result)).to.deep.include({ status: 'ok', variances: [] });
    });

    it('when a sale’s lot match is deleted around the guard › fails naming the sale, the shares and cost no match accounts for', async () => {
      const sale = await recostedSale();
      await corrupt(book.db, 'DELETE FROM lot_matches WHERE sell_txn_id = ?', [sale]);
      const result = await outcome(book.runtimeDb, 'sale_lot_matches');
      expect(result.status).to.equal('fail');
      expect(result.variances).to.have.length(1);
      expect(result.variances[0]).to.deep.include({
        txn_id: sale,
        source_txn_id: 'sell-1',
        customer_id: 'C-1',
        symbol: 'AAPL',
        expected: '4.00',
        actual: '0.00',
        difference: '-4.00',
      });
      expect(result.variances[0]!.detail).to.include({
        problem: 'matches_differ_from_quantity',
        cost_relief_usd: '200.00',
        matched_cost_usd: '0.00',
        matches: 0,
      });
    });

    it('when a match’s cost is altered around the guard › fails naming the sale and the cost relief it no longer sums to', async () => {
      const sale = await recostedSale();
      await corrupt(book.db, 'UPDATE lot_matches SET cost_usd = 150.00 WHERE sell_txn_id = ?', [sale]);
      const result = await outcome(book.runtimeDb, 'sale_lot_matches');
      expect(result.status).to.equal('fail');
      expect(result.variances.map((v) => [v.txn_id, v.expected, v.actual, v.detail.problem])).to.deep.equal([
        [sale, '200.00', '150.00', 'matches_differ_from_cost_relief'],
      ]);
    });
  });

  describe('stamped_trade_derivation', () => {
    const recostBook = () =>
      recost(book.db, { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null });
    const txnIdOf = async (sourceTxnId: string) =>
      ((await book.db('transactions').where({ source_txn_id: sourceTxnId }).first('txn_id')) as { txn_id: string })
        .txn_id;

    it('when a trade is stamped recosted without recost having derived it › fails naming the trade', async () => {
      await recostBook();
      expect(await outcome(book.runtimeDb, 'stamped_trade_derivation')).to.deep.include({
        status: 'ok',
        variances: [],
      });
      const buy = await post(book.db, {
        txn_type: 'buy_security',
        symbol: 'MSFT',
        quantity: '2',
        amount_usd: '300.00',
        source_txn_id: 'buy-msft',
      });
      // The owner stamps it (no bypass needed: recosted_at is the one column of recost_states that may move).
      await book.db('recost_states').where({ txn_id: buy }).update({ recosted_at: book.db.fn.now() });
      const result = await outcome(book.runtimeDb, 'stamped_trade_derivation');
      expect(result.status).to.equal('fail');
      expect(
        result.variances.map((v) => [v.txn_id, v.source_txn_id, v.symbol, v.detail.problem, v.detail.open_flag]),
      ).to.deep.equal([[buy, 'buy-msft', 'MSFT', 'stamped_without_derivation', null]]);
    });

    it('an unpinned buy stamped without derivation › judged at the configured BROKER_COST_BPS recost gives it, not the contract’s default', async () => {
      const buy = await post(book.db, {
        txn_type: 'buy_security',
        symbol: 'MSFT',
        quantity: '1',
        amount_usd: '10.00',
        source_txn_id: 'buy-unpinned',
      });
      // Posted before trades were pinned: recost gives it the schedule it runs with.
      await corrupt(
        book.db,
        `UPDATE transactions SET metadata = metadata - 'broker_cost_bps' - 'brokerage_bps' WHERE txn_id = ?`,
        [buy],
      );
      await book.db('recost_states').where({ txn_id: buy }).update({ recosted_at: book.db.fn.now() });
      // 4 bps of 10.00 rounds to 0.00: recost would post nothing, so no derivation is right.
      expect(await outcome(book.runtimeDb, 'stamped_trade_derivation')).to.deep.include({
        status: 'ok',
        variances: [],
      });
      // Configured at 11 bps, recost posts 0.01: the stamp hides a missing broker cost.
      const configured = { ...FULL_SWEEP_SETTINGS, feeSchedule: new FeeSchedule(new Decimal(22), {}, new Decimal(11)) };
      const result = await outcome(book.runtimeDb, 'stamped_trade_derivation', configured);
      expect(result.status).to.equal('fail');
      expect(result.variances.map((v) => [v.txn_id, v.detail.problem])).to.deep.equal([
        [buy, 'stamped_without_derivation'],
      ]);
    });

    it('reversing the only lot under a recosted sale › recost flags the sale and leaves it pending (pending_flow_age names it); stamped around the flag › named with its flag', async () => {
      const sale = await post(book.db, {
        txn_type: 'sell_security',
        symbol: 'AAPL',
        quantity: '10',
        amount_usd: '600.00',
        txn_date: '2026-01-16',
        source_txn_id: 'sell-all',
      });
      await recostBook();
      await reverseTransaction(book.db, await txnIdOf('buy-1'), {
        txnId: randomUUID(),
        txnDate: '2026-01-17',
        memo: null,
      });
      const result = await recostBook();
      expect(result.flagged.map((f) => [f.txn_id, f.reason])).to.deep.equal([[sale, 'insufficient_lots']]);
      expect(await outcome(book.runtimeDb, 'stamped_trade_derivation')).to.deep.include({
        status: 'ok',
        variances: [],
      });
      const dayLater = await outcomeAt(book.runtimeDb, 'pending_flow_age', new Date(Date.now() + 30 * 3_600_000));
      expect(dayLater.variances.map((v) => [v.txn_id, v.detail.problem])).to.deep.equal([
        [sale, 'pending_recost_too_old'],
      ]);

      await book.db('recost_states').where({ txn_id: sale }).update({ recosted_at: book.db.fn.now() });
      const stamped = await outcome(book.runtimeDb, 'stamped_trade_derivation');
      expect(stamped.status).to.equal('fail');
      expect(stamped.variances.map((v) => [v.txn_id, v.detail.problem, v.detail.open_flag])).to.deep.equal([
        [sale, 'stamped_without_derivation', 'insufficient_lots'],
      ]);
    });
  });

  describe('period_reopens', () => {
    it('a reopening of the books › the next run warns naming it (through, reason, actor); the run after does not report it again', async () => {
      await closePeriod(book.runtimeDb, { through: '2026-01-10', actor: 'api', today: '2026-01-20' });
      expect(await outcome(book.runtimeDb, 'period_reopens')).to.deep.include({ status: 'ok', variances: [] });
      await reopenPeriod(book.runtimeDb, { through: null, reason: 'custodian restated January', actor: 'api:ana' });
      const result = await outcome(book.runtimeDb, 'period_reopens');
      expect(result.status).to.equal('warn');
      expect(result.metrics).to.include({ reopens: 1 });
      expect(result.variances).to.have.length(1);
      expect(result.variances[0]).to.deep.include({ ...NO_VARIANCE, detail: result.variances[0]!.detail });
      expect(result.variances[0]!.detail).to.include({
        problem: 'period_reopened',
        through: null,
        reason: 'custodian restated January',
        actor: 'api:ana',
      });
      expect(await outcome(book.runtimeDb, 'period_reopens')).to.deep.include({ status: 'ok', variances: [] });
    });
  });

  describe('open_exceptions_age', () => {
    it('an exception open past three days › warns naming the record, its upstream and reason, its age; a dismissed or resolved one is not reported', async () => {
      await withActor(jobActor('sync-usbroker', 'j-1'), () =>
        recordExceptions(book.runtimeDb, { upstream: 'usbroker' }, [
          {
            recordKey: 'TXN-9',
            customerId: 'C-1',
            outcome: 'rejected' as const,
            reasonCode: 'refused',
            reason: 'quantity is missing',
          },
          {
            recordKey: 'TXN-10',
            customerId: 'C-2',
            outcome: 'conflict' as const,
            reasonCode: 'conflict',
            reason: 'posted before with other amount_usd',
          },
        ]),
      );
      await book
        .runtimeDb('exceptions')
        .where('record_key', 'TXN-10')
        .update({ state: 'dismissed', state_reason: 'known', state_changed_at: new Date(), state_changed_by: 'api' });
      const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);
      expect((await outcomeAt(book.runtimeDb, 'open_exceptions_age', later(48))).status).to.equal('ok');
      const result = await outcomeAt(book.runtimeDb, 'open_exceptions_age', later(80));
      expect(result.status).to.equal('warn');
      expect(result.variances).to.have.length(1);
      expect(result.variances[0]).to.include({ source_txn_id: 'TXN-9', customer_id: 'C-1', expected: '72.00' });
      expect(result.variances[0]!.detail).to.include({
        problem: 'open_exception_too_old',
        upstream: 'usbroker',
        reason_code: 'refused',
        times_seen: 1,
      });
      expect(new Decimal(result.variances[0]!.actual!).isGreaterThanOrEqualTo(79.99)).to.equal(true);
    });

    it('the schema owner cannot make an old exception look new (its first sighting is guarded) › the check still names it', async () => {
      await withActor(jobActor('sync-usbroker', 'j-3'), () =>
        recordExceptions(book.runtimeDb, { upstream: 'usbroker' }, [
          {
            recordKey: 'TXN-11',
            customerId: 'C-1',
            outcome: 'rejected' as const,
            reasonCode: 'refused',
            reason: 'quantity is missing',
          },
        ]),
      );
      const planted = await book.db
        .raw(`UPDATE exceptions SET first_seen_at = now() + interval '79 hours' WHERE record_key = 'TXN-11'`)
        .then(
          () => null,
          (e: { constraint?: string }) => e.constraint,
        );
      expect(planted).to.equal('ledger_history');
      const result = await outcomeAt(book.runtimeDb, 'open_exceptions_age', new Date(Date.now() + 80 * 3_600_000));
      expect(result.variances.map((v) => [v.source_txn_id, v.detail.problem])).to.deep.equal([
        ['TXN-11', 'open_exception_too_old'],
      ]);
    });

    it('the tolerance is RECON_OPEN_EXCEPTION_MAX_HOURS › an exception open a day warns at 12 hours, not at the default 72', async () => {
      await withActor(jobActor('sync-remit', 'j-2'), () =>
        recordExceptions(book.runtimeDb, { upstream: 'remit' }, [
          {
            recordKey: 'RM-1',
            customerId: 'C-1',
            outcome: 'conflict' as const,
            reasonCode: 'conflict',
            reason: 'other amount',
          },
        ]),
      );
      const day = new Date(Date.now() + 24 * 3_600_000);
      expect((await outcomeAt(book.runtimeDb, 'open_exceptions_age', day)).status).to.equal('ok');
      const result = await outcomeAt(book.runtimeDb, 'open_exceptions_age', day, {
        ...DEFAULT_RECON_SETTINGS,
        openExceptionMaxHours: 12,
      });
      expect(result.status).to.equal('warn');
      expect(result.variances.map((v) => [v.source_txn_id, v.expected])).to.deep.equal([['RM-1', '12.00']]);
    });
  });

  describe('pending_flow_age', () => {
    it('an FX-spread accrual of a source other than remit that its settlements do not cover › warns naming it; one they cover is not reported', async () => {
      const covered = await post(book.db, { txn_type: 'fx_spread', amount_usd: '10.00', source_txn_id: 'fx-a' });
      const uncovered = await post(book.db, { txn_type: 'fx_spread', amount_usd: '5.00', source_txn_id: 'fx-b' });
      await post(book.db, {
        txn_type: 'fx_spread_settle',
        customer_id: undefined,
        amount_usd: '10.00',
        source_txn_id: 'fx-settle-a',
      });
      const weekLater = await outcomeAt(book.runtimeDb, 'pending_flow_age', new Date(Date.now() + 200 * 3_600_000));
      const fx = weekLater.variances.filter((v) => v.detail.problem === 'fx_receivable_unsettled_too_old');
      expect(fx.map((v) => v.txn_id)).to.deep.equal([uncovered]);
      expect(fx.map((v) => v.txn_id)).not.to.include(covered);
      expect(fx[0]).to.deep.include({ source_txn_id: 'fx-b', customer_id: 'C-1', expected: '120.00' });
      expect(fx[0]!.detail).to.include({ source: 'manual', amount_usd: '5.00' });
      expect(fx[0]!.detail).not.to.have.property('order_id');
    });

    it('each pending flow past its own tolerance › warns naming it, its age and its tolerance; only a paid order is in transit', async () => {
      const cashRequestId = randomUUID();
      await createCashRequest(
        book.db,
        { customer_id: 'C-2', direction: 'deposit', amount: '25.00', currency: 'USD' },
        cashRequestId,
        {
          feeSchedule: new FeeSchedule(new Decimal(22)),
          aedPerUsd: new Decimal('3.6725'),
        },
      );
      const fxTxnId = randomUUID();
      await postEntry(
        book.db,
        draftFxSpread(
          {
            orderId: 'order_1',
            customerId: 'C-1',
            remittedOn: '2026-01-15',
            orderUsd: new Decimal('1000.00'),
            fxSpreadBps: new Decimal(50),
            amountUsd: new Decimal('5.00'),
          },
          fxTxnId,
        ),
      );
      const paidAt = new Date();
      await book.db('remittances').insert({
        order_id: 'order_1',
        customer_id: 'C-1',
        remit_customer_id: 'cust_1',
        status: 'paid',
        amount_inr: '84000.00',
        amount_usd: '1000.00',
        quote_id: 'quote_1',
        fx_rate: '84.00',
        paid_at: paidAt,
        remitted_on: '2026-01-15',
        order_created_at: paidAt,
        order_updated_at: paidAt,
        status_history: JSON.stringify([]),
      });
      // Not in transit however old: an order whose payment was authorised but is waiting for funds
      // (`action_required`), and one refunded after it was paid (`failed`): both have a `paid_at`.
      for (const [orderId, status, error] of [
        ['order_2', 'action_required', null],
        ['order_3', 'failed', 'REFUNDED'],
      ] as const) {
        await book.db('remittances').insert({
          order_id: orderId,
          customer_id: 'C-1',
          remit_customer_id: 'cust_1',
          status,
          amount_inr: '42000.00',
          amount_usd: '500.00',
          quote_id: `quote_${orderId}`,
          fx_rate: '84.00',
          payment_status: status === 'failed' ? 'failed' : 'success',
          payment_error_code: error,
          paid_at: paidAt,
          remitted_on: '2026-01-15',
          order_created_at: paidAt,
          order_updated_at: paidAt,
          status_history: JSON.stringify([]),
        });
      }
      const buy = await book.db('transactions').where({ source_txn_id: 'buy-1' }).first('txn_id');

      // A day and a bit later: only the trade pending recost (24 h) is too old.
      const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);
      const dayLater = await outcomeAt(book.runtimeDb, 'pending_flow_age', later(30));
      expect(dayLater.status).to.equal('warn');
      expect(dayLater.variances.map((v) => [v.detail.problem, v.txn_id])).to.deep.equal([
        ['pending_recost_too_old', buy.txn_id],
      ]);
      expect(dayLater.variances[0]).to.include({
        source_txn_id: 'buy-1',
        customer_id: 'C-1',
        symbol: 'AAPL',
        expected: '24.00',
      });
      expect(new Decimal(dayLater.variances[0]!.actual!).isGreaterThanOrEqualTo(29.99)).to.equal(true);

      // A week later: every flow.
      const weekLater = await outcomeAt(book.runtimeDb, 'pending_flow_age', later(200));
      expect(weekLater.metrics).to.deep.equal({
        too_old: { cash_request: 1, remittance_in_transit: 1, fx_receivable_unsettled: 1, pending_recost: 1 },
        variances: 4,
      });
      const byProblem = Object.fromEntries(weekLater.variances.map((v) => [v.detail.problem as string, v]));
      expect(byProblem.cash_request_too_old).to.deep.include({ customer_id: 'C-2', expected: '72.00' });
      expect(byProblem.cash_request_too_old!.detail).to.include({
        cash_request_id: cashRequestId,
        amount_usd: '25.00',
      });
      expect(byProblem.remittance_in_transit_too_old).to.deep.include({ customer_id: 'C-1', expected: '120.00' });
      expect(byProblem.remittance_in_transit_too_old!.detail).to.include({
        order_id: 'order_1',
        amount_usd: '1000.00',
      });
      expect(byProblem.fx_receivable_unsettled_too_old).to.deep.include({
        txn_id: fxTxnId,
        source_txn_id: 'fx_spread:order_1',
        expected: '120.00',
      });
      expect(byProblem.fx_receivable_unsettled_too_old!.detail).to.include({ order_id: 'order_1', amount_usd: '5.00' });
    });
  });
});
