import { expect } from 'chai';
import { expectError, startApi, type TestApi } from './support.js';

/**
 * A small UAE book whose every figure below is worked out by hand from these entries (manual
 * source; the buy's fee is the default 22 bps of 400.00 = 0.88):
 *
 *   d1 2026-01-05 deposit C-1 1000.00         Dr 1100 / Cr 2010 1000.00
 *   d2 2026-01-06 deposit C-2 367.25 AED      Dr 1020 / Cr 2020 100.00
 *   b1 2026-01-10 buy AAPL C-1 400.00         Dr 1200 / Cr 1100 400.00; Dr 2010 / Cr 2100 400.00; Dr 2010 / Cr 4010 0.88
 *   w1 2026-02-03 withdrawal C-1 50.00        Dr 2010 / Cr 1100 50.00
 *   d3 2026-02-04 deposit C-1 200.00          Dr 1100 / Cr 2010 200.00, reversed 2026-02-05 (Dr 2010 / Cr 1100)
 *   f1 2026-02-10 fx_spread 5.00              Dr 1300 / Cr 4030 5.00
 *   a1 2026-02-11 adjustment 1.50             Dr 5030 / Cr 1010 1.50   (a remittance provider's fee)
 *   a2 2026-03-01 adjustment 20.00            Dr 1010 / Cr 4040 20.00  (a partner's revenue share)
 *   a3 2026-03-02 adjustment 0.10             Dr 5010 / Cr 2340 0.10   (a brokerage cost)
 */
const ENTRIES = {
  d1: { txn_type: 'deposit', customer_id: 'C-1', txn_date: '2026-01-05', amount_usd: '1000.00' },
  d2: {
    txn_type: 'deposit',
    customer_id: 'C-2',
    txn_date: '2026-01-06',
    amount_usd: '100.00',
    original_currency: 'AED',
    original_amount: '367.25',
  },
  b1: {
    txn_type: 'buy_security',
    customer_id: 'C-1',
    txn_date: '2026-01-10',
    amount_usd: '400.00',
    symbol: 'AAPL',
    quantity: '2',
  },
  w1: { txn_type: 'withdrawal', customer_id: 'C-1', txn_date: '2026-02-03', amount_usd: '50.00' },
  d3: { txn_type: 'deposit', customer_id: 'C-1', txn_date: '2026-02-04', amount_usd: '200.00' },
  f1: { txn_type: 'fx_spread', txn_date: '2026-02-10', amount_usd: '5.00' },
  a1: {
    txn_type: 'adjustment',
    txn_date: '2026-02-11',
    amount_usd: '1.50',
    credits_operating_bank: true,
    lines: lines('5030', '1010', '1.50'),
  },
  a2: { txn_type: 'adjustment', txn_date: '2026-03-01', amount_usd: '20.00', lines: lines('1010', '4040', '20.00') },
  a3: { txn_type: 'adjustment', txn_date: '2026-03-02', amount_usd: '0.10', lines: lines('5010', '2340', '0.10') },
} as const;

function lines(debit: string, credit: string, amount: string) {
  return [
    { account_code: debit, debit: amount, credit: '0' },
    { account_code: credit, debit: '0', credit: amount },
  ];
}

const FIRM_PATHS = ['/v1/firm/accounts', '/v1/firm/trial_balance', '/v1/firm/summary', '/v1/firm/earnings'];

