/*
 * The public surface of @ledger/core: what the apps, the bench and jobs may use. Named, not
 * `export *`: a module's helpers (SQL fragments, documents, the store's internals) stay inside.
 */

// Domain: money, accounts, posting rules, drafts, limits, errors (pure: no I/O).
export { ACCOUNT, ACCOUNT_TYPES, normalSide, type AccountCode, type AccountType } from './domain/accounts.js';
export {
  CUSTOMER_ID_LENGTH_MAX,
  CUSTOMER_ID_PATTERN_SOURCE,
  CUSTOMER_ID_RULE,
  isCustomerId,
} from './domain/customer-ids.js';
export { isSymbol, SYMBOL_LENGTH_MAX, SYMBOL_PATTERN_SOURCE, SYMBOL_RULE } from './domain/symbols.js';
export { FILLED_QUANTITY_RULE, isFillWithinOrder } from './domain/quantities.js';
export { cashAccountOf, cashAccountProblem } from './domain/cash-accounts.js';
export {
  ACTOR_NAME_PATTERN_SOURCE,
  ACTOR_NAME_RULE,
  apiActor,
  jobActor,
  SYSTEM_ACTOR,
  webhookActor,
  WEBHOOK_EVENT_PATTERN_SOURCE,
} from './domain/actors.js';
export { currentActor, withActor } from './runtime/actor.js';
export {
  asOriginallyDated,
  isClosed,
  nextDay,
  openDayFor,
  ORIGINAL_TXN_DATE,
  restateIntoOpenPeriod,
} from './domain/periods.js';
export {
  dismissException,
  EXCEPTION_STATES,
  getException,
  listExceptions,
  recordExceptions,
  type ExceptionFilter,
  type ExceptionRow,
  type ExceptionState,
  type RecordOutcome,
} from './store/exceptions.js';
export {
  closedThrough,
  closePeriod,
  currentClose,
  economicDateSql,
  listPeriodCloses,
  reopenPeriod,
  type PeriodClose,
} from './store/periods.js';
export { closeYear, listYearCloses, type YearClose } from './store/year-closes.js';
export { fiscalYearEndingOn, YEAR_CLOSE_POSTING_KIND, type FiscalYear } from './domain/year-close.js';
export {
  CALENDAR_DATE_PATTERN_SOURCE,
  CALENDAR_DATE_RULE,
  FIRST_CALENDAR_YEAR,
  isCalendarDate,
  LAST_CALENDAR_YEAR,
  todayUtc,
} from './domain/dates.js';
export { assert, LedgerError, type LedgerErrorCode } from './domain/errors.js';
export { compareCashStatement, previousMonth, type CashStatementFigures } from './domain/cash-statements.js';
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
  IDEMPOTENCY_KEY_LENGTH_MAX,
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
export { ENTERABLE_SOURCES, LEDGER_OWN_SOURCES, SOURCES, type EnterableSource, type Source } from './domain/sources.js';
export { BROKER_COST_BPS_DEFAULT, CUSTOMER_FEE_BPS_DEFAULT, FeeSchedule, type TradeFeePins } from './domain/fees.js';
export { FifoLots, type LotRelief } from './domain/lots.js';
export {
  accrualsDue,
  draftFxSpread,
  draftFxSpreadSettle,
  fxSpreadSettleSourceTxnId,
  fxSpreadSourceTxnId,
  fxSpreadUsd,
  isPan,
  istDate,
  PAN_PATTERN,
  REMIT_SOURCE,
  REMITTANCE_STATUS_RANK,
  REMITTANCE_STATUSES,
  remittanceFacts,
  snapshotWins,
  settlementsDue,
  SWEPT_STATUSES,
  type AccrualsDue,
  type RemittanceFacts,
  type RemittanceFields,
  type RemittancePostingSeen,
  type RemittanceStatus,
  type SettlementFees,
} from './domain/remittances.js';
export {
  derivationDraft,
  derivePair,
  SETTLED_AT_EXECUTION,
  type RecostFlagReason,
  type RecostPolicy,
  type TradeDerivation,
  type TradeFacts,
} from './domain/recost.js';
export { classifyRemitEvent, type RemitEvent, type RemitEventClassification } from './domain/remit-events.js';
export {
  draftFromEntry,
  draftReversal,
  entryFingerprint,
  type EntryRequest,
  type PostingPolicy,
  type ReversibleTransaction,
  type TransactionDraft,
} from './domain/transaction.js';
export {
  draftManualEntry,
  MANUAL_SOURCE,
  settleWalletDebits,
  walletDebitsOf,
  type ManualEntryPolicy,
} from './domain/manual-entry.js';
export { AED_PEG_TOLERANCE_USD, clearAedResidue, FX_ROUNDING_POSTING_KIND } from './domain/fx-rounding.js';

