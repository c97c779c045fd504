import { randomUUID } from 'node:crypto';
import {
  accrualsDue,
  assert,
  Decimal,
  findCustomers,
  findRemittancesOf,
  postTransactions,
  recordExceptions,
  remittancePostings,
  settlementsDue,
  snapshotWins,
  upsertRemittances,
  type CustomerRow,
  type Db,
  type RemittanceFacts,
  type RemittanceRecord,
  type RemittanceRow,
  type SettlementFees,
  type TransactionDraft,
  type RecordOutcome,
} from '@ledger/core';
import type { RemitClient, RemitMidRate, RemitPayment, RemitQuote } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob, type JobDeps } from './catalog.js';
import { customerIdsField, forEachCustomer, idOfRecord, type CustomerFailure } from './per-customer.js';
import { paymentOf, remittanceRecordOf, type RemitOrderView } from './remittance-record.js';

/** The highest FX-spread markup a run may assume: 10 % (typical markups are 50–200 bps). */
export const FX_SPREAD_BPS_MAX = 1_000;


export const syncRemitInput = z
  .object({
    customer_ids: customerIdsField.describe('Ledger customer ids to run for; null or absent: every India customer (each customer with a remit_customer_id).'),
    dry_run: z.boolean().optional().describe('Compute and report, write nothing (no remittance rows, no postings).'),
    fx_spread_bps: z
      .number()
      .min(0)
      .max(FX_SPREAD_BPS_MAX)
      .optional()
      .describe('Assumed FX-spread markup in basis points: each paid order accrues its USD × bps / 10,000 (half-up to cents) once. Absent: the worker’s FX_SPREAD_BPS (unset: 0, nothing accrues). 0: nothing accrues; settlements still clear earlier accruals.'),
  })
  .strict()
  .meta({ examples: [{ customer_ids: null, dry_run: false, fx_spread_bps: 75 }] });
export type SyncRemitInput = z.infer<typeof syncRemitInput>;

export interface SyncRemitResult extends Record<string, unknown> {
  dry_run: boolean;
  fx_spread_bps: string;
  customers: number;
  customers_synced: number;
  customers_failed: CustomerFailure[];
  /** Orders read from remit; `created`/`updated` rows (would be, in a dry run); `unchanged`: rows the snapshot had nothing new for; `held`: stale snapshots that changed nothing. */
  remittances: { seen: number; created: number; updated: number; unchanged: number; held: number };
  /** `posted` (would be, in a dry run); `conflicts`: a key already posted with other facts (e.g. another bps): the stored one stands. */
  fx_spread: { posted: number; already_posted: number; unpriced: string[]; below_a_cent: number; conflicts: Array<{ order_id: string; fields: string[] }> };
  fx_spread_settle: { posted: number; already_posted: number; conflicts: Array<{ order_id: string; fields: string[] }> };
}

/** What posting needs of an order: the stored row's facts where the snapshot is stale (domain/remittances.ts snapshotWins), else the snapshot's. */
function factsOf(record: RemittanceRecord, stored: RemittanceRow | undefined): RemittanceFacts {
  const fromStored = stored !== undefined && !snapshotWins(stored.status, record.status);
  const fees = (fx: string | null, txn: string | null): SettlementFees | null =>
    fx === null || txn === null ? null : { fxFeeUsd: new Decimal(fx), txnFeeUsd: new Decimal(txn) };
  const usd = (amount: string | null) => (amount === null ? null : new Decimal(amount));
  const settledAt = stored?.settled_at?.toISOString() ?? null;
  const storedFees = stored === undefined ? null : fees(stored.settlement_fx_fee_usd, stored.settlement_txn_fee_usd);
  // A settlement once seen stays (the store keeps it the same way), its fees filled once read.
  const settlementFees = storedFees ?? fees(record.settlement_fx_fee_usd, record.settlement_txn_fee_usd);
  if (fromStored) {
    return {
      orderId: stored.order_id,
      customerId: stored.customer_id,
      status: stored.status,
      amountUsd: usd(stored.amount_usd),
      remittedOn: stored.remitted_on,
      settlementId: stored.settlement_id,
      settlementStatus: stored.settlement_status,
      settledAt,
      settlementFees,
    };
  }
  return {
    orderId: record.order_id,
    customerId: record.customer_id,
    status: record.status,
    amountUsd: usd(record.amount_usd),
    remittedOn: record.remitted_on,
    settlementId: record.settlement_id ?? stored?.settlement_id ?? null,
    settlementStatus: record.settlement_status ?? stored?.settlement_status ?? null,
    settledAt: record.settled_at ?? settledAt,
    settlementFees: fees(record.settlement_fx_fee_usd, record.settlement_txn_fee_usd) ?? storedFees,
  };
}

