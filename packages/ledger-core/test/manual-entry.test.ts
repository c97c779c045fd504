import { expect } from 'chai';
import { AED_PEG_TOLERANCE_USD, clearAedResidue } from '../src/domain/fx-rounding.js';
import { settleWalletDebits, walletDebitsOf } from '../src/domain/manual-entry.js';
import { entryFingerprint } from '../src/domain/transaction.js';
import {
  ACCOUNT,
  Decimal,
  draftManualEntry,
  type EntryRequest,
  type ManualEntryPolicy,
  type TransactionDraft,
} from '../src/entry-points/posting.js';
import { DEFAULT_POLICY, entry, expectLedgerError } from './helpers.js';

const PEG = new Decimal('3.6725');
const POLICY: ManualEntryPolicy = { ...DEFAULT_POLICY, aedPerUsd: PEG };
const manual = (overrides: Partial<EntryRequest> = {}) => draftManualEntry(entry(overrides), 'txn-1', POLICY);
const funds = (balance: string, balanceUsd: string, lineCount = 1) => ({
  balance: new Decimal(balance),
  unconvertedUsd: new Decimal(0),
  pendingWithdrawals: new Decimal(0),
  balanceUsd: new Decimal(balanceUsd),
  lineCount,
});
const rows = (draft: TransactionDraft) =>
  draft.lines.map((l) => [l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), l.nativeAmount?.toFixed(2) ?? null]);

