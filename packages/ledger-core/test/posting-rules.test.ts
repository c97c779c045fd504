import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { expect } from 'chai';
import fc from 'fast-check';
import { isBalanced, reversingLines, type PostingInput, type TxnType } from '../src/domain/posting-rules/index.js';
import { draftReversal, entryFingerprint } from '../src/domain/transaction.js';
import {
  CALENDAR_DATE_RULE,
  Decimal,
  DECIMAL_RULE,
  ENTRY_LINES_MAX,
  MEMO_LENGTH_MAX,
  METADATA_PROPERTIES_MAX,
  MONEY_RULE,
  draftFromEntry,
  ENTERABLE_TXN_TYPES,
  LedgerError,
  POSTING_RULES,
  type Currency,
  type EntryRequest,
  type JournalLineDraft,
} from '../src/entry-points/posting.js';
import { caught, DEFAULT_POLICY, draft, entry, expectLedgerError, legKeys, lineKeys, netByAccount } from './helpers.js';

// An oracle with room to spare: never rounds what it need not.
const Exact = BigNumber.clone({ DECIMAL_PLACES: 60 });

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));

/** Decimal strings as the wire carries them: up to 18 integer digits and 8 decimal places. */
const amountString = fc
  .tuple(fc.oneof(digits(1, 3), digits(1, 18)), fc.option(digits(1, 8), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));
const positiveAmount = amountString.filter((s) => !new Decimal(s).isZero());
/** Fee schedules from 0 to 100 %, to the hundredth of a basis point. */
const feeBps = fc.integer({ min: 0, max: 1_000_000 }).map((n) => new Decimal(n).dividedBy(100));
const currency = fc.constantFrom<Currency>('USD', 'AED');
const feeUsd = fc.option(
  amountString.map((s) => new Decimal(s)),
  { nil: null },
);
const ruleTypes = ENTERABLE_TXN_TYPES.filter((t) => t !== 'adjustment');
const accountCode = fc.constantFrom(
  '1010',
  '1020',
  '1100',
  '1200',
  '1300',
  '2010',
  '2020',
  '2100',
  '2340',
  '3000',
  '4010',
  '4030',
  '5010',
);
/** The AED peg the AED examples convert at. */
const PEG = new Decimal('3.6725');

const postingInput = fc
  .record({
    amountUsd: positiveAmount.map((s) => new Decimal(s)),
    currency,
    feeUsd,
    customerFeeBps: feeBps,
    lines: fc.constant(null),
    aedAmount: positiveAmount,
    aedFee: fc.option(positiveAmount),
  })
  // As draftFromEntry admits them: an AED fee is stated only beside its USD fee, and less than the amount.
  .filter(
    ({ feeUsd: usd, aedAmount, aedFee }) =>
      aedFee === null || (usd !== null && new Decimal(aedFee).isLessThan(aedAmount)),
  )
  .map(({ aedAmount, aedFee, ...input }): PostingInput => ({
    ...input,
    aed:
      input.currency === 'AED'
        ? { amount: new Decimal(aedAmount), fee: aedFee === null ? null : new Decimal(aedFee), rate: PEG }
        : null,
  }));

/** Balanced adjustment lines: each leg a debit and a credit of one amount, shuffled. */
const balancedLines = fc
  .array(fc.tuple(accountCode, accountCode, positiveAmount), { minLength: 1, maxLength: 6 })
  .chain((legs) =>
    fc.shuffledSubarray(
      legs.flatMap(([dr, cr, amount]): JournalLineDraft[] => [
        { accountCode: dr, debit: new Decimal(amount), credit: new Decimal(0), postingKind: 'adjustment' },
        { accountCode: cr, debit: new Decimal(0), credit: new Decimal(amount), postingKind: 'adjustment' },
      ]),
      { minLength: legs.length * 2, maxLength: legs.length * 2 },
    ),
  );

function sum(lines: JournalLineDraft[], side: 'debit' | 'credit'): BigNumber {
  return lines.reduce((total, l) => total.plus(new Exact(l[side])), new Exact(0));
}

function expectWellFormed(lines: JournalLineDraft[]): void {
  expect(lines.length).to.be.at.least(2);
  for (const l of lines) {
    expect(l.debit.isNegative() || l.credit.isNegative(), 'a negative side').to.equal(false);
    expect(l.debit.isZero() !== l.credit.isZero(), `exactly one positive side: ${l.debit}/${l.credit}`).to.equal(true);
  }
  expect(sum(lines, 'debit').isEqualTo(sum(lines, 'credit')), 'debits equal credits').to.equal(true);
}

