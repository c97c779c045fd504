import { Decimal, FeeSchedule } from '@ledger/core/posting';
import { createLogger } from '@ledger/core/runtime';
import { recost, upsertCustomer } from '@ledger/core/store';
import {
  DEFAULT_JOB_SETTINGS,
  type JobDeps,
  runSyncRemit,
  runSyncUsbroker,
  runSyncUsbrokerLedger,
  runSyncUsbrokerTrades,
} from '@ledger/jobs';
import { startSandbox, type Sandbox } from '@ledger/sandbox';
import { createRemitClient, createUsbrokerClient, NO_UPSTREAMS } from '@ledger/upstream-clients';
import { tieOutAgreement } from '@ledger/reconciliation/testing';
import { expect } from 'chai';
import { startApi, type TestApi } from './support.js';

const logger = createLogger({ level: 'error', service: 'api-test', book: 'ENTITY_IND_IFSC', silent: true });
/** The sandbox's period (2026-01..06) in ranges the daily-ledger job takes. */
const LEDGER_RANGES = [
  { start: '2026-01-01', end: '2026-03-31' },
  { start: '2026-04-01', end: '2026-06-30' },
];

/*
 * The live India reports end to end: the India sandbox synced in full into the api's book
 * (remit, both broker order jobs, the daily ledger), recosted, then every report read against
 * the sandbox live, each answer validated against the OpenAPI document.
 */