// Use cases on a book's database: posting, preview, reversal, bulk posting, group commit.
export {
  createEntryBatcher,
  postEntries,
  postEntry,
  postManualEntry,
  postTransactions,
  previewEntry,
  previewTransactions,
  recost,
  reverseTransaction,
} from './ledger.js';
export type { RecostOptions, RecostResult } from './use-cases/recost.js';
export type { EntryBatcher, EntryBatcherOptions } from './use-cases/entry-batcher.js';
export type { PostOutcome } from './use-cases/entry-answers.js';
export type { BulkOptions, BulkOutcome, BulkResult } from './use-cases/post-in-bulk.js';
export {
  JOURNAL_OUTCOMES,
  REJECTION_CODES,
  type JournalOutcome,
  type JournalOutcomeName,
  type Rejection,
  type RejectionCode,
} from './domain/journal-outcome.js';
export { COPY_FROM } from './store/posting.js';
export type { LedgerStore, SourceKey } from './use-cases/ports.js';
export { createCashRequest, transitionCashRequest } from './ledger.js';
export type { CashRequestInput, TransitionContext } from './use-cases/cash-requests.js';
export type { CashRequestChange, CashRequestFilter, CashRequestStore, FundsOf } from './use-cases/ports.js';
export type { EntryPoster } from './use-cases/manual-entry.js';

