// The report tables' pure parts, without a browser: derived tables and their flags, totals and CSV.
import { expect } from 'chai';
import { toCsv, total, type Json } from '../src/components/table-data.js';
import { deriveTables, needsAction, tablesOf } from '../src/components/report-specs.js';

const holdings: Json = {
  totals: { customers: { compared: 2, no_link: 0, error: 0 } },
  customers: [
    {
      customer_id: 'IND-1',
      account_no: 'A1',
      status: 'compared',
      error: null,
      symbols: [
        { symbol: 'AAPL', status: 'match', ledger_quantity: '1.5', usbroker_quantity: '1.5', difference: '0' },
        { symbol: 'MSFT', status: 'mismatch', ledger_quantity: '2', usbroker_quantity: '3', difference: '1' },
      ],
    },
  ],
};

describe('report tables', function () {
  it('sums money as decimals, never through a float', function () {
    expect(total([{ a: '0.1' }, { a: '0.2' }, { a: null }], 'a')).to.equal('0.3');
    expect(total([{ a: '90071992547409.93' }, { a: '0.07' }], 'a')).to.equal('90071992547410');
  });

  it('writes CSV with the labels as header and quotes what needs it', function () {
    const csv = toCsv(
      [
        { key: 'n', label: 'Name' },
        { key: 'v', label: 'Value', align: 'money' },
      ],
      [{ n: 'a, "b"', v: '-1.50' }],
    );
    expect(csv).to.equal('Name,Value\r\n"a, ""b""",-1.50\r\n');
  });

  it('derives a table per list of records, a nested list led by its parent’s name, amounts totalled', function () {
    const tables = deriveTables({ fy: '2025-26', pans: [{ pan: 'P', remitted_usd: '10.00', lrs_used_share: '0.1' }] });
    expect(tables.map((t) => t.id)).to.deep.equal(['pans']);
    expect(tables[0]!.columns.map((c) => [c.key, c.align, c.total])).to.deep.equal([
      ['pan', 'text', false],
      ['remitted_usd', 'money', true],
      ['lrs_used_share', 'num', false],
    ]);
    const nested = deriveTables(holdings);
    expect(nested.map((t) => t.id)).to.deep.equal(['customers', 'customers.symbols']);
    expect(nested[1]!.rows[1]).to.include({ customer_id: 'IND-1', symbol: 'MSFT' });
    expect(nested[1]!.rows.map(needsAction)).to.deep.equal([false, true]);
  });

  it('flags a status not settled, an error or a row the API flagged', function () {
    expect(needsAction({ status: 'ok' })).to.equal(false);
    expect(needsAction({ status: 'breach' })).to.equal(true);
    expect(needsAction({ status: 'ok', error: 'timeout' })).to.equal(true);
    expect(needsAction({ flagged: true })).to.equal(true);
  });

  it('gives holdings-recon its declared tables, the symbols first with the mismatch flagged', function () {
    const [symbols] = tablesOf('holdings-recon', holdings);
    expect(symbols!.id).to.equal('symbols');
    expect(symbols!.rows.filter(symbols!.flag!).map((r) => r.symbol)).to.deep.equal(['MSFT']);
    expect(total(symbols!.rows, 'difference')).to.equal('1');
  });
});
