import { createHash } from 'node:crypto';
import { owedInOwnCurrency } from './accounts.js';
import { LedgerError } from './errors.js';
import { Decimal, formatDecimal, roundToCents, ZERO } from './money.js';
import type { Currency } from './posting-rules/types.js';
import { draftFromEntry, type PostingPolicy, type TransactionDraft } from './transaction.js';

/*
 * Cash requests: a customer's deposit or withdrawal, asked for first and posted only once it is
 * confirmed. Pure: the states, the one transition table, the funds rule and the posting draft.
 * The store applies a decision under a row lock, in the database transaction that also posts.
 */

export const CASH_REQUEST_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type CashRequestStatus = (typeof CASH_REQUEST_STATUSES)[number];

export const CASH_REQUEST_DIRECTIONS = ['deposit', 'withdrawal'] as const;
export type CashRequestDirection = (typeof CASH_REQUEST_DIRECTIONS)[number];

/** What an operator does to a request: `confirm` (mark complete, posts), `fail`, `cancel`. */
export const CASH_REQUEST_ACTIONS = ['confirm', 'fail', 'cancel'] as const;
export type CashRequestAction = (typeof CASH_REQUEST_ACTIONS)[number];

/** The state each action leads to. */
export const ACTION_TARGET: Readonly<Record<CashRequestAction, CashRequestStatus>> = {
  confirm: 'completed',
  fail: 'failed',
  cancel: 'cancelled',
};

/**
 * The one transition table: from each state, what each action answers.
 * - `to <state>`: the request moves there (confirm also posts, in the same database transaction);
 * - `same`: the request is already where this action leads (a repeat): 200, nothing changes;
 * - `refused`: 409 `invalid_state_transition`, nothing changes.
 * docs/cash-requests.md carries the same table; test/cash-requests.test.ts checks they agree.
 */
export type TransitionOutcome = { kind: 'to'; status: CashRequestStatus } | { kind: 'same' } | { kind: 'refused' };

export const CASH_REQUEST_TRANSITIONS: Readonly<
  Record<CashRequestStatus, Readonly<Record<CashRequestAction, TransitionOutcome>>>
> = {
  pending: {
    confirm: { kind: 'to', status: 'completed' },
    fail: { kind: 'to', status: 'failed' },
    cancel: { kind: 'to', status: 'cancelled' },
  },
  completed: { confirm: { kind: 'same' }, fail: { kind: 'refused' }, cancel: { kind: 'refused' } },
  failed: { confirm: { kind: 'refused' }, fail: { kind: 'same' }, cancel: { kind: 'refused' } },
  cancelled: { confirm: { kind: 'refused' }, fail: { kind: 'refused' }, cancel: { kind: 'same' } },
};

/** What the transition table answers for `action` on a request in `status`; a refusal is thrown. */
export function transitionOf(
  id: string,
  status: CashRequestStatus,
  action: CashRequestAction,
): Exclude<TransitionOutcome, { kind: 'refused' }> {
  const outcome = CASH_REQUEST_TRANSITIONS[status][action];
  if (outcome.kind === 'refused') {
    throw new LedgerError(
      'invalid_state_transition',
      `cash request ${id} is ${status}: it cannot be ${ACTION_TARGET[action]}`,
      [{ cash_request_id: id, status, action }],
    );
  }
  return outcome;
}

/** AED per USD: the peg a cash request in AED converts at. */
export interface CashPolicy extends PostingPolicy {
  aedPerUsd: Decimal;
}

/** The USD equivalent of an amount, rounded half-up to cents, and the rate used (null for USD). */
export function toUsd(
  amount: Decimal,
  currency: Currency,
  aedPerUsd: Decimal,
): { amountUsd: Decimal; fxRate: Decimal | null } {
  if (currency === 'USD') return { amountUsd: amount, fxRate: null };
  return { amountUsd: roundToCents(amount.dividedBy(aedPerUsd)), fxRate: aedPerUsd };
}

/**
 * What the funds rule needs, in the wallet's own currency (2010: USD; 2020: AED): the balance of
 * the lines that carry it, the USD balance of AED lines posted before lines kept their AED amount
 * (20270116; zero for USD), and the customer's other pending withdrawals from the wallet.
 */
export interface WalletFunds {
  balance: Decimal;
  unconvertedUsd: Decimal;
  pendingWithdrawals: Decimal;
  /** The wallet's balance in USD, the book's currency (credits less debits), and how many lines make it: what clearing an AED wallet's rounding residue needs (domain/fx-rounding.ts). */
  balanceUsd: Decimal;
  lineCount: number;
}

