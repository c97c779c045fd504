import { ConfigError } from '@ledger/core';
import { expect } from 'chai';
import { loadConfig } from '../src/config.js';

describe('recon configuration', () => {
  it('reads the common settings into camelCase fields, with their defaults', () => {
    expect(loadConfig({ ENTITY_ID: 'ENTITY_IND_IFSC', LEDGER_DB_URL: 'postgres://recon@127.0.0.1:5432/ledger' })).to.deep.equal({
      book: 'ENTITY_IND_IFSC',
      dbUrl: 'postgres://recon@127.0.0.1:5432/ledger',
      migrationDbUrl: undefined,
      dbPoolMax: 10,
      logLevel: 'info',
    });
  });

  it('refuses a bad setting with one line naming the variable', () => {
    expect(() => loadConfig({ ENTITY_ID: 'ENTITY_UAE' })).to.throw(ConfigError, /^configuration error: LEDGER_DB_URL is required/);
  });
});
