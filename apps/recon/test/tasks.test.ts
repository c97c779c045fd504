import { createLogger } from '@ledger/core/runtime';
import { CHECKS } from '@ledger/reconciliation';
import { expect } from 'chai';
import { loadConfig } from '../src/config.js';
import { reconTasks } from '../src/tasks.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_UAE', silent: true });
const UAE = { ENTITY_ID: 'ENTITY_UAE', LEDGER_DB_URL: 'postgres://recon@127.0.0.1:5432/ledger' };
// The tasks are built, never run, here: no database is reached.
const deps = { db: undefined as never, logger };

describe('recon tasks', () => {
  it('one task per category with checks: A, B and D every RECON_INTERVAL_SECONDS after the initial delay', () => {
    const tasks = reconTasks(
      loadConfig({ ...UAE, RECON_INTERVAL_SECONDS: '600', RECON_SCHEDULE_INITIAL_DELAY_SECONDS: '5' }),
      deps,
    );
    const categories = [...new Set(CHECKS.map((c) => c.category))].sort();
    expect(tasks.map((t) => t.name)).to.deep.equal(categories.map((c) => `recon-${c}`));
    for (const task of tasks.filter((t) => t.name !== 'recon-C'))
      expect(task).to.include({ initialDelayMs: 5_000, intervalMs: 600_000 });
  });

  it('switched off, none', () => {
    expect(reconTasks(loadConfig({ ...UAE, RECON_SCHEDULE_ENABLED: 'false' }), deps)).to.deep.equal([]);
    expect(reconTasks(loadConfig({ ...UAE, ENTITY_ID: 'ENTITY_IND_IFSC' }), deps)).to.deep.equal([]);
  });
});