/** A JSON value's shape: its keys, recursively, with arrays by their first item (the response validator checks the types). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .map(([k, v]) => [k, shape(v)])
        .sort(),
    );
  return 'value';
}

async function seed(api: TestApi, entries: Record<string, Record<string, unknown>>): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [name, body] of Object.entries(entries)) {
    const reply = await api.post('/v1/transactions', { source: 'manual', source_txn_id: name, ...body });
    expect(reply.status, reply.text).to.equal(201);
    ids[name] = reply.body.txn_id;
  }
  return ids;
}

describe('firm reports (summary, earnings, accounts and trial balance as of a day)', () => {
  let uae: TestApi;
  let india: TestApi;
  let ids: Record<string, string>;
  const read = async (api: TestApi, path: string) => {
    const reply = await api.get(path, { token: 'ledger' });
    expect(reply.status, reply.text).to.equal(200);
    return reply.body;
  };

  before(async () => {
    uae = await startApi();
    india = await startApi({ env: { ENTITY_ID: 'ENTITY_IND_IFSC' } });
  });
  after(async () => {
    await uae?.close();
    await india?.close();
  });

  describe('on empty books', () => {
    it('answer every firm endpoint on both books with zeros and empty lists, in the same shape', async () => {
      for (const path of FIRM_PATHS) {
        const [u, i] = [await read(uae, path), await read(india, path)];
        expect(shape(i), path).to.deep.equal(shape(u));
      }
      const summary = await read(india, '/v1/firm/summary');
      expect(summary).to.deep.include({
        total_deposits_usd: '0.00',
        fees_revenue_usd: '0.00',
        cash_aed_usd: '0.00',
        transaction_count: 0,
        by_type: [],
        flows: [],
        recent: [],
      });
      const earnings = await read(uae, '/v1/firm/earnings');
      expect(earnings.sources.map((s: { source: string }) => s.source)).to.deep.equal([
        'custodian',
        'partners',
        'fx_spread',
      ]);
      expect(earnings).to.deep.include({ revenue_usd: '0.00', cost_usd: '0.00', margin_usd: '0.00', months: [] });
    });
  });

  describe('on a hand-built UAE book', () => {
    before(async () => {
      for (const id of ['C-1', 'C-2']) await uae.put(`/v1/customers/${id}`, {});
      ids = await seed(uae, ENTRIES);
      const reversal = await uae.post(`/v1/transactions/${ids.d3}/reverse`, { txn_date: '2026-02-05' });
      expect(reversal.status, reversal.text).to.equal(201);
      ids.r3 = reversal.body.txn_id;
    });

    it('summarises all time: money in and out net of the reversal, revenue, AUM and cash now, counts, types, daily flows, newest first', async () => {
      const s = await read(uae, '/v1/firm/summary');
      expect(s).to.deep.include({
        from: null,
        to: null,
        total_deposits_usd: '1100.00', // 1000.00 + 100.00 (AED) + 200.00 − 200.00 (reversed)
        total_withdrawals_usd: '50.00',
        fees_revenue_usd: '25.88', // 0.88 + 5.00 + 20.00
        aum_custody_usd: '400.00',
        cash_usd: '568.50', // 1010: 20.00 − 1.50; 1100: 1000 − 400 − 50 + 200 − 200
        cash_aed_usd: '100.00',
        cash_aed: '367.25', // 100.00 × 3.6725
        aed_per_usd: '3.6725',
        transaction_count: 10,
        customer_count: 2,
      });
      expect(s.by_type).to.deep.equal([
        { txn_type: 'adjustment', count: 3, total_usd: '21.60' },
        { txn_type: 'buy_security', count: 1, total_usd: '400.00' },
        { txn_type: 'deposit', count: 3, total_usd: '1300.00' },
        { txn_type: 'fx_spread', count: 1, total_usd: '5.00' },
        { txn_type: 'reversal', count: 1, total_usd: '200.00' },
        { txn_type: 'withdrawal', count: 1, total_usd: '50.00' },
      ]);
      expect(s.flows).to.deep.equal([
        { day: '2026-01-05', deposits_usd: '1000.00', withdrawals_usd: '0.00' },
        { day: '2026-01-06', deposits_usd: '100.00', withdrawals_usd: '0.00' },
        { day: '2026-02-03', deposits_usd: '0.00', withdrawals_usd: '50.00' },
        { day: '2026-02-04', deposits_usd: '200.00', withdrawals_usd: '0.00' },
        { day: '2026-02-05', deposits_usd: '-200.00', withdrawals_usd: '0.00' },
      ]);
      expect(s.recent.map((t: { txn_id: string }) => t.txn_id)).to.deep.equal(
        ['a3', 'a2', 'a1', 'f1', 'r3', 'd3', 'w1', 'b1', 'd2', 'd1'].map((n) => ids[n]),
      );
      expect(s.recent[4]).to.deep.include({
        txn_type: 'reversal',
        source: 'ledger',
        customer_id: 'C-1',
        amount_usd: '200.00',
        reverses_txn_id: ids.d3,
      });
    });

    it('summarises a window: flows over its days, balances at the end of its last day', async () => {
      const s = await read(uae, '/v1/firm/summary?from=2026-02-01&to=2026-02-28');
      expect(s).to.deep.include({
        from: '2026-02-01',
        to: '2026-02-28',
        total_deposits_usd: '0.00', // 200.00 deposited and reversed within the window
        total_withdrawals_usd: '50.00',
        fees_revenue_usd: '5.00',
        aum_custody_usd: '400.00',
        cash_usd: '548.50', // 1010 −1.50 (a2 comes in March); 1100 550.00
        cash_aed_usd: '100.00',
        transaction_count: 5,
        customer_count: 2,
      });
      expect(
        s.by_type.map((t: { txn_type: string; count: number; total_usd: string }) => [
          t.txn_type,
          t.count,
          t.total_usd,
        ]),
      ).to.deep.equal([
        ['adjustment', 1, '1.50'],
        ['deposit', 1, '200.00'],
        ['fx_spread', 1, '5.00'],
        ['reversal', 1, '200.00'],
        ['withdrawal', 1, '50.00'],
      ]);
      expect(s.flows.map((f: { day: string }) => f.day)).to.deep.equal(['2026-02-03', '2026-02-04', '2026-02-05']);
      expect(s.recent.map((t: { txn_id: string }) => t.txn_id)).to.deep.equal(
        ['a1', 'f1', 'r3', 'd3', 'w1'].map((n) => ids[n]),
      );
    });

    it('gives earnings by source, in total and per month: custodian, partners, FX spread', async () => {
      const e = await read(uae, '/v1/firm/earnings');
      const row = (s: { source: string; revenue_usd: string; cost_usd: string; margin_usd: string }) => [
        s.source,
        s.revenue_usd,
        s.cost_usd,
        s.margin_usd,
      ];
      expect(e.sources.map(row)).to.deep.equal([
        ['custodian', '0.88', '0.10', '0.78'],
        ['partners', '20.00', '0.00', '20.00'],
        ['fx_spread', '5.00', '1.50', '3.50'],
      ]);
      expect([e.revenue_usd, e.cost_usd, e.margin_usd]).to.deep.equal(['25.88', '1.60', '24.28']);
      expect(
        e.months.map((m: { month: string; revenue_usd: string; cost_usd: string; margin_usd: string }) => [
          m.month,
          m.revenue_usd,
          m.cost_usd,
          m.margin_usd,
        ]),
      ).to.deep.equal([
        ['2026-01', '0.88', '0.00', '0.88'],
        ['2026-02', '5.00', '1.50', '3.50'],
        ['2026-03', '20.00', '0.10', '19.90'],
      ]);
      expect(e.months[2].sources.map(row)).to.deep.equal([
        ['custodian', '0.00', '0.10', '-0.10'],
        ['partners', '20.00', '0.00', '20.00'],
        ['fx_spread', '0.00', '0.00', '0.00'],
      ]);
    });

    it('gives earnings over a window, counting only its days of a month it cuts', async () => {
      const e = await read(uae, '/v1/firm/earnings?from=2026-02-01&to=2026-03-01');
      expect(e).to.include({
        from: '2026-02-01',
        to: '2026-03-01',
        revenue_usd: '25.00',
        cost_usd: '1.50',
        margin_usd: '23.50',
      });
      expect(e.months.map((m: { month: string; margin_usd: string }) => [m.month, m.margin_usd])).to.deep.equal([
        ['2026-02', '3.50'],
        ['2026-03', '20.00'],
      ]);
    });

    it('shows accounts as they stood at the end of a day: before any posting, before and after the reversal, and now', async () => {
      const wallet = async (query: string) =>
        (await read(uae, `/v1/firm/accounts${query}`)).items.find(
          (a: { account_code: string }) => a.account_code === '2010',
        );
      expect(await wallet('?as_of=2026-01-04')).to.include({
        debit: '0.00',
        credit: '0.00',
        balance: '0.00',
        line_count: 0,
      });
      // Credits 1000.00 + 200.00; debits 400.00 + 0.88 + 50.00.
      expect(await wallet('?as_of=2026-02-04')).to.include({
        debit: '450.88',
        credit: '1200.00',
        balance: '749.12',
        line_count: 5,
      });
      expect(await wallet('?as_of=2026-02-05')).to.include({
        debit: '650.88',
        credit: '1200.00',
        balance: '549.12',
        line_count: 6,
      });
      expect(await wallet('?as_of=2026-12-31')).to.deep.equal(await wallet(''));
    });

    it('gives the trial balance as it stood at the end of a day', async () => {
      const tb = await read(uae, '/v1/firm/trial_balance?as_of=2026-01-31');
      const nonZero = tb.accounts
        .filter((a: Record<string, string>) => a.debit_balance !== '0.00' || a.credit_balance !== '0.00')
        .map((a: Record<string, string>) => [a.account_code, a.debit_balance, a.credit_balance]);
      expect(nonZero).to.deep.equal([
        ['1020', '100.00', '0.00'],
        ['1100', '600.00', '0.00'],
        ['1200', '400.00', '0.00'],
        ['2010', '0.00', '599.12'],
        ['2020', '0.00', '100.00'],
        ['2100', '0.00', '400.00'],
        ['4010', '0.00', '0.88'],
      ]);
      expect(tb).to.include({ total_debit: '1100.00', total_credit: '1100.00', difference: '0.00', balanced: true });
    });

    it('moves as_of balances and the window’s figures only from the day a new posting is dated', async () => {
      const before = await read(uae, '/v1/firm/summary?to=2026-03-31');
      await seed(uae, {
        late: { txn_type: 'deposit', customer_id: 'C-2', txn_date: '2026-04-02', amount_usd: '10.00' },
      });
      expect(await read(uae, '/v1/firm/summary?to=2026-03-31')).to.deep.equal(before);
      const after = await read(uae, '/v1/firm/summary?to=2026-04-02');
      expect(after).to.include({ total_deposits_usd: '1110.00', cash_usd: '578.50', transaction_count: 11 });
    });
  });

  describe('on a hand-built India book', () => {
    before(async () => {
      await india.put('/v1/customers/C-9', {});
      await seed(india, {
        i1: { txn_type: 'deposit', customer_id: 'C-9', txn_date: '2026-01-15', amount_usd: '500.00' },
        i2: { txn_type: 'fx_spread', customer_id: 'C-9', txn_date: '2026-01-15', amount_usd: '7.00' },
        i3: { txn_type: 'fx_spread_settle', txn_date: '2026-01-31', amount_usd: '7.00' },
      });
    });

    it('answers the same shapes as the UAE book, with its own figures and the UAE-only ones at zero', async () => {
      for (const path of FIRM_PATHS)
        expect(shape(await read(india, path)), path).to.deep.equal(shape(await read(uae, path)));
      const s = await read(india, '/v1/firm/summary');
      expect(s).to.deep.include({
        total_deposits_usd: '500.00',
        fees_revenue_usd: '7.00',
        cash_usd: '507.00',
        cash_aed_usd: '0.00',
        cash_aed: '0.00',
        transaction_count: 3,
        customer_count: 1,
      });
      const e = await read(india, '/v1/firm/earnings');
      expect(e.sources.map((x: { source: string; margin_usd: string }) => [x.source, x.margin_usd])).to.deep.equal([
        ['custodian', '0.00'],
        ['partners', '0.00'],
        ['fx_spread', '7.00'],
      ]);
    });
  });

  describe('refusals', () => {
    it('answer 400 for a window that ends before it starts, and for a malformed date', async () => {
      for (const path of ['/v1/firm/summary', '/v1/firm/earnings']) {
        expectError(
          await uae.get(`${path}?from=2026-02-02&to=2026-02-01`, { token: 'ledger' }),
          400,
          'validation_error',
        );
        expectError(await uae.get(`${path}?from=2026-13-01`, { token: 'ledger' }), 400, 'validation_error');
      }
      for (const path of ['/v1/firm/accounts', '/v1/firm/trial_balance']) {
        expectError(await uae.get(`${path}?as_of=yesterday`, { token: 'ledger' }), 400, 'validation_error');
      }
    });

    it('answer 401 without a token', async () => {
      for (const path of FIRM_PATHS) expectError(await uae.get(path), 401, 'unauthorized');
    });
  });
});
