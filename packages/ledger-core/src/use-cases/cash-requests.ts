import {
  ACTION_TARGET,
  assertFundsCover,
  cashRequestFingerprint,
  draftCashRequestPosting,
  toUsd,
  transitionOf,
  type CashPolicy,
  type CashRequestAction,
  type CashRequestDirection,
} from '../domain/cash-requests.js';
import { LedgerError } from '../domain/errors.js';
import { clearAedResidue } from '../domain/fx-rounding.js';
import { IDEMPOTENCY_KEY_LENGTH_MAX, MEMO_LENGTH_MAX } from '../domain/limits.js';
import { Decimal, parseMoney } from '../domain/money.js';
import type { Currency } from '../domain/posting-rules/types.js';
import type { CashRequestRow } from '../store/columns/cash-requests.js';
import type { CashRequestStore } from './ports.js';

/** A cash request as it arrives on the wire (schema-checked). */
export interface CashRequestInput {
  customer_id: string;
  direction: CashRequestDirection;
  amount: string;
  currency: Currency;
  reference?: string | null;
  memo?: string | null;
}

const invalid = (path: string, message: string) =>
  new LedgerError('validation_error', `${path.slice(1)} ${message}`, [{ path, message }]);

/**
 * Makes a pending request: the amount converted to USD (AED at the policy's peg, half-up to
 * cents), the customer known, and a withdrawal covered by the wallet less the customer's other
 * pending withdrawals (422 insufficient_funds otherwise). Nothing is posted yet. With an
 * Idempotency-Key: a retry of the same request answers the one made (`created` false); the key
 * reused for another request is 409 idempotency_conflict.
 */
export async function createCashRequest(
  store: CashRequestStore,
  input: CashRequestInput,
  cashRequestId: string,
  policy: CashPolicy,
  idempotencyKey: string | null = null,
): Promise<{ request: CashRequestRow; created: boolean }> {
  const amount = parseMoney(input.amount, 'amount');
  if (amount.isZero()) throw invalid('/amount', 'must be greater than zero');
  const { amountUsd, fxRate } = toUsd(amount, input.currency, policy.aedPerUsd);
  if (amountUsd.isZero())
    throw invalid('/amount', `is less than one US cent at ${policy.aedPerUsd.toString()} AED per USD`);
  if (input.memo && Array.from(input.memo).length > MEMO_LENGTH_MAX)
    throw invalid('/memo', `must be at most ${MEMO_LENGTH_MAX} characters`);
  if (
    idempotencyKey !== null &&
    (idempotencyKey.length === 0 || Array.from(idempotencyKey).length > IDEMPOTENCY_KEY_LENGTH_MAX)
  ) {
    throw new LedgerError('validation_error', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_LENGTH_MAX} characters`, [
      { path: '/headers/idempotency-key' },
    ]);
  }
  const asked = {
    customerId: input.customer_id,
    direction: input.direction,
    amount,
    currency: input.currency,
    reference: input.reference ?? null,
    memo: input.memo ?? null,
  };
  const requestHash = cashRequestFingerprint(asked);
  const request = {
    ...asked,
    cashRequestId,
    amountUsd,
    fxRate,
    idempotencyKey: idempotencyKey === null ? null : { key: idempotencyKey, requestHash },
  };
  const made = await store.create(request, (funds) => assertFundsCover(request, funds));
  if (!made.created && made.request.request_hash !== requestHash) {
    throw new LedgerError(
      'idempotency_conflict',
      `Idempotency-Key ${idempotencyKey} was used for another cash request`,
      [{ cash_request_id: made.request.cash_request_id }],
    );
  }
  return made;
}

/** What a transition needs beside the request: a new transaction id and its date, for a confirm. */
export interface TransitionContext {
  txnId: string;
  txnDate: string;
  reason?: string | null;
}

/**
 * Applies `action` to a request under its lock, by the transition table: a confirm of a pending
 * request re-checks the funds of a withdrawal and posts the deposit or withdrawal with the state
 * change; a repeat answers the request unchanged; anything else from a final state is
 * invalid_state_transition.
 */
export async function transitionCashRequest(
  store: CashRequestStore,
  cashRequestId: string,
  action: CashRequestAction,
  context: TransitionContext,
  policy: CashPolicy,
): Promise<CashRequestRow> {
  const { request } = await store.change(cashRequestId, async (current, funds) => {
    const outcome = transitionOf(current.cash_request_id, current.status, action);
    if (outcome.kind === 'same') return { kind: 'none' };
    if (action === 'fail') return { kind: 'set', status: ACTION_TARGET.fail, failureReason: context.reason ?? null };
    if (action === 'cancel') return { kind: 'set', status: ACTION_TARGET.cancel };
    const postable = {
      cashRequestId: current.cash_request_id,
      customerId: current.customer_id,
      direction: current.direction,
      amount: new Decimal(current.amount),
      currency: current.currency,
      amountUsd: new Decimal(current.amount_usd),
      fxRate: current.fx_rate === null ? null : new Decimal(current.fx_rate),
      reference: current.reference,
      memo: current.memo,
    };
    const draft = draftCashRequestPosting(postable, context.txnId, context.txnDate, policy);
    if (postable.direction === 'deposit') return { kind: 'set', status: outcome.status, draft };
    const wallet = await funds();
    assertFundsCover(postable, wallet);
    // A withdrawal emptying an AED wallet leaves it at 0.00 in USD too, as a manual one does.
    const settled = postable.currency === 'AED' ? clearAedResidue(draft, wallet, policy.aedPerUsd) : draft;
    return { kind: 'set', status: outcome.status, draft: settled };
  });
  return request;
}
