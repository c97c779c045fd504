import { expect } from 'chai';
import { CASH_REQUESTS } from '../src/store/columns/cash-requests.js';
import { CUSTOMERS } from '../src/store/columns/customers.js';
import { DIVIDEND_EVENTS } from '../src/store/columns/dividend-events.js';
import { JOURNAL_LINES } from '../src/store/columns/journal-lines.js';
import { HOLDINGS_SNAPSHOTS, PORTFOLIO_SNAPSHOTS } from '../src/store/columns/snapshots.js';
import { REMITTANCES } from '../src/store/columns/remittances.js';
import { CASH_STATEMENTS, UAEFEED_STATEMENTS } from '../src/store/columns/statements.js';
import { Decimal } from '../src/domain/money.js';
import type { TransactionDraft } from '../src/domain/transaction.js';
import { documentOf, documentRecords, type Columns } from '../src/store/columns/table.js';
import { TRANSACTIONS } from '../src/store/columns/transactions.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

/** Columns of the schema the code never reads or writes, and why. */
const NOT_IN_THE_CODE: Record<string, string[]> = {
  // The database's own stamp, for the commit-time balance check (ADR 0001); no caller can set it.
  transactions: ['created_xid'],
};

/** How information_schema names the column tables' SQL types. */
const UDT_NAME = {
  uuid: 'uuid',
  text: 'text',
  numeric: 'numeric',
  bigint: 'int8',
  date: 'date',
  boolean: 'bool',
  timestamptz: 'timestamptz',
  jsonb: 'jsonb',
};

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
      const stored = Object.entries(columns).filter(([, c]) => c.readVia === undefined);
      expect(stored.map(([name, c]) => [name, UDT_NAME[c.sqlType], c.nullable])).to.deep.equal(
        schema.map((r) => [r.column_name, r.udt_name, r.is_nullable === 'YES']),
      );
    });
  }

  it('a document read back gives each written column its own value, under its own name (positions come from the table on both sides)', async () => {
    // Every field set and different from every other, so a value read from a neighbour's position shows.
    const draft: TransactionDraft = {
      txnId: '01930000-0000-7000-8000-000000000001',
      customerId: 'CUST-1',
      txnType: 'sell_security',
      source: 'usbroker',
      sourceTxnId: 'ORD-9',
      category: 'trading',
      symbol: 'AAPL',
      quantity: new Decimal('3.5'),
      txnDate: '2026-03-04',
      amountUsd: new Decimal('1234.56'),
      originalCurrency: 'AED',
      originalAmount: new Decimal('4534.00'),
      fxRate: new Decimal('3.6725'),
      pendingRecost: true,
      reversesTxnId: '01930000-0000-7000-8000-000000000002',
      memo: 'a memo',
      metadata: { brokerage_bps: '20', nested: { list: [1, 'two'] } },
      requestHash: 'f'.repeat(64),
      lines: [],
    };
    const { rows } = await t.db.raw(`SELECT to_jsonb(r) AS record FROM ${documentRecords(TRANSACTIONS, '?')} AS r`, [
      documentOf(TRANSACTIONS, [draft]),
    ]);
    expect(rows).to.have.length(1);
    const record = rows[0].record as Record<string, unknown>;
    const expected = Object.entries(TRANSACTIONS as Columns)
      .filter(([, c]) => c.write !== undefined)
      .map(([name, c]) => [c.writeVia?.field ?? name, JSON.parse(JSON.stringify(c.write!(draft)))]);
    const numeric = new Set(
      Object.entries(TRANSACTIONS as Columns)
        .filter(([, c]) => c.sqlType === 'numeric')
        .map(([name]) => name),
    );
    // jsonb gives numerics as JSON numbers: compared as decimals.
    expect(
      expected.map(([field]) => [
        field,
        numeric.has(field) ? new Decimal(record[field] as number).toFixed() : record[field],
      ]),
    ).to.deep.equal(
      expected.map(([field, value]) => [field, numeric.has(field) ? new Decimal(value as string).toFixed() : value]),
    );
    expect(record.position).to.equal(1);
  });

  it('a document keeps its records in order and reads a null as SQL NULL, jsonb columns included', async () => {
    // Records written by hand, one value per written column in the table's order (as documentOf writes them).
    const written = Object.entries(TRANSACTIONS as Columns)
      .filter(([, c]) => c.write !== undefined)
      .map(([name]) => name);
    const { rows } = await t.db.raw(
      `SELECT r.customer_id, r.memo IS NULL AS memo_is_null, r.metadata IS NULL AS metadata_is_null, r.position FROM ${documentRecords(TRANSACTIONS, '?')} AS r ORDER BY r.position`,
      [JSON.stringify([written.map(() => null), written.map((name) => (name === 'customer_id' ? 'SECOND' : null))])],
    );
    expect(
      rows.map(
        (r: { customer_id: string | null; memo_is_null: boolean; metadata_is_null: boolean; position: string }) => [
          r.customer_id,
          r.memo_is_null,
          r.metadata_is_null,
          Number(r.position),
        ],
      ),
    ).to.deep.equal([
      [null, true, true, 1],
      ['SECOND', true, true, 2],
    ]);
  });
});