/** What the contract says a rule posts, written independently of the rules. */
function expectedLines(
  txnType: Exclude<TxnType, 'reversal' | 'recost' | 'year_close' | 'adjustment'>,
  input: PostingInput,
): string[] {
  const a = input.amountUsd;
  const [cash, wallet] = input.currency === 'AED' ? ['1020', '2020'] : ['1100', '2010'];
  switch (txnType) {
    case 'deposit':
    case 'wire_in':
      return legKeys([cash, wallet, a]);
    case 'withdrawal':
    case 'wire_out':
      return legKeys([wallet, cash, a]);
    case 'buy_security': {
      const fee =
        input.feeUsd ??
        new Decimal(
          new Exact(a).times(input.customerFeeBps).dividedBy(10_000).decimalPlaces(2, BigNumber.ROUND_HALF_UP),
        );
      return legKeys(['1200', cash, a], [wallet, '2100', a], [wallet, '4010', fee]);
    }
    case 'sell_security':
      // A stated fee is posted at ingest (a feed's bundled fee); otherwise recost charges it.
      return legKeys([cash, wallet, a], [wallet, '4010', input.feeUsd ?? new Decimal(0)]);
    case 'dividend':
      return legKeys(['1100', '2010', a]);
    case 'wht_tax':
    case 'broker_fee':
      return legKeys(['2010', '1100', a]);
    case 'fx_spread':
      return legKeys(['1300', '4030', a]);
    case 'fx_spread_settle': {
      // The accrual clears 1300; the settlement's fees are 5030's; the bank takes (or pays) the difference.
      const fee = new Exact(input.feeUsd ?? 0);
      const bank = new Exact(a).minus(fee);
      return [
        `1300 Cr ${a.toFixed()}`,
        ...(fee.isZero() ? [] : [`5030 Dr ${fee.toFixed()}`]),
        ...(bank.isZero()
          ? []
          : [bank.isNegative() ? `1010 Cr ${bank.negated().toFixed()}` : `1010 Dr ${bank.toFixed()}`]),
      ].sort();
    }
  }
}

