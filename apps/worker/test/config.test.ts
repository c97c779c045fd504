import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { ConfigError } from '@ledger/core/runtime';
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
      opsPort: undefined,
      opsHost: '127.0.0.1',
      redisUrl: 'redis://127.0.0.1:6379',
      queuePrefix: 'bull',
      jobStalledIntervalMs: 30_000,
      jobSettings: { feeSchedule: new FeeSchedule(new Decimal(22)), aedPerUsd: '3.6725' },
      upstreams: {
        uaefeed: null,
        custodian: null,
        usbroker: null,
        remit: null,
        usbrokerFirmId: null,
        usbrokerFirmAccount: null,
      },
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
      JOB_STALLED_INTERVAL_MS: '2000',
      OPS_PORT: '9464',
      OPS_HOST: '0.0.0.0',
    });
    expect(config.jobStalledIntervalMs).to.equal(2_000);
    expect(config).to.include({
      migrationDbUrl: 'postgres://owner@127.0.0.1:5432/ledger',
      dbPoolMax: 3,
      logLevel: 'debug',
      redisUrl: 'rediss://redis.internal:6380',
      queuePrefix: 'bull-1234abcd',
      opsPort: 9464,
      opsHost: '0.0.0.0',
    });
  });

  it('reads recost’s fee schedule, CUSTOMER_FEE_BPS, CUSTOMER_FEE_BPS_<SOURCE> and BROKER_COST_BPS', () => {
    expect(
      loadConfig({ ...BASE, CUSTOMER_FEE_BPS: '25', CUSTOMER_FEE_BPS_USBROKER: '30', BROKER_COST_BPS: '3.5' })
        .jobSettings,
    ).to.deep.equal({
      feeSchedule: new FeeSchedule(new Decimal(25), { usbroker: new Decimal(30) }, new Decimal('3.5')),
      aedPerUsd: '3.6725',
    });
    expect(() => loadConfig({ ...BASE, BROKER_COST_BPS: '-1' })).to.throw(
      ConfigError,
      /^configuration error: BROKER_COST_BPS must be/,
    );
  });

  it('refuses a bad per-source fee, or one naming no source, with one line naming the variable', () => {
    expect(() => loadConfig({ ...BASE, CUSTOMER_FEE_BPS_UAEFEED: '-1' })).to.throw(
      ConfigError,
      /^configuration error: CUSTOMER_FEE_BPS_UAEFEED must be a decimal string/,
    );
    expect(() => loadConfig({ ...BASE, CUSTOMER_FEE_BPS_BROKER: '30' })).to.throw(
      ConfigError,
      /^configuration error: CUSTOMER_FEE_BPS_BROKER names no source/,
    );
  });

  it('reads the India jobs’ defaults, FX_SPREAD_BPS and API_GLOBAL_BASE_URL, only when set', () => {
    expect(
      loadConfig({ ...BASE, FX_SPREAD_BPS: '75', API_GLOBAL_BASE_URL: 'https://api.example/' }).jobSettings,
    ).to.deep.equal({
      feeSchedule: new FeeSchedule(new Decimal(22)),
      aedPerUsd: '3.6725',
      fxSpreadBps: '75',
      apiGlobalBaseUrl: 'https://api.example/',
    });
    expect(() => loadConfig({ ...BASE, FX_SPREAD_BPS: '-5' })).to.throw(
      ConfigError,
      /^configuration error: FX_SPREAD_BPS must be/,
    );
    expect(() => loadConfig({ ...BASE, API_GLOBAL_BASE_URL: 'ftp://x' })).to.throw(
      ConfigError,
      /^configuration error: API_GLOBAL_BASE_URL must be/,
    );
  });

  it('reads the AED peg the UAE syncs convert at, AED_PER_USD, and refuses zero or a non-decimal', () => {
    expect(loadConfig({ ...BASE, AED_PER_USD: '3.67' }).jobSettings.aedPerUsd).to.equal('3.67');
    expect(() => loadConfig({ ...BASE, AED_PER_USD: '0.0' })).to.throw(
      ConfigError,
      /^configuration error: AED_PER_USD must be greater than zero/,
    );
    expect(() => loadConfig({ ...BASE, AED_PER_USD: '3,6725' })).to.throw(
      ConfigError,
      /^configuration error: AED_PER_USD must be a decimal string/,
    );
  });

  it('refuses an empty QUEUE_PREFIX with one line naming it', () => {
    expect(() => loadConfig({ ...BASE, QUEUE_PREFIX: '' })).to.throw(
      ConfigError,
      /^configuration error: QUEUE_PREFIX must be/,
    );
  });
});
