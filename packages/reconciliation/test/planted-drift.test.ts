import { Decimal, draftFxSpread, FeeSchedule, jobActor } from '@ledger/core/posting';
import { createLogger, withActor } from '@ledger/core/runtime';
import {
  closePeriod,
  createCashRequest,
  postEntry,
  recordExceptions,
  reopenPeriod,
  upsertCustomer,
  type Db,
} from '@ledger/core/store';
import { createTestDatabase, type TestDatabase } from '@ledger/core/testing';
import { DEFAULT_JOB_SETTINGS, syncHoldingsJob, syncUaefeedJob, type JobDeps } from '@ledger/jobs';
import { startSandbox, type Sandbox } from '@ledger/sandbox';
import { createUpstreamClients, upstreamConfigSchema } from '@ledger/upstream-clients';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { DEFAULT_RECON_SETTINGS, OnDemandRuns, type RunRequest, type RunVariance } from '../src/index.js';
import { corrupt, plantTransaction, post, refusal } from './book.js';

const logger = createLogger({ level: 'error', service: 'recon-test', book: 'ENTITY_UAE', silent: true });
const POLICY = { feeSchedule: new FeeSchedule(new Decimal(22)), aedPerUsd: new Decimal('3.6725') };
const APPEND_ONLY = { code: '42501', constraint: 'ledger_append_only' };
const HISTORY = { code: '42501', constraint: 'ledger_history' };

/**
 * Issue 36, "Blind spots to close": each kind of drift reconciliation used to miss, planted in a
 * UAE book fully synced from the sandbox (sync-uaefeed, which recosts, and sync-holdings), and
 * the check that names it on the next run asked for on demand (`POST /v1/reconciliation/run`'s
 * OnDemandRuns, at the wall clock, against the live sandbox). What the owner is refused is shown
 * refused; what only a bypass of the triggers can plant is planted that way (book.ts's corrupt).
 */