describe('posting rules', () => {
  it('cover every enterable txn_type', () => {
    expect([...ENTERABLE_TXN_TYPES].sort()).to.deep.equal(
      [
        'adjustment',
        'broker_fee',
        'buy_security',
        'deposit',
        'dividend',
        'fx_spread',
        'fx_spread_settle',
        'sell_security',
        'wht_tax',
        'wire_in',
        'wire_out',
        'withdrawal',
      ].sort(),
    );
  });

  for (const txnType of ruleTypes) {
    describe(txnType, () => {
      it('posts two or more lines, each with exactly one positive side, whose debits equal credits exactly', () => {
        fc.assert(
          fc.property(postingInput, (input) => {
            const lines = POSTING_RULES[txnType].lines(input);
            expectWellFormed(lines);
            expect(isBalanced(lines)).to.equal(true);
          }),
        );
      });

      it('posts to the accounts the contract names, for the amounts it names', () => {
        fc.assert(
          fc.property(postingInput, (input) => {
            expect(lineKeys(POSTING_RULES[txnType].lines(input))).to.deep.equal(expectedLines(txnType, input));
          }),
        );
      });
    });
  }

  describe('worked examples', () => {
    const input = (amount: string, extra: Partial<PostingInput> = {}): PostingInput => ({
      amountUsd: new Decimal(amount),
      currency: 'USD',
      feeUsd: null,
      customerFeeBps: new Decimal(22),
      lines: null,
      aed: null,
      ...extra,
    });

    it('a USD deposit debits omnibus cash 1100 and credits the USD wallet 2010', () => {
      expect(lineKeys(POSTING_RULES.deposit.lines(input('100.00')))).to.deep.equal(['1100 Dr 100', '2010 Cr 100']);
    });

    /** In AED: the USD amount and the AED figures (the rate is the peg). */
    const inAed = (usd: string, aed: string, extra: Partial<PostingInput> & { aedFee?: string } = {}) => {
      const { aedFee, ...rest } = extra;
      return input(usd, {
        currency: 'AED',
        aed: { amount: new Decimal(aed), fee: aedFee === undefined ? null : new Decimal(aedFee), rate: PEG },
        ...rest,
      });
    };
    /** Each line as `account side USD AED` ('-': no AED amount), sorted. */
    const aedKeys = (lines: JournalLineDraft[]) =>
      lines
        .map((l) =>
          [
            l.accountCode,
            l.debit.isZero() ? 'Cr' : 'Dr',
            (l.debit.isZero() ? l.credit : l.debit).toFixed(2),
            l.nativeAmount?.toFixed(2) ?? '-',
          ].join(' '),
        )
        .sort();

    it('an AED deposit lands in the AED bank 1020 and the AED wallet 2020, each line with its AED amount', () => {
      expect(aedKeys(POSTING_RULES.deposit.lines(inAed('2.72', '10.00')))).to.deep.equal([
        '1020 Dr 2.72 10.00',
        '2020 Cr 2.72 10.00',
      ]);
    });

    it('a trade in AED (UAE shares) pays from, and is paid into, the AED bank 1020 and the AED wallet 2020, in AED too', () => {
      // The fee not stated in AED is its USD at the peg: 0.60 × 3.6725 = 2.2035 → 2.20.
      expect(
        aedKeys(POSTING_RULES.buy_security.lines(inAed('400.00', '1469.00', { feeUsd: new Decimal('0.60') }))),
      ).to.deep.equal(
        [
          '1020 Cr 400.00 1469.00',
          '1200 Dr 400.00 -',
          '2020 Dr 400.00 1469.00',
          '2100 Cr 400.00 -',
          '2020 Dr 0.60 2.20',
          '4010 Cr 0.60 -',
        ].sort(),
      );
      expect(aedKeys(POSTING_RULES.sell_security.lines(inAed('150.00', '550.88')))).to.deep.equal([
        '1020 Dr 150.00 550.88',
        '2020 Cr 150.00 550.88',
      ]);
      // A fee stated in AED (a feed's bundled fee) is taken as stated.
      expect(
        aedKeys(
          POSTING_RULES.sell_security.lines(inAed('150.00', '550.88', { feeUsd: new Decimal('0.33'), aedFee: '1.21' })),
        ),
      ).to.deep.equal(['1020 Dr 150.00 550.88', '2020 Cr 150.00 550.88', '2020 Dr 0.33 1.21', '4010 Cr 0.33 -'].sort());
    });

    it('a withdrawal is the mirror of a deposit', () => {
      expect(lineKeys(POSTING_RULES.withdrawal.lines(input('40.00')))).to.deep.equal(['1100 Cr 40', '2010 Dr 40']);
      expect(aedKeys(POSTING_RULES.withdrawal.lines(inAed('40.00', '146.90')))).to.deep.equal([
        '1020 Cr 40.00 146.90',
        '2020 Dr 40.00 146.90',
      ]);
    });

    it('a reversal mirrors the AED amounts too (so it negates them), and gives an AED line posted without one its USD at the rate', () => {
      const deposit = POSTING_RULES.deposit.lines(inAed('2.72', '10.00'));
      expect(aedKeys(reversingLines(deposit, PEG))).to.deep.equal(['1020 Cr 2.72 10.00', '2020 Dr 2.72 10.00']);
      // Before 20270116 lines kept no AED amount: 27.23 USD at 3.6725 is 100.002 → 100.00.
      const legacy = deposit.map((l) => ({
        ...l,
        debit: l.debit.isZero() ? l.debit : new Decimal('27.23'),
        credit: l.credit.isZero() ? l.credit : new Decimal('27.23'),
        nativeAmount: null,
      }));
      expect(aedKeys(reversingLines(legacy, PEG))).to.deep.equal(['1020 Cr 27.23 100.00', '2020 Dr 27.23 100.00']);
    });

    it('a buy charges 22 bps of notional, rounded to cents, as brokerage revenue 4010', () => {
      // 1234.56 × 0.0022 = 2.716032 → 2.72
      expect(lineKeys(POSTING_RULES.buy_security.lines(input('1234.56')))).to.deep.equal(
        [
          '1100 Cr 1234.56',
          '1200 Dr 1234.56',
          '2010 Dr 1234.56',
          '2100 Cr 1234.56',
          '2010 Dr 2.72',
          '4010 Cr 2.72',
        ].sort(),
      );
    });

    it('a buy rounds a fee of exactly half a cent up (1.00 at 50 bps is 0.005 → 0.01; 5.00 → 0.025 → 0.03)', () => {
      const fee = (amount: string) =>
        POSTING_RULES.buy_security
          .lines(input(amount, { customerFeeBps: new Decimal(50) }))
          .filter((l) => l.accountCode === '4010')
          .map((l) => l.credit.toFixed());
      expect(fee('1.00')).to.deep.equal(['0.01']);
      expect(fee('5.00')).to.deep.equal(['0.03']);
    });

    it('a buy charges the fee the source states instead of the schedule', () => {
      const lines = POSTING_RULES.buy_security.lines(input('1000.00', { feeUsd: new Decimal('1.50') }));
      expect(lines.filter((l) => l.accountCode === '4010').map((l) => l.credit.toFixed())).to.deep.equal(['1.5']);
    });

    it('a buy whose fee rounds to nothing posts no fee lines (never a zero line)', () => {
      expect(lineKeys(POSTING_RULES.buy_security.lines(input('0.01')))).to.deep.equal([
        '1100 Cr 0.01',
        '1200 Dr 0.01',
        '2010 Dr 0.01',
        '2100 Cr 0.01',
      ]);
    });

    it('trades wait for recost; nothing else does', () => {
      for (const t of ENTERABLE_TXN_TYPES) {
        expect(POSTING_RULES[t].pendingRecost, t).to.equal(t === 'buy_security' || t === 'sell_security');
      }
    });
  });

  describe('adjustment', () => {
    const adjust = (lines: JournalLineDraft[] | null) =>
      POSTING_RULES.adjustment.lines({
        amountUsd: new Decimal(0),
        currency: 'USD',
        feeUsd: null,
        customerFeeBps: new Decimal(22),
        lines,
        aed: null,
      });

    it('accepts any balanced lines and posts exactly them', () => {
      fc.assert(
        fc.property(balancedLines, (lines) => {
          expect(adjust(lines)).to.deep.equal(lines);
        }),
      );
    });

    it('rejects lines whose debits and credits differ by any amount with unbalanced_transaction', async () => {
      await fc.assert(
        fc.asyncProperty(balancedLines, fc.nat(), positiveAmount, async (lines, pick, extra) => {
          const i = pick % lines.length;
          const skewed = lines.map((l, j) =>
            j !== i
              ? l
              : l.debit.isZero()
                ? { ...l, credit: l.credit.plus(extra) }
                : { ...l, debit: l.debit.plus(extra) },
          );
          await expectLedgerError(() => adjust(skewed), 'unbalanced_transaction');
        }),
        { numRuns: 50 },
      );
    });

    it('rejects debit 100 against credit 99.99', async () => {
      await expectLedgerError(
        () =>
          adjust([
            { accountCode: '1010', debit: new Decimal('100'), credit: new Decimal(0), postingKind: null },
            { accountCode: '3000', debit: new Decimal(0), credit: new Decimal('99.99'), postingKind: null },
          ]),
        'unbalanced_transaction',
      );
    });

    it('rejects a single line, a line with both sides, and a line with neither', async () => {
      const d = (code: string, debit: string, credit: string): JournalLineDraft => ({
        accountCode: code,
        debit: new Decimal(debit),
        credit: new Decimal(credit),
        postingKind: null,
      });
      await expectLedgerError(() => adjust([d('1010', '5', '5')]), 'unbalanced_transaction');
      await expectLedgerError(() => adjust([d('1010', '5', '5'), d('3000', '1', '1')]), 'unbalanced_transaction');
      await expectLedgerError(() => adjust([d('1010', '0', '0'), d('3000', '0', '0')]), 'unbalanced_transaction');
      await expectLedgerError(
        () => adjust([d('1010', '5', '0'), d('3000', '0', '5'), d('2010', '0', '0')]),
        'unbalanced_transaction',
      );
      await expectLedgerError(() => adjust([]), 'unbalanced_transaction');
    });

    it('rejects negative sides even when they balance', async () => {
      await expectLedgerError(
        () =>
          adjust([
            { accountCode: '1010', debit: new Decimal('-5'), credit: new Decimal(0), postingKind: null },
            { accountCode: '3000', debit: new Decimal(0), credit: new Decimal('-5'), postingKind: null },
          ]),
        'unbalanced_transaction',
      );
    });

    it('needs its lines', async () => {
      await expectLedgerError(() => adjust(null), 'validation_error');
    });
  });

  describe('reversal', () => {
    const anyRuleLines = fc.oneof(
      fc.tuple(fc.constantFrom(...ruleTypes), postingInput).map(([t, input]) => POSTING_RULES[t].lines(input)),
      balancedLines,
    );

    it('mirrors every line: same account and kind, debit and credit swapped', () => {
      fc.assert(
        fc.property(anyRuleLines, (lines) => {
          const mirrored = reversingLines(lines, PEG);
          expect(mirrored).to.have.length(lines.length);
          mirrored.forEach((m, i) => {
            const l = lines[i]!;
            expect([m.accountCode, m.postingKind]).to.deep.equal([l.accountCode, l.postingKind]);
            expect(m.debit.isEqualTo(l.credit) && m.credit.isEqualTo(l.debit)).to.equal(true);
          });
          expectWellFormed(mirrored);
        }),
      );
    });

    it('nets the original to zero on every account', () => {
      fc.assert(
        fc.property(anyRuleLines, (lines) => {
          for (const [account, net] of netByAccount([...lines, ...reversingLines(lines, PEG)])) {
            expect(net.isZero(), `account ${account} nets ${net}`).to.equal(true);
          }
        }),
      );
    });
  });
});

