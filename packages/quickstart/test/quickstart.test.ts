// End to end: the quickstart's stack (embedded Postgres, the sandbox, both books' real api, worker
// and recon processes) and its whole demo load, then figures a user would check by hand.
import { rmSync } from 'node:fs';
import { BigNumber } from 'bignumber.js';
import { expect } from 'chai';
import { formatQty, positionsOf, PLANTED_MISMATCH_CUSTOMER } from '@ledger/sandbox';
import { deskCloses, opsUrls, startStack, type Stack, type StackOptions } from '../src/index.js';
import { testStackOptions } from '../src/testing.js';

// Small, for CI's time: at the default 200 the load takes minutes, long enough for a recon schedule
// firing during it to show (the stack now delays the first scheduled cycle by an hour); at 8 it ends
// first, so the assertions on the runs below guard what the demo asks for, not the delay itself.
const CUSTOMERS = 8;
/** The demo load, under a shared machine's load. */
const LOAD_TIMEOUT_MS = 5 * 60_000;

interface Variance {
  check_name: string;
  customer_id: string | null;
}
interface Run {
  run_id: string;
  category: string | null;
  status: string;
  metadata: { variances: Variance[] };
}

describe('quickstart: both books, the sandbox and the demo load', function () {
  let dir: string;
  let options: StackOptions;
  let stack: Stack;
  const exits: string[] = [];

  before(async function () {
    ({ dir, options } = await testStackOptions('quickstart', {
      customers: CUSTOMERS,
      onBookExit: (label) => exits.push(label),
    }));
    stack = await startStack(options);
  });

  after(async function () {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const book = (label: 'UAE' | 'India') => stack.books.find((b) => b.label === label)!;
  const latestRun = async (label: 'UAE' | 'India') => {
    const { items } = await book(label).api.get<{ items: { run_id: string }[] }>('/v1/reconciliation/runs?limit=1');
    return book(label).api.get<Run>(`/v1/reconciliation/runs/${items[0]!.run_id}`);
  };
  const positions = async (label: 'UAE' | 'India', customer: string) => {
    const { items } = await book(label).api.get<{ items: { symbol: string; quantity: string }[] }>(
      `/v1/customers/${customer}/positions`,
    );
    return Object.fromEntries(
      items
        .filter((p) => !new BigNumber(p.quantity).isZero())
        .map((p) => [p.symbol, new BigNumber(p.quantity).toFixed()]),
    );
  };

  it('loads both books from the sandbox by the real jobs, and the books stay up', async function () {
    this.timeout(LOAD_TIMEOUT_MS);
    await stack.loadDemo();
    expect(exits).to.deep.equal([]);
    for (const { api } of stack.books) {
      const { total } = await api.get<{ total: number }>('/v1/transactions?limit=1');
      expect(total).to.be.greaterThan(CUSTOMERS * 10);
    }
  });

  it('serves each process’s metrics on the operations port it was given, tagged with its book and service', async function () {
    for (const { book, ops } of stack.books) {
      for (const { process, metrics } of opsUrls(ops)) {
        const text = await (await fetch(metrics)).text();
        expect(text, metrics).to.contain(`book="${book}"`).and.contain(`service="${process}"`);
      }
    }
  });

  it('gives UAE customer 1 the shares its sandbox records leave it holding', async function () {
    const data = stack.sandbox.data.dataOf(stack.sandbox.data.customers[0]!);
    const held = new Map<string, bigint>();
    for (const m of data.movements)
      if (m.symbol !== null && m.qty !== null) held.set(m.symbol, (held.get(m.symbol) ?? 0n) + m.qty);
    const expected = Object.fromEntries(
      [...held].filter(([, qty]) => qty !== 0n).map(([symbol, qty]) => [symbol, qty.toString()]),
    );
    expect(Object.keys(expected)).to.have.length.greaterThan(0);
    expect(await positions('UAE', 'UAE-000001')).to.deep.equal(expected);
  });

  it('gives India customer 1 the shares, fractional ones included, its broker account holds', async function () {
    const data = stack.sandbox.data.india.all()[0]!;
    const expected = Object.fromEntries(
      [...positionsOf(data)].filter(([, p]) => p.qtyMicro !== 0n).map(([symbol, p]) => [symbol, formatQty(p.qtyMicro)]),
    );
    expect(Object.keys(expected)).to.have.length.greaterThan(0);
    expect(await positions('India', 'IND-000001')).to.deep.equal(expected);
  });

  for (const [label, planted] of [
    ['UAE', `UAE-${String(PLANTED_MISMATCH_CUSTOMER).padStart(6, '0')}`],
    ['India', `IND-${String(PLANTED_MISMATCH_CUSTOMER).padStart(6, '0')}`],
  ] as const) {
    it(`ends the ${label} load with a reconciliation run that warns of the planted mismatch (${planted}) alone`, async function () {
      const run = await latestRun(label);
      expect(run.category, "the latest run is the demo load's (every category), not a scheduled one").to.equal(null);
      expect(run.status).to.equal('warn');
      const others = run.metadata.variances
        .filter((v) => v.customer_id !== planted)
        .map((v) => `${v.check_name} ${v.customer_id}`);
      expect(others).to.deep.equal([]);
      expect(run.metadata.variances).to.have.length.greaterThan(0);
    });
  }

  it('runs no scheduled reconciliation in the middle of the demo load: its own run is the only one', async function () {
    for (const label of ['UAE', 'India'] as const) {
      const { items } = await book(label).api.get<{ items: Array<{ category: string | null }> }>(
        '/v1/reconciliation/runs?limit=10',
      );
      expect(
        items.map((r) => r.category),
        label,
      ).to.deep.equal([null]);
    }
  });

  for (const label of ['UAE', 'India'] as const) {
    it(`leaves the ${label} desk a closed financial year, a closed month after it and one pending deposit`, async function () {
      const { api, book: id } = book(label);
      const { yearEnd, monthAfter } = deskCloses(id, stack.period);
      const closes = await api.get<{ items: { action: string; through: string }[] }>('/v1/periods');
      expect(closes.items.map((c) => [c.action, c.through])).to.deep.equal([['close', monthAfter]]);
      const years = await api.get<{ items: unknown[] }>('/v1/periods/years');
      expect(years.items, 'one year close').to.have.length(1);
      expect(JSON.stringify(years.items[0])).to.contain(yearEnd);
      const pending = await api.get<{ items: { amount: string }[] }>('/v1/cash-requests?status=pending');
      expect(pending.items.map((r) => r.amount)).to.deep.equal(['2500.00']);
    });
  }

  it('keeps the data when started again, and does not load it twice', async function () {
    this.timeout(LOAD_TIMEOUT_MS);
    const before = await Promise.all(
      stack.books.map(({ api }) => api.get<{ total: number }>('/v1/transactions?limit=1')),
    );
    await stack.stop();
    const lines: string[] = [];
    stack = await startStack({ ...options, log: (line) => lines.push(line) });
    await stack.loadDemo();
    expect(lines.filter((l) => l.includes('already loaded'))).to.have.length(2);
    const after = await Promise.all(
      stack.books.map(({ api }) => api.get<{ total: number }>('/v1/transactions?limit=1')),
    );
    expect(after.map((p) => p.total)).to.deep.equal(before.map((p) => p.total));
    for (const { api } of stack.books) {
      const pending = await api.get<{ items: unknown[] }>('/v1/cash-requests?status=pending');
      expect(pending.items, 'no second deposit').to.have.length(1);
    }
  });
});
