import { expect } from 'chai';
import {
  createDataset,
  custodianCashStatement,
  custodianHoldings,
  custodianTransactions,
  FEE_BPS,
  formatMinor,
  generateCustomerData,
  dataConfig,
  parseMinor,
  uaefeedCashStatement,
  uaefeedCashSummary,
  uaefeedHoldingsStatement,
  type CustomerData,
  type SandboxDataConfig,
} from '../src/index.js';
import { addMonths, lastDayOf } from '../src/data/dates.js';

const CONFIG: SandboxDataConfig = dataConfig({
  seed: 1234,
  customers: 40,
  recordsPerCustomer: 60,
  startMonth: '2026-01',
  months: 6,
});

function monthsOf(config: SandboxDataConfig): { year: number; month: number; key: string }[] {
  return Array.from({ length: config.months + 1 }, (_, i) => {
    const key = addMonths(config.startMonth, i);
    return { year: Number(key.slice(0, 4)), month: Number(key.slice(5, 7)), key };
  });
}

/** Cash per currency and month, from the uaefeed records themselves (not from the movements). */
function expectedCashFlows(data: CustomerData) {
  const flows = new Map<string, { deposit: bigint; withdraw: bigint; buy: bigint; sell: bigint }>();
  const at = (currency: string, date: string) => {
    const key = `${currency}:${date.slice(0, 7)}`;
    if (!flows.has(key)) flows.set(key, { deposit: 0n, withdraw: 0n, buy: 0n, sell: 0n });
    return flows.get(key)!;
  };
  for (const t of data.transfers) {
    if (t.status !== 'COMPLETED') continue;
    at(t.currency, t.valueDate)[t.type === 'DEPOSIT' ? 'deposit' : 'withdraw'] += parseMinor(t.amount);
  }
  for (const o of data.orders) {
    if (o.ordStatus !== 'FILLED') continue;
    at(o.currency, o.tradeDate)[o.side === 'BUY' ? 'buy' : 'sell'] += parseMinor(o.netSettle);
  }
  return (currency: string, month: string) =>
    flows.get(`${currency}:${month}`) ?? { deposit: 0n, withdraw: 0n, buy: 0n, sell: 0n };
}

/** Bought − sold per symbol through `date`, from the orders. */
function heldThrough(data: CustomerData, date: string): Map<string, bigint> {
  const held = new Map<string, bigint>();
  for (const o of data.orders) {
    if (o.ordStatus !== 'FILLED' || o.tradeDate > date) continue;
    held.set(o.symbol, (held.get(o.symbol) ?? 0n) + (o.side === 'BUY' ? 1n : -1n) * BigInt(o.cumQty));
  }
  return held;
}

