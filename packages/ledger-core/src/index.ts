/*
 * The public surface of @ledger/core: what the apps, the bench and jobs may use. Named, not
 * `export *`: a module's helpers (SQL fragments, documents, the store's internals) stay inside.
 */

// Domain: money, accounts, posting rules, drafts, limits, errors (pure: no I/O).
export { ACCOUNT, ACCOUNT_TYPES, normalSide, type AccountCode, type AccountType } from './domain/accounts.js';
export { assert, LedgerError, type LedgerErrorCode } from './domain/errors.js';
export {
  ACTION_TARGET,
  CASH_REQUEST_ACTIONS,
  CASH_REQUEST_DIRECTIONS,
  CASH_REQUEST_STATUSES,
  CASH_REQUEST_TRANSITIONS,
  cashRequestSourceTxnId,
  toUsd,
  type CashPolicy,
  type CashRequestAction,
  type CashRequestDirection,
  type CashRequestStatus,
  type TransitionOutcome,
} from './domain/cash-requests.js';
export {
  assertPage,
  ENTRIES_WAITING_MAX,
  ENTRY_LINES_MAX,
  MEMO_LENGTH_MAX,
  METADATA_PROPERTIES_MAX,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_OFFSET_MAX,
  type Page,
} from './domain/limits.js';
export {
  Decimal,
  DECIMAL_PATTERN_SOURCE,
  DECIMAL_RULE,
  formatDecimal,
  MONEY_INTEGER_DIGITS_MAX,
  MONEY_PATTERN_SOURCE,
  MONEY_PLACES,
  MONEY_RULE,
  parseDecimal,
  parseMoney,
  QUANTITY_PLACES,
  roundToCents,
  ZERO,
} from './domain/money.js';
export {
  CURRENCIES,
  ENTERABLE_TXN_TYPES,
  isBalanced,
  linesFromLegs,
  POSTING_RULES,
  reversingLines,
  totals,
  TXN_TYPES,
  type Currency,
  type JournalLineDraft,
  type Leg,
  type PostingInput,
  type PostingRule,
  type TxnType,
} from './domain/posting-rules/index.js';
export { ENTERABLE_SOURCES, LEDGER_OWN_SOURCES, SOURCES, type Source } from './domain/sources.js';
export { FifoLots, type LotRelief } from './domain/lots.js';
export { derivePair, type RecostFlagReason, type RecostPolicy, type TradeDerivation, type TradeFacts } from './domain/recost.js';
export {
  draftFromEntry,
  draftReversal,
  entryFingerprint,
  type EntryRequest,
  type PostingPolicy,
  type ReversibleTransaction,
  type TransactionDraft,
} from './domain/transaction.js';

// Use cases on a book's database: posting, preview, reversal, bulk posting, group commit.
export { createEntryBatcher, postEntries, postEntry, postTransactions, previewEntry, recost, reverseTransaction } from './ledger.js';
export type { RecostOptions, RecostResult } from './use-cases/recost.js';
export type { EntryBatcher, EntryBatcherOptions } from './use-cases/entry-batcher.js';
export type { PostOutcome } from './use-cases/entry-answers.js';
export type { BulkOptions, BulkOutcome, BulkResult } from './use-cases/post-in-bulk.js';
export type { LedgerStore, SourceKey } from './use-cases/ports.js';
export { createCashRequest, transitionCashRequest } from './ledger.js';
export type { CashRequestInput, TransitionContext } from './use-cases/cash-requests.js';
export type { CashRequestChange, CashRequestFilter, CashRequestStore } from './use-cases/ports.js';

// Reads: stored transactions, lists, reports, customers.
export { CUSTOMER_REFERENCES, type CustomerInput, type CustomerReference, type CustomerRow } from './store/columns/customers.js';
export type { JournalLineRow, StoredJournalLine } from './store/columns/journal-lines.js';
export type { StoredTransaction, TransactionRecord, TransactionSummary } from './store/columns/transactions.js';
export { accountTotals, trialBalance, type AccountTotal } from './store/accounts.js';
export { listCustomers, upsertCustomer } from './store/customers.js';
export { insertHoldingsSnapshots, latestHoldingsSnapshot, portfolioSnapshot, savePortfolioSnapshots } from './store/snapshots.js';
export type { HoldingsSnapshot, HoldingsSnapshotRow, PortfolioSnapshot, PortfolioSnapshotRow, SnapshotPosition, SnapshotUpstream } from './store/columns/snapshots.js';
export type { CashRequestRow, NewCashRequest } from './store/columns/cash-requests.js';
export { getCashRequest, listCashRequests } from './store/cash-requests.js';
export type { Paged } from './store/paged.js';
export {
  categoryFacets,
  groupJournal,
  groupTransactions,
  JOURNAL_GROUP_BY,
  listJournalLines,
  listPostings,
  listTransactions,
  SORT_ORDERS,
  TRANSACTION_GROUP_BY,
  TRANSACTION_SORTS,
  type CategoryFacet,
  type JournalFilter,
  type JournalGroup,
  type JournalGroupBy,
  type PostingFilter,
  type PostingRow,
  type SortOrder,
  type TransactionFilter,
  type TransactionGroup,
  type TransactionGroupBy,
  type TransactionSort,
} from './store/transaction-queries.js';
export { getTransaction } from './store/transactions.js';
// Firm reports, from the daily totals (ADR 0010).
export type { AsOf } from './store/accounts.js';
export { firmEarnings, firmSummary, type FirmEarnings, type FirmSummary, type RecentTxn, type TypeTotal } from './store/firm-reports.js';
export {
  EARNINGS_SOURCES,
  FLOW_DAYS_MAX,
  RECENT_TXNS_MAX,
  type Earnings,
  type EarningsSource,
  type Flow,
  type ReportWindow,
} from './domain/firm-reports.js';

// The database: connection, schema, the runtime role's check.
export { createDb, type Db, type DbOptions } from './store/db.js';
export { isAtHead, migrateToHead } from './store/migrate.js';
export { runtimeRoleProblems } from './store/runtime-role.js';

// Runtime: configuration, logging, a process's start and shutdown.
export {
  BOOKS,
  commonConfigOf,
  commonConfigSchema,
  ConfigError,
  parseConfig,
  queueConfigOf,
  redisConfigSchema,
  type Book,
  type CommonConfig,
  type CommonEnv,
  type LogLevel,
} from './runtime/config.js';
export { openLedgerDatabase, type LedgerDatabaseSettings } from './runtime/database.js';
export { createLogger, type Logger } from './runtime/logger.js';
export { exitOnStartupError, onShutdown, Resources, startProcess, type ProcessContext, type ProcessDefinition } from './runtime/process.js';
