import { ACCOUNT, owedInOwnCurrency } from './accounts.js';
import type { WalletFunds } from './cash-requests.js';
import { Decimal, ZERO } from './money.js';
import type { JournalLineDraft } from './posting-rules/index.js';
import type { TransactionDraft } from './transaction.js';

/**
 * How far an AED line's USD may be from its AED amount at the peg, in USD: one cent. A single
 * conversion rounded to cents is at most half a cent off; a trade's fee taken as the difference
 * of two conversions (a feed's settlement less its gross) at most a cent. Further off, the line's
 * USD is not its AED at the peg: manual entry refuses it (domain/manual-entry.ts), and a residue
 * of more than this per line of a wallet is not rounding (clearAedResidue).
 */
export const AED_PEG_TOLERANCE_USD = new Decimal('0.01');

/** The posting kind of the lines that clear an AED wallet's rounding residue. */
export const FX_ROUNDING_POSTING_KIND = 'fx_rounding';

/**
 * Clears an AED wallet's rounding residue when a debit empties it. Each AED line is converted to
 * USD on its own, rounded to cents, so a wallet's USD figure is a sum of conversions: 100 deposits
 * of AED 10.00 are 100 × 2.72 = 272.00 USD while the withdrawal of the AED 1,000.00 they make is
 * 272.29, and the emptied wallet would stand at −0.29 USD, an overdraft in the book's currency
 * that is no debt of the customer's. So when the entry leaves the wallet (`funds`: 2020's, read
 * before it) at AED 0.00, its USD residue is cleared to 5090 (FX rounding) by one more pair of
 * lines, `fx_rounding`: the wallet's line carries AED 0.00 (it moves no AED), 5090 the other side.
 * The residue is cleared only when it is rounding: at most AED_PEG_TOLERANCE_USD per line the
 * wallet has had (each line's USD within that of its AED at the peg); a larger one is a drift,
 * left for reconciliation to name. The draft is returned unchanged when there is nothing to clear.
 */
export function clearAedResidue(draft: TransactionDraft, funds: WalletFunds, aedPerUsd: Decimal): TransactionDraft {
  const walletLines = draft.lines.filter((l) => l.accountCode === ACCOUNT.customerWalletAed);
  if (walletLines.length === 0) return draft;
  // Credits less debits, as the wallet (a liability) is owed.
  const moved = walletLines.reduce(
    (sum, l) => {
      const aed = l.nativeAmount ?? ZERO;
      return l.debit.isZero()
        ? { aed: sum.aed.plus(aed), usd: sum.usd.plus(l.credit) }
        : { aed: sum.aed.minus(aed), usd: sum.usd.minus(l.debit) };
    },
    { aed: ZERO, usd: ZERO },
  );
  const aedAfter = owedInOwnCurrency({ own: funds.balance, unconvertedUsd: funds.unconvertedUsd }, aedPerUsd).plus(
    moved.aed,
  );
  const usdAfter = funds.balanceUsd.plus(moved.usd);
  if (!aedAfter.isZero() || usdAfter.isZero()) return draft;
  if (usdAfter.abs().isGreaterThan(AED_PEG_TOLERANCE_USD.times(funds.lineCount + walletLines.length))) return draft;
  const residue = usdAfter.abs();
  // In debit (−0.29): the wallet is credited back to zero and 5090 takes the loss; in credit, the other way round.
  const walletSide = usdAfter.isNegative() ? 'credit' : 'debit';
  const line = (accountCode: string, side: 'debit' | 'credit', nativeAmount?: Decimal): JournalLineDraft => ({
    accountCode,
    debit: side === 'debit' ? residue : ZERO,
    credit: side === 'credit' ? residue : ZERO,
    postingKind: FX_ROUNDING_POSTING_KIND,
    ...(nativeAmount && { nativeAmount }),
  });
  return {
    ...draft,
    lines: [
      ...draft.lines,
      line(ACCOUNT.customerWalletAed, walletSide, ZERO),
      line(ACCOUNT.fxRounding, walletSide === 'credit' ? 'debit' : 'credit'),
    ],
  };
}
