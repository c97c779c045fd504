import { generateIndiaCustomerData, parseMinor, USBROKER_FEE_BPS } from '@ledger/sandbox';
import { expect } from 'chai';
import { bookEnv, DEMO } from '../src/stack.js';

/*
 * Issue 36: the quickstart's India book is configured with the broker cost its sandbox charges, so
 * /v1/india/broker-fees flags only what the broker charged beyond it. Over the demo's data (a few
 * customers of it), each trade as the report weighs it: configured = BROKER_COST_BPS of the trade's
 * amount (half up to the cent), actual = the daily ledger's itemised fees, flagged beyond a cent.
 */
describe('quickstart: the India book’s configured broker cost is what the sandbox charges', () => {
  const config = {
    seed: DEMO.seed,
    customers: 6,
    recordsPerCustomer: DEMO.recordsPerCustomer,
    startMonth: '2024-11',
    months: DEMO.months,
  };
  const trades = Array.from({ length: config.customers }, (_, i) => generateIndiaCustomerData(config, i + 1))
    .flatMap((d) => d.rows)
    .filter((r) => r.row_code === 'TRD');
  const cents = (text: string) => parseMinor(text);
  const halfUpBps = (value: bigint, bps: bigint) => (value * bps + 5_000n) / 10_000n;
  /** The trades the report flags at `bps`, each with what the broker charged beyond its commission and IFSCA rate. */
  const flaggedAt = (bps: bigint) =>
    trades.flatMap((r) => {
      const actual = -(cents(r.commission) + cents(r.sec_fee) + cents(r.taf_fee) + cents(r.ifsca_fee));
      const amount = cents(r.amount) < 0n ? -cents(r.amount) : cents(r.amount);
      const drift = actual - halfUpBps(amount, bps);
      if (drift >= -1n && drift <= 1n) return [];
      const principal = cents(r.principal) < 0n ? -cents(r.principal) : cents(r.principal);
      const commission = halfUpBps(principal, USBROKER_FEE_BPS.commission);
      const atRate = (commission > 1n ? commission : 1n) + halfUpBps(principal, USBROKER_FEE_BPS.ifsca);
      return [{ txn_no: r.txn_no, beyondRate: actual - atRate }];
    });

  it('sets BROKER_COST_BPS to the sandbox’s commission + IFSCA rate, on the India book alone', () => {
    expect(bookEnv('ENTITY_IND_IFSC')).to.deep.equal({ BROKER_COST_BPS: '11' });
    expect(bookEnv('ENTITY_UAE')).to.deep.equal({});
  });

  it('flags only trades the broker charged beyond that rate (SEC, TAF, the bundled price’s rounding); the default 4 bps flagged every one', () => {
    expect(trades.length).to.be.greaterThan(50);
    expect(flaggedAt(4n)).to.have.length(trades.length);
    const flagged = flaggedAt(BigInt(bookEnv('ENTITY_IND_IFSC').BROKER_COST_BPS!));
    expect(flagged.length).to.be.lessThan(trades.length);
    expect(flagged.filter((t) => t.beyondRate >= -1n && t.beyondRate <= 1n)).to.deep.equal([]);
  });
});
