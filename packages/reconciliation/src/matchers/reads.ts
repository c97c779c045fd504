import { ACCOUNT, Decimal, ZERO } from '@ledger/core/posting';
import { shareMovesSql } from '@ledger/core/reports';
import { notReversedSql, paidRemittanceSql, type Db } from '@ledger/core/store';
import type { RemittanceToWire } from './lrs-wires.js';

/*
 * The ledger's side of the matchers: one read per figure over every customer asked for, the same
 * for a check and for the live report that shows it (set-based: never a query per customer).
 */

/**
 * The paid remittances of `customerIds`, as the LRS-to-broker matcher takes them: the order's USD
 * (`amount_usd`, its quote's `to.amount`), its LRS date (`remitted_on`) and its settlement's day in
 * IST (`settled_on`), by customer, date and order.
 */
export async function paidRemittancesToWire(db: Db, customerIds: readonly string[]): Promise<RemittanceToWire[]> {
  const { rows } = await db.raw<{ rows: RemittanceToWire[] }>(
    `SELECT order_id, customer_id, amount_usd::text AS amount_usd, remitted_on::text AS remitted_on,
            (settled_at AT TIME ZONE 'Asia/Kolkata')::date::text AS settled_on
       FROM remittances
      WHERE ${paidRemittanceSql()} AND amount_usd IS NOT NULL AND customer_id = ANY(?)
      ORDER BY customer_id, remitted_on, order_id`,
    [[...customerIds]],
  );
  return rows;
}

/** What wallet 2010 owes each of `customerIds` (zero when nothing was posted). */
export async function ledgerCash(db: Db, customerIds: readonly string[]): Promise<Map<string, Decimal>> {
  const cash = new Map<string, Decimal>(customerIds.map((id) => [id, ZERO]));
  const { rows } = await db.raw<{ rows: Array<{ customer_id: string; cash: string }> }>(
    `SELECT customer_id, sum(credit - debit)::text AS cash
       FROM journal_lines WHERE account_code = ? AND customer_id = ANY(?) GROUP BY 1`,
    [ACCOUNT.customerWalletUsd, [...customerIds]],
  );
  for (const row of rows) cash.set(row.customer_id, new Decimal(row.cash));
  return cash;
}

/** The shares the ledger's trades and splits leave each of `customerIds` holding, per symbol (as the customer views count them). */
export async function ledgerShares(db: Db, customerIds: readonly string[]): Promise<Map<string, Map<string, Decimal>>> {
  const ids = [...customerIds];
  const shares = new Map<string, Map<string, Decimal>>(ids.map((id) => [id, new Map()]));
  const { rows } = await db.raw<{ rows: Array<{ customer_id: string; symbol: string; quantity: string | null }> }>(
    `SELECT customer_id, symbol, sum(quantity)::text AS quantity FROM (${shareMovesSql((c) => `${c} = ANY(?)`)}) m GROUP BY 1, 2`,
    [ids, ids],
  );
  for (const row of rows) shares.get(row.customer_id)!.set(row.symbol, new Decimal(row.quantity ?? 0));
  return shares;
}

/** An account's balance on its debit side (debits − credits of every line): an asset's holding. */
export async function ledgerDebitBalance(db: Db, accountCode: string): Promise<Decimal> {
  const { rows } = await db.raw<{ rows: Array<{ balance: string | null }> }>(
    'SELECT sum(debit - credit)::text AS balance FROM journal_lines WHERE account_code = ?',
    [accountCode],
  );
  return new Decimal(rows[0]?.balance ?? 0);
}

/** How many trades of `source` wait for recost (recosted_at null) and have no reversal: their derivation is still to come or to change. */
export async function tradesPendingRecost(db: Db, source: string): Promise<number> {
  const { rows } = await db.raw<{ rows: Array<{ pending: string }> }>(
    `SELECT count(*) AS pending FROM recost_states s JOIN transactions t USING (txn_id)
      WHERE s.recosted_at IS NULL AND t.source = ? AND t.txn_type IN ('buy_security', 'sell_security')
        AND ${notReversedSql('t.txn_id')}`,
    [source],
  );
  return Number(rows[0]?.pending ?? 0);
}
