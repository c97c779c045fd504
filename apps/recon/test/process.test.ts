import { fileURLToPath } from 'node:url';
import { isAtHead } from '@ledger/core';
import { expect } from 'chai';
import { AppProcess, createTestDatabase, type TestDatabase } from '@ledger/core/testing';

const RECON_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('recon process', () => {
  let database: TestDatabase;
  let recon: AppProcess | undefined;

  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
  });

  afterEach(async () => {
    await recon?.kill();
    recon = undefined;
    await database.drop();
  });

  function startRecon(env: Record<string, string | undefined> = {}): AppProcess {
    recon = new AppProcess(RECON_DIR, { ENTITY_ID: 'ENTITY_IND_IFSC', LEDGER_DB_URL: database.url, ...env });
    return recon;
  }

  describe('when started on a fresh database', () => {
    it('migrates it to head, starts its scheduler and reports ready', async () => {
      const proc = startRecon();
      await proc.waitForLog('ready');
      expect(proc.logs.map((l) => l.message)).to.include.members(['migrated', 'scheduler started']);
      expect(await isAtHead(database.db)).to.equal(true);
    });

    it('stays up while idle', async () => {
      const proc = startRecon();
      await proc.waitForLog('ready');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(proc.child.exitCode).to.equal(null);
    });

    it('on SIGTERM stops and exits 0 within a few seconds', async () => {
      const proc = startRecon();
      await proc.waitForLog('ready');
      const exit = await proc.stop('SIGTERM');
      expect(exit.code, proc.stderr).to.equal(0);
      expect(exit.tookMs).to.be.below(5_000);
      expect(proc.logs.map((l) => l.message)).to.include('stopped');
    });
  });

  describe('when its configuration is bad', () => {
    const cases: Array<[string, Record<string, string | undefined>, string]> = [
      ['ENTITY_ID names no book', { ENTITY_ID: 'entity_uae' }, 'ENTITY_ID'],
      ['LEDGER_DB_URL is missing', { LEDGER_DB_URL: undefined }, 'LEDGER_DB_URL'],
      ['LEDGER_DB_URL is not a postgres URL', { LEDGER_DB_URL: 'mysql://root@127.0.0.1/ledger' }, 'LEDGER_DB_URL'],
      ['DB_POOL_MAX is not a number', { DB_POOL_MAX: 'many' }, 'DB_POOL_MAX'],
    ];
    for (const [when, env, variable] of cases) {
      it(`when ${when} › exits non-zero with one line on stderr naming ${variable}`, async () => {
        const proc = startRecon(env);
        const exit = await proc.exited;
        expect(exit.code).to.not.equal(0);
        const lines = proc.stderr.split('\n').filter((l) => l.length > 0);
        expect(lines, proc.stderr).to.have.length(1);
        expect(lines[0]).to.include(variable);
        expect(await isAtHead(database.db)).to.equal(false);
      });
    }
  });

  describe('when the database cannot be reached', () => {
    it('exits non-zero with one line on stderr', async () => {
      // Port 1 on loopback: nothing listens there.
      const proc = startRecon({ LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:1/ledger' });
      const exit = await proc.exited;
      expect(exit.code).to.not.equal(0);
      const lines = proc.stderr.split('\n').filter((l) => l.length > 0);
      expect(lines, proc.stderr).to.have.length(1);
      expect(lines[0]).to.match(/^start-up failed: /);
    });
  });
});
