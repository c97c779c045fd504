import { ACCOUNT, Decimal, shareMovesSql, ZERO, type Db } from '@ledger/core';
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
      WHERE status = 'paid' AND amount_usd IS NOT NULL AND customer_id = ANY(?)
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
