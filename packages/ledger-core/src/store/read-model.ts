import { CUSTOMER_ACCOUNTS } from '../domain/accounts.js';
import { fxSpreadSettleSourceTxnId, fxSpreadSourceTxnId, REMIT_SOURCE } from '../domain/remittances.js';

/**
 * The read model: the facts the reports, checks and jobs of every package ask the book, each
 * defined once, here, as a SQL fragment the caller's set-based statement embeds. Fragments, not
 * views: the statement Postgres plans is the one each caller wrote by hand before (the same
 * anti-join, the same index), and a fact that is a condition on a row (a transaction "not
 * reversed" is not also "not a reversal") stays exactly that condition. docs/architecture.md#read-model.
 *
 * The arguments are SQL the caller controls (an alias's column, a bound parameter), never input.
 */

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * A transaction in effect: no reversal names it (`txnId`: the SQL of its id). A reversal itself
 * is not excluded: callers that want only originals also say `reverses_txn_id IS NULL`.
 * The anti-join is one probe of transactions' index on reverses_txn_id.
 */
export const notReversedSql = (txnId: string): string =>
  `NOT EXISTS (SELECT 1 FROM transactions reversal WHERE reversal.reverses_txn_id = ${txnId})`;

/**
 * Journal line `alias` is one of customer `customer`'s (SQL of the id) on `accountCode` (any account
 * when absent; the caller filters by it), read by the index that holds it. Every line of a
 * customer's transaction carries the customer, but `journal_lines_customer_idx` keeps the lines of
 * the customer accounts only (migration 20270222): on one of those, the condition is the line's own
 * customer; on the firm's accounts (a fee's revenue, a broker cost) the line is reached through
 * the customer's transactions (transactions_customer_idx, then the lines by txn_id), a line's
 * customer being its transaction's (checked at insert).
 */
export const customerLinesSql = (alias: string, customer: string, accountCode?: string): string =>
  accountCode !== undefined && CUSTOMER_ACCOUNTS.includes(accountCode)
    ? `${alias}.customer_id = ${customer}`
    : `${alias}.txn_id IN (SELECT own.txn_id FROM transactions own WHERE own.customer_id = ${customer})`;

/**
 * A remittance paid: its order `paid` (the money left India). Its date for FY, LRS and TCS is
 * `remitted_on`, stored at sync: the paid payment's created_at in IST (domain/remittances.ts istDate).
 */
export const paidRemittanceSql = (alias?: string): string => `${column(alias, 'status')} = 'paid'`;

/** A paid remittance dated (`remitted_on`) from `from` through `to` (SQL of dates, e.g. `?::date`). */
export const paidRemittedBetweenSql = (alias: string | undefined, from: string, to: string): string =>
  `${paidRemittanceSql(alias)} AND ${column(alias, 'remitted_on')} BETWEEN ${from} AND ${to}`;

/**
 * The posting of an order's `fx_spread` accrual (`kind` 'fx_spread') or its settlement
 * ('fx_spread_settle') on transaction `alias`: source remit, source_txn_id the order's key, as
 * domain/remittances.ts keys the drafts (`orderId`: the SQL of the order id).
 */
export function fxSpreadPostingSql(
  alias: string,
  orderId: string,
  kind: 'fx_spread' | 'fx_spread_settle' = 'fx_spread',
): string {
  const prefix = kind === 'fx_spread' ? fxSpreadSourceTxnId('') : fxSpreadSettleSourceTxnId('');
  return remitPostingSql(alias, `${literal(prefix)} || ${orderId}`);
}

/** A posting of remit's on transaction `alias` under the key `sourceTxnId` (SQL): one probe of its idempotency key's index. */
export const remitPostingSql = (alias: string, sourceTxnId: string): string =>
  `${alias}.source = ${literal(REMIT_SOURCE)} AND ${alias}.source_txn_id = ${sourceTxnId}`;

/** The order id of remit's `fx_spread` posting on transaction `alias` (its key less the prefix). */
export const fxSpreadOrderIdSql = (alias: string): string =>
  `substr(${alias}.source_txn_id, ${fxSpreadSourceTxnId('').length + 1})`;

const column = (alias: string | undefined, name: string) => (alias === undefined ? name : `${alias}.${name}`);
