import type { CashRequestDirection, CashRequestStatus, WalletFunds } from '../domain/cash-requests.js';
import type { Page } from '../domain/limits.js';
import type { Currency } from '../domain/posting-rules/types.js';
import type { TransactionDraft } from '../domain/transaction.js';
import type { CashRequestRow, NewCashRequest } from '../store/columns/cash-requests.js';
import type { StoredFacts, TransactionRecord } from '../store/columns/transactions.js';

export type { StoredFacts, StoredTransaction, TransactionRecord } from '../store/columns/transactions.js';

/** The funds of a customer's wallets, by the wallet's currency: those asked for. */
export type FundsOf = Partial<Record<Currency, WalletFunds>>;

/** A business key: the source and its id of the record. */
export interface SourceKey {
  source: string;
  sourceTxnId: string;
}

/**
 * A write of journal lines (ADR 0015): `drafts`, each inserted unless its (source, source_txn_id)
 * is taken. `answer`: `ids` answers the ids inserted (bulk posting, and writes inside a caller's
 * database transaction: cash requests, year closes); `records` answers each inserted transaction
 * as stored, from the statement itself (manual entry); `preview` is `records` rolled back once
 * the commit-time checks ran. `reversal`: the one draft reverses its original; a concurrent
 * reversal that got in first answers nothing inserted, and with `rependRecost` the original is
 * pending recost again in the same database transaction.
 */
export interface JournalWrite {
  drafts: TransactionDraft[];
  answer?: 'ids' | 'records' | 'preview';
  reversal?: { rependRecost: boolean };
}

/** What a journal write answers: the ids inserted, and (answer `records` or `preview`) each as stored. */
export interface JournalWritten {
  inserted: Set<string>;
  records: TransactionRecord[];
}

/**
 * What the use cases need of the ledger's storage, and all they know of it (the store interface
 * a Formance-style controller declares; `store/ledger-store.ts` implements it with SQL).
 *
 * Every write is one statement and one database transaction of its own, checked by the
 * database (ADR 0001). A draft whose (source, source_txn_id) is already taken is skipped, lines
 * and all, never refused: that is what makes posting idempotent. The store asserts each draft
 * balanced before any SQL. A write rejects with a LedgerError when the database refuses the
 * drafts' data (an unknown customer, a broken constraint), and with anything else when it fails
 * as a service (connection lost): only the first is about the records.
 */
export interface LedgerStore {
  /** The one way into the journal (store/posting.ts, writeJournal): every write of journal lines. */
  write(write: JournalWrite): Promise<JournalWritten>;
  /**
   * The transactions holding these keys, read in a new statement, so that it sees keys
   * committed while an earlier statement ran. Keys nobody holds are left out.
   */
  findBySourceKeys(keys: SourceKey[]): Promise<TransactionRecord[]>;
  /** As findBySourceKeys, only what a re-sent record is compared on (bulk posting). */
  findFactsBySourceKeys(keys: SourceKey[]): Promise<StoredFacts[]>;
  findTransaction(txnId: string): Promise<TransactionRecord | null>;
  /** The day the books are closed through (docs/period-close.md), or null. */
  closedThrough(): Promise<string | null>;
  findReversalOf(txnId: string): Promise<TransactionRecord | null>;
}

/** Filters of the cash-request list (`from`, `to`: the created date, UTC, inclusive). */
export interface CashRequestFilter {
  customer_id?: string;
  status?: CashRequestStatus;
  direction?: CashRequestDirection;
  from?: string;
  to?: string;
}

/** What a transition does to a locked request: nothing (a repeat), or a new status, posting `draft` with it. */
export type CashRequestChange =
  | { kind: 'none' }
  | { kind: 'set'; status: CashRequestStatus; failureReason?: string | null; draft?: TransactionDraft };

/**
 * What the cash-request use cases need of storage. `change` locks the request's row for the
 * length of one database transaction, lets `decide` look at it (and, through `funds`, at the
 * customer's wallet, read under a per-customer lock), then posts the change's draft and updates
 * the row in that same transaction: a request posts once, and a confirm and a cancel racing
 * leave exactly one outcome. A LedgerError from `decide` rolls everything back.
 */
export interface CashRequestStore {
  /**
   * Inserts a pending request once `check` accepted the customer's funds (unknown customer:
   * unknown_customer), or, when its Idempotency-Key was used before, answers the request made
   * with it (`created` false), whatever it asked for.
   */
  create(
    request: NewCashRequest,
    check: (funds: WalletFunds) => void,
  ): Promise<{ request: CashRequestRow; created: boolean }>;
  find(cashRequestId: string): Promise<CashRequestRow | null>;
  list(filter: CashRequestFilter, page: Page): Promise<{ items: CashRequestRow[]; total: number } & Page>;
  /** Unknown id: not_found. */
  change(
    cashRequestId: string,
    decide: (current: CashRequestRow, funds: () => Promise<WalletFunds>) => Promise<CashRequestChange>,
  ): Promise<{ request: CashRequestRow; changed: boolean }>;
  /**
   * Posts an entry debiting a customer's wallets once `settle` accepted the funds of each of its
   * `currencies` wallets, read under the same per-customer lock as a cash request's (pending
   * withdrawals included), in one database transaction: `settle` answers the draft to post (the
   * entry, or the entry with its AED rounding residue cleared). False, with nothing checked or
   * posted, when its (source, source_txn_id) is already taken.
   */
  postCovered(
    draft: TransactionDraft,
    currencies: Currency[],
    settle: (funds: FundsOf) => TransactionDraft,
  ): Promise<boolean>;
  /** The funds of a customer's wallets as postCovered reads them, read without its lock (preview). */
  funds(customerId: string, currencies: Currency[]): Promise<FundsOf>;
}