interface RunContext {
  db: Db;
  remit: RemitClient;
  dryRun: boolean;
  bps: Decimal;
  result: SyncRemitResult;
  /** remit's mid rate, read at most once per run, and only when a live quote needs it. */
  midRate: () => Promise<{ rate: RemitMidRate; readAt: string } | null>;
}

/** A stored quote, as remit answered it: a quote never changes, so it is read once. */
function storedQuote(row: RemittanceRow): RemitQuote | null {
  if (row.quote_id === null || row.amount_usd === null || row.fx_rate === null || row.quoted_at === null || row.quote_expires_at === null) return null;
  return {
    id: row.quote_id,
    from: { amount: row.amount_inr, currency: 'INR' },
    to: { amount: row.amount_usd, currency: 'USD' },
    fx_rate: row.fx_rate,
    bank_code: null,
    total_tax: row.tcs_inr ?? '0',
    expires_at: row.quote_expires_at.toISOString(),
    created_at: row.quoted_at.toISOString(),
  };
}

/**
 * Every order of a remit customer with its quote, payment and settlement: calls that name the
 * customer or its objects. What cannot change is not read again: a quote already stored, a
 * settlement already stored as settled.
 */
async function readOrders(remit: RemitClient, remitCustomerId: string, stored: ReadonlyMap<string, RemittanceRow>, midRate: RunContext['midRate']): Promise<RemitOrderView[]> {
  const [orders, payments] = await Promise.all([remit.listOrders({ customerId: remitCustomerId }), remit.listPayments({ customerId: remitCustomerId })]);
  const paymentsByOrder = new Map<string, RemitPayment[]>();
  for (const p of payments) {
    if (p.payin_type !== 'orders') continue;
    paymentsByOrder.set(p.payin_id, [...(paymentsByOrder.get(p.payin_id) ?? []), p]);
  }
  const views: RemitOrderView[] = [];
  // One order at a time: a customer has few orders, and the run already works on several customers at once.
  for (const order of orders) {
    const row = stored.get(order.id);
    const known = row !== undefined && row.quote_id === order.quote_id ? storedQuote(row) : null;
    const quote = order.quote_id === null ? null : (known ?? (await remit.getQuote(order.quote_id)));
    const payment = paymentOf(paymentsByOrder.get(order.id) ?? []);
    // A settlement stored before its fees were kept (20261221) is read once more for them.
    const landed = row !== undefined && row.settlement_status === 'settled' && row.settlement_id === payment?.settlement_id && row.settlement_fx_fee_usd !== null;
    const settlement = !payment?.settlement_id || landed ? null : await remit.getSettlement(payment.settlement_id);
    // The mid rate is the quote's only while the quote is live; later it is another day's rate: not known.
    const live = quote !== null && known === null && Date.now() <= Date.parse(quote.expires_at);
    views.push({ order, quote, payment, settlement, mid: live ? await midRate() : null });
  }
  return views;
}

/** Posts drafts keyed by order; answers inserted and duplicate counts and the conflicts. A refused record is the customer's failure. */
async function post(db: Db, drafts: TransactionDraft[], tally: { posted: number; already_posted: number; conflicts: Array<{ order_id: string; fields: string[] }> }) {
  const { outcomes } = await postTransactions(db, drafts);
  const records: RecordOutcome[] = [];
  outcomes.forEach((outcome, i) => {
    const draft = drafts[i]!;
    const orderId = String(draft.metadata.order_id);
    const record = { recordKey: draft.sourceTxnId, customerId: draft.customerId };
    if (outcome.outcome === 'inserted') tally.posted += 1;
    else if (outcome.outcome === 'duplicate') tally.already_posted += 1;
    else if (outcome.outcome === 'conflict') {
      tally.conflicts.push({ order_id: orderId, fields: outcome.fields });
      records.push({ ...record, posted: false, reasonCode: 'conflict', reason: `posted before with other ${outcome.fields.join(', ')}`, record: { order_id: orderId } });
      return;
    } else throw outcome.reason;
    records.push({ ...record, posted: true });
  });
  await recordExceptions(db, { upstream: 'remit' }, records);
}

