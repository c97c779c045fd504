import { expect } from 'chai';
import { CASH_REQUESTS } from '../src/store/columns/cash-requests.js';
import { CUSTOMERS } from '../src/store/columns/customers.js';
import { DIVIDEND_EVENTS } from '../src/store/columns/dividend-events.js';
import { JOURNAL_LINES } from '../src/store/columns/journal-lines.js';
import { HOLDINGS_SNAPSHOTS, PORTFOLIO_SNAPSHOTS } from '../src/store/columns/snapshots.js';
import { REMITTANCES } from '../src/store/columns/remittances.js';
import { CASH_STATEMENTS, UAEFEED_STATEMENTS } from '../src/store/columns/statements.js';
import type { Columns } from '../src/store/columns/table.js';
import { TRANSACTIONS } from '../src/store/columns/transactions.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/** Columns of the schema the code never reads or writes, and why. */
const NOT_IN_THE_CODE: Record<string, string[]> = {
  // The database's own stamp, for the commit-time balance check (ADR 0001); no caller can set it.
  transactions: ['created_xid'],
};

/** How information_schema names the column tables' SQL types. */
const UDT_NAME = { uuid: 'uuid', text: 'text', numeric: 'numeric', bigint: 'int8', date: 'date', boolean: 'bool', timestamptz: 'timestamptz', jsonb: 'jsonb' };

describe('column tables (one definition per stored resource)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(async () => {
    await t?.drop();
  });

  const tables: Array<[string, Columns]> = [
    ['transactions', TRANSACTIONS],
    ['journal_lines', JOURNAL_LINES],
    ['customers', CUSTOMERS],
    ['cash_requests', CASH_REQUESTS],
    ['remittances', REMITTANCES],
    ['dividend_events', DIVIDEND_EVENTS],
    ['cash_statements', CASH_STATEMENTS],
    ['uaefeed_statements', UAEFEED_STATEMENTS],
    ['holdings_snapshots', HOLDINGS_SNAPSHOTS],
    ['portfolio_snapshots', PORTFOLIO_SNAPSHOTS],
  ];
  for (const [table, columns] of tables) {
    it(`${table}: names every column of the schema (but those the code never touches), in its order, with its type and nullability`, async () => {
      const rows: Array<{ column_name: string; udt_name: string; is_nullable: 'YES' | 'NO' }> = await t
        .db('information_schema.columns')
        .where({ table_schema: t.db.raw('current_schema()'), table_name: table })
        .orderBy('ordinal_position')
        .select('column_name', 'udt_name', 'is_nullable');
      const schema = rows.filter((r) => !(NOT_IN_THE_CODE[table] ?? []).includes(r.column_name));
      expect(Object.entries(columns).map(([name, c]) => [name, UDT_NAME[c.sqlType], c.nullable])).to.deep.equal(
        schema.map((r) => [r.column_name, r.udt_name, r.is_nullable === 'YES']),
      );
    });
  }
});
