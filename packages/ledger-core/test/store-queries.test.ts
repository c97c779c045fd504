import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { reversingLines } from '../src/domain/posting-rules/index.js';
import { Decimal, type EntryRequest, type JournalLineDraft } from '../src/entry-points/posting.js';
import {
  categoryFacets,
  groupJournal,
  groupTransactions,
  listJournalLines,
  listPostings,
  listTransactions,
  postEntry,
  reverseTransaction,
  upsertCustomer,
  type JournalGroupBy,
  type TransactionGroupBy,
} from '../src/entry-points/store.js';
import type { TransactionSummary } from '../src/store/columns/transactions.js';
import type { SortOrder, TransactionSort } from '../src/store/transaction-queries.js';
import type { TestDatabase } from '../src/testing/index.js';
import { draft, storeDatabase } from './helpers.js';

const PAGE = { limit: 500, offset: 0 };
const dec = (value: string | number | null | undefined) => new Decimal(String(value ?? 0));

describe('store', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let db: Knex;

  before(async () => ({ t, db } = await storeDatabase()));
  after(async () => t?.drop());

  describe('queries', () => {
    // Everything here is dated 2031, which no other test uses: SCOPE isolates it from them.
    const SCOPE = { from: '2031-01-01', to: '2031-12-31' };
    interface Model {
      txn_id: string;
      customer_id: string | null;
      txn_type: string;
      source: string;
      category: string;
      symbol: string | null;
      txn_date: string;
      amount: Decimal;
      order: number;
      lines: JournalLineDraft[];
    }
    const FIXTURE: Array<Partial<EntryRequest>> = [
      { txn_type: 'deposit', customer_id: 'L-A', source: 'usbroker', txn_date: '2031-01-05', amount_usd: '100.00' },
      { txn_type: 'deposit', customer_id: 'L-B', source: 'manual', txn_date: '2031-01-05', amount_usd: '250.00' },
      {
        txn_type: 'buy_security',
        customer_id: 'L-A',
        symbol: 'AAPL',
        quantity: '5',
        source: 'usbroker',
        txn_date: '2031-02-10',
        amount_usd: '1000.00',
      },
      {
        txn_type: 'sell_security',
        customer_id: 'L-A',
        symbol: 'AAPL',
        quantity: '2',
        source: 'custodian',
        txn_date: '2031-02-11',
        amount_usd: '500.00',
      },
      {
        txn_type: 'dividend',
        customer_id: 'L-B',
        symbol: 'MSFT',
        source: 'custodian',
        txn_date: '2031-03-01',
        amount_usd: '12.34',
      },
      {
        txn_type: 'wht_tax',
        customer_id: 'L-B',
        symbol: 'MSFT',
        source: 'custodian',
        txn_date: '2031-03-01',
        amount_usd: '3.70',
      },
      { txn_type: 'withdrawal', customer_id: 'L-A', source: 'manual', txn_date: '2031-03-15', amount_usd: '40.00' },
      { txn_type: 'fx_spread', customer_id: null, source: 'remit', txn_date: '2031-03-20', amount_usd: '5.55' },
      { txn_type: 'fx_spread_settle', customer_id: null, source: 'remit', txn_date: '2031-03-31', amount_usd: '5.55' },
      {
        txn_type: 'deposit',
        customer_id: 'L-C',
        source: 'uaefeed',
        txn_date: '2031-04-01',
        amount_usd: '100.00',
        original_currency: 'AED',
        original_amount: '367.25',
      },
    ];
    const models: Model[] = [];
    let withdrawalId = '';
    let reversalId = '';

    before(async () => {
      for (const id of ['L-A', 'L-B', 'L-C']) await upsertCustomer(db, id, {});
      // One at a time, so that posted_at follows the fixture's order.
      for (const [i, e] of FIXTURE.entries()) {
        const d = draft({ ...e, source_txn_id: `q-${i}` });
        await postEntry(db, d);
        models.push({
          txn_id: d.txnId,
          customer_id: d.customerId,
          txn_type: d.txnType,
          source: d.source,
          category: d.category,
          symbol: d.symbol,
          txn_date: d.txnDate,
          amount: d.amountUsd,
          order: i,
          lines: d.lines,
        });
      }
      withdrawalId = models[6]!.txn_id;
      const reversal = await reverseTransaction(db, withdrawalId, {
        txnId: randomUUID(),
        txnDate: '2031-04-02',
        memo: null,
      });
      reversalId = reversal.transaction.txn_id;
      models.push({
        ...models[6]!,
        txn_id: reversalId,
        txn_type: 'reversal',
        source: 'ledger',
        category: 'reversal',
        txn_date: '2031-04-02',
        order: models.length,
        lines: reversingLines(models[6]!.lines, null),
      });
    });

    const byDate = (a: Model, b: Model) =>
      a.txn_date < b.txn_date ? -1 : a.txn_date > b.txn_date ? 1 : a.txn_id < b.txn_id ? -1 : 1;
    const ids = (ms: Model[]) => [...ms].sort(byDate).map((m) => m.txn_id);
    const listIds = async (
      filter: Record<string, string>,
      page = PAGE,
      sort: TransactionSort = 'txn_date',
      order: SortOrder = 'asc',
    ) => {
      const result = await listTransactions(db, { ...SCOPE, ...filter }, page, sort, order);
      return { ids: result.items.map((r: { txn_id: string }) => r.txn_id), total: result.total, result };
    };

    describe('listTransactions', () => {
      it('lists every transaction in range with its total', async () => {
        const { ids: got, total } = await listIds({});
        expect(got).to.deep.equal(ids(models));
        expect(total).to.equal(11);
      });

      const filters: Array<[string, Record<string, string>, (m: Model) => boolean]> = [
        ['customer_id', { customer_id: 'L-A' }, (m) => m.customer_id === 'L-A'],
        ['txn_type', { txn_type: 'deposit' }, (m) => m.txn_type === 'deposit'],
        ['source', { source: 'custodian' }, (m) => m.source === 'custodian'],
        ['category', { category: 'funding' }, (m) => m.category === 'funding'],
        ['symbol', { symbol: 'AAPL' }, (m) => m.symbol === 'AAPL'],
        [
          'from and to (inclusive)',
          { from: '2031-03-01', to: '2031-03-20' },
          (m) => m.txn_date >= '2031-03-01' && m.txn_date <= '2031-03-20',
        ],
        [
          'amount_min and amount_max (inclusive, numeric)',
          { amount_min: '100', amount_max: '500.00' },
          (m) => m.amount.gte(100) && m.amount.lte(500),
        ],
        ['amount_min alone', { amount_min: '99.99' }, (m) => m.amount.gte('99.99')],
        [
          'several filters at once',
          { customer_id: 'L-A', category: 'funding' },
          (m) => m.customer_id === 'L-A' && m.category === 'funding',
        ],
      ];
      for (const [name, filter, predicate] of filters) {
        it(`filters by ${name}`, async () => {
          const expected = ids(models.filter(predicate));
          expect(expected.length, 'the fixture exercises the filter').to.be.within(1, models.length - 1);
          const { ids: got, total } = await listIds(filter);
          expect(got).to.deep.equal(expected);
          expect(total).to.equal(expected.length);
        });
      }

      const sorts: Array<[TransactionSort, (m: Model) => Decimal | string | number]> = [
        ['txn_date', (m) => m.txn_date],
        ['posted_at', (m) => m.order],
        ['amount_usd', (m) => m.amount],
      ];
      for (const [sort, key] of sorts) {
        for (const order of ['asc', 'desc'] as const) {
          it(`sorts by ${sort} ${order}, ties by txn_id`, async () => {
            const cmp = (a: Model, b: Model) => {
              const [ka, kb] = [key(a), key(b)];
              const c = ka instanceof Decimal ? ka.comparedTo(kb as Decimal)! : ka < kb ? -1 : ka > kb ? 1 : 0;
              return c !== 0 ? c : a.txn_id < b.txn_id ? -1 : 1;
            };
            const expected = [...models].sort((a, b) => (order === 'asc' ? cmp(a, b) : cmp(b, a))).map((m) => m.txn_id);
            expect((await listIds({}, PAGE, sort, order)).ids).to.deep.equal(expected);
          });
        }
      }

      it('pages through the list without gaps or repeats, total unchanged', async () => {
        const all = (await listIds({}, PAGE, 'amount_usd', 'desc')).ids;
        const seen: string[] = [];
        for (let offset = 0; offset < 14; offset += 4) {
          const { ids: page, total, result } = await listIds({}, { limit: 4, offset }, 'amount_usd', 'desc');
          expect(total).to.equal(11);
          expect([result.limit, result.offset]).to.deep.equal([4, offset]);
          seen.push(...page);
        }
        expect(seen).to.deep.equal(all);
      });

      it('shows reverses_txn_id on a reversal and reversed_by_txn_id on its original, with decimal strings', async () => {
        const { result } = await listIds({ customer_id: 'L-A', category: 'funding' });
        const byId = new Map(result.items.map((r: TransactionSummary) => [r.txn_id, r]));
        expect(byId.get(withdrawalId)).to.include({ reversed_by_txn_id: reversalId, reverses_txn_id: null });
        const all = await listIds({});
        const reversal = all.result.items.find(
          (r: TransactionSummary) => r.txn_id === reversalId,
        ) as TransactionSummary;
        expect(reversal).to.include({ reverses_txn_id: withdrawalId, reversed_by_txn_id: null, txn_type: 'reversal' });
        for (const r of all.result.items as TransactionSummary[]) expect(r.amount_usd).to.be.a('string');
      });
    });

    describe('groupTransactions', () => {
      const keyOf: Record<TransactionGroupBy, (m: Model) => string | null> = {
        type: (m) => m.txn_type,
        source: (m) => m.source,
        customer: (m) => m.customer_id,
        day: (m) => m.txn_date,
        symbol: (m) => m.symbol,
      };
      function expectedGroups(groupBy: TransactionGroupBy) {
        const groups = new Map<string | null, { count: number; total: Decimal }>();
        for (const m of models) {
          const k = keyOf[groupBy](m);
          const g = groups.get(k) ?? { count: 0, total: dec(0) };
          groups.set(k, { count: g.count + 1, total: g.total.plus(m.amount) });
        }
        const keyCmp = (a: string | null, b: string | null) =>
          a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
        return [...groups]
          .sort(([ka, a], [kb, b]) =>
            groupBy === 'day' ? keyCmp(kb, ka) : b.total.comparedTo(a.total)! || keyCmp(ka, kb),
          )
          .map(([key, g]) => ({ key, count: g.count, total_usd: g.total.toFixed() }));
      }
      const normalise = (items: Array<{ key: string | null; count: number; total_usd: string }>) =>
        items.map((i) => ({ key: i.key, count: i.count, total_usd: dec(i.total_usd).toFixed() }));

      for (const groupBy of ['type', 'source', 'customer', 'day', 'symbol'] as const) {
        it(`counts and totals per ${groupBy}, ${groupBy === 'day' ? 'newest day' : 'largest total'} first`, async () => {
          const expected = expectedGroups(groupBy);
          const result = await groupTransactions(db, SCOPE, groupBy, PAGE);
          expect(result.group_by).to.equal(groupBy);
          expect(normalise(result.items)).to.deep.equal(expected);
          expect(result.total).to.equal(expected.length);
        });
      }

      it('pages over the groups and still counts them all past the last page', async () => {
        const expected = expectedGroups('type');
        const page = await groupTransactions(db, SCOPE, 'type', { limit: 2, offset: 1 });
        expect(normalise(page.items)).to.deep.equal(expected.slice(1, 3));
        expect(page.total).to.equal(expected.length);
        const beyond = await groupTransactions(db, SCOPE, 'type', { limit: 2, offset: 50 });
        expect(beyond.items).to.deep.equal([]);
        expect(beyond.total).to.equal(expected.length);
      });

      it('groups only the filtered transactions', async () => {
        const result = await groupTransactions(db, { ...SCOPE, customer_id: 'L-B' }, 'type', PAGE);
        expect(normalise(result.items)).to.deep.equal([
          { key: 'deposit', count: 1, total_usd: '250' },
          { key: 'dividend', count: 1, total_usd: '12.34' },
          { key: 'wht_tax', count: 1, total_usd: '3.7' },
        ]);
      });
    });

    describe('categoryFacets', () => {
      it('counts and totals per category, most frequent first, under the filters', async () => {
        const facets = async (filter: Record<string, string>) =>
          (await categoryFacets(db, { ...SCOPE, ...filter })).items.map(
            (i: { category: string; count: number; total_usd: string }) => [
              i.category,
              i.count,
              dec(i.total_usd).toFixed(),
            ],
          );
        expect(await facets({})).to.deep.equal([
          ['funding', 4, '490'],
          ['fx', 2, '11.1'],
          ['trading', 2, '1500'],
          ['income', 1, '12.34'],
          ['reversal', 1, '40'],
          ['tax', 1, '3.7'],
        ]);
        expect(await facets({ customer_id: 'L-A' })).to.deep.equal([
          ['funding', 2, '140'],
          ['trading', 2, '1500'],
          ['reversal', 1, '40'],
        ]);
      });
    });

    describe('journal queries', () => {
      interface LineModel {
        txn_id: string;
        account_code: string;
        debit: Decimal;
        credit: Decimal;
        customer_id: string | null;
        posting_kind: string | null;
        txn_date: string;
        txn_type: string;
        source: string;
      }
      const lineModels = (): LineModel[] =>
        models.flatMap((m) =>
          m.lines.map((l) => ({
            txn_id: m.txn_id,
            account_code: l.accountCode,
            debit: l.debit,
            credit: l.credit,
            customer_id: m.customer_id,
            posting_kind: l.postingKind,
            txn_date: m.txn_date,
            txn_type: m.txn_type,
            source: m.source,
          })),
        );
      const lineKey = (l: {
        txn_id: string;
        account_code: string;
        debit: Decimal | string;
        credit: Decimal | string;
        posting_kind: string | null;
      }) =>
        `${l.txn_id} ${l.account_code} ${dec(String(l.debit)).toFixed()} ${dec(String(l.credit)).toFixed()} ${l.posting_kind}`;

      const lineFilters: Array<[string, Record<string, string>, (l: LineModel) => boolean]> = [
        ['no filter', {}, () => true],
        ['txn_id', { txn_id: 'BUY' }, (l) => l.txn_id === models[2]!.txn_id],
        ['account_code', { account_code: '2010' }, (l) => l.account_code === '2010'],
        ['customer_id', { customer_id: 'L-B' }, (l) => l.customer_id === 'L-B'],
        ['posting_kind', { posting_kind: 'brokerage_fee' }, (l) => l.posting_kind === 'brokerage_fee'],
        [
          'from and to (inclusive)',
          { from: '2031-02-11', to: '2031-03-15' },
          (l) => l.txn_date >= '2031-02-11' && l.txn_date <= '2031-03-15',
        ],
        [
          'account and customer',
          { account_code: '1100', customer_id: 'L-A' },
          (l) => l.account_code === '1100' && l.customer_id === 'L-A',
        ],
      ];
      const resolve = (filter: Record<string, string>) =>
        filter.txn_id === 'BUY' ? { ...filter, txn_id: models[2]!.txn_id } : filter;

      for (const [name, filter, predicate] of lineFilters) {
        it(`listJournalLines filters by ${name}, newest line first`, async () => {
          const expected = lineModels().filter(predicate);
          expect(expected.length).to.be.greaterThan(0);
          const result = await listJournalLines(db, { ...SCOPE, ...resolve(filter) }, PAGE);
          expect(result.total).to.equal(expected.length);
          expect(result.items.map(lineKey).sort()).to.deep.equal(expected.map(lineKey).sort());
          const lineIds = result.items.map((l: { line_id: string }) => BigInt(l.line_id));
          expect(
            lineIds.every((id: bigint, i: number) => i === 0 || lineIds[i - 1]! > id),
            'newest first',
          ).to.equal(true);
        });
      }

      it('listJournalLines names the account and pages', async () => {
        const all = await listJournalLines(db, SCOPE, PAGE);
        const page = await listJournalLines(db, SCOPE, { limit: 5, offset: 5 });
        expect(page.items).to.deep.equal(all.items.slice(5, 10));
        expect(page.total).to.equal(all.total);
        const names = new Map(
          all.items.map((l: { account_code: string; account_name: string }) => [l.account_code, l.account_name]),
        );
        expect(names.get('1100')).to.equal('Omnibus cash at broker / custodian');
        expect(names.get('4030')).to.equal('FX-spread revenue');
      });

      it('listPostings flattens lines with their transaction and filters by txn_type and source too', async () => {
        const buys = await listPostings(db, { ...SCOPE, txn_type: 'buy_security' }, PAGE);
        expect(buys.total).to.equal(6);
        for (const p of buys.items) {
          expect(p).to.include({
            txn_id: models[2]!.txn_id,
            txn_type: 'buy_security',
            source: 'usbroker',
            source_txn_id: 'q-2',
            category: 'trading',
            symbol: 'AAPL',
            reverses_txn_id: null,
          });
        }
        expect(
          new Set(
            buys.items.map(
              (p: { account_code: string; account_type: string }) => `${p.account_code}:${p.account_type}`,
            ),
          ),
        ).to.deep.equal(new Set(['1200:asset', '1100:asset', '2010:liability', '2100:liability', '4010:revenue']));
        const expected = lineModels().filter((l) => l.source === 'custodian' && l.account_code === '2010');
        const custodian = await listPostings(db, { ...SCOPE, source: 'custodian', account_code: '2010' }, PAGE);
        expect(custodian.total).to.equal(expected.length);
        expect(custodian.items.map(lineKey).sort()).to.deep.equal(expected.map(lineKey).sort());
        const reversal = await listPostings(db, { ...SCOPE, txn_type: 'reversal', customer_id: 'L-A' }, PAGE);
        expect(reversal.items.map((p: { reverses_txn_id: string | null }) => p.reverses_txn_id)).to.deep.equal([
          withdrawalId,
          withdrawalId,
        ]);
      });

      const groupKey: Record<JournalGroupBy, (l: LineModel) => string | null> = {
        account: (l) => l.account_code,
        posting_kind: (l) => l.posting_kind,
        customer: (l) => l.customer_id,
        day: (l) => l.txn_date,
      };
      for (const groupBy of ['account', 'posting_kind', 'customer', 'day'] as const) {
        it(`groupJournal sums debit, credit and net per ${groupBy}`, async () => {
          const groups = new Map<string | null, { line_count: number; debit: Decimal; credit: Decimal }>();
          for (const l of lineModels()) {
            const k = groupKey[groupBy](l);
            const g = groups.get(k) ?? { line_count: 0, debit: dec(0), credit: dec(0) };
            groups.set(k, {
              line_count: g.line_count + 1,
              debit: g.debit.plus(l.debit),
              credit: g.credit.plus(l.credit),
            });
          }
          const keyCmp = (a: string | null, b: string | null) =>
            a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
          const expected = [...groups]
            .sort(([a], [b]) => (groupBy === 'day' ? keyCmp(b, a) : keyCmp(a, b)))
            .map(([key, g]) => ({
              key,
              line_count: g.line_count,
              debit: g.debit.toFixed(),
              credit: g.credit.toFixed(),
              net: g.debit.minus(g.credit).toFixed(),
            }));
          const result = await groupJournal(db, SCOPE, groupBy, PAGE);
          expect(result.group_by).to.equal(groupBy);
          expect(result.total).to.equal(expected.length);
          expect(
            result.items.map((i: Record<string, unknown>) => ({
              key: i.key,
              line_count: i.line_count,
              debit: dec(i.debit as string).toFixed(),
              credit: dec(i.credit as string).toFixed(),
              net: dec(i.net as string).toFixed(),
            })),
          ).to.deep.equal(expected);
        });
      }

      it('groupJournal filters and pages', async () => {
        const all = await groupJournal(db, { ...SCOPE, customer_id: 'L-A' }, 'account', PAGE);
        expect(all.items.map((i) => i.key)).to.deep.equal(['1100', '1200', '2010', '2100', '4010']);
        const page = await groupJournal(db, { ...SCOPE, customer_id: 'L-A' }, 'account', { limit: 2, offset: 2 });
        expect(page.items).to.deep.equal(all.items.slice(2, 4));
        expect(page.total).to.equal(5);
        const beyond = await groupJournal(db, { ...SCOPE, customer_id: 'L-A' }, 'account', { limit: 2, offset: 9 });
        expect([beyond.items.length, beyond.total]).to.deep.equal([0, 5]);
      });
    });
  });
});