describe('draftFromEntry', () => {
  const txnId = '00000000-0000-4000-8000-000000000001';
  const fromEntry = (overrides: Partial<EntryRequest>) => () => draftFromEntry(entry(overrides), txnId, DEFAULT_POLICY);

  it('derives the lines of the rule and keeps the entry facts', () => {
    const d = draft(
      {
        txn_type: 'buy_security',
        symbol: 'AAPL',
        quantity: '2',
        amount_usd: '1000.00',
        source_txn_id: 'b-1',
        memo: 'm',
      },
      txnId,
    );
    expect(d).to.include({
      txnId,
      customerId: 'C-1',
      txnType: 'buy_security',
      source: 'manual',
      sourceTxnId: 'b-1',
      category: 'trading',
    });
    expect(d).to.include({
      symbol: 'AAPL',
      txnDate: '2026-01-15',
      pendingRecost: true,
      reversesTxnId: null,
      memo: 'm',
    });
    expect(d.quantity?.toFixed()).to.equal('2');
    expect(d.amountUsd.toFixed()).to.equal('1000');
    expect(lineKeys(d.lines)).to.deep.equal(
      legKeys(
        ['1200', '1100', new Decimal(1000)],
        ['2010', '2100', new Decimal(1000)],
        ['2010', '4010', new Decimal('2.2')],
      ),
    );
  });

  it('keys the transaction by its own id when the entry names no source_txn_id', () => {
    const e = entry();
    delete e.source_txn_id;
    expect(draftFromEntry(e, txnId, DEFAULT_POLICY).sourceTxnId).to.equal(txnId);
  });

  it('keeps the category the entry names, else the rule category', () => {
    expect(draft({ category: 'promo' }).category).to.equal('promo');
    expect(draft({ txn_type: 'fx_spread', customer_id: null }).category).to.equal('fx');
  });

  it('keeps the original AED amount and the rate used (AED per USD)', () => {
    const d = draft({ amount_usd: '100.00', original_currency: 'AED', original_amount: '367.25' });
    expect(d.originalCurrency).to.equal('AED');
    expect(d.originalAmount?.toFixed()).to.equal('367.25');
    expect(d.fxRate?.toFixed()).to.equal('3.6725');
    expect(lineKeys(d.lines)).to.deep.equal(['1020 Dr 100', '2020 Cr 100']);
  });

  it('fingerprints the request as the rule resolves it: a spelled-out default category is the same request', () => {
    const e = entry();
    const hash = (x: typeof e) => draftFromEntry(x, txnId, DEFAULT_POLICY).requestHash;
    const rule = POSTING_RULES[e.txn_type];
    expect(hash({ ...e, category: rule.category })).to.equal(hash(e));
    expect(hash({ ...e, category: 'other' })).to.not.equal(hash(e));
    expect(hash({ ...e, metadata: {} })).to.equal(hash(e));
  });

  it('when txn_date is not a day of the calendar › refuses it with validation_error before the database would (a sync record is then rejected, not refused)', async () => {
    for (const day of ['2026-02-30', '2026-13-01', '1900-01-00', '2025-02-29', '0000-01-01', '2026-1-5']) {
      const error = await expectLedgerError(fromEntry({ txn_date: day }), 'validation_error');
      expect(error.details, day).to.deep.equal([{ path: '/txn_date', message: `must be ${CALENDAR_DATE_RULE}` }]);
    }
    expect(fromEntry({ txn_date: '2024-02-29' })().txnDate).to.equal('2024-02-29');
  });

  for (const t of [
    'deposit',
    'wire_in',
    'withdrawal',
    'wire_out',
    'buy_security',
    'sell_security',
    'dividend',
    'wht_tax',
  ] as const) {
    it(`refuses ${t} without a customer with validation_error`, async () => {
      const error = await expectLedgerError(
        fromEntry({ txn_type: t, symbol: 'AAPL', customer_id: null }),
        'validation_error',
      );
      expect(error.details).to.deep.equal([{ path: '/customer_id', message: `is required for ${t}` }]);
      await expectLedgerError(() => {
        const e = entry({ txn_type: t, symbol: 'AAPL' });
        delete e.customer_id;
        return draftFromEntry(e, txnId, DEFAULT_POLICY);
      }, 'validation_error');
    });
  }

  for (const t of ['fx_spread', 'fx_spread_settle'] as const) {
    it(`accepts firm-level ${t} without a customer`, () => {
      expect(draft({ txn_type: t, customer_id: null }).customerId).to.equal(null);
    });
  }

  it('accepts an adjustment without a customer', () => {
    const lines = [
      { account_code: '1010', debit: '5.00', credit: '0' },
      { account_code: '3000', debit: '0', credit: '5.00' },
    ];
    expect(draft({ txn_type: 'adjustment', customer_id: null, lines }).customerId).to.equal(null);
  });

  describe('an adjustment moving a customer account (2010, 2020, 2100)', () => {
    const refund = (account: string) => [
      { account_code: '4010', debit: '5.00', credit: '0', posting_kind: 'fee_refund' },
      {
        account_code: account,
        debit: '0',
        credit: '5.00',
        posting_kind: 'fee_refund',
        ...(account === '2020' && { native_amount: '18.36' }),
      },
    ];
    for (const account of ['2010', '2020', '2100']) {
      it(`without a customer_id is refused with customer_required naming ${account}`, async () => {
        const error = await expectLedgerError(
          fromEntry({ txn_type: 'adjustment', customer_id: null, lines: refund(account) }),
          'customer_required',
        );
        expect(error.details).to.deep.equal([{ path: '/customer_id', account_code: account }]);
      });
    }

    it('with the customer_id posts the lines as given, for that customer', () => {
      const d = draft({ txn_type: 'adjustment', customer_id: 'C-1', lines: refund('2010') });
      expect(d.customerId).to.equal('C-1');
      expect(d.lines.map((l) => [l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), l.postingKind])).to.deep.equal(
        [
          ['4010', '5.00', '0.00', 'fee_refund'],
          ['2010', '0.00', '5.00', 'fee_refund'],
        ],
      );
    });
  });

  describe('an adjustment moving an AED account (1020, 2020)', () => {
    const lines = (native: Record<string, string>) => [
      {
        account_code: '4010',
        debit: '5.00',
        credit: '0',
        posting_kind: 'fee_refund',
        ...(native['4010'] && { native_amount: native['4010'] }),
      },
      {
        account_code: '2020',
        debit: '0',
        credit: '5.00',
        posting_kind: 'fee_refund',
        ...(native['2020'] && { native_amount: native['2020'] }),
      },
    ];

    it('carries the AED amount the operator gives on the AED line', () => {
      const d = draft({ txn_type: 'adjustment', customer_id: 'C-1', lines: lines({ '2020': '18.36' }) });
      expect(d.lines.map((l) => [l.accountCode, l.nativeAmount?.toFixed(2) ?? null])).to.deep.equal([
        ['4010', null],
        ['2020', '18.36'],
      ]);
    });

    it('refuses an AED line without its AED amount, and an AED amount on a USD line, with validation_error', async () => {
      const missing = await expectLedgerError(
        fromEntry({ txn_type: 'adjustment', customer_id: 'C-1', lines: lines({}) }),
        'validation_error',
      );
      expect(missing.details).to.deep.equal([
        {
          path: '/lines/1/native_amount',
          message: 'is required on a line of AED account 2020: its amount in AED, greater than zero',
        },
      ]);
      const misplaced = await expectLedgerError(
        fromEntry({ txn_type: 'adjustment', customer_id: 'C-1', lines: lines({ '4010': '18.36', '2020': '18.36' }) }),
        'validation_error',
      );
      expect(misplaced.details).to.deep.equal([
        { path: '/lines/0/native_amount', message: 'is given only on a line of an AED account (1020, 2020)' },
      ]);
    });
  });

  for (const t of ['buy_security', 'sell_security'] as const) {
    it(`refuses ${t} without a symbol with validation_error`, async () => {
      await expectLedgerError(fromEntry({ txn_type: t, symbol: null }), 'validation_error');
      await expectLedgerError(fromEntry({ txn_type: t }), 'validation_error');
    });
  }

  for (const t of ruleTypes) {
    it(`refuses lines on ${t} (only an adjustment takes lines)`, async () => {
      const lines = [
        { account_code: '1100', debit: '100.00', credit: '0' },
        { account_code: '2010', debit: '0', credit: '100.00' },
      ];
      await expectLedgerError(fromEntry({ txn_type: t, symbol: 'AAPL', lines }), 'validation_error');
    });
  }

  it('refuses an unbalanced adjustment with unbalanced_transaction and a balanced one is posted as given', async () => {
    const lines = (credit: string) => [
      { account_code: '1010', debit: '100.00', credit: '0', posting_kind: 'correction' },
      { account_code: '3000', debit: '0', credit },
    ];
    await expectLedgerError(fromEntry({ txn_type: 'adjustment', lines: lines('99.99') }), 'unbalanced_transaction');
    const d = draft({ txn_type: 'adjustment', lines: lines('100.0') });
    expect(d.lines.map((l) => [l.accountCode, l.debit.toFixed(), l.credit.toFixed(), l.postingKind])).to.deep.equal([
      ['1010', '100', '0', 'correction'],
      ['3000', '0', '100', 'adjustment'],
    ]);
  });

  it('refuses an adjustment without lines', async () => {
    await expectLedgerError(fromEntry({ txn_type: 'adjustment' }), 'validation_error');
  });

  it('refuses original_currency without original_amount, and the other way round', async () => {
    await expectLedgerError(fromEntry({ original_currency: 'AED' }), 'validation_error');
    await expectLedgerError(fromEntry({ original_amount: '367.25' }), 'validation_error');
  });

  it('refuses a zero converted amount', async () => {
    await expectLedgerError(fromEntry({ original_currency: 'AED', original_amount: '0' }), 'validation_error');
    await expectLedgerError(
      fromEntry({ amount_usd: '0', original_currency: 'AED', original_amount: '3.67' }),
      'validation_error',
    );
  });

  it('refuses an entry whose rule would post no lines (a zero deposit)', async () => {
    const error = await caught(fromEntry({ amount_usd: '0' }));
    expect(error).to.be.instanceOf(LedgerError);
    expect((error as LedgerError).code).to.be.oneOf(['unbalanced_transaction', 'validation_error']);
  });

  const BAD_DECIMALS = [
    '1e5',
    '-1',
    '1.123456789',
    'abc',
    '',
    ' 1',
    '1 ',
    '1.',
    '.5',
    '+1',
    '1,000.00',
    '0x10',
    'NaN',
    'Infinity',
    '1234567890123456789',
  ];
  const FIELD_RULES = {
    amount_usd: MONEY_RULE,
    fee_usd: MONEY_RULE,
    original_amount: MONEY_RULE,
    quantity: DECIMAL_RULE,
  } as const;
  for (const [field, rule] of Object.entries(FIELD_RULES) as Array<[keyof typeof FIELD_RULES, string]>) {
    it(`refuses malformed decimal strings in ${field} with validation_error naming the field and its rule`, async () => {
      for (const bad of [...BAD_DECIMALS, ...(rule === MONEY_RULE ? ['10.123', '0.001', '1000000000000'] : [])]) {
        const overrides: Partial<EntryRequest> = { [field]: bad };
        if (field === 'original_amount') overrides.original_currency = 'AED';
        const error = await expectLedgerError(fromEntry(overrides), 'validation_error');
        expect(error.details, bad).to.deep.equal([{ path: `/${field}`, message: `must be ${rule}` }]);
      }
    });
  }

  it('lists every refused field at once, not only the first', async () => {
    const error = await expectLedgerError(
      fromEntry({ amount_usd: '1.001', fee_usd: 'x', customer_id: null }),
      'validation_error',
    );
    expect(error.details).to.deep.equal([
      { path: '/customer_id', message: 'is required for deposit' },
      { path: '/amount_usd', message: `must be ${MONEY_RULE}` },
      { path: '/fee_usd', message: `must be ${MONEY_RULE}` },
    ]);
  });

  it('refuses an original_fee without the fee_usd it states, and a sale’s original_fee not less than its original_amount', async () => {
    const aedSell: Partial<EntryRequest> = {
      txn_type: 'sell_security',
      symbol: 'EMAAR',
      quantity: '1',
      amount_usd: '2.72',
      original_currency: 'AED',
      original_amount: '10.00',
      fx_rate: '3.6725',
    };
    const withoutUsd = await expectLedgerError(fromEntry({ ...aedSell, original_fee: '0.02' }), 'validation_error');
    expect(withoutUsd.details).to.deep.equal([
      {
        path: '/original_fee',
        message: 'is given only with original_amount and fee_usd (it is that fee in original_currency)',
      },
    ]);
    const tooLarge = await expectLedgerError(
      fromEntry({ ...aedSell, fee_usd: '0.00', original_fee: '10.00' }),
      'validation_error',
    );
    expect(tooLarge.details).to.deep.equal([
      { path: '/original_fee', message: 'must be less than original_amount: a sale’s fee comes out of its proceeds' },
    ]);
    // Just under: a fee worth 0.00 USD folds into the AED proceeds (AED 0.01 on both AED lines).
    const folded = draft({
      ...aedSell,
      amount_usd: '0.01',
      original_amount: '0.02',
      fee_usd: '0.00',
      original_fee: '0.01',
    });
    expect(folded.lines.map((l) => [l.accountCode, l.nativeAmount?.toFixed(2) ?? null])).to.deep.equal([
      ['1020', '0.01'],
      ['2020', '0.01'],
    ]);
  });

  it('refuses malformed decimal strings in adjustment lines', async () => {
    for (const bad of BAD_DECIMALS) {
      const lines = [
        { account_code: '1010', debit: bad, credit: '0' },
        { account_code: '3000', debit: '0', credit: '1.00' },
      ];
      const error = await expectLedgerError(fromEntry({ txn_type: 'adjustment', lines }), 'validation_error');
      expect(error.details, bad).to.deep.equal([{ path: '/lines/0/debit', message: `must be ${MONEY_RULE}` }]);
    }
  });

  it('accepts amounts of up to 12 integer digits in whole cents, and quantities to 8 places', () => {
    expect(draft({ amount_usd: '999999999999.99' }).amountUsd.toFixed()).to.equal('999999999999.99');
    expect(draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '0.00000001' }).quantity?.toFixed()).to.equal(
      '0.00000001',
    );
  });

  it('holds the limits on memo, metadata and lines for every caller, not only the API', async () => {
    const error = await expectLedgerError(
      fromEntry({
        memo: 'm'.repeat(MEMO_LENGTH_MAX + 1),
        metadata: Object.fromEntries(Array.from({ length: METADATA_PROPERTIES_MAX + 1 }, (_, i) => [`k${i}`, i])),
      }),
      'validation_error',
    );
    expect((error.details as Array<{ path: string }>).map((d) => d.path)).to.deep.equal(['/memo', '/metadata']);
    const lines = Array.from({ length: ENTRY_LINES_MAX + 1 }, (_, i) => ({
      account_code: i % 2 ? '3000' : '1010',
      debit: i % 2 ? '0' : '1.00',
      credit: i % 2 ? '1.00' : '0',
    }));
    await expectLedgerError(fromEntry({ txn_type: 'adjustment', lines }), 'validation_error');
    expect(draft({ memo: 'm'.repeat(MEMO_LENGTH_MAX) }).memo).to.have.length(MEMO_LENGTH_MAX);
  });

  it('refuses the conversion whose rate would round to nothing (a fraction of a fil for a fortune)', async () => {
    await expectLedgerError(
      fromEntry({
        txn_type: 'deposit',
        original_currency: 'AED',
        original_amount: '0.00000001',
        amount_usd: '100000000000',
      }),
      'validation_error',
    );
  });

  it('refuses a zero quantity, which the books cannot hold (quantity > 0), with validation_error', async () => {
    await expectLedgerError(fromEntry({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '0' }), 'validation_error');
  });

  it('accepts free-form metadata whose keys happen to be named like decimal fields', () => {
    // Metadata is opaque: a key called "debit" or "quantity" holds whatever the caller put there.
    const d = draft({ metadata: { debit: 'n/a', quantity: 'three', note: { amount_usd: 'see memo' } } });
    expect(d.metadata).to.deep.equal({ debit: 'n/a', quantity: 'three', note: { amount_usd: 'see memo' } });
  });
});

