import { Decimal, draftFromEntry, FeeSchedule, type EntryRequest } from '@ledger/core/posting';
import { postEntry } from '@ledger/core/store';
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { expectError, startApi, type TestApi } from './support.js';

/** Eight transactions posted in this order (so posted_at follows it), one per line. */
const SEED = {
  t1: { txn_type: 'deposit', customer_id: 'C-1', source: 'manual', txn_date: '2026-01-10', amount_usd: '100.00' },
  t2: { txn_type: 'deposit', customer_id: 'C-2', source: 'custodian', txn_date: '2026-01-12', amount_usd: '250.00' },
  t3: {
    txn_type: 'buy_security',
    customer_id: 'C-1',
    source: 'usbroker',
    symbol: 'AAPL',
    quantity: '1',
    txn_date: '2026-01-15',
    amount_usd: '150.00',
  },
  t4: {
    txn_type: 'buy_security',
    customer_id: 'C-2',
    source: 'usbroker',
    symbol: 'MSFT',
    txn_date: '2026-01-20',
    amount_usd: '300.00',
  },
  t5: { txn_type: 'withdrawal', customer_id: 'C-1', source: 'manual', txn_date: '2026-02-01', amount_usd: '40.00' },
  t6: {
    txn_type: 'dividend',
    customer_id: 'C-1',
    source: 'usbroker',
    symbol: 'AAPL',
    txn_date: '2026-02-05',
    amount_usd: '2.50',
  },
  t7: { txn_type: 'fx_spread_settle', source: 'remit', txn_date: '2026-02-10', amount_usd: '5.00' },
  t8: {
    txn_type: 'deposit',
    customer_id: 'C-2',
    source: 'uaefeed',
    category: 'promo',
    txn_date: '2026-02-10',
    amount_usd: '1000.00',
  },
} as const;
type Name = keyof typeof SEED;
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)) };