describe('preventive controls on manual entries (domain/manual-entry.ts)', () => {
  describe('draftManualEntry', () => {
    it('refuses an upstream source: source_reserved; manual is the only one', async () => {
      for (const source of ['usbroker', 'remit', 'uaefeed', 'custodian'] as const)
        await expectLedgerError(() => manual({ source }), 'source_reserved');
      expect(manual().source).to.equal('manual');
    });

    it('refuses an AED line more than the tolerance (0.01) from its AED at the peg, and a stated rate other than the peg', async () => {
      expect(AED_PEG_TOLERANCE_USD.toFixed(2)).to.equal('0.01');
      const aed = (amount_usd: string, extra: Partial<EntryRequest> = {}) =>
        manual({ amount_usd, original_currency: 'AED', original_amount: '367.25', ...extra });
      expect(rows(aed('100.01'))[1]).to.deep.equal(['2020', '0.00', '100.01', '367.25']);
      expect(rows(aed('99.99'))[0]).to.deep.equal(['1020', '99.99', '0.00', '367.25']);
      await expectLedgerError(() => aed('100.02'), 'aed_off_peg');
      await expectLedgerError(() => aed('99.98'), 'aed_off_peg');
      await expectLedgerError(() => aed('100.00', { fx_rate: '3.67' }), 'aed_off_peg');
      expect(aed('100.00', { fx_rate: '3.67250' }).fxRate?.toFixed()).to.equal('3.6725');
    });

    it('refuses a credit to 1010 unless the entry says so, which leaves its fingerprint alone', async () => {
      const payout: Partial<EntryRequest> = {
        txn_type: 'adjustment',
        customer_id: null,
        lines: [
          { account_code: '5030', debit: '3.00', credit: '0' },
          { account_code: '1010', debit: '0', credit: '3.00' },
        ],
      };
      await expectLedgerError(() => manual(payout), 'operating_bank_credit_unconfirmed');
      await expectLedgerError(
        () => manual({ ...payout, credits_operating_bank: false }),
        'operating_bank_credit_unconfirmed',
      );
      const confirmed = entry({ ...payout, credits_operating_bank: true });
      expect(draftManualEntry(confirmed, 'txn-2', POLICY).lines).to.have.length(2);
      const { credits_operating_bank: _said, ...unsaid } = confirmed;
      void _said;
      expect(entryFingerprint(confirmed)).to.equal(entryFingerprint(unsaid));
      // A debit to 1010 needs no word.
      expect(
        manual({
          txn_type: 'adjustment',
          customer_id: null,
          lines: [
            { account_code: '1010', debit: '3.00', credit: '0' },
            { account_code: '3000', debit: '0', credit: '3.00' },
          ],
        }).lines,
      ).to.have.length(2);
    });
  });

  describe('walletDebitsOf: every debit of 2010 / 2020, net of the entry’s credits to it', () => {
    it('a buy takes its cost and fee, a fee or tax its amount, a deposit or sale nothing', () => {
      const taken = (overrides: Partial<EntryRequest>) =>
        walletDebitsOf(manual(overrides), PEG).map((d) => [d.currency, d.amount.toFixed(2), d.spentBy]);
      expect(taken({ txn_type: 'buy_security', symbol: 'AAPL', amount_usd: '100.00' })).to.deep.equal([
        ['USD', '100.22', 'buy_security'],
      ]);
      expect(taken({ txn_type: 'broker_fee', amount_usd: '15.00' })).to.deep.equal([['USD', '15.00', 'broker_fee']]);
      expect(taken({ txn_type: 'wht_tax', amount_usd: '2.50' })).to.deep.equal([['USD', '2.50', 'wht_tax']]);
      expect(taken({})).to.deep.equal([]);
      expect(taken({ txn_type: 'sell_security', symbol: 'AAPL', amount_usd: '100.00', fee_usd: '1.00' })).to.deep.equal(
        [],
      );
    });

    it('an AED debit is counted in AED, from the lines’ AED amounts', () => {
      const adjustment = manual({
        txn_type: 'adjustment',
        amount_usd: '10.89',
        lines: [
          { account_code: '2020', debit: '10.89', credit: '0', native_amount: '40.00' },
          { account_code: '4010', debit: '0', credit: '10.89' },
        ],
      });
      const [debit] = walletDebitsOf(adjustment, PEG);
      expect([debit?.currency, debit?.amount.toFixed(2)]).to.deep.equal(['AED', '40.00']);
      expect(() =>
        settleWalletDebits(adjustment, walletDebitsOf(adjustment, PEG), { AED: funds('39.99', '10.89') }, PEG),
      ).to.throw(/has 39.99 AED available in wallet 2020 \(AED\); the adjustment needs 40.00 AED/);
    });
  });

  describe('clearAedResidue', () => {
    const withdrawal = (aed: string, usd: string) =>
      manual({ txn_type: 'withdrawal', amount_usd: usd, original_currency: 'AED', original_amount: aed });

    it('a withdrawal emptying the wallet in AED clears its USD residue to 5090, either way', () => {
      // 100 deposits of AED 10.00 at 2.72: AED 1,000.00, 272.00 USD; AED 1,000.00 out is 272.29.
      expect(
        rows(clearAedResidue(withdrawal('1000.00', '272.29'), funds('1000.00', '272.00', 100), PEG)),
      ).to.deep.equal([
        ['2020', '272.29', '0.00', '1000.00'],
        ['1020', '0.00', '272.29', '1000.00'],
        ['2020', '0.00', '0.29', '0.00'],
        [ACCOUNT.fxRounding, '0.29', '0.00', null],
      ]);
      expect(
        rows(clearAedResidue(withdrawal('1000.00', '272.29'), funds('1000.00', '272.31', 3), PEG)).slice(2),
      ).to.deep.equal([
        ['2020', '0.02', '0.00', '0.00'],
        [ACCOUNT.fxRounding, '0.00', '0.02', null],
      ]);
    });

    it('leaves the draft alone when the wallet keeps AED, when nothing is left over, and when the residue is more than rounding', () => {
      const out = withdrawal('1000.00', '272.29');
      expect(clearAedResidue(out, funds('1000.01', '272.00', 100), PEG)).to.equal(out);
      expect(clearAedResidue(out, funds('1000.00', '272.29', 1), PEG)).to.equal(out);
      // 0.29 over two lines (the deposit and this withdrawal) is more than a cent each: a drift, left to reconciliation.
      expect(clearAedResidue(out, funds('1000.00', '272.00', 1), PEG)).to.equal(out);
    });
  });
});