describe('entryFingerprint', () => {
  const full: EntryRequest = {
    txn_type: 'adjustment',
    customer_id: 'C-1',
    source: 'manual',
    source_txn_id: 'k-1',
    txn_date: '2026-01-15',
    amount_usd: '100.00',
    symbol: 'AAPL',
    quantity: '2',
    category: 'fix',
    memo: 'memo',
    fee_usd: '1.00',
    original_currency: 'AED',
    original_amount: '367.25',
    metadata: { a: 1, b: { c: 'x' } },
    lines: [
      { account_code: '1010', debit: '100.00', credit: '0', posting_kind: 'fix' },
      { account_code: '3000', debit: '0', credit: '100.00' },
    ],
  };

  it('is the same across releases: a retry of an entry stored by an earlier version is not a conflict', () => {
    // Computed by the first release; a change here would turn every retry of an older entry into a 409.
    const stored = {
      txn_type: 'adjustment',
      source: 'manual',
      source_txn_id: 'fp-1',
      txn_date: '2026-03-01',
      amount_usd: '100.0',
      memo: 'fixed',
      metadata: { z: 1, a: { y: [2, { d: 1, c: 2 }], b: null } },
      lines: [
        { account_code: '1010', debit: '100.00', credit: '0', posting_kind: 'adjustment' },
        { account_code: '3000', debit: '0', credit: '100' },
      ],
    } as EntryRequest;
    expect(entryFingerprint(stored)).to.equal('4746d8012dfe47924383ef55e21cc70e963b4083cb014c85664c10d0363ca0ce');
  });

  it('does not depend on key order', () => {
    const keys = Object.keys(full) as Array<keyof EntryRequest>;
    fc.assert(
      fc.property(
        fc.shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length }),
        fc.boolean(),
        (order, reverseNested) => {
          const reordered = Object.fromEntries(order.map((k) => [k, full[k]])) as unknown as EntryRequest;
          if (reverseNested) {
            reordered.metadata = { b: { c: 'x' }, a: 1 };
            reordered.lines = full.lines!.map((l) => Object.fromEntries(Object.entries(l).reverse()) as typeof l);
          }
          expect(entryFingerprint(reordered)).to.equal(entryFingerprint(full));
        },
      ),
    );
  });

  it('does not depend on how a decimal is spelt ("100.0" vs "100.00" vs "100")', () => {
    const respelt: EntryRequest = {
      ...full,
      amount_usd: '100.0',
      quantity: '2.000',
      fee_usd: '1',
      original_amount: '367.250',
      lines: [
        { account_code: '1010', debit: '100', credit: '0.00', posting_kind: 'fix' },
        { account_code: '3000', debit: '0.0', credit: '100.00000' },
      ],
    };
    expect(entryFingerprint(respelt)).to.equal(entryFingerprint(full));
    expect(entryFingerprint(entry({ source_txn_id: 'x', amount_usd: '100.0' }))).to.equal(
      entryFingerprint(entry({ source_txn_id: 'x', amount_usd: '100.00' })),
    );
  });

  it('treats an absent optional field and a null one alike', () => {
    const e = entry({ source_txn_id: 'same' });
    expect(entryFingerprint({ ...e, symbol: null, memo: null })).to.equal(entryFingerprint(e));
  });

  const changes: Array<[string, Partial<EntryRequest>]> = [
    ['the txn_type changes', { txn_type: 'deposit' }],
    ['the customer_id changes', { customer_id: 'C-2' }],
    ['the customer_id is removed', { customer_id: null }],
    ['the source changes', { source: 'usbroker' }],
    ['the source_txn_id changes', { source_txn_id: 'k-2' }],
    ['the txn_date changes', { txn_date: '2026-01-16' }],
    ['the amount_usd changes', { amount_usd: '100.01' }],
    ['the amount_usd moves by a hundred-millionth', { amount_usd: '100.00000001' }],
    ['the symbol changes', { symbol: 'MSFT' }],
    ['the quantity changes', { quantity: '3' }],
    ['the category changes', { category: 'other' }],
    ['the memo changes', { memo: 'memo2' }],
    ['the fee_usd changes', { fee_usd: '1.01' }],
    ['the original_currency changes', { original_currency: 'USD' }],
    ['the original_amount changes', { original_amount: '367.26' }],
    ['a metadata value changes', { metadata: { a: 2, b: { c: 'x' } } }],
    ['a nested metadata value changes', { metadata: { a: 1, b: { c: 'y' } } }],
    ['a metadata key is added', { metadata: { a: 1, b: { c: 'x' }, d: true } }],
    ['a metadata number becomes a string', { metadata: { a: '1', b: { c: 'x' } } }],
    [
      "a line's account changes",
      { lines: [{ account_code: '1020', debit: '100.00', credit: '0', posting_kind: 'fix' }, full.lines![1]!] },
    ],
    [
      'the line amounts change',
      {
        lines: [
          { account_code: '1010', debit: '100.01', credit: '0', posting_kind: 'fix' },
          { account_code: '3000', debit: '0', credit: '100.01' },
        ],
      },
    ],
    [
      "a line's sides are swapped",
      {
        lines: [
          { account_code: '1010', debit: '0', credit: '100.00', posting_kind: 'fix' },
          { account_code: '3000', debit: '100.00', credit: '0' },
        ],
      },
    ],
    ["a line's posting_kind changes", { lines: [{ ...full.lines![0]!, posting_kind: 'other' }, full.lines![1]!] }],
    ['a line is added', { lines: [...full.lines!, { account_code: '1010', debit: '1', credit: '0' }] }],
  ];
  for (const [what, change] of changes) {
    it(`changes when ${what}`, () => {
      expect(entryFingerprint({ ...full, ...change })).to.not.equal(entryFingerprint(full));
    });
  }

  it('changes when any amount changes (property)', () => {
    fc.assert(
      fc.property(positiveAmount, positiveAmount, (a, b) => {
        fc.pre(!new Decimal(a).isEqualTo(b));
        expect(entryFingerprint({ ...full, amount_usd: a })).to.not.equal(entryFingerprint({ ...full, amount_usd: b }));
      }),
    );
  });
});

