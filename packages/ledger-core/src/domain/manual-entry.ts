import { ACCOUNT, nativeCurrencyOf } from './accounts.js';
import { assertFundsCover, type FundsRequest, type WalletFunds } from './cash-requests.js';
import { AED_PEG_TOLERANCE_USD, clearAedResidue } from './fx-rounding.js';
import { assert, LedgerError } from './errors.js';
import { Decimal, formatDecimal, ZERO } from './money.js';
import type { JournalLineDraft } from './posting-rules/index.js';
import type { EnterableSource } from './sources.js';
import { draftFromEntry, type EntryRequest, type PostingPolicy, type TransactionDraft } from './transaction.js';

/*
 * Preventive controls on manual entry (POST /v1/transactions and its preview): an operator's
 * entry may not do what a sync never does. Pure: the funds a wallet debit needs are checked by
 * the caller under the customer's funds lock (use-cases/manual-entry.ts), with assertFundsCover.
 * Syncs, imports and recost draft with draftFromEntry alone: they post what the upstream reports.
 */

/** The one source an operator posts under: an upstream's source and keys are its sync's alone. */
export const MANUAL_SOURCE = 'manual' as const satisfies EnterableSource;

/** What manual entry needs beside the posting policy: the peg (AED per USD, `AED_PER_USD`). */
export interface ManualEntryPolicy extends PostingPolicy {
  aedPerUsd: Decimal;
}

/**
 * Drafts an operator's entry under the preventive controls: source `manual` only (else 422
 * `source_reserved`); every AED line's USD within AED_PEG_TOLERANCE_USD of its AED at the peg,
 * and a stated `fx_rate` the peg (else 422 `aed_off_peg`); a credit to 1010 only with
 * `credits_operating_bank` true (else 422 `operating_bank_credit_unconfirmed`). Then, posting
 * checks the funds of its wallet debits (walletDebitsOf).
 */
export function draftManualEntry(entry: EntryRequest, txnId: string, policy: ManualEntryPolicy): TransactionDraft {
  if (entry.source !== MANUAL_SOURCE) {
    throw new LedgerError(
      'source_reserved',
      `source ${entry.source} is its sync's own: a manual entry uses source ${MANUAL_SOURCE} (an upstream's records and keys come only from its sync)`,
      [{ path: '/source', source: entry.source, allowed: MANUAL_SOURCE }],
    );
  }
  const draft = draftFromEntry(entry, txnId, policy);
  assertAtThePeg(entry.fx_rate, draft.lines, policy.aedPerUsd);
  assertOperatingBankCreditConfirmed(draft.lines, entry.credits_operating_bank === true);
  return draft;
}

/**
 * Refuses a stated rate other than the peg, and an AED line whose USD is not its AED at the peg.
 * Without a stated rate the transaction keeps the quotient of its two amounts: its lines say
 * whether that is the peg.
 */
function assertAtThePeg(statedRate: string | null | undefined, lines: JournalLineDraft[], aedPerUsd: Decimal): void {
  const problems: Array<Record<string, string | number>> = [];
  // draftFromEntry has parsed it: a positive decimal.
  if (statedRate !== undefined && statedRate !== null && !new Decimal(statedRate).isEqualTo(aedPerUsd))
    problems.push({ path: '/fx_rate', fx_rate: statedRate, peg: aedPerUsd.toFixed() });
  lines.forEach((line, i) => {
    if (nativeCurrencyOf(line.accountCode) === null || !line.nativeAmount) return;
    const usd = line.debit.plus(line.credit);
    const atPeg = line.nativeAmount.dividedBy(aedPerUsd);
    if (usd.minus(atPeg).abs().isGreaterThan(AED_PEG_TOLERANCE_USD)) {
      problems.push({
        line: i,
        account_code: line.accountCode,
        usd: formatDecimal(usd),
        native_amount: formatDecimal(line.nativeAmount),
        usd_at_peg: formatDecimal(atPeg.decimalPlaces(4, Decimal.ROUND_HALF_UP)),
      });
    }
  });
  const [first] = problems;
  if (first === undefined) return;
  throw new LedgerError(
    'aed_off_peg',
    `an AED amount converts at the peg, ${aedPerUsd.toFixed()} AED per USD, each line's USD within ${formatDecimal(AED_PEG_TOLERANCE_USD)} of its AED at the peg` +
      (first.path === '/fx_rate'
        ? `: fx_rate ${String(first.fx_rate)} is not the peg`
        : `: line ${String(first.line)} (${String(first.account_code)}) is ${String(first.usd)} USD for AED ${String(first.native_amount)}, which is ${String(first.usd_at_peg)} USD at the peg`),
    problems,
  );
}

