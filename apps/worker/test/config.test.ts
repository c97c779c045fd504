import { ConfigError } from '@ledger/core';
import { expect } from 'chai';
import { loadConfig } from '../src/config.js';

const BASE = { ENTITY_ID: 'ENTITY_UAE', LEDGER_DB_URL: 'postgres://worker@127.0.0.1:5432/ledger' };

describe('worker configuration', () => {
  it('reads its settings into camelCase fields, with their defaults', () => {
    expect(loadConfig(BASE)).to.deep.equal({
      book: 'ENTITY_UAE',
      dbUrl: BASE.LEDGER_DB_URL,
      migrationDbUrl: undefined,
      dbPoolMax: 10,
      logLevel: 'info',
      redisUrl: 'redis://127.0.0.1:6379',
      queuePrefix: 'bull',
    });
  });

  it('takes every variable it is given', () => {
    const config = loadConfig({
      ...BASE,
      LEDGER_MIGRATION_DB_URL: 'postgres://owner@127.0.0.1:5432/ledger',
      DB_POOL_MAX: '3',
      LOG_LEVEL: 'debug',
      REDIS_URL: 'rediss://redis.internal:6380',
      QUEUE_PREFIX: 'bull-1234abcd',
    });
    expect(config).to.include({
      migrationDbUrl: 'postgres://owner@127.0.0.1:5432/ledger',
      dbPoolMax: 3,
      logLevel: 'debug',
      redisUrl: 'rediss://redis.internal:6380',
      queuePrefix: 'bull-1234abcd',
    });
  });

  it('refuses an empty QUEUE_PREFIX with one line naming it', () => {
    expect(() => loadConfig({ ...BASE, QUEUE_PREFIX: '' })).to.throw(ConfigError, /^configuration error: QUEUE_PREFIX must be/);
  });
});
