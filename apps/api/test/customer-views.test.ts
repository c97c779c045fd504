import { Decimal, draftFromEntry, FeeSchedule } from '@ledger/core/posting';
import { STATEMENT_MOVEMENTS_MAX } from '@ledger/core/reports';
import { postTransactions } from '@ledger/core/store';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'chai';
import { buildBook, C1 } from './customer-book.js';
import { expectError, startApi, type TestApi } from './support.js';

// The book and its hand-worked figures: test/customer-book.ts.

const get = async (api: TestApi, path: string) => {
  const reply = await api.get(path, { token: 'ledger' });
  expect(reply.status, reply.text).to.equal(200);
  return reply.body;
};

/** The views of one book; run on both books, the answers must be the same. */
function describeBook(book: 'ENTITY_UAE' | 'ENTITY_IND_IFSC') {
  describe(`customer views on ${book}`, () => {
    let api: TestApi;
    before(async () => {
      api = await startApi({ env: { ENTITY_ID: book } });
      await buildBook(api);
    });
    after(async () => {
      await api.close();
    });

    describe('summary', () => {
      it('gives wallet cash by currency, securities at cost and totals', async () => {
        expect(await get(api, `${C1}/summary`)).to.deep.equal({
          customer_id: 'C-1',
          as_of: null,
          cash: [
            { currency: 'USD', account_code: '2010', balance: '566.83', balance_usd: '566.83' },
            // The AED wallet in AED from its lines (the deposit of AED 367.25), its USD beside it.
            { currency: 'AED', account_code: '2020', balance: '367.25', balance_usd: '100.00' },
          ],
          cash_total_usd: '666.83',
          securities_at_cost_usd: '500.00',
          total_usd: '1166.83',
        });
      });

      it('as_of the day before a posting leaves it out, as_of its day takes it in', async () => {
        const before = await get(api, `${C1}/summary?as_of=2026-01-11`);
        expect(before.cash.map((c: { balance_usd: string }) => c.balance_usd)).to.deep.equal(['1000.00', '100.00']);
        expect(before.securities_at_cost_usd).to.equal('0.00');
        const after = await get(api, `${C1}/summary?as_of=2026-01-12`);
        expect(after).to.include({
          as_of: '2026-01-12',
          cash_total_usd: '598.90',
          securities_at_cost_usd: '500.00',
          total_usd: '1098.90',
        });
      });

      it('a reversed deposit counts until the day of its reversal', async () => {
        expect((await get(api, `${C1}/summary?as_of=2026-01-13`)).cash[0].balance_usd).to.equal('548.90');
        expect((await get(api, `${C1}/summary?as_of=2026-01-14`)).cash[0].balance_usd).to.equal('498.90');
      });

      it('a customer without postings has zero balances', async () => {
        expect(await get(api, '/v1/customers/C-empty/summary')).to.include({
          cash_total_usd: '0.00',
          securities_at_cost_usd: '0.00',
          total_usd: '0.00',
        });
      });
    });

    describe('positions and portfolio', () => {
      it('positions: shares from the trades, cost from 2100 after recost’s FIFO relief', async () => {
        expect(await get(api, `${C1}/positions`)).to.deep.equal({
          customer_id: 'C-1',
          as_of: null,
          items: [
            { symbol: 'AAPL', quantity: '6', cost_usd: '300.00', average_cost_usd: '50', pending_recost: 0 },
            { symbol: 'MSFT', quantity: '2', cost_usd: '200.00', average_cost_usd: '100', pending_recost: 0 },
          ],
        });
      });

      it('positions as_of a day before the sell hold all ten shares', async () => {
        const { items } = await get(api, `${C1}/positions?as_of=2026-01-19`);
        expect(items[0]).to.include({ symbol: 'AAPL', quantity: '10', cost_usd: '500.00' });
      });

      it('a reversed buy holds nothing', async () => {
        expect((await get(api, '/v1/customers/C-2/positions')).items).to.deep.equal([]);
      });

      it('portfolio without any snapshot: cost only, market value null with the reason', async () => {
        const body = await get(api, `${C1}/portfolio`);
        expect(body.prices).to.equal(null);
        expect(
          body.items.map((p: Record<string, unknown>) => [p.symbol, p.market_value_usd, p.unpriced_reason]),
        ).to.deep.equal([
          ['AAPL', null, 'no_snapshot'],
          ['MSFT', null, 'no_snapshot'],
        ]);
        expect(body.totals).to.deep.equal({ cost_usd: '500.00', market_value_usd: '0.00', unpriced_count: 2 });
      });
    });

    describe('statement', () => {
      it('opening balance, every movement in order, closing balance; opening + movements = closing', async () => {
        const body = await get(api, `${C1}/statement?from=2026-01-13&to=2026-01-20`);
        expect(body.opening_balance_usd).to.equal('598.90');
        expect(body.movements.map((m: Record<string, string>) => [m.txn_date, m.txn_type, m.amount_usd])).to.deep.equal(
          [
            ['2026-01-13', 'deposit', '50.00'],
            ['2026-01-14', 'reversal', '-50.00'],
            ['2026-01-15', 'buy_security', '-200.00'],
            ['2026-01-15', 'buy_security', '-0.50'],
            ['2026-01-20', 'sell_security', '260.00'],
            ['2026-01-20', 'recost', '-0.57'],
          ],
        );
        expect(body.movements_total_usd).to.equal('58.93');
        expect(body.closing_balance_usd).to.equal('657.83');
        const summed = body.movements.reduce(
          (sum: Decimal, m: { amount_usd: string }) => sum.plus(m.amount_usd),
          new Decimal(body.opening_balance_usd),
        );
        expect(summed.toFixed(2)).to.equal(body.closing_balance_usd);
        expect(body.movements.at(-1).balance_usd).to.equal(body.closing_balance_usd);
        // The closing balance is what the summary says the wallets held at the end of `to`.
        expect((await get(api, `${C1}/summary?as_of=2026-01-20`)).cash_total_usd).to.equal('657.83');
      });

      it('each wallet in its own currency: the AED wallet’s 367.25 AED exact beside its 100.00 USD, each movement in its wallet’s currency, closing at the summary’s balance', async () => {
        const all = await get(api, `${C1}/statement`);
        const aed = all.movements.filter((m: Record<string, string>) => m.account_code === '2020');
        expect(aed.map((m: Record<string, string>) => [m.txn_date, m.currency, m.amount, m.amount_usd])).to.deep.equal([
          ['2026-01-11', 'AED', '367.25', '100.00'],
        ]);
        expect(all.wallets).to.deep.equal([
          {
            currency: 'USD',
            account_code: '2010',
            opening_balance: '0.00',
            movements_total: '566.83',
            closing_balance: '566.83',
          },
          {
            currency: 'AED',
            account_code: '2020',
            opening_balance: '0.00',
            movements_total: '367.25',
            closing_balance: '367.25',
          },
        ]);
        const window = await get(api, `${C1}/statement?from=2026-01-13&to=2026-01-20`);
        expect(window.wallets).to.deep.equal([
          {
            currency: 'USD',
            account_code: '2010',
            opening_balance: '498.90',
            movements_total: '58.93',
            closing_balance: '557.83',
          },
          {
            currency: 'AED',
            account_code: '2020',
            opening_balance: '367.25',
            movements_total: '0.00',
            closing_balance: '367.25',
          },
        ]);
        const summary = await get(api, `${C1}/summary?as_of=2026-01-20`);
        expect(summary.cash.map((w: Record<string, string>) => [w.currency, w.balance])).to.deep.equal(
          window.wallets.map((w: Record<string, string>) => [w.currency, w.closing_balance]),
        );
      });

      it('without a window: from zero to everything', async () => {
        const body = await get(api, `${C1}/statement`);
        expect(body).to.include({ from: null, to: null, opening_balance_usd: '0.00', closing_balance_usd: '666.83' });
        expect(body.movements).to.have.length(12);
      });
    });

    describe('equity curve', () => {
      it('one point per day: cash and cost basis at the end of each day', async () => {
        const body = await get(api, `${C1}/equity_curve?from=2026-01-09&to=2026-01-12`);
        expect(body.points).to.deep.equal([
          { day: '2026-01-09', cash_usd: '0.00', cost_basis_usd: '0.00', total_usd: '0.00' },
          { day: '2026-01-10', cash_usd: '1000.00', cost_basis_usd: '0.00', total_usd: '1000.00' },
          { day: '2026-01-11', cash_usd: '1100.00', cost_basis_usd: '0.00', total_usd: '1100.00' },
          { day: '2026-01-12', cash_usd: '598.90', cost_basis_usd: '500.00', total_usd: '1098.90' },
        ]);
      });

      it('by default spans the first to the last day of activity, quiet days included', async () => {
        const body = await get(api, `${C1}/equity_curve`);
        expect(body).to.include({ from: '2026-01-10', to: '2026-01-25' });
        expect(body.points).to.have.length(16);
        expect(body.points.at(-1)).to.deep.equal({
          day: '2026-01-25',
          cash_usd: '666.83',
          cost_basis_usd: '500.00',
          total_usd: '1166.83',
        });
      });

      it('a customer without activity has no points', async () => {
        expect(await get(api, '/v1/customers/C-empty/equity_curve')).to.deep.equal({
          customer_id: 'C-empty',
          from: null,
          to: null,
          points: [],
        });
      });

      it('a window longer than ten years is refused with 400', async () => {
        expectError(
          await api.get(`${C1}/equity_curve?from=2000-01-01&to=2026-01-01`, { token: 'ledger' }),
          400,
          'validation_error',
        );
      });
    });

    describe('dividends and orders', () => {
      it('dividends: the transactions and totals gross, withheld and net', async () => {
        const body = await get(api, `${C1}/dividends`);
        expect(body.totals).to.deep.equal({ gross_usd: '12.00', withheld_usd: '3.00', net_usd: '9.00' });
        expect(body.items.map((t: { txn_type: string }) => t.txn_type).sort()).to.deep.equal(['dividend', 'wht_tax']);
        expect(body).to.include({ customer_id: 'C-1', total: 2, limit: 50, offset: 0 });
        expect((await get(api, `${C1}/dividends?to=2026-01-24`)).totals.gross_usd).to.equal('0.00');
      });

      it('orders: the customer’s trades, newest first, filterable by symbol; a reversed one names its reversal', async () => {
        const body = await get(api, `${C1}/orders`);
        expect(body.items.map((t: Record<string, string>) => [t.txn_date, t.txn_type, t.symbol])).to.deep.equal([
          ['2026-01-20', 'sell_security', 'AAPL'],
          ['2026-01-15', 'buy_security', 'MSFT'],
          ['2026-01-12', 'buy_security', 'AAPL'],
        ]);
        expect((await get(api, `${C1}/orders?symbol=AAPL`)).total).to.equal(2);
        const [reversed] = (await get(api, '/v1/customers/C-2/orders')).items;
        expect(reversed.reversed_by_txn_id).to.be.a('string');
      });
    });

    describe('trial balance and overview', () => {
      it('trial balance: the customer’s accounts, balanced', async () => {
        const body = await get(api, `${C1}/trial_balance`);
        const byCode = Object.fromEntries(
          body.accounts.map((a: Record<string, string>) => [a.account_code, [a.debit_balance, a.credit_balance]]),
        );
        expect(byCode).to.deep.include({
          '2010': ['0.00', '566.83'],
          '2020': ['0.00', '100.00'],
          '2100': ['0.00', '500.00'],
          '1020': ['100.00', '0.00'],
        });
        // 1200 holds the cost left (500.00 + 200.00 − 200.00); 4010 the fees 1.10 + 0.50 + 0.57.
        expect(byCode['1200']).to.deep.equal(['500.00', '0.00']);
        expect(byCode['4010']).to.deep.equal(['0.00', '2.17']);
        expect(body.balanced).to.equal(true);
        expect(body.total_debit).to.equal(body.total_credit);
      });

      it('trial balance as_of a day leaves later postings out', async () => {
        const body = await get(api, `${C1}/trial_balance?as_of=2026-01-10`);
        expect(body.accounts.map((a: { account_code: string }) => a.account_code)).to.deep.equal(['1100', '2010']);
        expect(body).to.include({ total_debit: '1000.00', total_credit: '1000.00', balanced: true });
      });

      it('overview: the customer, the summary, activity and links', async () => {
        const body = await get(api, `${C1}/overview`);
        expect(body.customer.customer_id).to.equal('C-1');
        expect(body.summary.total_usd).to.equal('1166.83');
        expect(body.activity).to.deep.equal({
          transaction_count: 12,
          first_txn_date: '2026-01-10',
          last_txn_date: '2026-01-25',
          position_count: 2,
        });
        expect(body.links).to.deep.equal({ uaefeed: false, custodian: false, usbroker: false, remit: false });
      });
    });

    it(`a statement of more than ${STATEMENT_MOVEMENTS_MAX} movements is refused with 400, a shorter window answers`, async () => {
      expect((await api.put('/v1/customers/C-busy', {})).status).to.equal(201);
      const deposits = Array.from({ length: STATEMENT_MOVEMENTS_MAX + 1 }, (_, i) =>
        draftFromEntry(
          {
            txn_type: 'deposit',
            customer_id: 'C-busy',
            source: 'manual',
            source_txn_id: `busy-${i}`,
            txn_date: i === 0 ? '2026-03-01' : '2026-03-02',
            amount_usd: '1.00',
          },
          uuidv7(),
          {
            feeSchedule: new FeeSchedule(new Decimal(22)),
          },
        ),
      );
      expect((await postTransactions(api.db, deposits)).inserted).to.equal(STATEMENT_MOVEMENTS_MAX + 1);
      expectError(await api.get('/v1/customers/C-busy/statement', { token: 'ledger' }), 400, 'validation_error');
      const body = await get(api, '/v1/customers/C-busy/statement?from=2026-03-02');
      expect(body).to.include({
        opening_balance_usd: '1.00',
        closing_balance_usd: `${STATEMENT_MOVEMENTS_MAX + 1}.00`,
      });
      expect(body.movements).to.have.length(STATEMENT_MOVEMENTS_MAX);
    });

    it('every view of an unknown customer is 404 not_found', async () => {
      for (const view of [
        'summary',
        'overview',
        'portfolio',
        'positions',
        'holdings',
        'dividends',
        'orders',
        'statement',
        'equity_curve',
        'trial_balance',
        'ledger-recon',
        'usbroker-balance',
        'usbroker-orders',
        'usbroker-portfolio',
        'usbroker-statement',
      ]) {
        expectError(await api.get(`/v1/customers/C-nobody/${view}`, { token: 'ledger' }), 404, 'not_found');
      }
    });
  });
}

describeBook('ENTITY_UAE');
describeBook('ENTITY_IND_IFSC');
