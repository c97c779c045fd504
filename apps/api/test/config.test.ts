import { ConfigError } from '@ledger/core/runtime';
import { expect } from 'chai';
import { loadConfig } from '../src/config.js';
import { deposit, startApi } from './support.js';

const BASE = { ENTITY_ID: 'ENTITY_IND_IFSC', LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:5432/ledger' };

describe('configuration', () => {
  it('applies the defaults: port 8080, 1 MiB bodies, 22 bps, tokens unset', () => {
    const config = loadConfig(BASE);
    expect(config).to.include({
      book: 'ENTITY_IND_IFSC',
      port: 8080,
      bodyLimitBytes: 1_048_576,
      readyTimeoutMs: 2_000,
      logLevel: 'info',
    });
    expect(config.feeSchedule.customerFeeBps('manual').toString()).to.equal('22');
    expect(config.ledgerToken).to.equal(undefined);
    expect(config.adminToken).to.equal(undefined);
  });

  it('an empty token means not configured', () => {
    expect(loadConfig({ ...BASE, LEDGER_TOKEN: '', LEDGER_ADMIN_TOKEN: '' })).to.include({
      ledgerToken: undefined,
      adminToken: undefined,
    });
  });

  const refused: Array<[string, Record<string, string>, RegExp]> = [
    ['a missing ENTITY_ID', { LEDGER_DB_URL: BASE.LEDGER_DB_URL }, /ENTITY_ID/],
    ['a short token', { ...BASE, LEDGER_TOKEN: 'short' }, /LEDGER_TOKEN must be at least 16/],
    ['a token with spaces', { ...BASE, LEDGER_ADMIN_TOKEN: 'a token with some spaces' }, /LEDGER_ADMIN_TOKEN/],
    [
      'one token for both',
      { ...BASE, LEDGER_TOKEN: 'same-token-0123456789', LEDGER_ADMIN_TOKEN: 'same-token-0123456789' },
      /LEDGER_ADMIN_TOKEN must differ/,
    ],
    ['a fee that is not a decimal string', { ...BASE, CUSTOMER_FEE_BPS: '-5' }, /CUSTOMER_FEE_BPS/],
    [
      'a source’s fee that is not a decimal string',
      { ...BASE, CUSTOMER_FEE_BPS_USBROKER: '2 2' },
      /^configuration error: CUSTOMER_FEE_BPS_USBROKER must be a decimal string/,
    ],
    [
      'a fee for no source (a typo)',
      { ...BASE, CUSTOMER_FEE_BPS_USBROKR: '30' },
      /^configuration error: CUSTOMER_FEE_BPS_USBROKR names no source/,
    ],
    ['an AED peg that is not a decimal string', { ...BASE, AED_PER_USD: '3,6725' }, /AED_PER_USD/],
    ['an AED peg of zero', { ...BASE, AED_PER_USD: '0' }, /AED_PER_USD must be greater than zero/],
    ['a body limit below 1 KiB', { ...BASE, BODY_LIMIT_BYTES: '10' }, /BODY_LIMIT_BYTES/],
    ['a port out of range', { ...BASE, PORT: '70000' }, /PORT/],
    ['a financial year starting in month 13', { ...BASE, FISCAL_YEAR_START_MONTH: '13' }, /FISCAL_YEAR_START_MONTH/],
    [
      'the LRS-to-broker window under its old name',
      { ...BASE, INDIA_WIRE_MATCH_DAYS: '3' },
      /INDIA_WIRE_MATCH_DAYS renamed RECON_TIE_OUT_DAY_WINDOW/,
    ],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name} with one line naming the variable`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError, message);
    });
  }

  it('the financial year starts in April on the India book and in January on the UAE book, unless FISCAL_YEAR_START_MONTH says', () => {
    expect(loadConfig(BASE).fiscalYearStartMonth).to.equal(4);
    expect(loadConfig({ ...BASE, ENTITY_ID: 'ENTITY_UAE' }).fiscalYearStartMonth).to.equal(1);
    expect(
      loadConfig({ ...BASE, ENTITY_ID: 'ENTITY_UAE', FISCAL_YEAR_START_MONTH: '7' }).fiscalYearStartMonth,
    ).to.equal(7);
    expect(loadConfig({ ...BASE, FISCAL_YEAR_START_MONTH: '' }).fiscalYearStartMonth).to.equal(4);
  });

  it('AED_PER_USD defaults to the contract’s peg, 3.6725', () => {
    expect(loadConfig(BASE).aedPerUsd.toString()).to.equal('3.6725');
  });

  it('AED_PER_USD sets the peg AED cash requests convert at, rounding half-up to cents', async () => {
    const api = await startApi({ env: { AED_PER_USD: '4' } });
    try {
      await api.put('/v1/customers/C-1', {});
      const half = await api.post('/v1/cash-requests', {
        customer_id: 'C-1',
        direction: 'deposit',
        amount: '0.02',
        currency: 'AED',
      });
      // 0.02 / 4 = 0.005: half-up is 0.01 (half-even would be 0.00).
      expect(half.body).to.include({ amount: '0.02', amount_usd: '0.01', fx_rate: '4' });
      const plain = await api.post('/v1/cash-requests', {
        customer_id: 'C-1',
        direction: 'deposit',
        amount: '10.00',
        currency: 'AED',
      });
      expect(plain.body).to.include({ amount_usd: '2.50', fx_rate: '4' });
    } finally {
      await api.close();
    }
  });

  it('CUSTOMER_FEE_BPS_<SOURCE> sets one source’s fee; the others keep CUSTOMER_FEE_BPS', () => {
    const { feeSchedule } = loadConfig({
      ...BASE,
      CUSTOMER_FEE_BPS: '20',
      CUSTOMER_FEE_BPS_UAEFEED: '35',
      CUSTOMER_FEE_BPS_MANUAL: '0',
    });
    expect(
      (['uaefeed', 'manual', 'usbroker'] as const).map((s) => feeSchedule.customerFeeBps(s).toFixed()),
    ).to.deep.equal(['35', '0', '20']);
  });

  it('BROKER_COST_BPS is the broker cost the api pins on the trades it posts (default 4)', () => {
    expect(loadConfig(BASE).feeSchedule.brokerCostBps.toFixed()).to.equal('4');
    expect(loadConfig({ ...BASE, BROKER_COST_BPS: '3.5' }).feeSchedule.pinsOf('manual')).to.deep.equal({
      brokerage_bps: '22',
      broker_cost_bps: '3.5',
    });
  });

  it('BROKER_COST_BPS is read once: the checks and the broker-fees report take the schedule’s', () => {
    const config = loadConfig({ ...BASE, BROKER_COST_BPS: '11' });
    expect(config.recon.feeSchedule).to.equal(config.feeSchedule);
    expect(config.india.brokerCostBps.toFixed()).to.equal('11');
  });

  it('CUSTOMER_FEE_BPS sets the fee a trade posts when its source does not state one', async () => {
    const api = await startApi({ env: { CUSTOMER_FEE_BPS: '100' } });
    try {
      await api.put('/v1/customers/C-1', {});
      // A manual buy takes the funds check: the wallet covers 1,000.00 and its fee.
      expect((await api.post('/v1/transactions', deposit({ amount_usd: '1010.00' }))).status).to.equal(201);
      const reply = await api.post(
        '/v1/transactions/preview',
        deposit({ txn_type: 'buy_security', symbol: 'AAPL', amount_usd: '1000.00' }),
      );
      const fee = reply.body.journal_lines.filter((l: { posting_kind: string }) => l.posting_kind === 'brokerage_fee');
      expect(fee.map((l: { debit: string; credit: string }) => [l.debit, l.credit])).to.deep.equal([
        ['10.00', '0.00'],
        ['0.00', '10.00'],
      ]);
    } finally {
      await api.close();
    }
  });
});