// Reads: stored transactions, lists, reports, customers.
export {
  CUSTOMER_REFERENCES,
  type CustomerInput,
  type CustomerReference,
  type CustomerRow,
} from './store/columns/customers.js';
export type { JournalLineRow, StoredJournalLine } from './store/columns/journal-lines.js';
export type { StoredTransaction, TransactionRecord, TransactionSummary } from './store/columns/transactions.js';
export { findCustomers, listCustomers, upsertCustomer, type CustomerWithActivity } from './store/customers.js';
export { customersByReference, customersLinkedBy } from './store/customer-links.js';
export {
  advisoryLockId,
  LOCK_KEYS,
  withAdvisoryLock,
  withLockSession,
  withPooledLockSession,
  type LockAttempt,
  type LockSession,
  type PooledLockSession,
} from './store/advisory-lock.js';
export { accountTotals, trialBalance, type AccountTotal, type AsOf } from './store/accounts.js';
export {
  firmEarnings,
  firmSummary,
  recentTransactions,
  type FirmEarnings,
  type FirmSummary,
  type RecentTxn,
  type TypeTotal,
} from './store/firm-reports.js';
export {
  EARNINGS_SOURCES,
  FLOW_DAYS_MAX,
  RECENT_TXNS_MAX,
  type Earnings,
  type EarningsSource,
  type Flow,
  type ReportWindow,
} from './domain/firm-reports.js';
export {
  insertCashStatements,
  insertUaefeedStatements,
  ledgerCashMovements,
  type LedgerCashMovement,
} from './store/statements.js';
export type {
  CashStatementRow,
  CashStatementSnapshot,
  UaefeedStatementKind,
  UaefeedStatementRow,
  UaefeedStatementSnapshot,
} from './store/columns/statements.js';
export {
  insertHoldingsSnapshots,
  latestHoldingsSnapshot,
  portfolioSnapshot,
  savePortfolioSnapshots,
} from './store/snapshots.js';
export type {
  HoldingsSnapshot,
  HoldingsSnapshotRow,
  PortfolioSnapshot,
  PortfolioSnapshotRow,
  SnapshotPosition,
  SnapshotUpstream,
} from './store/columns/snapshots.js';
export {
  addDividendWithholdings,
  brokerCustomers,
  customersByBrokerAccount,
  dividendEvents,
  recordBrokerFees,
  upsertDividendEvents,
  type BrokerCustomer,
  type BrokerFee,
} from './store/india-broker.js';
export { recordStockSplits, type StockSplit, type StockSplitConflict } from './store/stock-splits.js';
export type { DividendEvent, DividendEventRow, DividendWithholding } from './store/columns/dividend-events.js';
export type { CashRequestRow, NewCashRequest } from './store/columns/cash-requests.js';
export type { RemittanceRecord, RemittanceRow } from './store/columns/remittances.js';
export {
  findRemittancesOf,
  outstandingSweptPostings,
  remittancePostings,
  upsertRemittances,
  type OutstandingRemittancePosting,
  type RemittancePosting,
} from './store/remittances.js';
export {
  fxSpreadOrderIdSql,
  fxSpreadPostingSql,
  notReversedSql,
  paidRemittanceSql,
  paidRemittedBetweenSql,
} from './store/read-model.js';
export { getCashRequest, listCashRequests } from './store/cash-requests.js';
export { pagedQuery, type Paged } from './store/paged.js';
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
  type CategoryFacet,
  type JournalFilter,
  type JournalGroup,
  type JournalGroupBy,
  type PostingFilter,
  type PostedTrade,
  type PostingRow,
  type SortOrder,
  type TransactionFilter,
  type TransactionGroup,
  type TransactionGroupBy,
  type TransactionSort,
} from './store/transaction-queries.js';
export { getTransaction } from './store/transactions.js';
export {
  customerAccountBalances,
  customerActivity,
  customerDividendTotals,
  customerEquityCurve,
  customerPositions,
  customerStatement,
  customersWalletBalances,
  EQUITY_CURVE_DAYS_MAX,
  getCustomer,
  owed,
  owedOwn,
  shareMovesSql,
  sharesMovedSql,
  STATEMENT_MOVEMENTS_MAX,
  WALLETS,
  walletBalancesOf,
  type CustomerAccountBalance,
  type CustomerActivity,
  type CustomerPosition,
  type WalletBalance,
  type CustomerStatement,
  type DateWindow,
  type DividendTotals,
  type EquityPoint,
  type StatementMovement,
} from './store/customer-views.js';
export { streamJournal, type ExportLine } from './store/journal-export.js';

// The database: connection, schema, the runtime role's check.
export { createDb, type Db, type DbOptions } from './store/db.js';
export { isAtHead, migrateToHead } from './store/migrate.js';
export { runtimeRoleProblems } from './store/runtime-role.js';

// Runtime: configuration, logging, a process's start and shutdown.
export {
  BOOKS,
  bpsSetting,
  FISCAL_YEAR_START_MONTH_DEFAULT,
  commonConfigOf,
  commonConfigSchema,
  ConfigError,
  feeScheduleConfigSchema,
  feeScheduleOf,
  flagSetting,
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
export {
  createMetrics,
  observeBookTotals,
  observeHttpRequests,
  observeJobs,
  observePool,
  observeQueues,
  observeReconciliation,
  type HttpObserver,
  type JobMetrics,
  type JobOutcome,
  type Metrics,
  type QueueState,
  type ReconObserver,
} from './runtime/metrics.js';
export {
  closeServer,
  databaseReady,
  readiness,
  READY_TIMEOUT_MS_DEFAULT,
  settleWithin,
  startOpsServer,
  type ReadyCheck,
} from './runtime/ops-server.js';
export {
  exitOnStartupError,
  onShutdown,
  Resources,
  startProcess,
  type ProcessContext,
  type ProcessDefinition,
} from './runtime/process.js';
