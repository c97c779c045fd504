import { expect } from 'chai';
import {
  createDataset,
  custodianHoldings,
  dataConfig,
  PLANTED_MISMATCH_CUSTOMER,
  usbrokerPositions,
} from '../src/index.js';

const BASE = { seed: 42, customers: 12, recordsPerCustomer: 40, startMonth: '2026-01', months: 6 };

describe('sandbox planted mismatch (the quickstart reconciliation warn)', () => {
  const honest = createDataset(dataConfig(BASE));
  const planted = createDataset(dataConfig({ ...BASE, plantedMismatch: true }));
  const day = honest.period.to;
  const uae = (dataset: typeof honest, index: number) =>
    custodianHoldings(dataset.config, dataset.dataOf(dataset.customers[index - 1]!), day);
  const india = (dataset: typeof honest, index: number) =>
    usbrokerPositions(dataset.config, dataset.india.all()[index - 1]!, day);

  it('shows one share more of the first custodian position of UAE customer 7, at its price, and nothing else changes', () => {
    const before = uae(honest, PLANTED_MISMATCH_CUSTOMER);
    const after = uae(planted, PLANTED_MISMATCH_CUSTOMER);
    expect(before.positions.length).to.be.greaterThan(0);
    const [first, ...rest] = before.positions;
    const price = Number(first!.market_value) / Number(first!.qty);
    expect(after.positions[0]!.qty).to.equal(String(Number(first!.qty) + 1));
    expect(Number(after.positions[0]!.market_value)).to.be.closeTo(price * (Number(first!.qty) + 1), 0.011);
    expect(after.positions.slice(1)).to.deep.equal(rest);
    expect(after.cash).to.deep.equal(before.cash);
    for (const index of [1, 6, 8, 12]) expect(uae(planted, index)).to.deep.equal(uae(honest, index));
  });

  it('shows one share more of the first broker position of India customer 7, and nothing else changes', () => {
    const before = india(honest, PLANTED_MISMATCH_CUSTOMER);
    const after = india(planted, PLANTED_MISMATCH_CUSTOMER);
    expect(before.length).to.be.greaterThan(0);
    expect(Number(after[0]!.qty) - Number(before[0]!.qty)).to.be.closeTo(1, 1e-9);
    expect(after[0]!.cost_basis).to.equal(before[0]!.cost_basis);
    expect(after.slice(1)).to.deep.equal(before.slice(1));
    for (const index of [1, 6, 8, 12]) expect(india(planted, index)).to.deep.equal(india(honest, index));
  });
});
