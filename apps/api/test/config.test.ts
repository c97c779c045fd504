import { ConfigError } from '@ledger/core';
import { expect } from 'chai';
import { loadConfig } from '../src/config.js';
import { deposit, startApi } from './support.js';

const BASE = { ENTITY_ID: 'ENTITY_IND_IFSC', LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:5432/ledger' };

describe('configuration', () => {
  it('applies the defaults: port 8080, 1 MiB bodies, 22 bps, tokens unset', () => {
    const config = loadConfig(BASE);
    expect(config).to.include({ book: 'ENTITY_IND_IFSC', port: 8080, bodyLimitBytes: 1_048_576, readyTimeoutMs: 2_000, logLevel: 'info' });
    expect(config.customerFeeBps.toString()).to.equal('22');
    expect(config.ledgerToken).to.equal(undefined);
    expect(config.adminToken).to.equal(undefined);
  });

  it('an empty token means not configured', () => {
    expect(loadConfig({ ...BASE, LEDGER_TOKEN: '', LEDGER_ADMIN_TOKEN: '' })).to.include({ ledgerToken: undefined, adminToken: undefined });
  });

  const refused: Array<[string, Record<string, string>, RegExp]> = [
    ['a missing ENTITY_ID', { LEDGER_DB_URL: BASE.LEDGER_DB_URL }, /ENTITY_ID/],
    ['a short token', { ...BASE, LEDGER_TOKEN: 'short' }, /LEDGER_TOKEN must be at least 16/],
    ['a token with spaces', { ...BASE, LEDGER_ADMIN_TOKEN: 'a token with some spaces' }, /LEDGER_ADMIN_TOKEN/],
    ['one token for both', { ...BASE, LEDGER_TOKEN: 'same-token-0123456789', LEDGER_ADMIN_TOKEN: 'same-token-0123456789' }, /LEDGER_ADMIN_TOKEN must differ/],
    ['a fee that is not a decimal string', { ...BASE, CUSTOMER_FEE_BPS: '-5' }, /CUSTOMER_FEE_BPS/],
    ['a body limit below 1 KiB', { ...BASE, BODY_LIMIT_BYTES: '10' }, /BODY_LIMIT_BYTES/],
    ['a port out of range', { ...BASE, PORT: '70000' }, /PORT/],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name} with one line naming the variable`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError, message);
    });
  }

  it('CUSTOMER_FEE_BPS sets the fee a trade posts when its source does not state one', async () => {
    const api = await startApi({ env: { CUSTOMER_FEE_BPS: '100' } });
    try {
      await api.put('/v1/customers/C-1', {});
      const reply = await api.post('/v1/transactions/preview', deposit({ txn_type: 'buy_security', symbol: 'AAPL', amount_usd: '1000.00' }));
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
