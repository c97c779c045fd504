import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Decimal, draftFromEntry, FeeSchedule, type EntryRequest } from '@ledger/core/posting';
import { postTransactions, type Db } from '@ledger/core/store';

/** The customer fee the India tests post trades at (22 bps), and recost's options with it. */
export const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };
export const RECOST = { policy: POLICY, limit: null };

/** Posts a trade as a sync would (bulk: a closed day is restated to the first open one; 22 bps customer fee) and answers its id. */
export async function trade(
  db: Db,
  entry: Pick<EntryRequest, 'txn_type' | 'customer_id' | 'symbol' | 'quantity' | 'amount_usd' | 'txn_date'>,
): Promise<string> {
  const txnId = randomUUID();
  const result = await postTransactions(db, [
    draftFromEntry({ source: 'usbroker', source_txn_id: `o-${txnId}`, ...entry }, txnId, POLICY),
  ]);
  expect(result.inserted).to.equal(1);
  return txnId;
}

/** SBI TT buying rates by day (the mid the same), as a loaded sheet would give them. */
export async function setRates(db: Db, rates: Record<string, string>): Promise<void> {
  for (const [date, rate] of Object.entries(rates)) {
    await db.raw(
      `INSERT INTO inr_rates (rate_date, tt_buy, mid, source, published_at) VALUES (?, ?, ?, 'test', ?) ON CONFLICT (rate_date) DO UPDATE SET tt_buy = excluded.tt_buy`,
      [date, rate, rate, `${date} 09:00`],
    );
  }
}
