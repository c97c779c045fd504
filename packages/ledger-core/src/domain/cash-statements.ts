import { Decimal } from './money.js';

/** `YYYY-MM` of the month before `now`'s (UTC): the last closed month. */
export function previousMonth(now: Date): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return first.toISOString().slice(0, 7);
}

/** A custodian's cash statement of a month beside the ledger's own cash movements of that month. */
export interface CashStatementFigures {
  /** closing − opening balance of the statement. */
  statement_net: string;
  /** What the ledger's postings of that month moved the customer's cash by. */
  ledger_net: string;
  /** statement_net − ledger_net: zero when they agree. */
  difference: string;
  statement_lines: number;
  ledger_transactions: number;
  /** Same net and as many postings as statement lines. */
  agrees: boolean;
}

/**
 * How a month's cash statement compares with the ledger (the custodian only reconciles UAE cash;
 * uaefeed is its posting source, docs/jobs.md#sync-cash-statements): the nets and the counts.
 */
export function compareCashStatement(
  statement: { opening_balance: string; closing_balance: string; lines: readonly unknown[] },
  ledger: { net: string; transactions: number },
): CashStatementFigures {
  const statementNet = new Decimal(statement.closing_balance).minus(statement.opening_balance);
  const difference = statementNet.minus(ledger.net);
  return {
    statement_net: statementNet.toFixed(2),
    ledger_net: new Decimal(ledger.net).toFixed(2),
    difference: difference.toFixed(2),
    statement_lines: statement.lines.length,
    ledger_transactions: ledger.transactions,
    agrees: difference.isZero() && statement.lines.length === ledger.transactions,
  };
}
