import type { Knex } from 'knex';
import { fundingAccounts } from '../domain/posting-rules/funding.js';
import type { Currency } from '../domain/posting-rules/types.js';
import { ownOwedSql } from './columns/journal-lines.js';
import { notReversedSql } from './read-model.js';
import {
  CASH_STATEMENTS,
  UAEFEED_STATEMENTS,
  type CashStatementSnapshot,
  type UaefeedStatementSnapshot,
} from './columns/statements.js';
import { documentOf, documentRecords, insertList, insertValues, type Columns } from './columns/table.js';

/** Inserts what is not stored yet (same key, same content): answers how many were new. */
async function insertNew<S>(
  db: Knex,
  table: string,
  columns: Columns,
  key: string,
  records: S[],
): Promise<{ inserted: number; existing: number }> {
  if (records.length === 0) return { inserted: 0, existing: 0 };
  const { rowCount } = await db.raw(
    `INSERT INTO ?? (${insertList(columns)})
     SELECT ${insertValues(columns, 's')} FROM ${documentRecords(columns, '?')} AS s
     ON CONFLICT (${key}) DO NOTHING`,
    [table, documentOf(columns, records)],
  );
  const inserted = Number(rowCount ?? 0);
  return { inserted, existing: records.length - inserted };
}

/** Stores custodian cash statements; one already stored with the same content is left as it is. */
export function insertCashStatements(db: Knex, statements: CashStatementSnapshot[]) {
  return insertNew(
    db,
    'cash_statements',
    CASH_STATEMENTS,
    'customer_id, upstream, account, month, statement_sha256',
    statements,
  );
}

/** Stores uaefeed statements as received; one already stored with the same body is left as it is. */
export function insertUaefeedStatements(db: Knex, statements: UaefeedStatementSnapshot[]) {
  return insertNew(db, 'uaefeed_statements', UAEFEED_STATEMENTS, 'customer_id, kind, month, body_sha256', statements);
}

/** The net cash a customer's account moved in a month by the ledger, and how many transactions moved it. */
export interface LedgerCashMovement {
  customerId: string;
  /** Signed, in the account's currency: money in > 0. */
  net: string;
  transactions: number;
}

/**
 * Each customer's cash movements in `currency` over `month` (`YYYY-MM`) as the ledger posted
 * them from `source`: what each transaction's lines moved the customer's wallet of that currency
 * by, in that currency (the AED wallet by its lines' AED amounts, fees included), leaving out
 * transactions that were reversed. A transaction with an AED line posted before lines kept their
 * AED amount (20270116) that 20270117 could not fill counts its record's `metadata.cash_movement`
 * instead. Customers without any answer net 0. Read from the journal, so a statement compared
 * with it checks the AED amounts the wallet holds, not only what the records said.
 */
export async function ledgerCashMovements(
  db: Knex,
  query: { customerIds: string[]; source: string; currency: Currency; month: string },
): Promise<LedgerCashMovement[]> {
  const { rows } = await db.raw<{ rows: Array<{ customer_id: string; net: string; transactions: string }> }>(
    `SELECT c.customer_id, coalesce(sum(m.net), 0)::text AS net, count(m.txn_id)::text AS transactions
       FROM unnest(?::text[]) AS c(customer_id)
       LEFT JOIN LATERAL (
         SELECT t.txn_id,
                (SELECT CASE WHEN bool_and(${ownOwedSql('l')} IS NOT NULL) IS FALSE THEN (t.metadata->>'cash_movement')::numeric
                             ELSE coalesce(sum(${ownOwedSql('l')}), 0) END
                   FROM journal_lines l WHERE l.txn_id = t.txn_id AND l.account_code = ?) AS net
           FROM transactions t
          WHERE t.customer_id = c.customer_id AND t.source = ? AND t.original_currency = ?
            AND t.txn_date >= to_date(?, 'YYYY-MM') AND t.txn_date < to_date(?, 'YYYY-MM') + interval '1 month'
            AND t.metadata->>'cash_movement' IS NOT NULL
            AND ${notReversedSql('t.txn_id')}
       ) m ON true
      GROUP BY c.customer_id ORDER BY c.customer_id`,
    [query.customerIds, fundingAccounts(query.currency).wallet, query.source, query.currency, query.month, query.month],
  );
  return rows.map((r) => ({ customerId: r.customer_id, net: r.net, transactions: Number(r.transactions) }));
}
