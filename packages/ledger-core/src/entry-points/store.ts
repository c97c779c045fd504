/*
 * @ledger/core/store: the ledger on a book's database, everything that takes a Db. The use cases
 * bound to the store (post, preview, reverse, bulk posting, group commit, recost, cash requests:
 * ledger.ts), the records and their queries (transactions and the journal, customers, periods and
 * year closes, exceptions, statements, snapshots, remittances, broker records, advisory locks),
 * the column shapes they answer in, and the database itself (`createDb`, the migrations' head).
 * Reports read from the same tables but are their own entry point (./reports).
 */

// The database.
export { BOOK_DATABASE_OPTIONS, createDb, type Db } from '../store/db.js';
export { isAtHead } from '../store/migrate.js';
export { pagedQuery, type Paged } from '../store/paged.js';
export {
  advisoryLockId,
  LOCK_KEYS,
  withAdvisoryLock,
  withPooledLockSession,
  type PooledLockSession,
} from '../store/advisory-lock.js';

// Use cases on the book: posting, preview, reversal, bulk posting, group commit, recost, cash requests.
export {
  createCashRequest,
  createEntryBatcher,
  postEntry,
  postManualEntry,
  postTransactions,
  previewEntry,
  previewTransactions,
  recost,
  reverseTransaction,
  transitionCashRequest,
} from '../ledger.js';
export type { PostOutcome } from '../use-cases/entry-answers.js';
export type { BulkResult } from '../use-cases/post-in-bulk.js';
export type { RecostOptions, RecostResult } from '../use-cases/recost.js';
export type { CashRequestInput } from '../use-cases/cash-requests.js';
export type { CashRequestFilter } from '../use-cases/ports.js';
export { COPY_FROM } from '../store/posting.js';

// Transactions and the journal.
export { getTransaction } from '../store/transactions.js';
export type { StoredTransaction } from '../store/columns/transactions.js';
export {
  categoryFacets,
  groupJournal,
  groupTransactions,
  JOURNAL_GROUP_BY,
  listJournalLines,
  listPostings,
  listTransactions,
  postedTradesOf,
  SORT_ORDERS,
  TRANSACTION_GROUP_BY,
  TRANSACTION_SORTS,
  type JournalFilter,
  type JournalGroupBy,
  type PostedTrade,
  type TransactionFilter,
  type TransactionGroupBy,
} from '../store/transaction-queries.js';

// Periods, year closes and exceptions.
export { closedThrough, closePeriod, economicDateSql, listPeriodCloses, reopenPeriod } from '../store/periods.js';
export { closeYear, listYearCloses } from '../store/year-closes.js';
export {
  dismissException,
  EXCEPTION_STATES,
  getException,
  listExceptions,
  recordExceptions,
  type ExceptionFilter,
  type RecordOutcome,
} from '../store/exceptions.js';

// Customers and cash requests.
export { findCustomers, listCustomers, upsertCustomer } from '../store/customers.js';
export {
  CUSTOMER_REFERENCES,
  type CustomerInput,
  type CustomerReference,
  type CustomerRow,
} from '../store/columns/customers.js';
export { customersByReference, customersLinkedBy } from '../store/customer-links.js';
export { getCashRequest, listCashRequests } from '../store/cash-requests.js';

// What the syncs record from upstreams: statements, snapshots, remittances, broker records.
export { insertCashStatements, insertUaefeedStatements, ledgerCashMovements } from '../store/statements.js';
export type { CashStatementSnapshot, UaefeedStatementSnapshot } from '../store/columns/statements.js';
export {
  insertHoldingsSnapshots,
  latestHoldingsSnapshot,
  portfolioSnapshot,
  savePortfolioSnapshots,
} from '../store/snapshots.js';
export type { HoldingsSnapshot, SnapshotPosition, SnapshotUpstream } from '../store/columns/snapshots.js';
export {
  findRemittancesOf,
  outstandingSweptPostings,
  remittancePostings,
  upsertRemittances,
} from '../store/remittances.js';
export type { RemittanceRecord, RemittanceRow } from '../store/columns/remittances.js';
// The read model: facts other packages query (not reversed, a paid remittance and its date, the fx_spread key, a customer's lines), each defined once.
export {
  customerLinesSql,
  fxSpreadOrderIdSql,
  fxSpreadPostingSql,
  notReversedSql,
  paidRemittanceSql,
  paidRemittedBetweenSql,
} from '../store/read-model.js';
export {
  addDividendWithholdings,
  customersByBrokerAccount,
  dividendEvents,
  recordBrokerFees,
  upsertDividendEvents,
  type BrokerFee,
} from '../store/india-broker.js';
export type { DividendEvent, DividendWithholding } from '../store/columns/dividend-events.js';
export { recordStockSplits, type StockSplit } from '../store/stock-splits.js';
