import { expect } from 'chai';
import type { Knex } from 'knex';
import { runtimeRoleProblems } from '../src/store/runtime-role.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/** knex's bookkeeping of which migrations ran: not the ledger's, and never granted. */
const KNEX_TABLES = ['knex_migrations', 'knex_migrations_lock'];

/**
 * Tables the runtime role reads but is granted no write on, each with the reason. Every other
 * table of the schema must be written through a grant in store/runtime-role.ts (RUNTIME_GRANTS).
 */
const READ_ONLY_FOR_RUNTIME: Record<string, string> = {
  accounts: 'the chart of accounts changes only by migration: a new account is a migration',
  account_totals: 'moved only by the journal_lines insert check, a SECURITY DEFINER function (20261122)',
  ledger_commit_checks: 'written only by the SECURITY DEFINER insert checks and the commit check (20261122)',
  account_daily_totals: 'moved only by the journal_lines insert check, a SECURITY DEFINER function (20261206)',
  transaction_daily_totals: 'moved only by the transactions insert check, a SECURITY DEFINER function (20261206)',
  lot_matches:
    'copied from recost derivations by the transactions insert trigger, a SECURITY DEFINER function (20270101)',
};

interface TablePrivileges {
  table: string;
  select: boolean;
  write: boolean;
  delete: boolean;
  truncate: boolean;
}

/** The tables of the ledger's schema, and what `role` may do on each. */
async function runtimePrivileges(db: Knex, role: string): Promise<TablePrivileges[]> {
  const { rows } = await db.raw<{ rows: TablePrivileges[] }>(
    `SELECT c.relname AS table,
            has_table_privilege(:role, c.oid, 'SELECT') AS select,
            has_table_privilege(:role, c.oid, 'INSERT') OR has_any_column_privilege(:role, c.oid, 'UPDATE') AS write,
            has_table_privilege(:role, c.oid, 'DELETE') AS delete,
            has_table_privilege(:role, c.oid, 'TRUNCATE') AS truncate
       FROM pg_tables t JOIN pg_class c ON c.oid = format('%I.%I', t.schemaname, t.tablename)::regclass
      WHERE t.schemaname = current_schema() AND t.tablename <> ALL (:knex::text[])
      ORDER BY c.relname`,
    { role, knex: KNEX_TABLES },
  );
  return rows;
}

/**
 * A table added by a migration must come with a decision about the runtime role: a grant of what
 * it may write, or a reason it writes nothing; and the start-up check must know the table, so a
 * runtime role owning it (and so able to switch its triggers off) is refused.
 */
describe('the runtime role’s grants, against every table of the schema', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let tables: TablePrivileges[];

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    tables = await runtimePrivileges(t.db, t.runtime!.role);
  });
  after(async () => {
    await t?.drop();
  });

  it('every table is written through a runtime grant or listed as read-only for it with the reason', () => {
    expect(tables.map((p) => p.table)).to.include.members(['transactions', 'journal_lines']);
    const undecided = tables.filter((p) => !p.write && !(p.table in READ_ONLY_FOR_RUNTIME)).map((p) => p.table);
    expect(
      undecided,
      'no grant in store/runtime-role.ts lets the runtime role write these tables: add one to RUNTIME_GRANTS, ' +
        'or list the table in READ_ONLY_FOR_RUNTIME (test/runtime-grants.test.ts) with the reason',
    ).to.deep.equal([]);
  });

  it('every table listed as read-only exists and is indeed granted no write', () => {
    const byName = new Map(tables.map((p) => [p.table, p]));
    const stale = Object.keys(READ_ONLY_FOR_RUNTIME).filter((table) => byName.get(table)?.write !== false);
    expect(stale, 'READ_ONLY_FOR_RUNTIME names tables that are gone or that a runtime grant now writes').to.deep.equal(
      [],
    );
  });

  it('the runtime role reads every table and may delete or truncate none', () => {
    expect(
      tables.filter((p) => !p.select).map((p) => p.table),
      'not readable',
    ).to.deep.equal([]);
    expect(
      tables.filter((p) => p.delete || p.truncate).map((p) => p.table),
      'deletable or truncatable',
    ).to.deep.equal([]);
  });

  it('the start-up check would refuse a runtime role that owns any table (every table is in its list)', async () => {
    const ownerProblems = await runtimeRoleProblems(t.db);
    const owned = ownerProblems
      .map((problem) => /^owns (.+) \(directly or through a role it is a member of\)$/.exec(problem)?.[1])
      .find(Boolean);
    expect(owned?.split(', '), 'store/runtime-role.ts LEDGER_TABLES misses a table').to.deep.equal(
      tables.map((p) => p.table),
    );
  });
});