/** A withdrawal as the funds rule sees it: its amount in its wallet's currency, and, in AED, the rate it converts at. */
export interface FundsRequest {
  direction: CashRequestDirection;
  customerId: string;
  currency: Currency;
  amount: Decimal;
  fxRate: Decimal | null;
  /** What spends the money, as the refusal names it (default: the withdrawal). */
  spentBy?: string;
}

/** The wallet of a currency, as a person reads it. */
const WALLET_NAME: Readonly<Record<Currency, string>> = { USD: '2010 (USD)', AED: '2020 (AED)' };

/**
 * A withdrawal may take at most the wallet's balance less what the customer's other pending
 * withdrawals from that wallet already ask for, all in the wallet's currency: an AED withdrawal is
 * checked in AED, against the AED the wallet holds (a line without its AED amount at the request's
 * rate), so no rounding of a conversion refuses or allows it. Deposits are always covered.
 */
export function assertFundsCover(request: FundsRequest, funds: WalletFunds): void {
  if (request.direction !== 'withdrawal') return;
  const balance = owedInOwnCurrency({ own: funds.balance, unconvertedUsd: funds.unconvertedUsd }, request.fxRate);
  const available = balance.minus(funds.pendingWithdrawals);
  if (request.amount.isGreaterThan(available)) {
    const currency = request.currency;
    throw new LedgerError(
      'insufficient_funds',
      `customer ${request.customerId} has ${formatDecimal(available.isNegative() ? ZERO : available)} ${currency} available in wallet ${WALLET_NAME[currency]}; the ${request.spentBy ?? 'withdrawal'} needs ${formatDecimal(request.amount)} ${currency}`,
      [
        {
          customer_id: request.customerId,
          currency,
          balance: formatDecimal(balance),
          pending_withdrawals: formatDecimal(funds.pendingWithdrawals),
          requested: formatDecimal(request.amount),
        },
      ],
    );
  }
}

/** A cash request as the posting needs it. */
export interface PostableCashRequest {
  cashRequestId: string;
  customerId: string;
  direction: CashRequestDirection;
  amount: Decimal;
  currency: Currency;
  amountUsd: Decimal;
  fxRate: Decimal | null;
  reference: string | null;
  memo: string | null;
}

/**
 * What a request asks for, as one fingerprint: the customer, direction, amount by value ("25" and
 * "25.00" are one amount), currency, reference and memo. A retry under the same Idempotency-Key
 * has the same fingerprint; another request under a used key does not.
 */
export function cashRequestFingerprint(
  request: Omit<PostableCashRequest, 'cashRequestId' | 'amountUsd' | 'fxRate'>,
): string {
  const fields = [
    request.customerId,
    request.direction,
    request.amount.toFixed(),
    request.currency,
    request.reference,
    request.memo,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The posting key of a request's confirmation: at most one transaction per request, ever. */
export const cashRequestSourceTxnId = (cashRequestId: string) => `cash-request:${cashRequestId}`;

/**
 * The transaction a confirmed request posts: the `deposit` or `withdrawal` rule (AED to 1020 /
 * 2020 at its USD equivalent), with the original amount and the configured rate kept. Source
 * `ledger` (the ledger's own entries): manual entry cannot name it, so no operator entry can
 * take the key `cash-request:<id>` first.
 */
export function draftCashRequestPosting(
  request: PostableCashRequest,
  txnId: string,
  txnDate: string,
  policy: PostingPolicy,
): TransactionDraft {
  const aed = request.currency === 'AED';
  const draft = draftFromEntry(
    {
      txn_type: request.direction,
      customer_id: request.customerId,
      source: 'manual',
      source_txn_id: cashRequestSourceTxnId(request.cashRequestId),
      txn_date: txnDate,
      amount_usd: formatDecimal(request.amountUsd),
      memo: request.memo,
      ...(aed && {
        original_currency: 'AED' as const,
        original_amount: formatDecimal(request.amount),
        // The configured peg the request was converted at, not amount / rounded amount.
        fx_rate: request.fxRate?.toFixed() ?? null,
      }),
      metadata: {
        cash_request_id: request.cashRequestId,
        ...(request.reference !== null && { reference: request.reference }),
      },
    },
    txnId,
    policy,
  );
  return { ...draft, source: 'ledger' };
}
