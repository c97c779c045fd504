/*
 * @ledger/core/posting: the ledger's pure rules, what an entry is before it touches a book.
 * Money (Decimal), accounts, posting rules and the drafts they build, fees, manual entry, cash
 * requests and remittances as facts, typed errors, limits and the input rules every door checks.
 * No I/O: whoever imports only this (a contract, a parser, a sync's mapping) pulls in no
 * database, logger or process. Named, not `export *`: a module's helpers stay inside.
 */

// Money and the rules of the numbers every door parses.
export {
  Decimal,
  DECIMAL_PATTERN_SOURCE,
  DECIMAL_RULE,
  formatDecimal,
  MONEY_PATTERN_SOURCE,
  MONEY_RULE,
  roundToCents,
  ZERO,
} from '../domain/money.js';
export { FILLED_QUANTITY_RULE, isFillWithinOrder } from '../domain/quantities.js';
export { CUSTOMER_ID_LENGTH_MAX, CUSTOMER_ID_PATTERN_SOURCE, CUSTOMER_ID_RULE } from '../domain/customer-ids.js';
export { SYMBOL_PATTERN_SOURCE, SYMBOL_RULE } from '../domain/symbols.js';
export {
  CALENDAR_DATE_PATTERN_SOURCE,
  CALENDAR_DATE_RULE,
  isCalendarDate,
  LAST_CALENDAR_YEAR,
  todayUtc,
} from '../domain/dates.js';
export {
  assertPage,
  ENTRY_LINES_MAX,
  IDEMPOTENCY_KEY_LENGTH_MAX,
  MEMO_LENGTH_MAX,
  METADATA_PROPERTIES_MAX,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_OFFSET_MAX,
  type Page,
} from '../domain/limits.js';
export { assert, LedgerError, type LedgerErrorCode } from '../domain/errors.js';

// Accounts, posting rules and the drafts they build.
export { ACCOUNT, ACCOUNT_TYPES, normalSide, type AccountType } from '../domain/accounts.js';
export { cashAccountProblem } from '../domain/cash-accounts.js';
export {
  CURRENCIES,
  ENTERABLE_TXN_TYPES,
  POSTING_RULES,
  TXN_TYPES,
  type Currency,
  type JournalLineDraft,
} from '../domain/posting-rules/index.js';
export { ENTERABLE_SOURCES, SOURCES, type Source } from '../domain/sources.js';
export { CUSTOMER_FEE_BPS_DEFAULT, FeeSchedule } from '../domain/fees.js';
export { draftFromEntry, type EntryRequest, type PostingPolicy, type TransactionDraft } from '../domain/transaction.js';
export { draftManualEntry, type ManualEntryPolicy } from '../domain/manual-entry.js';
export { newId } from '../domain/ids.js';
export { derivationDraft, RECOST_FLAG_REASONS, type RecostPolicy } from '../domain/recost.js';
export { JOURNAL_OUTCOMES, REJECTION_CODES, type JournalOutcome } from '../domain/journal-outcome.js';
export { openDayFor } from '../domain/periods.js';
export { YEAR_CLOSE_POSTING_KIND } from '../domain/year-close.js';

// Who posts: the actors recorded with each change.
export {
  ACTOR_NAME_PATTERN_SOURCE,
  ACTOR_NAME_RULE,
  apiActor,
  jobActor,
  SYSTEM_ACTOR,
  webhookActor,
  WEBHOOK_EVENT_PATTERN_SOURCE,
} from '../domain/actors.js';

// Cash requests, remittances and statements as facts: their states and what each one posts.
export {
  CASH_REQUEST_ACTIONS,
  CASH_REQUEST_DIRECTIONS,
  CASH_REQUEST_STATUSES,
  CASH_REQUEST_TRANSITIONS,
  toUsd,
  type CashPolicy,
  type CashRequestAction,
  type CashRequestStatus,
} from '../domain/cash-requests.js';
export {
  accrualsDue,
  draftFxSpread,
  fxSpreadSettleSourceTxnId,
  fxSpreadSourceTxnId,
  isPan,
  istDate,
  REMIT_SOURCE,
  remittanceFacts,
  settlementsDue,
} from '../domain/remittances.js';
export { classifyRemitEvent, type RemitEvent } from '../domain/remit-events.js';
export { compareCashStatement, previousMonth, type CashStatementFigures } from '../domain/cash-statements.js';
