/*
 * @ledger/core/reports: what the book says, read and never written: the firm reports
 * (docs/firm-reports.md: summary, earnings, recent transactions, account totals and the trial
 * balance), the customer views (docs/customer-views.md: balances, positions, activity, statement,
 * equity curve, wallets, what is owed) and the journal export. Each takes a Db and answers in one
 * snapshot; the queries that write, and the reads the posting paths share, are in ./store.
 */

// Firm reports: the meaning of each figure (domain/firm-reports.ts) and the reads.
export { EARNINGS_SOURCES, FLOW_DAYS_MAX, RECENT_TXNS_MAX } from '../domain/firm-reports.js';
export { firmEarnings, firmSummary, recentTransactions } from '../store/firm-reports.js';
export { accountTotals, trialBalance } from '../store/accounts.js';

// Customer views, and the SQL of a customer's share moves that the reconciliation checks reuse.
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
  shareMovesSql,
  sharesMovedSql,
  STATEMENT_MOVEMENTS_MAX,
  walletBalancesOf,
  type CustomerAccountBalance,
  type CustomerPosition,
  type DateWindow,
  type WalletBalance,
} from '../store/customer-views.js';

// The journal export: every line of a window, streamed.
export { streamJournal, type ExportLine } from '../store/journal-export.js';