describe('draftReversal', () => {
  const original = () => {
    const d = draft({ txn_type: 'buy_security', symbol: 'AAPL', quantity: '2', amount_usd: '500.00' });
    return {
      txnId: d.txnId,
      txnDate: d.txnDate,
      txnType: d.txnType,
      customerId: d.customerId,
      symbol: d.symbol,
      quantity: d.quantity,
      amountUsd: d.amountUsd,
      fxRate: d.fxRate,
      lines: d.lines,
    };
  };

  it('mirrors the original, names it, and is keyed by it so only one can exist', () => {
    const o = original();
    const id = randomUUID();
    const r = draftReversal(o, id, '2026-02-01', 'oops');
    expect(r).to.include({
      txnId: id,
      txnType: 'reversal',
      source: 'ledger',
      sourceTxnId: `reversal:${o.txnId}`,
      reversesTxnId: o.txnId,
    });
    expect(r).to.include({
      customerId: 'C-1',
      symbol: 'AAPL',
      txnDate: '2026-02-01',
      memo: 'oops',
      pendingRecost: false,
    });
    expect(r.lines).to.deep.equal(reversingLines(o.lines, o.fxRate));
    expect(r.amountUsd.isEqualTo(o.amountUsd)).to.equal(true);
  });

  it('refuses to reverse a reversal with conflict', async () => {
    const r = draftReversal(original(), randomUUID(), '2026-02-01', null);
    await expectLedgerError(
      () => draftReversal({ ...r, txnType: r.txnType }, randomUUID(), '2026-02-02', null),
      'conflict',
    );
  });

  it('refuses a reversal dated before its original with validation_error', async () => {
    const o = original();
    await expectLedgerError(() => draftReversal(o, randomUUID(), '2025-12-31', null), 'validation_error');
    expect(draftReversal(o, randomUUID(), o.txnDate, null).txnDate).to.equal(o.txnDate);
  });
});
