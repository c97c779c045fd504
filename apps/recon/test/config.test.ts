import { ConfigError } from '@ledger/core/runtime';
import { DEFAULT_RECON_SETTINGS } from '@ledger/reconciliation';
import { NO_UPSTREAMS } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { loadConfig } from '../src/config.js';

const UAE = { ENTITY_ID: 'ENTITY_UAE', LEDGER_DB_URL: 'postgres://recon@127.0.0.1:5432/ledger' };
const INDIA = { ...UAE, ENTITY_ID: 'ENTITY_IND_IFSC' };

describe('recon configuration', () => {
  it('reads the common settings, the checks’ and the schedule’s, with their defaults (UAE: on, hourly, C daily, 60 s in)', () => {
    expect(loadConfig(UAE)).to.deep.equal({
      book: 'ENTITY_UAE',
      dbUrl: 'postgres://recon@127.0.0.1:5432/ledger',
      migrationDbUrl: undefined,
      dbPoolMax: 10,
      logLevel: 'info',
      opsPort: undefined,
      opsHost: '127.0.0.1',
      recon: DEFAULT_RECON_SETTINGS,
      upstreams: NO_UPSTREAMS,
      schedule: { enabled: true, intervalSeconds: 3_600, externalIntervalSeconds: 86_400, initialDelaySeconds: 60 },
    });
  });

  it('on the India book the schedule is off unless INDIA_RECON_ENABLED, and runs at INDIA_RECON_INTERVAL_SECONDS', () => {
    expect(loadConfig(INDIA).schedule.enabled).to.equal(false);
    expect(
      loadConfig({
        ...INDIA,
        INDIA_RECON_ENABLED: 'true',
        INDIA_RECON_INTERVAL_SECONDS: '900',
        RECON_INTERVAL_SECONDS: '60',
      }).schedule,
    ).to.deep.equal({
      enabled: true,
      intervalSeconds: 900,
      externalIntervalSeconds: 86_400,
      initialDelaySeconds: 60,
    });
    expect(
      loadConfig({ ...INDIA, INDIA_RECON_ENABLED: 'true', RECON_SCHEDULE_ENABLED: 'false' }).schedule.enabled,
      'the master switch',
    ).to.equal(false);
    expect(loadConfig({ ...UAE, RECON_SCHEDULE_ENABLED: 'false' }).schedule.enabled).to.equal(false);
  });

  it('reads BROKER_COST_BPS once, into the checks’ fee schedule (the one recost runs with)', () => {
    expect(loadConfig(UAE).recon.feeSchedule.brokerCostBps.toFixed(), 'the default').to.equal('4');
    expect(loadConfig({ ...INDIA, BROKER_COST_BPS: '11' }).recon.feeSchedule.brokerCostBps.toFixed()).to.equal('11');
    expect(() => loadConfig({ ...UAE, BROKER_COST_BPS: '-1' })).to.throw(ConfigError, /BROKER_COST_BPS/);
  });

  it('reads the alert target and the checks’ tolerances', () => {
    const config = loadConfig({
      ...UAE,
      ALERT_WEBHOOK_URL: 'https://alerts.example/hook',
      ALERT_PERSIST_ENABLED: 'false',
      RECON_PENDING_RECOST_MAX_HOURS: '6',
      RECON_OPEN_EXCEPTION_MAX_HOURS: '24',
    });
    expect(config.recon).to.include({ alertWebhookUrl: 'https://alerts.example/hook', alertPersistEnabled: false });
    expect(config.recon.maxAgeHours.pendingRecost).to.equal(6);
    expect(config.recon.openExceptionMaxHours).to.equal(24);
    expect(loadConfig(UAE).recon.openExceptionMaxHours, 'the default: three days').to.equal(72);
    expect(
      loadConfig({ ...UAE, AED_PER_USD: '3.6700' }).recon.aedPerUsd.toFixed(),
      'the peg the UAE cash checks read',
    ).to.equal('3.67');
    expect(loadConfig(UAE).recon.aedPerUsd.toFixed(), 'the default peg').to.equal('3.6725');
  });

  it('refuses a bad setting with one line naming the variable', () => {
    expect(() => loadConfig({ ENTITY_ID: 'ENTITY_UAE' })).to.throw(
      ConfigError,
      /^configuration error: LEDGER_DB_URL is required/,
    );
    expect(() => loadConfig({ ...UAE, RECON_SCHEDULE_ENABLED: 'yes' })).to.throw(
      ConfigError,
      /RECON_SCHEDULE_ENABLED must be true or false/,
    );
    expect(() => loadConfig({ ...UAE, RECON_INTERVAL_SECONDS: '0' })).to.throw(ConfigError, /RECON_INTERVAL_SECONDS/);
    expect(() => loadConfig({ ...UAE, AED_PER_USD: '0' })).to.throw(
      ConfigError,
      /AED_PER_USD must be greater than zero/,
    );
    expect(() => loadConfig({ ...UAE, ALERT_WEBHOOK_URL: 'ftp://x' })).to.throw(
      ConfigError,
      /ALERT_WEBHOOK_URL must be an http\(s\) URL/,
    );
  });
});