/** Refuses an entry that credits 1010 (money leaving the firm's operating bank) unless the operator said so. */
function assertOperatingBankCreditConfirmed(lines: JournalLineDraft[], confirmed: boolean): void {
  if (confirmed) return;
  const credited = lines
    .filter((l) => l.accountCode === ACCOUNT.operatingBankUsd)
    .reduce((sum, l) => sum.plus(l.credit), ZERO);
  if (credited.isZero()) return;
  throw new LedgerError(
    'operating_bank_credit_unconfirmed',
    `the entry credits ${formatDecimal(credited)} to 1010 (operating bank, USD): money leaving the firm's bank is posted by hand only with "credits_operating_bank": true`,
    [{ path: '/credits_operating_bank', account_code: ACCOUNT.operatingBankUsd, credit: formatDecimal(credited) }],
  );
}

/** The wallets a currency's money sits in. */
const WALLETS = [
  { accountCode: ACCOUNT.customerWalletUsd, currency: 'USD' },
  { accountCode: ACCOUNT.customerWalletAed, currency: 'AED' },
] as const;

/**
 * What an entry takes out of its customer's wallets (2010 in USD, 2020 in AED from its lines' AED
 * amounts), net of what it puts in, each as a withdrawal the funds rule checks: a buy, a fee, a
 * tax, a withdrawal or an adjustment that debits a wallet needs the wallet to cover it. An AED
 * wallet's lines posted without their AED amount count at the peg. None for an entry that moves no
 * wallet or only credits it.
 */
export function walletDebitsOf(draft: TransactionDraft, aedPerUsd: Decimal): FundsRequest[] {
  const { customerId } = draft;
  if (customerId === null) return [];
  return WALLETS.flatMap(({ accountCode, currency }) => {
    const taken = draft.lines
      .filter((l) => l.accountCode === accountCode)
      .reduce((sum, l) => {
        const amount = currency === 'AED' ? (l.nativeAmount ?? ZERO) : l.debit.plus(l.credit);
        return l.debit.isZero() ? sum.minus(amount) : sum.plus(amount);
      }, ZERO);
    if (!taken.isGreaterThan(0)) return [];
    return [
      {
        direction: 'withdrawal' as const,
        customerId,
        currency,
        amount: taken,
        fxRate: currency === 'AED' ? aedPerUsd : null,
        spentBy: draft.txnType,
      },
    ];
  });
}

/**
 * What posting an entry with wallet debits stores, given its customer's wallets' funds read under
 * the funds lock: each debit covered (else 422 insufficient_funds), and an AED wallet it empties
 * left at 0.00 in USD too (clearAedResidue).
 */
export function settleWalletDebits(
  draft: TransactionDraft,
  debits: FundsRequest[],
  funds: Partial<Record<FundsRequest['currency'], WalletFunds>>,
  aedPerUsd: Decimal,
): TransactionDraft {
  for (const debit of debits) {
    const wallet = funds[debit.currency];
    assert(wallet, `the funds of the ${debit.currency} wallet were read`);
    assertFundsCover(debit, wallet);
  }
  return funds.AED ? clearAedResidue(draft, funds.AED, aedPerUsd) : draft;
}
