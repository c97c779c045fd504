import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { recost } from '@ledger/core/store';
import { expect } from 'chai';
import type { TestApi } from './support.js';

/*
 * One small book, built through the API, whose figures are worked out by hand below (not by
 * the queries under test). Customer C-1:
 *
 *   01-10 deposit 1,000.00 USD                 2010 +1,000.00
 *   01-11 deposit 367.25 AED = 100.00 USD      2020   +100.00
 *   01-12 buy 10 AAPL for 500.00, fee 22 bps   2010   −501.10   2100 +500.00
 *   01-13 deposit 50.00 (entered twice)        2010    +50.00
 *   01-14 reversal of that deposit             2010    −50.00
 *   01-15 buy 2 MSFT for 200.00, fee 0.50      2010   −200.50   2100 +200.00
 *   01-20 sell 4 AAPL for 260.00               2010   +260.00
 *         recost: fee 260 × 22 bps = 0.57      2010     −0.57   2100 −200.00 (4 of the 10 shares' 500.00)
 *   01-25 dividend AAPL 12.00, wht 3.00        2010    +12.00, −3.00
 *
 *   USD wallet 566.83, AED wallet 100.00, cash 666.83; AAPL 6 shares at 300.00, MSFT 2 at 200.00.
 *
 * Customer C-2 deposited 100.22 on 01-11 (a manual buy needs the wallet to cover it), bought 5 TSLA for
 * 100.00 (fee 0.22) on 01-12 and the buy was reversed on 01-13: no position, wallet 100.22.
 */
export const C1 = '/v1/customers/C-1';
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };

/** Posts the book above through the API (and runs recost on it). */
export async function buildBook(api: TestApi): Promise<void> {
  for (const id of ['C-1', 'C-2', 'C-empty']) expect((await api.put(`/v1/customers/${id}`, {})).status).to.equal(201);
  const post = async (body: Record<string, unknown>) => {
    const reply = await api.post('/v1/transactions', { customer_id: 'C-1', source: 'manual', ...body });
    expect(reply.status, reply.text).to.equal(201);
    return reply.body.txn_id as string;
  };
  const reverse = async (txnId: string, txnDate: string) => {
    expect((await api.post(`/v1/transactions/${txnId}/reverse`, { txn_date: txnDate })).status).to.equal(201);
  };
  await post({ txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '1000.00' });
  await post({
    txn_type: 'deposit',
    txn_date: '2026-01-11',
    amount_usd: '100.00',
    original_currency: 'AED',
    original_amount: '367.25',
  });
  await post({
    txn_type: 'buy_security',
    txn_date: '2026-01-12',
    symbol: 'AAPL',
    quantity: '10',
    amount_usd: '500.00',
  });
  await reverse(await post({ txn_type: 'deposit', txn_date: '2026-01-13', amount_usd: '50.00' }), '2026-01-14');
  await post({
    txn_type: 'buy_security',
    txn_date: '2026-01-15',
    symbol: 'MSFT',
    quantity: '2',
    amount_usd: '200.00',
    fee_usd: '0.50',
  });
  await post({
    txn_type: 'sell_security',
    txn_date: '2026-01-20',
    symbol: 'AAPL',
    quantity: '4',
    amount_usd: '260.00',
  });
  await post({ txn_type: 'dividend', txn_date: '2026-01-25', symbol: 'AAPL', amount_usd: '12.00' });
  await post({ txn_type: 'wht_tax', txn_date: '2026-01-25', symbol: 'AAPL', amount_usd: '3.00' });
  await post({ customer_id: 'C-2', txn_type: 'deposit', txn_date: '2026-01-11', amount_usd: '100.22' });
  await reverse(
    await post({
      customer_id: 'C-2',
      txn_type: 'buy_security',
      txn_date: '2026-01-12',
      symbol: 'TSLA',
      quantity: '5',
      amount_usd: '100.00',
    }),
    '2026-01-13',
  );
  await recost(api.db, { policy: POLICY, limit: null });
}