describe('transaction views: list, one, categories, grouped', () => {
  let api: TestApi;
  const ids = {} as Record<Name, string>;
  const nameOf = (id: string) => (Object.keys(ids) as Name[]).find((n) => ids[n] === id) ?? id;

  before(async () => {
    api = await startApi();
    for (const id of ['C-1', 'C-2']) await api.put(`/v1/customers/${id}`, {});
    for (const [name, body] of Object.entries(SEED) as Array<[Name, (typeof SEED)[Name]]>) {
      if (body.source !== 'manual' || name === 't5') {
        // An upstream's records are its sync's alone (the API refuses them: source_reserved), and C-1's buy left
        // its wallet short (the API would refuse t5: insufficient_funds): these are posted as a sync posts, unchecked,
        // with a time-ordered id as the API gives (ties of txn_date list the newest id first).
        const { transaction } = await postEntry(
          api.db,
          draftFromEntry({ ...body, source_txn_id: name } as EntryRequest, uuidv7(), POLICY),
        );
        ids[name] = transaction.txn_id;
        continue;
      }
      const reply = await api.post('/v1/transactions', { ...body, source_txn_id: name });
      expect(reply.status, reply.text).to.equal(201);
      ids[name] = reply.body.txn_id;
    }
  });
  after(async () => {
    await api.close();
  });

  const read = (path: string) => api.get(path, { token: 'ledger' });
  async function listed(query: string): Promise<string[]> {
    const reply = await read(`/v1/transactions${query}`);
    expect(reply.status, reply.text).to.equal(200);
    return reply.body.items.map((t: { txn_id: string }) => nameOf(t.txn_id));
  }

  describe('GET /v1/transactions', () => {
    it('answers the envelope, newest txn_date first by default, ties newest id first', async () => {
      const reply = await read('/v1/transactions');
      expect(reply.body).to.include({ total: 8, limit: 50, offset: 0 });
      expect(reply.body.items.map((t: { txn_id: string }) => nameOf(t.txn_id))).to.deep.equal([
        't8',
        't7',
        't6',
        't5',
        't4',
        't3',
        't2',
        't1',
      ]);
      expect(reply.body.items[0]).not.to.have.property('journal_lines');
    });

    it('sorts by txn_date, posted_at or amount_usd, either way', async () => {
      expect(await listed('?sort=txn_date&order=asc')).to.deep.equal(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8']);
      expect(await listed('?sort=posted_at&order=asc')).to.deep.equal(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8']);
      expect(await listed('?sort=posted_at')).to.deep.equal(['t8', 't7', 't6', 't5', 't4', 't3', 't2', 't1']);
      expect(await listed('?sort=amount_usd&order=asc')).to.deep.equal([
        't6',
        't7',
        't5',
        't1',
        't3',
        't2',
        't4',
        't8',
      ]);
      expect(await listed('?sort=amount_usd&order=desc')).to.deep.equal([
        't8',
        't4',
        't2',
        't3',
        't1',
        't5',
        't7',
        't6',
      ]);
    });

    const filters: Array<[string, Name[]]> = [
      ['customer_id=C-1', ['t6', 't5', 't3', 't1']],
      ['txn_type=buy_security', ['t4', 't3']],
      ['source=usbroker', ['t6', 't4', 't3']],
      ['category=promo', ['t8']],
      ['category=trading', ['t4', 't3']],
      ['symbol=AAPL', ['t6', 't3']],
      ['from=2026-02-01', ['t8', 't7', 't6', 't5']],
      ['to=2026-01-15', ['t3', 't2', 't1']],
      ['from=2026-01-12&to=2026-01-20', ['t4', 't3', 't2']],
      ['amount_min=100', ['t8', 't4', 't3', 't2', 't1']],
      ['amount_max=100.00', ['t7', 't6', 't5', 't1']],
      ['amount_min=100&amount_max=250', ['t3', 't2', 't1']],
      ['customer_id=C-2&source=uaefeed', ['t8']],
      ['customer_id=C-404', []],
    ];
    for (const [query, expected] of filters) {
      it(`filters by ${query}`, async () => {
        const reply = await read(`/v1/transactions?${query}`);
        expect(reply.body.items.map((t: { txn_id: string }) => nameOf(t.txn_id))).to.deep.equal(expected);
        expect(reply.body.total).to.equal(expected.length);
      });
    }

    it('pages with limit and offset; total counts every match', async () => {
      const first = await read('/v1/transactions?limit=3');
      const second = await read('/v1/transactions?limit=3&offset=3');
      const last = await read('/v1/transactions?limit=3&offset=6');
      expect(first.body).to.include({ total: 8, limit: 3, offset: 0 });
      expect(
        [...first.body.items, ...second.body.items, ...last.body.items].map((t: { txn_id: string }) =>
          nameOf(t.txn_id),
        ),
      ).to.deep.equal(['t8', 't7', 't6', 't5', 't4', 't3', 't2', 't1']);
      expect(last.body.items).to.have.length(2);
      expect((await read('/v1/transactions?limit=500&offset=100')).body).to.include({
        total: 8,
        limit: 500,
        offset: 100,
      });
    });

    const invalid = [
      'limit=501',
      'limit=0',
      'offset=-1',
      'sort=customer_id',
      'order=up',
      'txn_type=bogus',
      'source=ledgerx',
      'amount_min=1e3',
      'from=2026-1-1',
      'unknown=1',
    ];
    for (const query of invalid) {
      it(`refuses ${query} with 400 validation_error`, async () => {
        const reply = await read(`/v1/transactions?${query}`);
        expectError(reply, 400, 'validation_error');
        expect(reply.body.error.details).to.be.an('array').with.length.above(0);
      });
    }
  });

  describe('GET /v1/transactions/{txn_id}', () => {
    it('answers the transaction with its journal lines, which balance', async () => {
      const reply = await read(`/v1/transactions/${ids.t3}`);
      expect(reply.status).to.equal(200);
      expect(reply.body).to.include({ txn_id: ids.t3, txn_type: 'buy_security', symbol: 'AAPL', amount_usd: '150.00' });
      const lines: Array<{ debit: string; credit: string; txn_date: string }> = reply.body.journal_lines;
      expect(lines).to.have.length(6);
      const cents = (s: string) => Math.round(Number(s) * 100);
      expect(lines.reduce((n, l) => n + cents(l.debit), 0)).to.equal(lines.reduce((n, l) => n + cents(l.credit), 0));
      expect(lines.every((l) => l.txn_date === '2026-01-15')).to.equal(true);
    });

    it('an unknown id is 404 not_found; a malformed one 400', async () => {
      expectError(await read(`/v1/transactions/${uuidv7()}`), 404, 'not_found');
      expectError(await read('/v1/transactions/12345'), 400, 'validation_error');
    });
  });

  describe('GET /v1/transactions/categories', () => {
    it('counts and totals per category, most first', async () => {
      const reply = await read('/v1/transactions/categories');
      expect(reply.body.items).to.deep.equal([
        { category: 'funding', count: 3, total_usd: '390.00' },
        { category: 'trading', count: 2, total_usd: '450.00' },
        { category: 'fx', count: 1, total_usd: '5.00' },
        { category: 'income', count: 1, total_usd: '2.50' },
        { category: 'promo', count: 1, total_usd: '1000.00' },
      ]);
    });

    it('applies the list’s filters', async () => {
      const reply = await read('/v1/transactions/categories?customer_id=C-1&to=2026-02-01');
      expect(reply.body.items).to.deep.equal([
        { category: 'funding', count: 2, total_usd: '140.00' },
        { category: 'trading', count: 1, total_usd: '150.00' },
      ]);
    });
  });

  describe('GET /v1/transactions/grouped', () => {
    const groups = async (query: string) => {
      const reply = await read(`/v1/transactions/grouped?${query}`);
      expect(reply.status, reply.text).to.equal(200);
      return reply.body;
    };
    const rows = (body: { items: Array<{ key: string | null; count: number; total_usd: string }> }) =>
      body.items.map((g) => [g.key, g.count, g.total_usd]);

    it('group_by=type: count and total per type, largest total first', async () => {
      const body = await groups('group_by=type');
      expect(body).to.include({ group_by: 'type', total: 5, limit: 50, offset: 0 });
      expect(rows(body)).to.deep.equal([
        ['deposit', 3, '1350.00'],
        ['buy_security', 2, '450.00'],
        ['withdrawal', 1, '40.00'],
        ['fx_spread_settle', 1, '5.00'],
        ['dividend', 1, '2.50'],
      ]);
    });

    it('group_by=source', async () => {
      expect(rows(await groups('group_by=source'))).to.deep.equal([
        ['uaefeed', 1, '1000.00'],
        ['usbroker', 3, '452.50'],
        ['custodian', 1, '250.00'],
        ['manual', 2, '140.00'],
        ['remit', 1, '5.00'],
      ]);
    });

    it('group_by=customer (firm-level transactions under null)', async () => {
      expect(rows(await groups('group_by=customer'))).to.deep.equal([
        ['C-2', 3, '1550.00'],
        ['C-1', 4, '292.50'],
        [null, 1, '5.00'],
      ]);
    });

    it('group_by=day, newest first', async () => {
      const body = await groups('group_by=day');
      expect(body.total).to.equal(7);
      expect(rows(body).slice(0, 3)).to.deep.equal([
        ['2026-02-10', 2, '1005.00'],
        ['2026-02-05', 1, '2.50'],
        ['2026-02-01', 1, '40.00'],
      ]);
    });

    it('group_by=symbol (no symbol under null)', async () => {
      expect(rows(await groups('group_by=symbol'))).to.deep.equal([
        [null, 5, '1395.00'],
        ['MSFT', 1, '300.00'],
        ['AAPL', 2, '152.50'],
      ]);
    });

    it('applies the filters and pages the groups', async () => {
      expect(rows(await groups('group_by=type&customer_id=C-1&source=usbroker'))).to.deep.equal([
        ['buy_security', 1, '150.00'],
        ['dividend', 1, '2.50'],
      ]);
      const page = await groups('group_by=day&limit=2&offset=6');
      expect(page).to.include({ total: 7, limit: 2, offset: 6 });
      expect(rows(page)).to.deep.equal([['2026-01-10', 1, '100.00']]);
    });

    it('group_by is required and must be one of the five', async () => {
      expectError(await read('/v1/transactions/grouped'), 400, 'validation_error');
      expectError(await read('/v1/transactions/grouped?group_by=account'), 400, 'validation_error');
    });
  });
});
