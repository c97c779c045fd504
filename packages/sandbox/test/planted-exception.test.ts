import { expect } from 'chai';
import {
  createDataset,
  custodianHoldings,
  dataConfig,
  PLANTED_EXCEPTION_CUSTOMER,
  uaefeedCashStatement,
} from '../src/index.js';

const BASE = { seed: 42, customers: 12, recordsPerCustomer: 40, startMonth: '2026-01', months: 6 };

describe('sandbox planted exception (the quickstart’s record a sync refuses)', () => {
  const honest = createDataset(dataConfig(BASE));
  const planted = createDataset(dataConfig({ ...BASE, plantedException: true }));
  const dataOf = (dataset: typeof honest, index: number) => dataset.dataOf(dataset.customers[index - 1]!);

  it('ends UAE customer 4’s transfers with a completed EUR deposit on the last day, into a EUR cash account', () => {
    const before = dataOf(honest, PLANTED_EXCEPTION_CUSTOMER);
    const after = dataOf(planted, PLANTED_EXCEPTION_CUSTOMER);
    expect(after.transfers.slice(0, -1)).to.deep.equal(before.transfers);
    const number = before.customer.uaefeed_customer_number;
    expect(after.transfers.at(-1)).to.deep.include({
      cashAccountNumber: `${number}-EUR`,
      type: 'DEPOSIT',
      currency: 'EUR',
      status: 'COMPLETED',
      valueDate: honest.period.to,
    });
    expect(before.transfers.map((t) => t.transferId)).not.to.include(after.transfers.at(-1)!.transferId);
  });

  it('moves no balance the sandbox answers, and no other customer changes', () => {
    const before = dataOf(honest, PLANTED_EXCEPTION_CUSTOMER);
    const after = dataOf(planted, PLANTED_EXCEPTION_CUSTOMER);
    expect(after.orders).to.deep.equal(before.orders);
    expect(after.movements).to.deep.equal(before.movements);
    const [year, month] = honest.period.to.split('-').map(Number) as [number, number];
    expect(uaefeedCashStatement(after, year, month)).to.deep.equal(uaefeedCashStatement(before, year, month));
    expect(custodianHoldings(planted.config, after, honest.period.to)).to.deep.equal(
      custodianHoldings(honest.config, before, honest.period.to),
    );
    for (const index of [1, 3, 5, 12]) expect(dataOf(planted, index)).to.deep.equal(dataOf(honest, index));
  });
});
