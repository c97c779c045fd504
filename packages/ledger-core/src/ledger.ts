import type { CashPolicy, CashRequestAction } from './domain/cash-requests.js';
import type { LedgerError } from './domain/errors.js';
import type { Decimal } from './domain/money.js';
import { cashRequestStore } from './store/cash-requests.js';
import type { CashRequestRow } from './store/columns/cash-requests.js';
import type { TransactionDraft } from './domain/transaction.js';
import type { Db } from './store/db.js';
import { ledgerStore } from './store/ledger-store.js';
import { recostStore } from './store/recost-store.js';
import * as cashRequests from './use-cases/cash-requests.js';
import * as entryBatcher from './use-cases/entry-batcher.js';
import type { PostOutcome } from './use-cases/entry-answers.js';
import * as bulk from './use-cases/post-in-bulk.js';
import * as entries from './use-cases/post-entries.js';
import * as manual from './use-cases/manual-entry.js';
import * as preview from './use-cases/preview-entry.js';
import * as recosting from './use-cases/recost.js';
import * as reversal from './use-cases/reverse-transaction.js';

/*
 * The use cases on a book's database: each builds the SQL store over `db` (store/ledger-store.ts)
 * and runs the use case (use-cases/), which knows the store only through its port. These are
 * what the apps call, with the signatures they always had.
 */

/** Posts entries in one statement, each answered on its own (use-cases/post-entries.ts). */
export const postEntries = (db: Db, drafts: TransactionDraft[]): Promise<Array<PostOutcome | LedgerError>> =>
  entries.postEntries(ledgerStore(db), drafts);

/** Posts one entry: created, already posted with the same request, or idempotency_conflict (thrown). */
export const postEntry = (db: Db, draft: TransactionDraft): Promise<PostOutcome> =>
  entries.postEntry(ledgerStore(db), draft);

/** Posts a manual entry, a wallet debit once the wallet covers it (use-cases/manual-entry.ts). */
export const postManualEntry = (
  db: Db,
  entries: manual.EntryPoster,
  draft: TransactionDraft,
  aedPerUsd: Decimal,
): Promise<PostOutcome> => manual.postManualEntry(ledgerStore(db), cashRequestStore(db), entries, draft, aedPerUsd);

/** What posting the manual entry would answer, nothing stored (use-cases/preview-entry.ts). */
export const previewEntry = (db: Db, draft: TransactionDraft, aedPerUsd: Decimal): Promise<PostOutcome> =>
  preview.previewEntry(ledgerStore(db), cashRequestStore(db), draft, aedPerUsd);

/** Posts the mirror of a transaction, once (use-cases/reverse-transaction.ts). */
export const reverseTransaction = (
  db: Db,
  txnId: string,
  reversalOf: { txnId: string; txnDate: string; memo: string | null },
): Promise<PostOutcome> => reversal.reverseTransaction(ledgerStore(db), txnId, reversalOf);

/** Posts many transactions in chunks, answering each record (use-cases/post-in-bulk.ts). */
export const postTransactions = (
  db: Db,
  drafts: TransactionDraft[],
  options?: bulk.BulkOptions,
): Promise<bulk.BulkResult> => bulk.postTransactions(ledgerStore(db), drafts, options);

/** What posting many transactions would answer, nothing written (use-cases/post-in-bulk.ts). */
export const previewTransactions = (
  db: Db,
  drafts: TransactionDraft[],
  options?: bulk.BulkOptions,
): Promise<bulk.BulkResult> => bulk.previewTransactions(ledgerStore(db), drafts, options);

/** Group commit of manual entries for one process (use-cases/entry-batcher.ts). */
export const createEntryBatcher = (db: Db, options?: entryBatcher.EntryBatcherOptions): entryBatcher.EntryBatcher =>
  entryBatcher.createEntryBatcher(ledgerStore(db), options);

/** Makes a pending cash request (use-cases/cash-requests.ts). */
export const createCashRequest = (
  db: Db,
  input: cashRequests.CashRequestInput,
  cashRequestId: string,
  policy: CashPolicy,
  idempotencyKey: string | null = null,
): Promise<{ request: CashRequestRow; created: boolean }> =>
  cashRequests.createCashRequest(cashRequestStore(db), input, cashRequestId, policy, idempotencyKey);

/** Confirms (posts), fails or cancels a cash request, by the transition table, under its row lock. */
export const transitionCashRequest = (
  db: Db,
  cashRequestId: string,
  action: CashRequestAction,
  context: cashRequests.TransitionContext,
  policy: CashPolicy,
): Promise<CashRequestRow> =>
  cashRequests.transitionCashRequest(cashRequestStore(db), cashRequestId, action, context, policy);

/** Recost of the book's pending trades, one run at a time per book (use-cases/recost.ts). */
export const recost = (db: Db, options: recosting.RecostOptions): Promise<recosting.RecostResult> =>
  recosting.recost(recostStore(db), options);
