import { expect } from 'chai';
import type { Knex } from 'knex';
import { upsertCustomer } from '../src/entry-points/store.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/** The error a statement fails with (null when it succeeds). */
const refusal = (q: Promise<unknown>) =>
  q.then(
    () => null,
    (e: unknown) => {
      const { code, constraint } = e as { code?: string; constraint?: string };
      return { code, constraint };
    },
  );

const APPEND_ONLY = { code: '42501', constraint: 'ledger_append_only' };
const HISTORY = { code: '42501', constraint: 'ledger_history' };

/**
 * History is guarded as the journal is (migration 20270207_guard_history): the schema owner, who
 * needs no bypass to write these tables, is refused as surely as the runtime role.
 */
describe('history guarded as the journal is, against the schema owner', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let owner: Knex;

  before(async () => {
    t = await createTestDatabase();
    owner = t.db;
    await upsertCustomer(owner, 'C-1', {});
    await owner('holdings_snapshots').insert({
      customer_id: 'C-1',
      upstream: 'custodian',
      as_of: '2026-01-15',
      account: 'CUST-1',
      currency: 'AED',
      positions: JSON.stringify([{ symbol: 'EMAAR', quantity: '10' }]),
    });
    const at = new Date('2026-01-15T10:00:00Z');
    await owner('remittances').insert({
      order_id: 'order_1',
      customer_id: 'C-1',
      remit_customer_id: 'cust_1',
      status: 'paid',
      amount_inr: '84000.00',
      remitted_on: '2026-01-15',
      order_created_at: at,
      order_updated_at: at,
      status_history: JSON.stringify([
        { status: 'active', at },
        { status: 'paid', at },
      ]),
    });
    await owner('exceptions').insert({
      upstream: 'uaefeed',
      record_key: 'ord-1',
      reason_code: 'refused',
      reason: 'unknown symbol',
      job: 'job:sync-uaefeed:1',
    });
  });
  after(async () => {
    await t?.drop();
  });

  it('holdings snapshots: no UPDATE, DELETE or TRUNCATE (ledger_append_only)', async () => {
    expect(await refusal(owner.raw(`UPDATE holdings_snapshots SET positions = '[]'`))).to.deep.equal(APPEND_ONLY);
    expect(await refusal(owner.raw('DELETE FROM holdings_snapshots'))).to.deep.equal(APPEND_ONLY);
    expect(await refusal(owner.raw('TRUNCATE holdings_snapshots'))).to.deep.equal(APPEND_ONLY);
    expect(await owner('holdings_snapshots').count<Array<{ count: string }>>({ count: '*' })).to.deep.equal([
      { count: '1' },
    ]);
  });

  it('a remittance: its status history only grows, its order, customer and first sighting never change, and it is never deleted', async () => {
    // What the sync does: a new status appended, the order's figures moved.
    expect(
      await refusal(
        owner.raw(
          `UPDATE remittances SET settled_at = now(), status_history = status_history || '[{"status": "settled"}]' WHERE order_id = 'order_1'`,
        ),
      ),
    ).to.equal(null);
    for (const sql of [
      `UPDATE remittances SET status_history = '[{"status": "paid"}]'`,
      `UPDATE remittances SET status_history = status_history - 0`,
      `UPDATE remittances SET first_seen_at = first_seen_at - interval '3 days'`,
      `UPDATE remittances SET order_created_at = order_created_at + interval '1 day'`,
    ]) {
      expect(await refusal(owner.raw(sql)), sql).to.deep.equal(HISTORY);
    }
    expect(await refusal(owner.raw('DELETE FROM remittances'))).to.deep.equal(APPEND_ONLY);
    expect(await refusal(owner.raw('TRUNCATE remittances'))).to.deep.equal(APPEND_ONLY);
    const [row] = await owner('remittances').select('status_history');
    expect((row as { status_history: Array<{ status: string }> }).status_history.map((h) => h.status)).to.deep.equal([
      'active',
      'paid',
      'settled',
    ]);
  });

  it('an exception: its first sighting and record never change, it is never deleted; its state still moves', async () => {
    expect(
      await refusal(
        owner.raw(`UPDATE exceptions SET times_seen = times_seen + 1, last_seen_at = now(), reason = 'again'`),
      ),
    ).to.equal(null);
    for (const sql of [`UPDATE exceptions SET first_seen_at = now()`, `UPDATE exceptions SET record_key = 'ord-2'`]) {
      expect(await refusal(owner.raw(sql)), sql).to.deep.equal(HISTORY);
    }
    expect(await refusal(owner.raw('DELETE FROM exceptions'))).to.deep.equal(APPEND_ONLY);
    expect(await refusal(owner.raw('TRUNCATE exceptions'))).to.deep.equal(APPEND_ONLY);
  });
});
