import { postTransactions, upsertCustomer } from '@ledger/core';
import { createTestDatabase } from '@ledger/core/testing';
import { customerId, drafts } from './fixtures.js';
import * as m from '../../packages/ledger-core/src/migrations/20261206_add_daily_totals.js';

for (const round of [1, 2]) {
  for (const ff of ['down', '100', '50']) {
    const t = await createTestDatabase({ poolMax: 4, runtimeRole: true });
    try {
      if (ff === '50') await t.db.raw('ALTER TABLE account_daily_totals SET (fillfactor = 50); ALTER TABLE transaction_daily_totals SET (fillfactor = 50)');
      if (ff === 'down') await t.db.transaction((trx) => m.down(trx));
      const db = t.runtime!.db;
      for (let i = 0; i < 1000; i += 1) await upsertCustomer(db, customerId(i, 1000), {});
      const batch = drafts(100_000, 1000);
      const t0 = Date.now();
      await postTransactions(db, batch);
      console.log(round, ff, (Date.now() - t0) / 1000, 's', (await import('node:os')).loadavg()[0]);
    } finally {
      await t.drop();
    }
  }
}
