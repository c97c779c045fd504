import { createLogger } from '@ledger/core/runtime';
import { upsertCustomer, type Db } from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { DEFAULT_JOB_SETTINGS, type JobDeps, syncUaefeedJob } from '@ledger/jobs';
import { startSandbox, type Sandbox } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema, type UpstreamClients } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { CHECKS, DEFAULT_RECON_SETTINGS, type CheckOutcome } from '../src/index.js';
import { post } from './book.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_UAE', silent: true });
/** The book's uaefeed settings for a sandbox. */
const UAEFEED_ENV = (sandbox: Sandbox) => ({
  UAEFEED_BASE_URL: sandbox.urls.uaefeed,
  UAEFEED_API_KEY: sandbox.credentials.uaefeed.appKey,
  UAEFEED_API_SECRET: sandbox.credentials.uaefeed.appSecret,
  UAEFEED_PRIVATE_KEY: sandbox.credentials.uaefeed.privateKeyPem,
  UAEFEED_INST_CODE: sandbox.credentials.uaefeed.instCode,
});
/** A run "now" in early July: the last closed month is the sandbox's last, June 2026. */
const JULY = new Date('2026-07-05T00:00:00Z');

describe('the UAE checks on a fully synced sandbox book', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  let db: Db;
  let upstreams: UpstreamClients;

  before(async () => {
    sandbox = await startSandbox({ seed: 7, customers: 6, recordsPerCustomer: 40 });
    database = await createTestDatabase({ runtimeRole: true });
    db = database.runtime!.db;
    for (const c of sandbox.data.customers) {
      await upsertCustomer(db, c.customer_id, {
        name: c.name,
        references: {
          uaefeed_customer_number: c.uaefeed_customer_number,
          uaefeed_account_number: c.uaefeed_account_number,
          custodian_account: c.custodian_account,
        },
      });
    }
    upstreams = createUpstreamClients(
      upstreamConfigSchema.parse({
        ...UAEFEED_ENV(sandbox),
        CUSTODIAN_BASE_URL: sandbox.urls.custodian,
        CUSTODIAN_API_KEY: sandbox.credentials.custodian.apiKey,
      }),
    );
    const deps: JobDeps = {
      book: 'ENTITY_UAE',
      db,
      logger,
      progress: () => undefined,
      settings: DEFAULT_JOB_SETTINGS,
      upstreams,
    };
    await syncUaefeedJob.run({}, deps);
  });
  after(async () => {
    await database?.drop();
    await sandbox?.close();
  });

  /** A check run at `now` (a July day), as the runner runs it. */
  const outcome = (name: string, with_: UpstreamClients = upstreams): Promise<CheckOutcome> =>
    db.transaction(
      (trx) =>
        CHECKS.find((c) => c.name === name)!.run({
          db: trx,
          book: 'ENTITY_UAE',
          settings: DEFAULT_RECON_SETTINGS,
          upstreams: with_,
          now: JULY,
          since: null,
        }),
      {
        isolationLevel: 'repeatable read',
        readOnly: true,
      },
    );

  it('last month’s custodian cash statements agree with the ledger’s AED movements: ok, no variance', async () => {
    const result = await outcome('custodian_ledger_recon');
    expect(result).to.deep.include({ status: 'ok', variances: [] });
    expect(result.metrics).to.include({ customers: sandbox.data.customers.length, month: '2026-06', unreachable: 0 });
  });

  it('last month’s uaefeed holdings statements agree with the ledger’s shares: ok, no variance', async () => {
    const result = await outcome('uaefeed_holdings_recon');
    expect(result).to.deep.include({ status: 'ok', variances: [] });
    expect(result.metrics).to.include({ customers: sandbox.data.customers.length, month: '2026-06', unreachable: 0 });
  });

  it('every customer’s wallets, USD and AED, hold what the custodian’s cash and uaefeed’s cash accounts do: ok, no variance', async () => {
    const custodian = await outcome('custodian_cash_recon');
    expect(custodian).to.deep.include({ status: 'ok', variances: [] });
    expect(custodian.metrics).to.include({
      customers: sandbox.data.customers.length,
      as_of: '2026-07-05',
      unreachable: 0,
    });
    const uaefeed = await outcome('uaefeed_cash_recon');
    expect(uaefeed).to.deep.include({ status: 'ok', variances: [] });
    expect(uaefeed.metrics).to.include({ customers: sandbox.data.customers.length, unreachable: 0 });
  });

  it('uaefeed unreachable › warn naming each customer and why, never fail', async () => {
    const down = {
      ...upstreams,
      uaefeed: createUpstreamClients(
        upstreamConfigSchema.parse({ ...UAEFEED_ENV(sandbox), UAEFEED_BASE_URL: 'http://127.0.0.1:9' }),
      ).uaefeed,
    };
    const result = await outcome('uaefeed_holdings_recon', down);
    expect(result.status).to.equal('warn');
    expect(result.variances.map((v) => v.detail.problem)).to.deep.equal(
      sandbox.data.customers.map(() => 'uaefeed_unreachable'),
    );
  });

  it('a share the feed never saw, and AED cash it never moved, posted in June › each check names the customer and the difference', async () => {
    const customer = sandbox.data.customers[0]!.customer_id;
    await post(db, {
      txn_type: 'buy_security',
      customer_id: customer,
      source: 'manual',
      txn_date: '2026-06-20',
      amount_usd: '10.00',
      symbol: 'ZZZZ',
      quantity: '1',
    });
    await post(db, {
      txn_type: 'deposit',
      customer_id: customer,
      source: 'uaefeed',
      source_txn_id: 'planted-aed-1',
      txn_date: '2026-06-20',
      amount_usd: '1.00',
      original_currency: 'AED',
      original_amount: '3.67',
      metadata: { cash_movement: '3.67' },
    });
    const holdings = await outcome('uaefeed_holdings_recon');
    expect(holdings.status).to.equal('warn');
    expect(holdings.variances.map((v) => [v.customer_id, v.symbol, v.expected, v.actual, v.difference])).to.deep.equal([
      [customer, 'ZZZZ', '1', '0', '-1'],
    ]);
    const cash = await outcome('custodian_ledger_recon');
    expect(cash.status).to.equal('warn');
    expect(cash.variances).to.have.length(1);
    expect(cash.variances[0]).to.include({ customer_id: customer, difference: '-3.67' });
    expect(cash.variances[0]!.detail).to.include({
      problem: 'cash_statement_differs',
      month: '2026-06',
      currency: 'AED',
    });
  });
});