describe('drift planted in a synced book is named on the next on-demand run (issue 36)', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let database: TestDatabase;
  /** The schema owner: plants as only it can. */
  let owner: Db;
  /** The runtime role: what the service runs as. */
  let db: Db;
  let runs: OnDemandRuns;
  let customers: string[];
  /** The synced book's `i`th customer: each kind of drift is planted on its own customer where it moves money. */
  const customer = (i: number) => customers[i]!;

  before(async () => {
    sandbox = await startSandbox({ seed: 7, customers: 4, recordsPerCustomer: 40 });
    database = await createTestDatabase({ runtimeRole: true });
    owner = database.db;
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
    customers = sandbox.data.customers.map((c) => c.customer_id);
    const upstreams = createUpstreamClients(
      upstreamConfigSchema.parse({
        UAEFEED_BASE_URL: sandbox.urls.uaefeed,
        UAEFEED_API_KEY: sandbox.credentials.uaefeed.appKey,
        UAEFEED_API_SECRET: sandbox.credentials.uaefeed.appSecret,
        UAEFEED_PRIVATE_KEY: sandbox.credentials.uaefeed.privateKeyPem,
        UAEFEED_INST_CODE: sandbox.credentials.uaefeed.instCode,
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
    await syncHoldingsJob.run({ as_of: sandbox.data.period.to }, deps);
    runs = new OnDemandRuns({ db, book: 'ENTITY_UAE', settings: DEFAULT_RECON_SETTINGS, upstreams, logger });
  });
  after(async () => {
    await runs?.close();
    await database?.drop();
    await sandbox?.close();
  });

  /** The next run asked for on demand: each check's status, and the variances it names. */
  async function nextRun(request: RunRequest = {}) {
    const run = await runs.run(request);
    return {
      status: (check: string) => run.results.find((r) => r.check_name === check)?.status,
      variances: (check: string): RunVariance[] => run.metadata.variances.filter((v) => v.check_name === check),
    };
  }

  it('synced and untouched › the first on-demand run is ok on every check', async () => {
    const run = await runs.run({});
    expect(
      run.results.filter((r) => r.status !== 'ok').map((r) => [r.check_name, r.status, r.metrics]),
      JSON.stringify(run.metadata.variances.slice(0, 5)),
    ).to.deep.equal([]);
  });

  it('an AED deposit posted twice, months before the last closed month › custodian_cash_recon and uaefeed_cash_recon name the customer’s AED wallet with both figures (custodian_ledger_recon never looks there)', async () => {
    const original = (await db('transactions')
      .where({ source: 'uaefeed', txn_type: 'deposit', original_currency: 'AED', customer_id: customer(0) })
      .orderBy('txn_date')
      .first()) as {
      source_txn_id: string;
      txn_date: Date | string;
      amount_usd: string;
      original_amount: string;
      metadata: Record<string, unknown>;
    };
    const txnDate =
      typeof original.txn_date === 'string' ? original.txn_date : original.txn_date.toISOString().slice(0, 10);
    const before = await nextRun({ category: 'C' });
    await post(db, {
      txn_type: 'deposit',
      customer_id: customer(0),
      source: 'uaefeed',
      source_txn_id: `${original.source_txn_id}-again`,
      txn_date: txnDate,
      amount_usd: original.amount_usd,
      original_currency: 'AED',
      original_amount: original.original_amount,
      fx_rate: '3.6725',
      metadata: original.metadata,
    });
    const run = await nextRun({ category: 'C' });
    expect(run.status('custodian_ledger_recon')).to.equal('ok');
    const twice = new Decimal(original.original_amount);
    for (const check of ['custodian_cash_recon', 'uaefeed_cash_recon']) {
      expect(before.variances(check), check).to.deep.equal([]);
      expect(run.status(check), check).to.equal('warn');
      const named = run.variances(check).map((v) => ({
        customer_id: v.customer_id,
        account_code: v.account_code,
        currency: v.detail.currency,
        difference: v.difference,
        expected_less_actual: new Decimal(v.expected!).minus(v.actual!).toFixed(2),
      }));
      expect(named, check).to.deep.equal([
        {
          customer_id: customer(0),
          account_code: '2020',
          currency: 'AED',
          difference: twice.negated().toFixed(2),
          expected_less_actual: twice.toFixed(2),
        },
      ]);
    }
  });

  it('a lot match deleted by the owner › refused; deleted around the guard › sale_lot_matches names the sell its matches no longer sum to', async () => {
    const { sell_txn_id: sale } = (await db('lot_matches').first('sell_txn_id')) as { sell_txn_id: string };
    expect(await refusal(owner.raw('DELETE FROM lot_matches WHERE sell_txn_id = ?', [sale]))).to.deep.equal(
      APPEND_ONLY,
    );
    expect((await nextRun({ category: 'B' })).variances('sale_lot_matches')).to.deep.equal([]);
    await corrupt(owner, 'DELETE FROM lot_matches WHERE sell_txn_id = ?', [sale]);
    const run = await nextRun({ category: 'B' });
    expect(run.status('sale_lot_matches')).to.equal('fail');
    expect(run.variances('sale_lot_matches').map((v) => [v.txn_id, v.actual, v.detail.problem])).to.deep.equal([
      [sale, '0.00', 'matches_differ_from_quantity'],
    ]);
  });

  it('a trade stamped recosted with no derivation › stamped_trade_derivation names it', async () => {
    const buy = await post(db, {
      txn_type: 'buy_security',
      customer_id: customer(1),
      source_txn_id: 'stamped-buy',
      txn_date: '2026-06-20',
      symbol: 'MSFT',
      quantity: '2',
      amount_usd: '300.00',
    });
    // Stamped by the owner with no bypass: recosted_at is the one column of recost_states that may move.
    await owner('recost_states').where({ txn_id: buy }).update({ recosted_at: owner.fn.now() });
    const run = await nextRun({ category: 'B' });
    expect(run.status('stamped_trade_derivation')).to.equal('fail');
    expect(
      run.variances('stamped_trade_derivation').map((v) => [v.txn_id, v.source_txn_id, v.detail.problem]),
    ).to.deep.equal([[buy, 'stamped-buy', 'stamped_without_derivation']]);
  });

  it('a pending flow of every kind and source, ten days old › pending_flow_age names each', async () => {
    const cashRequestId = randomUUID();
    await createCashRequest(
      db,
      { customer_id: customer(1), direction: 'deposit', amount: '25.00', currency: 'USD' },
      cashRequestId,
      POLICY,
    );
    const remitAccrual = randomUUID();
    await postEntry(
      db,
      draftFxSpread(
        {
          orderId: 'order_planted',
          customerId: customer(1),
          remittedOn: '2026-06-15',
          orderUsd: new Decimal('1000.00'),
          fxSpreadBps: new Decimal(50),
          amountUsd: new Decimal('5.00'),
        },
        remitAccrual,
      ),
    );
    const manualAccrual = await post(db, {
      txn_type: 'fx_spread',
      customer_id: customer(1),
      source_txn_id: 'fx-manual',
      txn_date: '2026-06-15',
      amount_usd: '3.00',
    });
    const pendingRecost = await post(db, {
      txn_type: 'buy_security',
      customer_id: customer(1),
      source_txn_id: 'pending-buy',
      txn_date: '2026-06-20',
      symbol: 'AAPL',
      quantity: '1',
      amount_usd: '10.00',
    });
    const tenDaysAgo = new Date(Date.now() - 240 * 3_600_000);
    await db('remittances').insert({
      order_id: 'order_planted',
      customer_id: customer(1),
      remit_customer_id: 'cust_planted',
      status: 'paid',
      amount_inr: '84000.00',
      amount_usd: '1000.00',
      quote_id: 'quote_planted',
      fx_rate: '84.00',
      paid_at: tenDaysAgo,
      remitted_on: '2026-06-15',
      order_created_at: tenDaysAgo,
      order_updated_at: tenDaysAgo,
      status_history: JSON.stringify([]),
    });
    // Aged as if posted ten days ago: only the owner, around the triggers, can move these clocks.
    await corrupt(
      owner,
      `UPDATE cash_requests SET created_at = created_at - interval '10 days' WHERE cash_request_id = ?`,
      [cashRequestId],
    );
    await corrupt(owner, `UPDATE transactions SET posted_at = posted_at - interval '10 days' WHERE txn_id IN (?, ?)`, [
      remitAccrual,
      manualAccrual,
    ]);
    await corrupt(owner, `UPDATE recost_states SET posted_at = posted_at - interval '10 days' WHERE txn_id = ?`, [
      pendingRecost,
    ]);
    const run = await nextRun({ category: 'D' });
    expect(run.status('pending_flow_age')).to.equal('warn');
    expect(
      run
        .variances('pending_flow_age')
        .map((v) => [
          v.detail.problem,
          v.txn_id ?? v.detail.cash_request_id ?? v.detail.order_id,
          v.detail.source ?? null,
        ])
        .sort(),
    ).to.deep.equal(
      [
        ['cash_request_too_old', cashRequestId, null],
        ['remittance_in_transit_too_old', 'order_planted', 'remit'],
        ['fx_receivable_unsettled_too_old', remitAccrual, 'remit'],
        ['fx_receivable_unsettled_too_old', manualAccrual, 'manual'],
        ['pending_recost_too_old', pendingRecost, 'manual'],
      ].sort(),
    );
  });

  it('a uaefeed trade posted without its fee metadata › stated_fee_posted names it and what is missing', async () => {
    const trade = await post(db, {
      txn_type: 'buy_security',
      customer_id: customer(1),
      source: 'uaefeed',
      source_txn_id: 'no-fee-metadata',
      txn_date: '2026-06-22',
      symbol: 'AAPL',
      quantity: '1',
      amount_usd: '100.00',
      fee_usd: '0.30',
      metadata: { cash_movement: '100.30' },
    });
    const run = await nextRun({ category: 'A' });
    expect(run.status('stated_fee_posted')).to.equal('warn');
    expect(run.variances('stated_fee_posted').map((v) => [v.txn_id, v.detail.problem, v.detail.missing])).to.deep.equal(
      [[trade, 'stated_fee_missing', ['bundled_fee']]],
    );
  });

  it('a revenue line written around the triggers › the on-demand full sweep’s dr_cr_sign_convention reads the lines and names the account', async () => {
    await plantTransaction(
      owner,
      { sourceTxnId: 'around-the-triggers', customerId: null, txnDate: '2026-06-25', amountUsd: '1000000.00' },
      [
        { account: '4010', debit: '1000000.00', credit: '0' },
        { account: '3000', debit: '0', credit: '1000000.00' },
      ],
    );
    const run = await nextRun({ category: 'A', full: true });
    expect(run.status('dr_cr_sign_convention')).to.equal('fail');
    expect(run.variances('dr_cr_sign_convention').map((v) => [v.account_code, v.detail.problem])).to.deep.equal([
      ['4010', 'account_on_wrong_side'],
    ]);
  });

  it('history changed in place by the owner (a holdings snapshot, a remittance, an exception’s first sighting) › refused; what the checks judged stays named', async () => {
    expect(await refusal(owner.raw(`UPDATE holdings_snapshots SET positions = '[]'`))).to.deep.equal(APPEND_ONLY);
    expect(await refusal(owner.raw('DELETE FROM holdings_snapshots'))).to.deep.equal(APPEND_ONLY);
    expect(
      await refusal(
        owner.raw(
          `UPDATE remittances SET first_seen_at = now(), status_history = '[]' WHERE order_id = 'order_planted'`,
        ),
      ),
    ).to.deep.equal(HISTORY);
    await withActor(jobActor('sync-uaefeed', 'j-planted'), () =>
      recordExceptions(db, { upstream: 'uaefeed' }, [
        {
          recordKey: 'ORD-PLANTED',
          customerId: customer(2),
          outcome: 'rejected' as const,
          reasonCode: 'refused',
          reason: 'unknown symbol',
        },
      ]),
    );
    // First seen four days ago (planted around the guard, as only a bypass could).
    await corrupt(
      owner,
      `UPDATE exceptions SET first_seen_at = now() - interval '4 days' WHERE record_key = 'ORD-PLANTED'`,
    );
    expect(
      await refusal(owner.raw(`UPDATE exceptions SET first_seen_at = now() WHERE record_key = 'ORD-PLANTED'`)),
    ).to.deep.equal(HISTORY);
    const run = await nextRun({});
    expect(run.status('snapshot_reconcile')).to.equal('ok');
    expect(run.variances('open_exceptions_age').map((v) => [v.source_txn_id, v.detail.problem])).to.deep.equal([
      ['ORD-PLANTED', 'open_exception_too_old'],
    ]);
    expect(run.variances('pending_flow_age').map((v) => v.detail.order_id)).to.include('order_planted');
  });

  it('an old synced row edited around the triggers › the incremental on-demand run does not look at it; the on-demand full run names it', async () => {
    const { txn_id: trade } = (await db('transactions')
      .where({ source: 'uaefeed', customer_id: customer(3) })
      .whereIn('txn_type', ['buy_security', 'sell_security'])
      .orderBy('txn_date')
      .first('txn_id')) as { txn_id: string };
    await corrupt(owner, `UPDATE transactions SET metadata = metadata - 'bundled_fee' WHERE txn_id = ?`, [trade]);
    const incremental = await nextRun({ category: 'A' });
    expect(incremental.variances('stated_fee_posted').map((v) => v.txn_id)).not.to.include(trade);
    const full = await nextRun({ category: 'A', full: true });
    expect(
      full
        .variances('stated_fee_posted')
        .filter((v) => v.txn_id === trade)
        .map((v) => [v.detail.problem, v.detail.missing]),
    ).to.deep.equal([['stated_fee_missing', ['bundled_fee']]]);
  });

  it('a reopen inserted by SQL › refused; a reopen through ledger_reopen_period › period_reopens names it on the next run', async () => {
    await closePeriod(db, { through: '2026-03-31', actor: 'api:ops', today: new Date().toISOString().slice(0, 10) });
    expect(
      await refusal(
        db.raw(`INSERT INTO period_closes (action, through, reason, actor) VALUES ('reopen', NULL, 'by hand', 'sql')`),
      ),
    ).to.deep.equal({ code: '42501', constraint: 'period_closes_reopen_by_function' });
    expect((await nextRun({ category: 'D' })).variances('period_reopens')).to.deep.equal([]);
    await reopenPeriod(db, { through: null, reason: 'custodian restated March', actor: 'api:ana' });
    const run = await nextRun({ category: 'D' });
    expect(run.status('period_reopens')).to.equal('warn');
    expect(
      run.variances('period_reopens').map((v) => [v.detail.problem, v.detail.through, v.detail.reason, v.detail.actor]),
    ).to.deep.equal([['period_reopened', null, 'custodian restated March', 'api:ana']]);
  });
});
