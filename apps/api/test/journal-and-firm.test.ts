import { Decimal, draftFromEntry, FeeSchedule, type EntryRequest } from '@ledger/core/posting';
import { postEntry } from '@ledger/core/store';
import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { expectError, startApi, type TestApi } from './support.js';

/** Four transactions, two journal lines each, posted in order (line ids 1..8). */
const SEED = {
  j1: { txn_type: 'deposit', customer_id: 'C-1', source: 'manual', txn_date: '2026-03-01', amount_usd: '100.00' },
  j2: { txn_type: 'fx_spread', customer_id: 'C-2', source: 'remit', txn_date: '2026-03-02', amount_usd: '7.00' },
  j3: { txn_type: 'wht_tax', customer_id: 'C-1', source: 'usbroker', txn_date: '2026-03-03', amount_usd: '1.50' },
  j4: { txn_type: 'fx_spread_settle', source: 'remit', txn_date: '2026-03-04', amount_usd: '7.00' },
} as const;
type Name = keyof typeof SEED;

interface Line {
  line_id: string;
  txn_id: string;
  account_code: string;
  debit: string;
  credit: string;
  customer_id: string | null;
  posting_kind: string;
}

describe('journal, postings and firm reports', () => {
  let api: TestApi;
  const ids = {} as Record<Name, string>;
  const read = async (path: string) => {
    const reply = await api.get(path, { token: 'ledger' });
    expect(reply.status, reply.text).to.equal(200);
    return reply.body;
  };
  const lineRows = (body: { items: Line[] }) =>
    body.items.map((l) => [l.account_code, l.debit, l.credit, l.posting_kind]);

  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  describe('on an empty book', () => {
    it('GET /v1/firm/accounts lists the whole chart at zero', async () => {
      const body = await read('/v1/firm/accounts');
      expect(body.items).to.have.length(20);
      expect(body.items.map((a: { account_code: string }) => a.account_code)).to.include.members([
        '1010',
        '1300',
        '2010',
        '4020',
        '5030',
        '5090',
      ]);
      for (const a of body.items)
        expect([a.debit, a.credit, a.net, a.balance, a.line_count]).to.deep.equal(['0.00', '0.00', '0.00', '0.00', 0]);
      const dormant = body.items
        .filter((a: { dormant: boolean }) => a.dormant)
        .map((a: { account_code: string }) => a.account_code);
      expect(dormant).to.deep.equal(['1210', '2110']);
    });

    it('GET /v1/firm/trial_balance balances at zero', async () => {
      const body = await read('/v1/firm/trial_balance');
      expect(body).to.include({ total_debit: '0.00', total_credit: '0.00', difference: '0.00', balanced: true });
    });

    it('the journal is empty', async () => {
      expect(await read('/v1/journal')).to.deep.equal({ items: [], total: 0, limit: 50, offset: 0 });
    });
  });

  describe('after posting', () => {
    before(async () => {
      for (const id of ['C-1', 'C-2']) await api.put(`/v1/customers/${id}`, {});
      for (const [name, body] of Object.entries(SEED) as Array<[Name, (typeof SEED)[Name]]>) {
        if (body.source !== 'manual') {
          // An upstream's records are its sync's alone (the API refuses them: source_reserved): posted as its sync posts.
          const entry = { ...body, source_txn_id: name } as EntryRequest;
          const policy = { feeSchedule: new FeeSchedule(new Decimal(22)) };
          ids[name] = (await postEntry(api.db, draftFromEntry(entry, uuidv7(), policy))).transaction.txn_id;
          continue;
        }
        const reply = await api.post('/v1/transactions', { ...body, source_txn_id: name });
        expect(reply.status, reply.text).to.equal(201);
        ids[name] = reply.body.txn_id;
      }
    });

    describe('GET /v1/firm/accounts and /v1/firm/trial_balance', () => {
      it('accounts carry the running debit, credit, net and normal-side balance', async () => {
        const body = await read('/v1/firm/accounts');
        const touched = body.items
          .filter((a: { line_count: number }) => a.line_count > 0)
          .map((a: Record<string, unknown>) => [a.account_code, a.debit, a.credit, a.net, a.balance, a.line_count]);
        expect(touched).to.deep.equal([
          ['1010', '7.00', '0.00', '7.00', '7.00', 1],
          ['1100', '100.00', '1.50', '98.50', '98.50', 2],
          ['1300', '7.00', '7.00', '0.00', '0.00', 2],
          ['2010', '1.50', '100.00', '-98.50', '98.50', 2],
          ['4030', '0.00', '7.00', '-7.00', '7.00', 1],
        ]);
      });

      it('the trial balance puts each balance in its column and balances', async () => {
        const body = await read('/v1/firm/trial_balance');
        expect(body).to.include({ total_debit: '105.50', total_credit: '105.50', difference: '0.00', balanced: true });
        const nonZero = body.accounts
          .filter((a: Record<string, string>) => a.debit_balance !== '0.00' || a.credit_balance !== '0.00')
          .map((a: Record<string, string>) => [a.account_code, a.debit_balance, a.credit_balance]);
        expect(nonZero).to.deep.equal([
          ['1010', '7.00', '0.00'],
          ['1100', '98.50', '0.00'],
          ['2010', '0.00', '98.50'],
          ['4030', '0.00', '7.00'],
        ]);
      });
    });

    describe('GET /v1/journal', () => {
      it('lists every line, newest first, with its account name', async () => {
        const body = await read('/v1/journal');
        expect(body.total).to.equal(8);
        expect(body.items.map((l: Line) => Number(l.line_id))).to.deep.equal(
          [...body.items.map((l: Line) => Number(l.line_id))].sort((a, b) => b - a),
        );
        expect(body.items[0]).to.include({
          txn_id: ids.j4,
          account_code: '1300',
          account_name: 'FX receivable, remittance provider',
          txn_date: '2026-03-04',
        });
      });

      it('filters by txn_id, account_code, customer_id, posting_kind, from and to', async () => {
        expect(lineRows(await read(`/v1/journal?txn_id=${ids.j2}`))).to.deep.equal([
          ['4030', '0.00', '7.00', 'fx_spread'],
          ['1300', '7.00', '0.00', 'fx_spread'],
        ]);
        expect(lineRows(await read('/v1/journal?account_code=1100'))).to.deep.equal([
          ['1100', '0.00', '1.50', 'wht_tax'],
          ['1100', '100.00', '0.00', 'deposit'],
        ]);
        const c1 = await read('/v1/journal?customer_id=C-1');
        expect(c1.total).to.equal(4);
        expect(c1.items.every((l: Line) => l.customer_id === 'C-1')).to.equal(true);
        expect(lineRows(await read('/v1/journal?posting_kind=fx_spread_settle'))).to.deep.equal([
          ['1300', '0.00', '7.00', 'fx_spread_settle'],
          ['1010', '7.00', '0.00', 'fx_spread_settle'],
        ]);
        expect((await read('/v1/journal?from=2026-03-03')).total).to.equal(4);
        expect((await read('/v1/journal?to=2026-03-01')).total).to.equal(2);
        expect(
          (await read('/v1/journal?from=2026-03-02&to=2026-03-03&account_code=2010')).items.map((l: Line) => l.txn_id),
        ).to.deep.equal([ids.j3]);
      });

      it('pages', async () => {
        const body = await read('/v1/journal?limit=3&offset=6');
        expect(body).to.include({ total: 8, limit: 3, offset: 6 });
        expect(body.items).to.have.length(2);
      });

      it('refuses malformed filters with 400', async () => {
        for (const query of [
          'account_code=10',
          'posting_kind=Bad-Kind',
          'txn_id=nope',
          'limit=1000',
          'txn_type=deposit',
        ]) {
          expectError(await api.get(`/v1/journal?${query}`, { token: 'ledger' }), 400, 'validation_error');
        }
      });
    });

    describe('GET /v1/journal/grouped', () => {
      const groups = async (query: string) => {
        const body = await read(`/v1/journal/grouped?${query}`);
        return body.items.map((g: Record<string, unknown>) => [g.key, g.line_count, g.debit, g.credit, g.net]);
      };

      it('group_by=account', async () => {
        expect(await groups('group_by=account')).to.deep.equal([
          ['1010', 1, '7.00', '0.00', '7.00'],
          ['1100', 2, '100.00', '1.50', '98.50'],
          ['1300', 2, '7.00', '7.00', '0.00'],
          ['2010', 2, '1.50', '100.00', '-98.50'],
          ['4030', 1, '0.00', '7.00', '-7.00'],
        ]);
      });

      it('group_by=posting_kind', async () => {
        expect((await groups('group_by=posting_kind')).map((g: unknown[]) => [g[0], g[1]])).to.deep.equal([
          ['deposit', 2],
          ['fx_spread', 2],
          ['fx_spread_settle', 2],
          ['wht_tax', 2],
        ]);
      });

      it('group_by=customer (firm-level lines under null)', async () => {
        expect((await groups('group_by=customer')).map((g: unknown[]) => [g[0], g[1]])).to.deep.equal([
          ['C-1', 4],
          ['C-2', 2],
          [null, 2],
        ]);
      });

      it('group_by=day, newest first, with filters and paging', async () => {
        expect((await groups('group_by=day')).map((g: unknown[]) => g[0])).to.deep.equal([
          '2026-03-04',
          '2026-03-03',
          '2026-03-02',
          '2026-03-01',
        ]);
        expect(await groups('group_by=day&account_code=1100')).to.deep.equal([
          ['2026-03-03', 1, '0.00', '1.50', '-1.50'],
          ['2026-03-01', 1, '100.00', '0.00', '100.00'],
        ]);
        const page = await read('/v1/journal/grouped?group_by=day&limit=1&offset=1');
        expect(page).to.include({ group_by: 'day', total: 4, limit: 1, offset: 1 });
        expect(page.items.map((g: { key: string }) => g.key)).to.deep.equal(['2026-03-03']);
      });

      it('group_by is required and must be one of the four', async () => {
        expectError(await api.get('/v1/journal/grouped', { token: 'ledger' }), 400, 'validation_error');
        expectError(await api.get('/v1/journal/grouped?group_by=type', { token: 'ledger' }), 400, 'validation_error');
      });
    });

    describe('GET /v1/postings', () => {
      it('flattens each line with its transaction’s facts', async () => {
        const body = await read('/v1/postings');
        expect(body.total).to.equal(8);
        expect(body.items[0]).to.include({
          txn_id: ids.j4,
          account_type: 'asset',
          txn_type: 'fx_spread_settle',
          source: 'remit',
          source_txn_id: 'j4',
          category: 'fx',
          reverses_txn_id: null,
        });
      });

      it('filters by the journal filters and by txn_type and source', async () => {
        const byType = await read('/v1/postings?txn_type=fx_spread');
        expect(byType.items.map((p: Line) => p.txn_id)).to.deep.equal([ids.j2, ids.j2]);
        expect((await read('/v1/postings?source=remit')).total).to.equal(4);
        const combined = await read('/v1/postings?source=remit&account_code=1300&customer_id=C-2');
        expect(lineRows(combined)).to.deep.equal([['1300', '7.00', '0.00', 'fx_spread']]);
        expect((await read('/v1/postings?source=remit&from=2026-03-03')).total).to.equal(2);
      });
    });
  });
});
