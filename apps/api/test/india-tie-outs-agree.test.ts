import { upsertRemittances, type RemittanceRecord } from '@ledger/core/store';
import type { RunVariance } from '@ledger/reconciliation';
import { tieOutAgreement } from '@ledger/reconciliation/testing';
import { expect } from 'chai';
import nock from 'nock';
import { mockedUpstreams } from './mocked-upstreams.js';
import { startApi, type TestApi } from './support.js';

// Importing nock intercepts every HTTP request of this process: off at once, on only while this file's tests run.
nock.restore();

/*
 * Issue 36: each live India tie-out report shows what its check decides, for the same data. One
 * book and one broker (nock); the api answers the reports and runs category C
 * (`POST /v1/reconciliation/run`), and the two are compared item by item.
 */
const USBROKER = 'http://usbroker.test';
const ENV = {
  ENTITY_ID: 'ENTITY_IND_IFSC',
  USBROKER_BASE_URL: USBROKER,
  USBROKER_API_KEY: 'usbroker-client',
  USBROKER_API_SECRET: 'usbroker-secret-0123456789',
  RECON_TIE_OUT_DAY_WINDOW: '3',
};
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A paid remittance of `customerId` dated `remittedOn` (IST, its payment's day), settled on `settled.on` in a batch of `settled.batchUsd`. */
function remittance(
  orderId: string,
  customerId: string,
  amountUsd: string,
  remittedOn: string,
  settled?: { on: string; batchUsd: string },
): RemittanceRecord {
  return {
    order_id: orderId,
    customer_id: customerId,
    remit_customer_id: `cust_${customerId}`,
    pan: null,
    status: 'paid',
    purpose_code: 'S0001',
    reference_number: null,
    amount_inr: '10000.00',
    amount_usd: amountUsd,
    quote_id: orderId.replace('order_', 'quote_'),
    quoted_at: `${remittedOn}T04:00:00Z`,
    quote_expires_at: `${remittedOn}T04:15:00Z`,
    fx_rate: '0.011424',
    mid_rate: null,
    mid_rate_source: null,
    mid_rate_at: null,
    tcs_inr: '0',
    payment_id: null,
    payment_status: 'success',
    funds_available: true,
    payment_error_code: null,
    paid_at: `${remittedOn}T05:00:00Z`,
    settlement_id: settled === undefined ? null : `setl_${settled.on}`,
    settlement_status: settled === undefined ? null : 'settled',
    settlement_amount_usd: settled?.batchUsd ?? null,
    settlement_fx_fee_usd: null,
    settlement_txn_fee_usd: null,
    utr: null,
    settled_at: settled === undefined ? null : `${settled.on}T06:00:00Z`,
    remitted_on: remittedOn,
    order_created_at: `${remittedOn}T04:00:00Z`,
    order_updated_at: `${remittedOn}T05:00:00Z`,
  };
}

const wire = (transferId: string, accountNo: string, amount: string, valueDate: string) => ({
  transfer_id: transferId,
  account_no: accountNo,
  direction: 'IN',
  amount,
  currency: 'USD',
  status: 'completed',
  value_date: valueDate,
});
const WIRES = [
  // Carries order_a and order_b, paid on the 5th, each at its own USD; their batch settled on the 9th, after the wire.
  wire('W-1', 'USB-1', '12815.00', '2026-01-06'),
  // Carries order_d and order_f (100.00 + 250.00), not order_e between them.
  wire('W-2', 'USB-2', '350.00', '2026-03-04'),
  // A cent short of order_e, in its window: carries nothing, named by order_e's variance.
  wire('W-3', 'USB-2', '39.99', '2026-03-05'),
  // I-2's own funding: carries nothing, and is no variance.
  wire('W-4', 'USB-2', '5000.00', '2026-04-01'),
];

describe('India tie-outs: each report shows what its check decides (issue 36)', function () {
  this.timeout(60_000);
  mockedUpstreams(() => {
    const scope = nock(USBROKER).persist();
    // The client keeps its token across tests: asked for once.
    scope
      .post('/oauth2/token')
      .optionally()
      .reply(200, { access_token: 'tok-1', expires_in: 3600, token_type: 'Bearer' });
    // The report asks per account, the check firm-wide: one broker answers both.
    scope
      .get('/v1/funding/wires')
      .query(true)
      .reply((uri) => {
        const q = new URL(uri, USBROKER).searchParams;
        return [
          200,
          WIRES.filter(
            (w) =>
              (q.get('account_no') === null || w.account_no === q.get('account_no')) &&
              (q.get('after_id') === null || w.transfer_id > q.get('after_id')!),
          ),
        ];
      });
    const balance = (cash: string) => ({
      cash,
      cash_withdrawable: cash,
      buying_power: cash,
      pending_deposits: '0.00',
      currency: 'USD',
      as_of: '2026-11-24T20:00:00Z',
    });
    const position = (symbol: string, qty: string) => ({
      symbol,
      cusip: null,
      qty,
      avg_cost: '50.00',
      cost_basis: '250.00',
      market_value: '260.00',
    });
    scope.get('/v1/accounts/USB-1/balance').reply(200, balance('19114.35'));
    scope.get('/v1/accounts/USB-2/balance').reply(200, balance('500.00'));
    scope.get('/v1/accounts/USB-1/positions').reply(200, [position('AAPL', '5'), position('MSFT', '2')]);
    scope.get('/v1/accounts/USB-2/positions').reply(200, []);
  });

  let api: TestApi;
  before(async () => {
    api = await startApi({ env: ENV });
    await api.put('/v1/customers/I-1', { usbroker_account_no: 'USB-1', remit_customer_id: 'cust_I-1' });
    await api.put('/v1/customers/I-2', { usbroker_account_no: 'USB-2', remit_customer_id: 'cust_I-2' });
    // I-1: 19,415.00 in, 6 AAPL bought for 300.00 (fee 0.66): wallet 19,114.34, a cent under the broker's.
    for (const body of [
      { customer_id: 'I-1', txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '19415.00' },
      {
        customer_id: 'I-1',
        txn_type: 'buy_security',
        txn_date: '2026-01-12',
        symbol: 'AAPL',
        quantity: '6',
        amount_usd: '300.00',
      },
      { customer_id: 'I-2', txn_type: 'deposit', txn_date: '2026-01-10', amount_usd: '500.00' },
    ]) {
      expect((await api.post('/v1/transactions', { source: 'manual', ...body })).status).to.equal(201);
    }
    await upsertRemittances(api.db, [
      remittance('order_a', 'I-1', '6990.00', '2026-01-05', { on: '2026-01-09', batchUsd: '12815.00' }),
      remittance('order_b', 'I-1', '5825.00', '2026-01-05', { on: '2026-01-09', batchUsd: '12815.00' }),
      remittance('order_c', 'I-1', '200.00', '2026-02-01', { on: '2026-02-02', batchUsd: '200.00' }),
      remittance('order_d', 'I-2', '100.00', '2026-03-02', { on: '2026-03-03', batchUsd: '390.00' }),
      remittance('order_e', 'I-2', '40.00', '2026-03-02', { on: '2026-03-03', batchUsd: '390.00' }),
      remittance('order_f', 'I-2', '250.00', '2026-03-03', { on: '2026-03-03', batchUsd: '390.00' }),
      remittance('order_g', 'I-2', '60.00', daysAgo(1), { on: daysAgo(1), batchUsd: '60.00' }),
    ]);
  });
  after(async () => {
    await api?.close();
  });

  async function both() {
    const get = async (path: string) => {
      const reply = await api.get(path, { token: 'ledger' });
      expect(reply.status, reply.text).to.equal(200);
      return reply.body;
    };
    const run = await api.post('/v1/reconciliation/run', { category: 'C' });
    expect(run.status, run.text).to.equal(200);
    const variances = (check: string) =>
      (run.body.metadata.variances as RunVariance[]).filter((v) => v.check_name === check);
    const reports = {
      reconciliation: await get('/v1/india/reconciliation'),
      holdings: await get('/v1/india/holdings-recon'),
      ledger: await get('/v1/india/ledger-recon'),
    };
    // The comparison the bench makes on its book too (bench india): here it must find them alike.
    expect(tieOutAgreement(run.body, reports).disagreements).to.deep.equal([]);
    return {
      run: run.body as { results: Array<{ check_name: string; status: string; metrics: Record<string, unknown> }> },
      variances,
      ...reports,
    };
  }

  it('LRS to broker: the orders a wire carries, each at its own USD; the aged remittances are the check’s variances, naming the same unmatched wires, and the counts agree', async () => {
    const { run, variances, reconciliation } = await both();
    expect(
      reconciliation.remittances.map((r: Record<string, unknown>) => [
        r.order_id,
        r.amount_usd,
        r.status,
        r.transfer_id,
      ]),
    ).to.deep.equal([
      ['order_a', '6990.00', 'matched', 'W-1'],
      ['order_b', '5825.00', 'matched', 'W-1'],
      ['order_c', '200.00', 'aged_in_transit', null],
      ['order_d', '100.00', 'matched', 'W-2'],
      ['order_e', '40.00', 'aged_in_transit', null],
      ['order_f', '250.00', 'matched', 'W-2'],
      ['order_g', '60.00', 'in_transit', null],
    ]);
    expect(
      reconciliation.wires.map((w: Record<string, unknown>) => [w.transfer_id, w.status, w.order_ids]),
    ).to.deep.equal([
      ['W-1', 'matched', ['order_a', 'order_b']],
      ['W-2', 'matched', ['order_d', 'order_f']],
      ['W-3', 'unmatched_funding', []],
      ['W-4', 'unmatched_funding', []],
    ]);
    type Named = { transfer_id: string; amount_usd: string; value_date: string };
    const check = variances('lrs_usbroker_tie_out').map((v) => [
      v.detail.status,
      v.source_txn_id,
      v.customer_id,
      v.expected,
      v.detail.window_ends_on,
      v.detail.unmatched_wires,
    ]);
    const report = reconciliation.remittances
      .filter((r: { status: string }) => r.status === 'aged_in_transit')
      .map((r: Record<string, unknown>) => [
        r.status,
        r.order_id,
        r.customer_id,
        r.amount_usd,
        r.window_ends_on,
        r.unmatched_wires,
      ]);
    expect(check).to.deep.equal(report);
    expect(check.map((c) => [c[1], (c[5] as Named[]).map((w) => w.transfer_id)])).to.deep.equal([
      ['order_c', []],
      ['order_e', ['W-3']],
    ]);
    // The counts per status are the report's totals, unmatched wires included (counted, not variances).
    const result = run.results.find((r: { check_name: string }) => r.check_name === 'lrs_usbroker_tie_out')!;
    expect(result.status).to.equal('warn');
    expect(result.metrics).to.deep.include(reconciliation.totals.remittances);
    expect(reconciliation.totals.remittances).to.deep.equal({
      matched: 4,
      in_transit: 1,
      aged_in_transit: 2,
      unmatched_funding: 2,
    });
    expect(reconciliation.window_days).to.equal(3);
  });

  it('holdings and ledger cash: the symbols and the cash the reports flag are the variances of the checks, with the same status', async () => {
    const { variances, holdings, ledger } = await both();
    const flagged = holdings.customers.flatMap((c: { customer_id: string; symbols: Array<Record<string, string>> }) =>
      c.symbols.filter((s) => s.status !== 'match').map((s) => [c.customer_id, s.symbol, s.status, s.difference]),
    );
    expect(flagged).to.deep.equal([
      ['I-1', 'AAPL', 'mismatch', '-1'],
      ['I-1', 'MSFT', 'usbroker_only', '2'],
    ]);
    expect(
      variances('usbroker_holdings_recon').map((v) => [v.customer_id, v.symbol, v.detail.status, v.difference]),
    ).to.deep.equal(flagged);
    const cash = ledger.customers
      .filter((c: { difference: { cash_status: string } }) => c.difference.cash_status !== 'match')
      .map((c: { customer_id: string; difference: { cash_status: string } }) => [
        c.customer_id,
        c.difference.cash_status,
      ]);
    expect(cash).to.deep.equal([['I-1', 'mismatch']]);
    expect(variances('usbroker_ledger_recon').map((v) => [v.customer_id, v.detail.status])).to.deep.equal(cash);
  });
});