describe('India live reports on a fully synced sandbox book', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let api: TestApi;

  before(async () => {
    sandbox = await startSandbox({ seed: 42, customers: 8, recordsPerCustomer: 30 });
    const { apiKey, apiSecret, firmId } = sandbox.credentials.usbroker;
    api = await startApi({
      env: {
        ENTITY_ID: 'ENTITY_IND_IFSC',
        USBROKER_BASE_URL: sandbox.urls.usbroker,
        USBROKER_API_KEY: apiKey,
        USBROKER_API_SECRET: apiSecret,
        REMIT_BASE_URL: sandbox.urls.remit,
        REMIT_API_KEY: sandbox.credentials.remit.apiKey,
      },
    });
    for (const c of sandbox.data.india.customers) {
      await upsertCustomer(api.db, c.customer_id, {
        references: { usbroker_account_no: c.usbroker_account_no, remit_customer_id: c.remit_customer_id, pan: c.pan },
      });
    }
    const upstreams = {
      ...NO_UPSTREAMS,
      usbroker: createUsbrokerClient({
        baseUrl: sandbox.urls.usbroker,
        apiKey,
        apiSecret,
        retryLimit: 1,
        backoffMs: 5,
      }),
      remit: createRemitClient({
        baseUrl: sandbox.urls.remit,
        apiKey: sandbox.credentials.remit.apiKey,
        retryLimit: 1,
        backoffMs: 5,
      }),
      usbrokerFirmId: firmId,
    };
    const deps: JobDeps = {
      book: 'ENTITY_IND_IFSC',
      db: api.db,
      logger,
      progress: () => undefined,
      settings: DEFAULT_JOB_SETTINGS,
      upstreams,
    };
    await runSyncRemit({}, deps);
    await runSyncUsbroker({}, deps);
    await runSyncUsbrokerTrades({}, deps);
    for (const range of LEDGER_RANGES) await runSyncUsbrokerLedger(range, deps);
    await recost(api.db, {
      policy: { feeSchedule: new FeeSchedule(new Decimal(22), {}, new Decimal(4)) },
      limit: null,
    });
  });
  afterEach(() => {
    sandbox.faults.clear();
  });
  after(async () => {
    await api?.close();
    await sandbox?.close();
  });

  async function get(path: string) {
    const reply = await api.get(path, { token: 'ledger' });
    expect(reply.status, reply.text).to.equal(200);
    return reply.body;
  }
  const ids = () => sandbox.data.india.customers.map((c) => c.customer_id);

  it('every sandbox customer’s ledger-recon is match after a full, correct sync and recost, on the customer view and the firm report alike', async () => {
    for (const id of ids()) expect((await get(`/v1/customers/${id}/ledger-recon`)).status, id).to.equal('match');
    const firm = await get('/v1/india/ledger-recon');
    expect(firm.customers.map((c: { status: string }) => c.status)).to.deep.equal(ids().map(() => 'match'));
    expect(firm.totals.cash_difference_usd).to.equal('0.00');
  });

  it('the broker down for one customer: that customer is error with the message, every other one still answers', async () => {
    const [down, ...others] = sandbox.data.india.customers;
    sandbox.faults.add({ upstream: 'usbroker', customer: down!.usbroker_account_no, fault: '500' });
    // NAV reads prices, a call that names no account: its isolation is shown with nock (india-live.test.ts).
    for (const path of [
      '/v1/india/ledger-recon',
      '/v1/india/holdings-recon',
      '/v1/india/compliance',
      '/v1/india/reconciliation',
    ]) {
      const body = await get(path);
      const [first, ...rest] = body.customers;
      expect(first, path).to.deep.include({ customer_id: down!.customer_id, status: 'error' });
      expect(first.error, path).to.match(/^usbroker could not be read/);
      expect(
        rest.map((c: { customer_id: string }) => c.customer_id),
        path,
      ).to.deep.equal(others.map((c) => c.customer_id));
      expect(
        rest.every((c: { status: string }) => c.status !== 'error'),
        path,
      ).to.equal(true);
    }
  });

  it('holdings-recon: every symbol’s share count matches the broker’s', async () => {
    const body = await get('/v1/india/holdings-recon');
    expect(body.totals.symbols).to.deep.include({ mismatch: 0, ledger_only: 0, usbroker_only: 0 });
    expect(body.totals.symbols.match).to.be.above(0);
  });

  it('nav: every customer valued at the broker’s prices, the firm the sum', async () => {
    const body = await get('/v1/india/nav');
    expect(body.firm.customers).to.deep.equal({ valued: ids().length, no_link: 0, error: 0 });
    expect(body.warnings).to.deep.equal([]);
    const total = body.customers.reduce((sum: Decimal, c: { nav_usd: string }) => sum.plus(c.nav_usd), new Decimal(0));
    expect(body.firm.nav_usd).to.equal(total.toFixed(2));
  });

  it('reconciliation: every remittance whose wire completed is matched to that wire; wires carrying none are the customers’ own funding', async () => {
    const body = await get('/v1/india/reconciliation');
    const all = sandbox.data.india.all();
    const completed = new Set(
      all.flatMap((d) =>
        d.wires.filter((w) => w.status === 'completed' && w.direction === 'IN').map((w) => w.transfer_id),
      ),
    );
    const expected = all.flatMap((d) =>
      d.remittances
        .filter((r) => r.order.status === 'paid' && r.wire_id !== null && completed.has(r.wire_id))
        .map((r) => [r.order.id, r.wire_id]),
    );
    const matched = body.remittances
      .filter((r: { status: string }) => r.status === 'matched')
      .map((r: { order_id: string; transfer_id: string }) => [r.order_id, r.transfer_id]);
    expect(matched.sort()).to.deep.equal(expected.sort());
    const carrying = new Set(expected.map(([, wire]) => wire));
    const own = [...completed].filter((id) => !carrying.has(id)).sort();
    expect(body.unmatched_funding.map((w: { transfer_id: string }) => w.transfer_id).sort()).to.deep.equal(own);
  });

  it('the checks decide what the reports show: category C on the same book names exactly what the tie-out reports flag', async () => {
    const run = await api.post('/v1/reconciliation/run', { category: 'C' });
    expect(run.status, run.text).to.equal(200);
    const [reconciliation, holdings, ledger] = await Promise.all([
      get('/v1/india/reconciliation'),
      get('/v1/india/holdings-recon'),
      get('/v1/india/ledger-recon'),
    ]);
    const agreement = tieOutAgreement(run.body, { reconciliation, holdings, ledger });
    expect(agreement.disagreements).to.deep.equal([]);
    expect(agreement.compared.remittances, 'every remittance compared').to.equal(reconciliation.remittances.length);
    expect(reconciliation.totals.remittances.unmatched_funding, 'the customers’ own wires are counted').to.be.above(0);
  });

  it('compliance: each customer’s broker account status as the broker holds it', async () => {
    const body = await get('/v1/india/compliance');
    expect(body.customers.map((c: { status: string }) => c.status)).to.deep.equal(
      sandbox.data.india.all().map((d) => d.account.status),
    );
  });

  it('treasury and remittance-exceptions read remit live; remit down: configured false and the empty snapshot, each with a warning', async () => {
    expect(await get('/v1/india/treasury')).to.deep.include({ configured: true, warning: null });
    const exceptions = await get('/v1/india/remittance-exceptions');
    const nonPaid = sandbox.data.india
      .all()
      .flatMap((d) => d.remittances.filter((r) => r.order.status !== 'paid').map((r) => r.order.id));
    expect(exceptions.items.map((i: { order_id: string }) => i.order_id).sort()).to.deep.equal(nonPaid.sort());
    sandbox.faults.add({ upstream: 'remit', fault: '500' });
    const treasury = await get('/v1/india/treasury');
    expect(treasury).to.deep.include({ configured: false, mid_rate: null });
    expect(treasury.warning).to.match(/^remit could not be read/);
    const empty = await get('/v1/india/remittance-exceptions');
    expect(empty).to.deep.include({ total: 0, items: [] });
    expect(empty.warning).to.match(/^remit could not be read/);
  });

  it('the overviews add up what the syncs posted and stored', async () => {
    const broker = await get('/v1/india/usbroker');
    expect(broker.totals.customers).to.equal(ids().length);
    expect(broker.totals.buys.count).to.be.above(0);
    const remit = await get('/v1/india/remit');
    const paid = sandbox.data.india.all().flatMap((d) => d.remittances.filter((r) => r.order.status === 'paid'));
    expect(remit.totals.paid).to.equal(paid.length);
  });
});
