// The report tables' pure parts, without a browser: derived tables and their flags, totals and CSV.
import { expect } from 'chai';
import { toCsv, total, type Json } from '../src/components/table-data.js';
import { deriveTables, needsAction } from '../src/components/report-specs.js';
import { tablesOf } from '../src/components/india-specs.js';

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

describe('the India reports’ declared tables', function () {
  const keysOf = (name: string, report: Json) =>
    tablesOf(name, report).map((t) => ({
      id: t.id,
      // Every declared column is a field of the rows it shows: a renamed field would show an empty column.
      missing: t.columns.filter((c) => t.rows.length > 0 && t.rows.every((r) => !(c.key in r))).map((c) => c.key),
      flagged: t.rows.filter(t.flag!).length,
    }));

  it('lrs: PANs whose TCS differs from the estimate or in warn need action; remittances led by their PAN', function () {
    const remittance = {
      order_id: 'order_1',
      customer_id: 'IND-1',
      remitted_on: '2025-05-01',
      amount_inr: '100000',
      amount_usd: '1200.00',
      cumulative_inr: '100000',
      threshold_inr: '1000000',
      above_threshold_inr: '0',
      tcs_rate: '0',
      estimated_tcs_inr: '0',
      actual_tcs_inr: '5',
      refunded: false,
    };
    const pan = {
      pan: 'ABCDE1234F',
      customer_ids: ['IND-1'],
      remittance_count: 1,
      refunded_count: 0,
      remitted_usd: '1200.00',
      remitted_inr: '100000',
      refunded_inr: '0',
      refunded_tcs_inr: '0',
      declared_prior_usage: null,
      lrs_used_share: '0.0048',
      lrs_headroom_usd: '248800.00',
      status: 'ok',
      threshold_crossed_on: null,
      estimated_tcs_inr: '0',
      actual_tcs_inr: '5',
      difference_inr: '5',
      remittances: [remittance],
    };
    const report = {
      fy: '2025-26',
      tcs_rules: [{ from: '2025-04-01', rate: '0.2', threshold_inr: '1000000', unconfirmed: false }],
      pans: [pan, { ...pan, pan: 'ZZZZZ9999Z', difference_inr: '0', actual_tcs_inr: '0', remittances: [] }],
      warnings: [],
    };
    const result = keysOf('lrs', report);
    expect(result.map((t) => [t.id, t.flagged])).to.deep.equal([
      ['pans', 1],
      ['remittances', 1],
      ['tcs_rules', 0],
    ]);
    const missing = result.flatMap((t) => t.missing);
    // A PAN without a declaration has none of its fields.
    expect(missing).to.deep.equal(['declared_prior_usage.amount_usd']);
    const [, remittances] = tablesOf('lrs', report);
    expect(remittances!.rows[0]).to.include({ pan: 'ABCDE1234F', order_id: 'order_1' });
    expect(total(tablesOf('lrs', report)[0]!.rows, 'remitted_usd')).to.equal('2400');
  });

  it('capital-gains: one row per customer and symbol, and each disposal’s lots with its customer, symbol and sale', function () {
    const match = {
      lot_txn_id: 'lot-1',
      acquired_on: '2023-01-02',
      transferred_on: '2025-06-01',
      quantity: '2',
      cost_of_acquisition_usd: '200.00',
      consideration_usd: '300.00',
      gain_usd: '100.00',
      cost_of_acquisition_inr: null,
      consideration_inr: null,
      gain_inr: null,
      months_held: 29,
      term: 'long',
    };
    const report = {
      fy: '2025-26',
      warnings: [],
      items: [
        {
          customer_id: 'IND-1',
          symbols: [
            {
              symbol: 'AAPL',
              disposals: [{ sell_txn_id: 'sell-1', transferred_on: '2025-06-01', quantity: '2', matches: [match] }],
              short_term_gain_inr: '0',
              long_term_gain_inr: '8000',
              long_term_gain_before_2024_07_23_inr: '0',
              long_term_gain_before_2024_07_23_indexed_inr: null,
              long_term_gain_from_2024_07_23_inr: '8000',
              open_lots: [],
              flagged_sales: [{ txn_id: 'sell-2', txn_date: '2025-07-01', quantity: '1', reason: 'no lot' }],
            },
          ],
        },
      ],
    };
    const result = keysOf('capital-gains', report);
    expect(result.map((t) => [t.id, t.flagged, t.missing])).to.deep.equal([
      ['symbols', 1, []],
      ['matches', 1, []],
      ['flagged_sales', 1, []],
      ['open_lots', 0, []],
    ]);
    const [symbols, matches] = tablesOf('capital-gains', report);
    expect(symbols!.rows[0]).to.include({ customer_id: 'IND-1', symbol: 'AAPL', disposals: 1, flagged_sales: 1 });
    expect(matches!.rows[0]).to.include({
      customer_id: 'IND-1',
      symbol: 'AAPL',
      sell_txn_id: 'sell-1',
      gain_usd: '100.00',
    });
  });

  it('ledger-recon and compliance: a mismatch, a halted account or an LRS warn need action; nested figures are columns', function () {
    const customer = {
      customer_id: 'IND-1',
      status: 'mismatch',
      account_no: 'A1',
      ledger: { cash_usd: '10.00', securities_at_cost_usd: '5.00' },
      broker: { cash: '11.00', securities_cost_basis: '5.00', market_value: '6.00', as_of: '2026-01-01' },
      difference: {
        cash_usd: '1.00',
        shares: [
          { symbol: 'AAPL', status: 'match', ledger_quantity: '1', usbroker_quantity: '1', difference: '0' },
          { symbol: 'MSFT', status: 'ledger_only', ledger_quantity: '1', usbroker_quantity: '0', difference: '-1' },
        ],
      },
      error: null,
    };
    const recon = keysOf('ledger-recon', {
      customers: [customer, { ...customer, customer_id: 'IND-2', status: 'match' }],
    });
    expect(recon.map((t) => [t.id, t.flagged, t.missing])).to.deep.equal([
      ['customers', 1, []],
      ['shares', 2, []],
    ]);
    const lrs = {
      fy: '2025-26',
      remitted_usd: '1.00',
      declared_prior_usd: '0',
      lrs_used_share: '0.9',
      lrs_headroom_usd: '1.00',
      status: 'ok',
    };
    const row = { customer_id: 'IND-1', account_no: 'A1', pan: 'P', status: 'active', error: null, lrs };
    const compliance = keysOf('compliance', {
      customers: [row, { ...row, lrs: { ...lrs, status: 'warn' } }, { ...row, status: 'trading_halted' }],
    });
    expect(compliance).to.deep.equal([{ id: 'customers', missing: [], flagged: 2 }]);
  });

  it('reconciliation: aged remittances, wires without one and the customers holding them need action', function () {
    const report = {
      customers: [
        {
          customer_id: 'IND-1',
          account_no: 'A1',
          status: 'compared',
          error: null,
          remittances: 2,
          remitted_usd: '20.00',
          wired_usd: '10.00',
          matched_usd: '10.00',
          counts: { matched: 1, in_transit: 0, aged_in_transit: 1, unmatched_funding: 0 },
        },
      ],
      remittances: [
        {
          order_id: 'o1',
          customer_id: 'IND-1',
          amount_usd: '10.00',
          sent_on: '2026-01-01',
          status: 'matched',
          transfer_id: 't1',
          wire_value_date: '2026-01-02',
          days: 1,
        },
        {
          order_id: 'o2',
          customer_id: 'IND-1',
          amount_usd: '10.00',
          sent_on: '2026-01-01',
          status: 'aged_in_transit',
          transfer_id: null,
          wire_value_date: null,
          days: 9,
        },
      ],
      unmatched_funding: [],
    };
    expect(keysOf('reconciliation', report)).to.deep.equal([
      { id: 'remittances', missing: [], flagged: 1 },
      { id: 'unmatched_funding', missing: [], flagged: 0 },
      { id: 'customers', missing: [], flagged: 1 },
    ]);
  });
});