describe('sandbox data set', () => {
  const dataset = createDataset(CONFIG);
  const all = dataset.customers.map((customer) => dataset.dataOf(customer));

  describe('determinism', () => {
    it('gives the same data for the same seed, computed afresh', () => {
      const again = createDataset(CONFIG);
      expect(again.customers).to.deep.equal(dataset.customers);
      for (const customer of again.customers.slice(0, 5))
        expect(again.dataOf(customer)).to.deep.equal(dataset.dataOf(customer));
      expect(generateCustomerData(CONFIG, 3)).to.deep.equal(all[2]);
    });

    it('gives other data for another seed, with other record ids', () => {
      const other = generateCustomerData({ ...CONFIG, seed: 1235 }, 1);
      expect(other.transfers.map((t) => t.amount)).to.not.deep.equal(all[0]!.transfers.map((t) => t.amount));
      expect(other.transfers[0]?.transferId).to.match(/^TRF-1235-7000001-/);
    });

    it('generates a customer without the others (same records whatever the customer count)', () => {
      expect(generateCustomerData({ ...CONFIG, customers: 1 }, 1)).to.deep.equal(all[0]);
    });
  });

  describe('records', () => {
    it('has exactly recordsPerCustomer transfers + orders per customer, AED and USD, COMPLETED and REJECTED, BUY and SELL', () => {
      for (const data of all) expect(data.transfers.length + data.orders.length).to.equal(CONFIG.recordsPerCustomer);
      const transfers = all.flatMap((d) => d.transfers);
      const orders = all.flatMap((d) => d.orders);
      expect(new Set(transfers.map((t) => `${t.currency}/${t.status}/${t.type}`))).to.include.members([
        'AED/COMPLETED/DEPOSIT',
        'USD/COMPLETED/DEPOSIT',
        'AED/REJECTED/DEPOSIT',
        'AED/COMPLETED/WITHDRAW',
        'USD/COMPLETED/WITHDRAW',
      ]);
      expect(new Set(orders.map((o) => `${o.currency}/${o.side}/${o.ordStatus}`))).to.include.members([
        'AED/BUY/FILLED',
        'AED/SELL/FILLED',
        'USD/BUY/FILLED',
        'USD/SELL/FILLED',
      ]);
      expect(orders.some((o) => o.ordStatus !== 'FILLED')).to.equal(true);
    });

    it('bundles the fee into netSettle: cumQty × avgPx ± fee, the fee rounded half up from the basis points', () => {
      for (const o of all.flatMap((d) => d.orders)) {
        if (o.ordStatus !== 'FILLED') {
          expect(o).to.include({ cumQty: '0', avgPx: null, netSettle: '0.00' });
          continue;
        }
        const gross = BigInt(o.cumQty) * parseMinor(o.avgPx!);
        const fee = (gross * FEE_BPS[o.currency] + 5_000n) / 10_000n;
        expect(o.netSettle, o.orderId).to.equal(formatMinor(o.side === 'BUY' ? gross + fee : gross - fee));
      }
    });

    it('never takes a cash account below zero, nor sells what is not held', () => {
      for (const data of all) {
        const cash: Record<string, bigint> = { AED: 0n, USD: 0n };
        for (const m of data.movements) {
          cash[m.currency] = cash[m.currency]! + m.cashMinor;
          expect(cash[m.currency]! >= 0n, `${data.customer.customer_id} ${m.ref}`).to.equal(true);
        }
        for (const qty of heldThrough(data, '9999-12-31').values()) expect(qty >= 0n).to.equal(true);
      }
    });
  });

  describe('uaefeed statements agree with the transfers and orders', () => {
    it('cash: opening + deposit − withdraw − buy + sell = closing; each month opens at the last one’s close; totals are the records’', () => {
      for (const data of all) {
        const flows = expectedCashFlows(data);
        const closing: Record<string, string> = { AED: '0.00', USD: '0.00' };
        for (const { year, month, key } of monthsOf(CONFIG)) {
          const statement = uaefeedCashStatement(data, year, month);
          for (const account of statement.list) {
            const expected = flows(account.currency, key);
            expect(account.tradeOpeningBalance).to.equal(closing[account.currency]);
            expect([account.deposit, account.withdraw, account.buy, account.sell]).to.deep.equal(
              [expected.deposit, expected.withdraw, expected.buy, expected.sell].map(formatMinor),
            );
            const computed =
              parseMinor(account.tradeOpeningBalance) +
              parseMinor(account.deposit) -
              parseMinor(account.withdraw) -
              parseMinor(account.buy) +
              parseMinor(account.sell) +
              parseMinor(account.other);
            expect(formatMinor(computed)).to.equal(account.tradeClosingBalance);
            let running = parseMinor(account.tradeOpeningBalance);
            for (const line of account.list) {
              running += parseMinor(line.credit) - parseMinor(line.debit);
              expect(line.tradeBalance).to.equal(formatMinor(running));
              expect(line.transactionDate).to.match(/^\d{4}\/\d{2}\/\d{2}$/);
            }
            expect(formatMinor(running)).to.equal(account.tradeClosingBalance);
            closing[account.currency] = account.tradeClosingBalance;
          }
        }
        const summary = uaefeedCashSummary(data, dataset.period.to);
        expect(summary.map((s) => s.balance)).to.deep.equal([closing.AED, closing.USD]);
      }
    });

    it('holdings: totalHolding = bought − sold through the month end, for every symbol held', () => {
      for (const data of all.slice(0, 20)) {
        for (const { year, month, key } of monthsOf(CONFIG)) {
          const expected = [...heldThrough(data, lastDayOf(key))].filter(([, qty]) => qty > 0n);
          const statement = uaefeedHoldingsStatement(CONFIG, data, year, month);
          const symbols = statement.list.flatMap((a) => a.list.flatMap((e) => e.list));
          const held = symbols.filter((s) => s.totalHolding !== '0').map((s) => [s.symbol, BigInt(s.totalHolding)]);
          expect(new Map(held as [string, bigint][])).to.deep.equal(new Map(expected));
        }
      }
    });
  });

  describe('the custodian repeats the AED movements', () => {
    it('transactions: every COMPLETED AED transfer and FILLED AED order, net = amount or netSettle', () => {
      for (const data of all) {
        const expected = [
          ...data.transfers
            .filter((t) => t.status === 'COMPLETED' && t.currency === 'AED')
            .map((t) => ({ seq: t.transferId.slice(-5), net: t.amount })),
          ...data.orders
            .filter((o) => o.ordStatus === 'FILLED' && o.currency === 'AED')
            .map((o) => ({ seq: o.orderId.slice(-5), net: o.netSettle })),
        ].sort((a, b) => (a.seq < b.seq ? -1 : 1));
        const transactions = custodianTransactions(CONFIG, data);
        expect(transactions.map((t) => ({ seq: t.id.slice(-5), net: t.net }))).to.deep.equal(expected);
        for (const t of transactions.filter((t) => t.type === 'BUY' || t.type === 'SELL')) {
          const fees = t.fees.reduce((sum, f) => sum + parseMinor(f.amount), 0n);
          expect(formatMinor(parseMinor(t.gross) + (t.type === 'BUY' ? fees : -fees))).to.equal(t.net);
        }
      }
    });

    it('cash statements and holdings match uaefeed’s AED account and AED positions', () => {
      for (const data of all) {
        for (const { year, month, key } of monthsOf(CONFIG)) {
          const custodian = custodianCashStatement(data, key);
          const uaefeed = uaefeedCashStatement(data, year, month).list.find((a) => a.currency === 'AED')!;
          expect([custodian.opening_balance, custodian.closing_balance]).to.deep.equal([
            uaefeed.tradeOpeningBalance,
            uaefeed.tradeClosingBalance,
          ]);
          expect(custodian.lines.map((l) => l.balance)).to.deep.equal(uaefeed.list.map((l) => l.tradeBalance));
          const holdings = custodianHoldings(CONFIG, data, lastDayOf(key));
          expect(holdings.cash.balance).to.equal(uaefeed.tradeClosingBalance);
          const aedHeld = [...heldThrough(data, lastDayOf(key))].filter(
            ([symbol, qty]) => qty > 0n && data.orders.some((o) => o.symbol === symbol && o.currency === 'AED'),
          );
          expect(new Map(holdings.positions.map((p) => [p.symbol, BigInt(p.qty)]))).to.deep.equal(new Map(aedHeld));
        }
      }
    });
  });

  it('generates 50,000 records for 500 customers quickly (benchmark scale)', () => {
    const startedAt = Date.now();
    const big = createDataset({ seed: 9, customers: 500, recordsPerCustomer: 100 });
    let records = 0;
    for (const customer of big.customers) {
      const data = big.dataOf(customer);
      records += data.transfers.length + data.orders.length;
    }
    expect(records).to.equal(50_000);
    expect(big.recordCount).to.equal(50_000);
    expect(Date.now() - startedAt).to.be.below(5_000);
  });
});
