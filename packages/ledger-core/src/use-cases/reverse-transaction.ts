import { assert, LedgerError } from '../domain/errors.js';
import { Decimal } from '../domain/money.js';
import { isClosed, ORIGINAL_TXN_DATE } from '../domain/periods.js';
import {
  assertReversibleByHand,
  draftReversal,
  reversalRependsRecost,
  type ReversibleTransaction,
} from '../domain/transaction.js';
import type { PostOutcome } from './entry-answers.js';
import type { LedgerStore, StoredTransaction } from './ports.js';
import { writeJournal } from './write-journal.js';

/** What reversing needs of a stored transaction, parsed back to decimals. */
function reversibleOf(t: StoredTransaction): ReversibleTransaction {
  return {
    txnId: t.txn_id,
    txnDate: t.txn_date,
    txnType: t.txn_type,
    customerId: t.customer_id,
    symbol: t.symbol,
    quantity: t.quantity === null ? null : new Decimal(t.quantity),
    amountUsd: new Decimal(t.amount_usd),
    fxRate: t.fx_rate === null ? null : new Decimal(t.fx_rate),
    lines: t.journal_lines.map((l) => ({
      accountCode: l.account_code,
      debit: new Decimal(l.debit),
      credit: new Decimal(l.credit),
      postingKind: l.posting_kind,
      nativeAmount: l.native_amount === null ? null : new Decimal(l.native_amount),
    })),
  };
}

/**
 * Reverses a transaction: posts the mirror entry once. Concurrent and repeated calls all get
 * the one reversal: it is keyed by its original (source `ledger`, `reversal:<txn_id>`), and the
 * database's unique keys decide the race. A reversed trade is pending recost again, in the
 * reversal's own database transaction: the next recost drops its lot and derivation. A
 * reversal of a transaction in a closed period is a correction of the open one: it names the
 * original's date in `metadata.original_txn_date` (its own date must be open: the database
 * refuses it otherwise, period_closed).
 */
export async function reverseTransaction(
  store: LedgerStore,
  txnId: string,
  reversal: { txnId: string; txnDate: string; memo: string | null },
): Promise<PostOutcome> {
  const original = await store.findTransaction(txnId);
  if (!original) throw new LedgerError('not_found', `transaction ${txnId} does not exist`);
  // Before answering an existing reversal: a recost entry recost superseded is still not the caller's to reverse.
  const { txn_type: txnType, metadata } = original.transaction;
  assertReversibleByHand({ txnId, txnType, metadata });
  const existing = await store.findReversalOf(txnId);
  if (existing) return { created: false, transaction: existing.transaction };
  const mirror = draftReversal(reversibleOf(original.transaction), reversal.txnId, reversal.txnDate, reversal.memo);
  const originalDate = original.transaction.txn_date;
  const draft = isClosed(originalDate, await store.closedThrough())
    ? { ...mirror, metadata: { ...mirror.metadata, [ORIGINAL_TXN_DATE]: originalDate } }
    : mirror;
  const { outcomes } = await writeJournal(store, [draft], {
    reversal: { rependRecost: reversalRependsRecost(original.transaction.txn_type) },
  });
  const [outcome] = outcomes;
  assert(outcome, 'writeJournal answered no reversal');
  if (outcome.outcome === 'rejected') throw outcome.reason;
  // A reversal is keyed by its original: a concurrent one that got in first (duplicate, or
  // conflict when its memo or date differ) is the one reversal, and the answer.
  const created = outcome.outcome === 'inserted';
  const stored = await store.findReversalOf(txnId);
  assert(stored, `reversal of ${txnId} neither inserted nor found`);
  return { created, transaction: stored.transaction };
}
