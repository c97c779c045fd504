import { expect } from 'chai';
import type { Knex } from 'knex';
import { createMetrics, observeBookTotals, observeReconciliation, type Metrics } from '../src/entry-points/runtime.js';
import { closePeriod, postEntry, reopenPeriod, upsertCustomer } from '../src/entry-points/store.js';
import { observePool } from '../src/runtime/metrics.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { draft } from './helpers.js';

/** The sample lines of `name` (labels and value), the process's own labels left out. */
async function samples(metrics: Metrics, name: string): Promise<string[]> {
  const text = await metrics.metrics();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => line.replace(/,?service="test",book="ENTITY_UAE"/, ''));
}

describe('metrics', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;
  let metrics: Metrics;

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true, poolMax: 3 });
    db = t.runtime!.db;
    await upsertCustomer(db, 'C-1', {});
  });
  after(async () => t?.drop());
  beforeEach(() => {
    metrics = createMetrics({ service: 'test', book: 'ENTITY_UAE' });
  });

  it("the book's totals: transactions by type and journal lines, read from the totals the posting keeps, so increase() over them is what was posted", async () => {
    observeBookTotals(metrics, db);
    expect(await samples(metrics, 'ledger_book_journal_lines')).to.deep.equal(['ledger_book_journal_lines{} 0']);
    await postEntry(db, draft({ txn_type: 'deposit', amount_usd: '100.00' }));
    await postEntry(db, draft({ txn_type: 'deposit', amount_usd: '20.00' }));
    await postEntry(db, draft({ txn_type: 'withdrawal', amount_usd: '5.00' }));
    expect(await samples(metrics, 'ledger_book_transactions')).to.have.members([
      'ledger_book_transactions{txn_type="deposit"} 2',
      'ledger_book_transactions{txn_type="withdrawal"} 1',
    ]);
    // A deposit and a withdrawal are two lines each (Dr/Cr).
    expect(await samples(metrics, 'ledger_book_journal_lines')).to.deep.equal(['ledger_book_journal_lines{} 6']);
  });

  it('reopenings of the books: every one counted when scraped, so increase() shows one the moment it is made', async () => {
    observeBookTotals(metrics, db);
    expect(await samples(metrics, 'ledger_book_period_reopens')).to.deep.equal(['ledger_book_period_reopens{} 0']);
    await closePeriod(db, { through: '2025-12-31', actor: 'api', today: '2026-01-10' });
    await reopenPeriod(db, { through: null, reason: 'restated', actor: 'api:ana' });
    expect(await samples(metrics, 'ledger_book_period_reopens')).to.deep.equal(['ledger_book_period_reopens{} 1']);
  });

  it('the database pool: connections used and free, and queries waiting for one, read when scraped', async () => {
    observePool(metrics, db);
    await db.raw('SELECT 1');
    const held = await db.client.acquireConnection();
    try {
      expect(await samples(metrics, 'ledger_db_pool_connections')).to.include(
        'ledger_db_pool_connections{state="used"} 1',
      );
      expect(await samples(metrics, 'ledger_db_pool_waiting')).to.deep.equal(['ledger_db_pool_waiting{} 0']);
    } finally {
      await db.client.releaseConnection(held);
    }
    expect(await samples(metrics, 'ledger_db_pool_connections')).to.include(
      'ledger_db_pool_connections{state="used"} 0',
    );
  });

  it('reconciliation results: counted by check, category and status, and each check’s last status (ok 0, warn 1, fail 2)', async () => {
    const observe = observeReconciliation(metrics);
    observe([
      { check_name: 'trial_balance_zero', category: 'A', status: 'ok' },
      { check_name: 'customer_cash_vs_custodian', category: 'C', status: 'warn' },
    ]);
    observe([{ check_name: 'trial_balance_zero', category: 'A', status: 'fail' }]);
    expect(await samples(metrics, 'ledger_recon_check_results_total')).to.have.members([
      'ledger_recon_check_results_total{check="trial_balance_zero",category="A",status="ok"} 1',
      'ledger_recon_check_results_total{check="customer_cash_vs_custodian",category="C",status="warn"} 1',
      'ledger_recon_check_results_total{check="trial_balance_zero",category="A",status="fail"} 1',
    ]);
    expect(await samples(metrics, 'ledger_recon_check_status')).to.have.members([
      'ledger_recon_check_status{check="trial_balance_zero"} 2',
      'ledger_recon_check_status{check="customer_cash_vs_custodian"} 1',
    ]);
  });
});
