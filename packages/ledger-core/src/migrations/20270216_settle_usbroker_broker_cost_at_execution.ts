import type { Knex } from 'knex';

/**
 * usbroker keeps its own part of the customer's fee at execution (contract, Recost revised): a
 * usbroker trade's derivation now also settles its broker cost out of the omnibus (Dr 2340 /
 * Cr 1100, `broker_cost_settled`, domain/recost.ts). Recost re-derives only the pairs of pending
 * trades, so the usbroker trades stamped before this are put back to pending: the next recost finds
 * their derivations' lines changed and supersedes them (reverse, post the new one), and 1100 and
 * 2340 converge on what the broker holds. Trades already pending are left as they are.
 */
export async function up(knex: Knex): Promise<void> {
  // As store/recost-states.ts's rependRecost: a trade never pending is given a pending state, a stamped one nulled.
  await knex.raw(`
    INSERT INTO recost_states AS s (txn_id, txn_date, posted_at)
    SELECT t.txn_id, t.txn_date, t.posted_at FROM transactions t
     WHERE t.source = 'usbroker' AND t.txn_type IN ('buy_security', 'sell_security')
    ON CONFLICT (txn_id) DO UPDATE SET recosted_at = NULL WHERE s.recosted_at IS NOT NULL;
  `);
}

/** Nothing to undo: a re-pend is only work for the next recost, which derives what the code in force says. */
export async function down(): Promise<void> {}