/** One customer: read everything from remit first, then write; a failed read leaves nothing half-done. */
async function syncCustomer(customer: CustomerRow, ctx: RunContext): Promise<void> {
  const { db, result } = ctx;
  const remitCustomerId = customer.remit_customer_id;
  assert(remitCustomerId !== null, 'sync-remit selects customers by remit_customer_id');
  const stored = new Map((await findRemittancesOf(db, customer.customer_id)).map((row) => [row.order_id, row]));
  const views = await readOrders(ctx.remit, remitCustomerId, stored, ctx.midRate);
  const records = views.map((view) => remittanceRecordOf({ customer_id: customer.customer_id, remit_customer_id: remitCustomerId, pan: customer.pan }, view));
  const orderIds = records.map((r) => r.order_id);
  result.remittances.seen += records.length;
  const written = await upsertRemittances(db, records, { dryRun: ctx.dryRun });
  result.remittances.created += written.created.length;
  result.remittances.updated += written.updated.length;
  result.remittances.unchanged += written.unchanged.length;
  result.remittances.held += written.held.length;
  const facts = records.map((r) => factsOf(r, stored.get(r.order_id)));

  // fx_spread: once per paid order, while an assumed spread is set (domain/remittances.ts decides).
  const before = await remittancePostings(db, orderIds);
  const accruals = accrualsDue(facts, before, ctx.bps, randomUUID);
  result.fx_spread.unpriced.push(...accruals.unpriced);
  result.fx_spread.below_a_cent += accruals.belowACent;
  if (ctx.dryRun) result.fx_spread.posted += accruals.drafts.length;
  else await post(db, accruals.drafts, result.fx_spread);

  // fx_spread_settle: when the settlement has landed, exactly the accrual (as stored now: a concurrent run's stands), once.
  const postings = ctx.dryRun ? before : await remittancePostings(db, orderIds);
  const settles = settlementsDue(facts, postings, ctx.dryRun ? accruals.drafts : [], randomUUID);
  if (ctx.dryRun) result.fx_spread_settle.posted += settles.length;
  else await post(db, settles, result.fx_spread_settle);
}

/**
 * sync-remit (docs/jobs.md#sync-remit): for each India customer, remit's orders with their
 * quotes, payments and settlements become remittance rows; a paid order accrues `fx_spread`
 * once, a landed settlement posts `fx_spread_settle` of exactly the accrual. The USD itself is
 * not posted here: the broker's funding wire posts it. Safe to run concurrently with itself
 * (one customer from webhooks, all from the schedule): rows and postings are keyed by order.
 */
export async function runSyncRemit(input: SyncRemitInput, deps: JobDeps): Promise<SyncRemitResult> {
  const { db, logger, settings, upstreams } = deps;
  const dryRun = input.dry_run ?? false;
  const bps = new Decimal(input.fx_spread_bps === undefined ? (settings.fxSpreadBps ?? '0') : String(input.fx_spread_bps));
  const ids = input.customer_ids ?? null;
  const customers = await findCustomers(db, ids, 'remit_customer_id');
  const result: SyncRemitResult = {
    dry_run: dryRun,
    fx_spread_bps: bps.toString(),
    customers: ids?.length ?? customers.length,
    customers_synced: 0,
    customers_failed: [],
    remittances: { seen: 0, created: 0, updated: 0, unchanged: 0, held: 0 },
    fx_spread: { posted: 0, already_posted: 0, unpriced: [], below_a_cent: 0, conflicts: [] },
    fx_spread_settle: { posted: 0, already_posted: 0, conflicts: [] },
  };
  const found = new Set(customers.map((c) => c.customer_id));
  const notIndia = (ids ?? []).filter((id) => !found.has(id)).map((id) => ({ customer_id: id, reason: 'not an India customer of this book (unknown, or no remit_customer_id: run provision-india)' }));
  const remit = upstreams.remit;
  let failed: CustomerFailure[];
  if (remit === null) {
    failed = customers.map((c) => ({ customer_id: c.customer_id, reason: 'remit is not configured (REMIT_BASE_URL unset)' }));
  } else {
    let mid: Promise<{ rate: RemitMidRate; readAt: string } | null> | null = null;
    const midRate = () =>
      (mid ??= remit.getMidRate().then(
        (rate) => ({ rate, readAt: new Date().toISOString() }),
        (error: unknown) => {
          // Only "when known": without it the remittance is recorded all the same.
          logger.warn('remit mid rate unavailable', { error: error instanceof Error ? error.message : String(error) });
          return null;
        },
      ));
    const ctx: RunContext = { db, remit, dryRun, bps, result, midRate };
    ({ failed } = await forEachCustomer(customers, idOfRecord, (customer) => syncCustomer(customer, ctx), (done, total) => deps.progress({ done, total, unit: 'customers' })));
  }
  result.customers_failed = [...notIndia, ...failed];
  result.customers_synced = customers.length - failed.length;
  logger.info('sync-remit done', { dry_run: dryRun, customers: result.customers, failed: result.customers_failed.length, fx_spread: result.fx_spread.posted, fx_spread_settle: result.fx_spread_settle.posted });
  return result;
}

export const syncRemitJob = defineJob<SyncRemitInput, SyncRemitResult>('sync-remit', {
  input: syncRemitInput,
  // Every call is a run of its own: runs are idempotent on database keys, not on BullMQ's job id.
  businessKey: () => null,
  run: runSyncRemit,
});
