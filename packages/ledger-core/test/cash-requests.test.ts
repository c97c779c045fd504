import { expect } from 'chai';
import {
  assertFundsCover,
  CASH_REQUEST_ACTIONS,
  CASH_REQUEST_STATUSES,
  CASH_REQUEST_TRANSITIONS,
  draftCashRequestPosting,
  toUsd,
  transitionOf,
} from '../src/domain/cash-requests.js';
import { LedgerError } from '../src/domain/errors.js';
import { Decimal } from '../src/domain/money.js';
import { isBalanced } from '../src/domain/posting-rules/legs.js';
import { createCashRequest, postEntry, transitionCashRequest } from '../src/ledger.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { asPgFailure, caught, DEFAULT_POLICY, draft, expectLedgerError, lineKeys } from './helpers.js';

const PEG = new Decimal('3.6725');
const FINAL = CASH_REQUEST_STATUSES.filter((s) => s !== 'pending');

describe('cash requests (domain)', () => {
  describe('the transition table', () => {
    it('moves a pending request by every action to the action’s state', () => {
      expect(CASH_REQUEST_ACTIONS.map((a) => transitionOf('r', 'pending', a))).to.deep.equal([
        { kind: 'to', status: 'completed' },
        { kind: 'to', status: 'failed' },
        { kind: 'to', status: 'cancelled' },
      ]);
    });

    it('from a final state answers the repeat of its own action unchanged and refuses every other with invalid_state_transition', () => {
      for (const status of FINAL) {
        const repeats = CASH_REQUEST_ACTIONS.filter((a) => CASH_REQUEST_TRANSITIONS[status][a].kind === 'same');
        expect(repeats, status).to.have.length(1);
        for (const action of CASH_REQUEST_ACTIONS) {
          if (repeats.includes(action)) {
            expect(transitionOf('r', status, action)).to.deep.equal({ kind: 'same' });
          } else {
            let error: unknown;
            try {
              transitionOf('r', status, action);
            } catch (e) {
              error = e;
            }
            expect(error).to.be.instanceOf(LedgerError);
            expect((error as LedgerError).code).to.equal('invalid_state_transition');
          }
        }
      }
    });
  });

  describe('conversion', () => {
    it('keeps USD as it is, with no rate', () => {
      expect(toUsd(new Decimal('25.00'), 'USD', PEG)).to.deep.equal({ amountUsd: new Decimal('25.00'), fxRate: null });
    });

    it('divides AED by the peg and rounds half-up to cents', () => {
      expect(toUsd(new Decimal('100.00'), 'AED', PEG).amountUsd.toFixed()).to.equal('27.23');
      expect(toUsd(new Decimal('367.25'), 'AED', PEG).amountUsd.toFixed()).to.equal('100');
      expect(toUsd(new Decimal('0.02'), 'AED', new Decimal(4)).amountUsd.toFixed()).to.equal('0.01');
      expect(toUsd(new Decimal('0.06'), 'AED', new Decimal(4)).amountUsd.toFixed()).to.equal('0.02');
      expect(toUsd(new Decimal('0.01'), 'AED', new Decimal(4)).amountUsd.toFixed()).to.equal('0');
    });
  });

  describe('funds', () => {
    const withdrawal = (amount: string) => ({
      direction: 'withdrawal' as const,
      amount: new Decimal(amount),
      currency: 'USD' as const,
      fxRate: null,
      customerId: 'C-1',
    });
    const funds = (balance: string, pending: string, unconvertedUsd = '0') => ({
      balance: new Decimal(balance),
      unconvertedUsd: new Decimal(unconvertedUsd),
      pendingWithdrawals: new Decimal(pending),
      balanceUsd: new Decimal(balance),
      lineCount: 1,
    });

    it('checks an AED withdrawal in AED: a wallet of AED 1,000.00 covers AED 1,000.00 exactly, not a fils more', async () => {
      const aed = (amount: string) => ({ ...withdrawal(amount), currency: 'AED' as const, fxRate: PEG });
      expect(() => assertFundsCover(aed('1000.00'), funds('1000.00', '0'))).not.to.throw();
      const refusal = await caught(() => assertFundsCover(aed('1000.01'), funds('1000.00', '0')));
      expect(refusal).to.be.instanceOf(LedgerError);
      expect((refusal as LedgerError).message).to.equal(
        'customer C-1 has 1000.00 AED available in wallet 2020 (AED); the withdrawal needs 1000.01 AED',
      );
      expect((refusal as LedgerError).details).to.deep.equal([
        { customer_id: 'C-1', currency: 'AED', balance: '1000.00', pending_withdrawals: '0.00', requested: '1000.01' },
      ]);
    });

    it("takes an AED line posted without its AED amount at the request's rate: 27.23 USD is AED 100.00 at 3.6725", () => {
      const aed = { ...withdrawal('150.00'), currency: 'AED' as const, fxRate: PEG };
      expect(() => assertFundsCover(aed, funds('50.00', '0', '27.23'))).not.to.throw();
      expect(() => assertFundsCover({ ...aed, amount: new Decimal('150.01') }, funds('50.00', '0', '27.23'))).to.throw(
        LedgerError,
        /has 150\.00 AED available/,
      );
    });

    it('lets a withdrawal take up to the balance less other pending withdrawals, not a cent more', () => {
      expect(() => assertFundsCover(withdrawal('40.00'), funds('100.00', '60.00'))).not.to.throw();
      expect(() => assertFundsCover(withdrawal('40.01'), funds('100.00', '60.00'))).to.throw(LedgerError, /available/);
      expect(() => assertFundsCover(withdrawal('0.01'), funds('-5.00', '0'))).to.throw(LedgerError);
    });

    it('never refuses a deposit', () => {
      expect(() =>
        assertFundsCover({ ...withdrawal('1000.00'), direction: 'deposit' }, funds('0', '0')),
      ).not.to.throw();
    });
  });

  describe('the posting', () => {
    const request = {
      cashRequestId: '0190c2d4-6c1e-7a2b-9f00-000000000001',
      customerId: 'C-1',
      amount: new Decimal('100.00'),
      currency: 'AED' as const,
      amountUsd: new Decimal('27.23'),
      fxRate: PEG,
      reference: 'ref',
      memo: null,
    };

    it('posts an AED deposit to 1020 / 2020 at its USD amount, keyed by the request, with the peg as its rate', () => {
      const draft = draftCashRequestPosting(
        { ...request, direction: 'deposit' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000aa',
        '2026-01-15',
        DEFAULT_POLICY,
      );
      expect(isBalanced(draft.lines)).to.equal(true);
      expect(lineKeys(draft.lines)).to.deep.equal(['1020 Dr 27.23', '2020 Cr 27.23']);
      expect(draft).to.include({
        source: 'ledger',
        sourceTxnId: `cash-request:${request.cashRequestId}`,
        originalCurrency: 'AED',
        txnType: 'deposit',
      });
      expect(draft.fxRate?.toFixed()).to.equal('3.6725');
      expect(draft.originalAmount?.toFixed()).to.equal('100');
    });

    it('posts a USD withdrawal as the mirror, 2010 / 1100, with no conversion', () => {
      const draft = draftCashRequestPosting(
        {
          ...request,
          direction: 'withdrawal',
          currency: 'USD',
          amount: new Decimal('5.00'),
          amountUsd: new Decimal('5.00'),
          fxRate: null,
        },
        '0190c2d4-6c1e-7a2b-9f00-0000000000ab',
        '2026-01-15',
        DEFAULT_POLICY,
      );
      expect(lineKeys(draft.lines)).to.deep.equal(['1100 Cr 5', '2010 Dr 5']);
      expect(draft).to.include({ originalCurrency: null, originalAmount: null, fxRate: null });
    });
  });

  describe('in the database, as the runtime role', function () {
    this.timeout(60_000);
    let t: TestDatabase;
    const policy = { ...DEFAULT_POLICY, aedPerUsd: PEG };
    const today = '2026-01-15';

    before(async () => {
      t = await createTestDatabase({ runtimeRole: true });
      await t.db('customers').insert({ customer_id: 'C-1' });
    });
    after(async () => {
      await t?.drop();
    });

    it('may change only status, txn_id, failure_reason and updated_at of a request, and delete none', async () => {
      const runtime = t.runtime!.db;
      const { request: made } = await createCashRequest(
        runtime,
        { customer_id: 'C-1', direction: 'deposit', amount: '5.00', currency: 'USD' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000c1',
        policy,
      );
      for (const sql of [
        'UPDATE cash_requests SET amount = 500',
        'UPDATE cash_requests SET customer_id = ?',
        'DELETE FROM cash_requests',
        'TRUNCATE cash_requests',
      ]) {
        const error = asPgFailure(await caught(() => runtime.raw(sql, sql.includes('?') ? ['C-2'] : [])));
        expect((error as { code?: string }).code, sql).to.equal('42501');
      }
      expect((await t.db('cash_requests').where({ cash_request_id: made.cash_request_id }).first()).amount).to.equal(
        '5.00',
      );
    });

    it('refuses rows that break the table’s checks: a completed request without a transaction, a sub-cent or non-finite amount', async () => {
      const base = {
        cash_request_id: '0190c2d4-6c1e-7a2b-9f00-0000000000c2',
        customer_id: 'C-1',
        direction: 'deposit',
        amount: '1.00',
        currency: 'USD',
        amount_usd: '1.00',
      };
      for (const [row, constraint] of [
        [{ status: 'completed' }, 'cash_requests_txn_when_completed'],
        [{ amount: '1.001', amount_usd: '1.001' }, 'cash_requests_amount_cents'],
        [{ amount: 'NaN', amount_usd: 'NaN' }, 'cash_requests_amount_finite'],
        [{ currency: 'AED' }, 'cash_requests_fx_rate_with_aed'],
        [{ status: 'done' }, 'cash_requests_status'],
      ] as const) {
        const error = asPgFailure(await caught(() => t.runtime!.db('cash_requests').insert({ ...base, ...row })));
        expect(error.constraint, JSON.stringify(row)).to.equal(constraint);
      }
    });

    it('confirms once: the posting and the state change commit together, and a repeat answers the request unchanged', async () => {
      const runtime = t.runtime!.db;
      const { request: made } = await createCashRequest(
        runtime,
        { customer_id: 'C-1', direction: 'deposit', amount: '10.00', currency: 'AED' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000c3',
        policy,
      );
      const context = (n: number) => ({ txnId: `0190c2d4-6c1e-7a2b-9f00-0000000000${n}`, txnDate: today });
      const done = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          transitionCashRequest(runtime, made.cash_request_id, 'confirm', context(10 + n), policy),
        ),
      );
      expect(new Set(done.map((r) => r.txn_id)).size).to.equal(1);
      const posted = await t
        .db('transactions')
        .where({ source: 'ledger', source_txn_id: `cash-request:${made.cash_request_id}` });
      expect(posted).to.have.length(1);
      expect(posted[0]).to.include({
        txn_id: done[0]!.txn_id,
        original_currency: 'AED',
        original_amount: '10.00',
        fx_rate: '3.6725',
        amount_usd: '2.72',
      });
      await expectLedgerError(
        () => transitionCashRequest(runtime, made.cash_request_id, 'cancel', context(20), policy),
        'invalid_state_transition',
      );
      await expectLedgerError(
        () => transitionCashRequest(runtime, '0190c2d4-6c1e-7a2b-9f00-00000000dead', 'cancel', context(21), policy),
        'not_found',
      );
    });

    it('when a final request is set back to pending, or its posting or reason changed, by raw SQL › the database refuses it, and a confirm then answers the request unchanged', async () => {
      const runtime = t.runtime!.db;
      const { request: made } = await createCashRequest(
        runtime,
        { customer_id: 'C-1', direction: 'deposit', amount: '7.00', currency: 'USD' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000c4',
        policy,
      );
      const completed = await transitionCashRequest(
        runtime,
        made.cash_request_id,
        'confirm',
        { txnId: '0190c2d4-6c1e-7a2b-9f00-0000000000c5', txnDate: today },
        policy,
      );
      const { request: failed } = await createCashRequest(
        runtime,
        { customer_id: 'C-1', direction: 'deposit', amount: '8.00', currency: 'USD' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000c6',
        policy,
      );
      await transitionCashRequest(
        runtime,
        failed.cash_request_id,
        'fail',
        { txnId: '0190c2d4-6c1e-7a2b-9f00-0000000000c7', txnDate: today, reason: 'bounced' },
        policy,
      );
      const { request: cancelled } = await createCashRequest(
        runtime,
        { customer_id: 'C-1', direction: 'deposit', amount: '9.00', currency: 'USD' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000c8',
        policy,
      );
      await transitionCashRequest(
        runtime,
        cancelled.cash_request_id,
        'cancel',
        { txnId: '0190c2d4-6c1e-7a2b-9f00-0000000000c9', txnDate: today },
        policy,
      );
      const rows = () =>
        t
          .db('cash_requests')
          .whereIn('cash_request_id', [made.cash_request_id, failed.cash_request_id, cancelled.cash_request_id])
          .orderBy('cash_request_id');
      const before = await rows();
      for (const [sql, id] of [
        [`UPDATE cash_requests SET status = 'pending', txn_id = NULL WHERE cash_request_id = ?`, made.cash_request_id],
        [
          `UPDATE cash_requests SET txn_id = '0190c2d4-6c1e-7a2b-9f00-0000000000ff' WHERE cash_request_id = ?`,
          made.cash_request_id,
        ],
        [
          `UPDATE cash_requests SET status = 'pending', failure_reason = NULL WHERE cash_request_id = ?`,
          failed.cash_request_id,
        ],
        [`UPDATE cash_requests SET failure_reason = 'other' WHERE cash_request_id = ?`, failed.cash_request_id],
        [
          `UPDATE cash_requests SET status = 'failed', failure_reason = 'late' WHERE cash_request_id = ?`,
          cancelled.cash_request_id,
        ],
        [`UPDATE cash_requests SET status = 'pending' WHERE cash_request_id = ?`, cancelled.cash_request_id],
      ] as const) {
        const error = asPgFailure(await caught(() => runtime.raw(sql, [id])));
        expect(error.code, sql).to.equal('42501');
        expect(error.constraint, sql).to.equal('cash_request_final_state');
      }
      expect(await rows()).to.deep.equal(before);
      const again = await transitionCashRequest(
        runtime,
        made.cash_request_id,
        'confirm',
        { txnId: '0190c2d4-6c1e-7a2b-9f00-0000000000d0', txnDate: today },
        policy,
      );
      expect(again).to.deep.equal(completed);
    });

    it('when the runtime role inserts a request already completed, or completes one by hand, naming a transaction not its own posting (issue 32) › the database refuses it, and confirm still completes it', async () => {
      const runtime = t.runtime!.db;
      await t.db('customers').insert({ customer_id: 'C-2' });
      const theirs = draft({ customer_id: 'C-2', amount_usd: '3.00' });
      const ours = draft({ customer_id: 'C-1', amount_usd: '3.00' });
      await postEntry(runtime, theirs);
      await postEntry(runtime, ours);
      const { request: pending } = await createCashRequest(
        runtime,
        { customer_id: 'C-1', direction: 'deposit', amount: '3.00', currency: 'USD' },
        '0190c2d4-6c1e-7a2b-9f00-0000000000e1',
        policy,
      );
      const made = (row: Record<string, unknown>) => () =>
        runtime('cash_requests').insert({
          cash_request_id: '0190c2d4-6c1e-7a2b-9f00-0000000000e2',
          customer_id: 'C-1',
          direction: 'deposit',
          amount: '3.00',
          currency: 'USD',
          amount_usd: '3.00',
          ...row,
        });
      const completedWith = (txnId: string) => () =>
        runtime.raw(`UPDATE cash_requests SET status = 'completed', txn_id = ? WHERE cash_request_id = ?`, [
          txnId,
          pending.cash_request_id,
        ]);
      const rows = () => t.db('cash_requests').orderBy('cash_request_id');
      const before = await rows();
      for (const [what, write, constraint] of [
        [
          'inserted completed, naming C-2’s deposit',
          made({ status: 'completed', txn_id: theirs.txnId }),
          'cash_request_made_pending',
        ],
        [
          'inserted completed, naming C-1’s own deposit',
          made({ status: 'completed', txn_id: ours.txnId }),
          'cash_request_made_pending',
        ],
        ['inserted failed', made({ status: 'failed', failure_reason: 'bounced' }), 'cash_request_made_pending'],
        ['completed by hand with C-2’s deposit', completedWith(theirs.txnId), 'cash_request_own_posting'],
        [
          'completed by hand with a C-1 deposit that is not its posting',
          completedWith(ours.txnId),
          'cash_request_own_posting',
        ],
      ] as const) {
        const error = asPgFailure(await caught(write));
        expect(error.constraint, what).to.equal(constraint);
      }
      expect(await rows()).to.deep.equal(before);
      const confirmed = await transitionCashRequest(
        runtime,
        pending.cash_request_id,
        'confirm',
        { txnId: '0190c2d4-6c1e-7a2b-9f00-0000000000e3', txnDate: today },
        policy,
      );
      expect(confirmed).to.include({ status: 'completed', txn_id: '0190c2d4-6c1e-7a2b-9f00-0000000000e3' });
    });

    describe('in AED (issue 18, item 4): the AED wallet in AED, exact', () => {
      const aedId = (n: number) => `0190c2d4-6c1e-7a2b-9f00-0000000a${String(n).padStart(4, '0')}`;
      const aedTxn = (n: number) => `0190c2d4-6c1e-7a2b-9f00-0000000b${String(n).padStart(4, '0')}`;
      /** The AED wallet of A-1 as its lines hold it: the AED and the USD sums (credits − debits). */
      const wallet = async () =>
        (
          await t.db.raw<{ rows: Array<{ aed: string; usd: string; without: string }> }>(
            `SELECT coalesce(sum(CASE WHEN credit > 0 THEN native_amount ELSE -native_amount END), 0)::text AS aed,
                    coalesce(sum(credit - debit), 0)::text AS usd,
                    count(*) FILTER (WHERE native_amount IS NULL)::text AS without
               FROM journal_lines WHERE customer_id = 'A-1' AND account_code = '2020'`,
          )
        ).rows[0];
      const linesOf = async (txnId: string) =>
        (
          await t
            .db('journal_lines')
            .where({ txn_id: txnId })
            .orderBy(['account_code', 'line_id'])
            .select('account_code', 'debit', 'credit', 'native_currency', 'native_amount')
        ).map((l) => [l.account_code, l.debit, l.credit, l.native_currency, l.native_amount]);

      before(async () => {
        await t.db('customers').insert({ customer_id: 'A-1' });
        for (let n = 1; n <= 100; n += 1) {
          const { request } = await createCashRequest(
            t.runtime!.db,
            { customer_id: 'A-1', direction: 'deposit', amount: '10.00', currency: 'AED' },
            aedId(n),
            policy,
          );
          await transitionCashRequest(
            t.runtime!.db,
            request.cash_request_id,
            'confirm',
            { txnId: aedTxn(n), txnDate: today },
            policy,
          );
        }
      });

      it('100 deposits of AED 10.00 each post 2.72 USD with AED 10.00 on both AED lines, and leave the wallet at exactly AED 1,000.00 (272.00 USD)', async () => {
        expect(await linesOf(aedTxn(1))).to.deep.equal([
          ['1020', '2.72', '0.00', 'AED', '10.00'],
          ['2020', '0.00', '2.72', 'AED', '10.00'],
        ]);
        expect(await wallet()).to.deep.equal({ aed: '1000.00', usd: '272.00', without: '0' });
      });

      it('then accepts a withdrawal of AED 1,000.00 (272.29 USD: more than the wallet’s 272.00 USD), which empties the wallet in AED, and in USD: the residue goes to 5090', async () => {
        const { request } = await createCashRequest(
          t.runtime!.db,
          { customer_id: 'A-1', direction: 'withdrawal', amount: '1000.00', currency: 'AED' },
          aedId(101),
          policy,
        );
        expect(request).to.include({ status: 'pending', amount: '1000.00', amount_usd: '272.29', fx_rate: '3.6725' });
        // AED 0.04 (a cent, the least a request may be) is more than the wallet holds beside the pending AED 1,000.00.
        const more = await expectLedgerError(
          () =>
            createCashRequest(
              t.runtime!.db,
              { customer_id: 'A-1', direction: 'withdrawal', amount: '0.04', currency: 'AED' },
              aedId(102),
              policy,
            ),
          'insufficient_funds',
        );
        expect(more.details).to.deep.equal([
          {
            customer_id: 'A-1',
            currency: 'AED',
            balance: '1000.00',
            pending_withdrawals: '1000.00',
            requested: '0.04',
          },
        ]);
        await transitionCashRequest(
          t.runtime!.db,
          request.cash_request_id,
          'confirm',
          { txnId: aedTxn(101), txnDate: today },
          policy,
        );
        expect(await linesOf(aedTxn(101))).to.deep.equal([
          ['1020', '0.00', '272.29', 'AED', '1000.00'],
          ['2020', '272.29', '0.00', 'AED', '1000.00'],
          // The sum of conversions would leave the wallet 0.29 in debit (the peg's rounding): cleared to 5090.
          ['2020', '0.00', '0.29', 'AED', '0.00'],
          ['5090', '0.29', '0.00', null, null],
        ]);
        expect(await wallet()).to.deep.equal({ aed: '0.00', usd: '0.00', without: '0' });
      });

      it('refuses an AED line without its AED amount in the database, for every writer', async () => {
        const error = asPgFailure(
          await caught(() =>
            t.runtime!.db.transaction(async (trx) => {
              const txnId = '0190c2d4-6c1e-7a2b-9f00-0000000c0001';
              await trx('transactions').insert({
                txn_id: txnId,
                customer_id: 'A-1',
                txn_type: 'deposit',
                source: 'manual',
                source_txn_id: txnId,
                category: 'funding',
                txn_date: today,
                amount_usd: '2.72',
                metadata: {},
                posted_by: 'api',
              });
              await trx('journal_lines').insert([
                {
                  txn_id: txnId,
                  account_code: '1020',
                  debit: '2.72',
                  credit: '0',
                  customer_id: 'A-1',
                  txn_date: today,
                },
                {
                  txn_id: txnId,
                  account_code: '2020',
                  debit: '0',
                  credit: '2.72',
                  customer_id: 'A-1',
                  txn_date: today,
                },
              ]);
            }),
          ),
        );
        expect(error.constraint).to.equal('journal_lines_aed_line_has_native_amount');
      });
    });

    describe('made with an Idempotency-Key', () => {
      const withdrawal = { customer_id: 'K-1', direction: 'withdrawal', amount: '60.00', currency: 'USD' } as const;
      const id = (n: number) => `0190c2d4-6c1e-7a2b-9f00-0000000001${String(n).padStart(2, '0')}`;

      before(async () => {
        await t.db('customers').insert([{ customer_id: 'K-1' }, { customer_id: 'K-2' }]);
        const deposit = await createCashRequest(
          t.runtime!.db,
          { ...withdrawal, direction: 'deposit', amount: '100.00' },
          id(0),
          policy,
        );
        await transitionCashRequest(
          t.runtime!.db,
          deposit.request.cash_request_id,
          'confirm',
          { txnId: id(99), txnDate: today },
          policy,
        );
      });

      it('a retry of the same withdrawal answers the request it made, not a second one, even though the first holds the funds', async () => {
        const runtime = t.runtime!.db;
        const first = await createCashRequest(runtime, withdrawal, id(1), policy, 'retry-1');
        // $60 of $100 is pending: a second $60 withdrawal would be insufficient_funds; the retry is not one.
        const again = await createCashRequest(runtime, { ...withdrawal, amount: '60' }, id(2), policy, 'retry-1');
        expect(first.created).to.equal(true);
        expect(again).to.deep.equal({ request: first.request, created: false });
        expect(
          await t.db('cash_requests').where({ customer_id: 'K-1', direction: 'withdrawal' }).count(),
        ).to.deep.equal([{ count: '1' }]);
        await expectLedgerError(
          () => createCashRequest(runtime, withdrawal, id(3), policy, 'retry-2'),
          'insufficient_funds',
        );
      });

      it('refuses the key reused for another request (another amount, another customer) with idempotency_conflict, making nothing', async () => {
        const runtime = t.runtime!.db;
        await createCashRequest(runtime, { ...withdrawal, amount: '1.00' }, id(10), policy, 'reused');
        await expectLedgerError(
          () => createCashRequest(runtime, { ...withdrawal, amount: '2.00' }, id(11), policy, 'reused'),
          'idempotency_conflict',
        );
        await expectLedgerError(
          () =>
            createCashRequest(
              runtime,
              { ...withdrawal, customer_id: 'K-2', direction: 'deposit' },
              id(12),
              policy,
              'reused',
            ),
          'idempotency_conflict',
        );
        expect(
          await t
            .db('cash_requests')
            .whereIn('cash_request_id', [id(11), id(12)])
            .count(),
        ).to.deep.equal([{ count: '0' }]);
      });

      it('ten concurrent creates under one key make one request, for one customer or two', async () => {
        const runtime = t.runtime!.db;
        const same = await Promise.all(
          Array.from({ length: 10 }, (_, n) =>
            createCashRequest(runtime, { ...withdrawal, amount: '0.50' }, id(20 + n), policy, 'race-1'),
          ),
        );
        expect(new Set(same.map((m) => m.request.cash_request_id)).size).to.equal(1);
        expect(same.filter((m) => m.created)).to.have.length(1);
        const mixed = await Promise.allSettled(
          Array.from({ length: 10 }, (_, n) =>
            createCashRequest(
              runtime,
              { ...withdrawal, customer_id: n % 2 === 0 ? 'K-1' : 'K-2', direction: 'deposit' },
              id(40 + n),
              policy,
              'race-2',
            ),
          ),
        );
        expect(await t.db('cash_requests').where({ idempotency_key: 'race-2' }).count()).to.deep.equal([
          { count: '1' },
        ]);
        const refused = mixed
          .filter((m) => m.status === 'rejected')
          .map((m) => ((m as PromiseRejectedResult).reason as { code?: string }).code);
        expect(refused.length).to.be.greaterThan(0);
        expect(new Set(refused)).to.deep.equal(new Set(['idempotency_conflict']));
      });
    });
  });
});
