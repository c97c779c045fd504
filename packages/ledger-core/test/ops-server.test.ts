import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  closeServer,
  commonConfigOf,
  commonConfigSchema,
  ConfigError,
  createLogger,
  createMetrics,
  parseConfig,
} from '../src/entry-points/runtime.js';
import { startOpsServer } from '../src/runtime/ops-server.js';

/** The least environment a process starts with, plus `env`. */
const configOf = (env: Record<string, string>) =>
  commonConfigOf(
    parseConfig(commonConfigSchema, {
      ENTITY_ID: 'ENTITY_UAE',
      LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:5432/ledger',
      OPS_PORT: '0',
      ...env,
    }),
  );

/**
 * The operations listener serves /metrics and health without a token (ADR 0012), so where it
 * listens is its only protection: loopback unless OPS_HOST opens it (infra/ does, behind a
 * NetworkPolicy that admits only the scraper).
 */
describe('operations listener: where it listens (OPS_HOST)', () => {
  const servers: Server[] = [];
  const open = async (env: Record<string, string>) => {
    const config = configOf(env);
    const server = await startOpsServer({
      host: config.opsHost,
      port: config.opsPort!,
      metrics: createMetrics({ service: 'test', book: config.book }),
      ready: () => Promise.resolve(null),
      logger: createLogger({ level: 'error', service: 'test', book: config.book, silent: true }),
    });
    servers.push(server);
    return server.address() as AddressInfo;
  };

  afterEach(async () => {
    await Promise.all(servers.splice(0).map(closeServer));
  });

  it('OPS_HOST unset › binds 127.0.0.1 only, where nothing off the machine reaches it', async () => {
    const address = await open({});
    expect(address.address).to.equal('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${String(address.port)}/health/live`)).status).to.equal(200);
  });

  it('OPS_HOST set › binds that address (0.0.0.0 in infra/, for the kubelet and the scraper)', async () => {
    expect((await open({ OPS_HOST: '0.0.0.0' })).address).to.equal('0.0.0.0');
  });

  for (const bad of ['everywhere', '127.0.0.1:9464', '256.0.0.1', 'http://0.0.0.0'])
    it(`OPS_HOST ${JSON.stringify(bad)} › refused at start, naming OPS_HOST`, () => {
      expect(() => configOf({ OPS_HOST: bad }))
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(/OPS_HOST must be an IP address/);
    });
});
