import { randomUUID } from 'node:crypto';
import {
  accrualsDue,
  assert,
  Decimal,
  fxSpreadSourceTxnId,
  remittanceFacts,
  settlementsDue,
  type TransactionDraft,
} from '@ledger/core/posting';
import {
  findCustomers,
  findRemittancesOf,
  remittancePostings,
  upsertRemittances,
  type CustomerRow,
  type Db,
  type RemittanceRecord,
  type RemittanceRow,
} from '@ledger/core/store';
import type { RemitClient, RemitMidRate, RemitOrder, RemitPayment, RemitQuote } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob, type JobDeps } from '../job-settings.js';
import {
  customerIdsField,
  forEachCustomer,
  idOfRecord,
  notConfigured,
  selectCustomers,
  withCallsAtOnce,
} from '../kit/per-customer.js';
import { PostingRun, skippedAs } from '../kit/posting-kit.js';
import {
  noOutcomes,
  outcomeCounts,
  reason,
  recordReason,
  RESULT_SCHEMAS,
  syncResult,
  type CustomerFailure,
} from '../kit/results.js';
import { paymentOf, remittanceRecordOf, type RemitOrderView } from './remittance-record.js';

/**
 * remit calls in flight at once in a run, whichever customers they are for: enough to keep the
 * network busy while each answer is awaited, few enough to spare remit.
 */
const REMIT_CALLS_AT_ONCE = 32;

/** The highest FX-spread markup a run may assume: 10 % (typical markups are 50–200 bps). */
export const FX_SPREAD_BPS_MAX = 1_000;

export const syncRemitInput = z
  .object({
    customer_ids: customerIdsField.describe(
      'Ledger customer ids to run for; null or absent: every India customer (each customer with a remit_customer_id).',
    ),
    dry_run: z.boolean().optional().describe('Compute and report, write nothing (no remittance rows, no postings).'),
    fx_spread_bps: z
      .number()
      .min(0)
      .max(FX_SPREAD_BPS_MAX)
      .optional()
      .describe(
        'Assumed FX-spread markup in basis points: each paid order accrues its USD × bps / 10,000 (half-up to cents) once. Absent: the worker’s FX_SPREAD_BPS (unset: 0, nothing accrues). 0: nothing accrues; settlements still clear earlier accruals.',
      ),
  })
  .strict()
  .meta({ examples: [{ customer_ids: null, dry_run: false, fx_spread_bps: 75 }] });
export type SyncRemitInput = z.infer<typeof syncRemitInput>;

type Kind = 'fx_spread' | 'fx_spread_settle';

/**
 * The kit's result (records: `fx_spread` accruals, `fx_spread_settle` settlements; a paid order
 * without a quote is a skipped accrual `unpriced`, one whose spread rounds to 0.00 `below_a_cent`),
 * the run's bps and what became of the remittance rows.
 */
export const syncRemitResult = syncResult(['fx_spread', 'fx_spread_settle'], {
  fx_spread_bps: z.string().describe('The run’s assumed markup, in basis points (a decimal string).'),
  remittances: outcomeCounts
    .extend({ seen: z.number().int().min(0).describe('Orders read from remit.') })
    .describe(
      'Remittance rows `inserted` or `updated` (would be, in a dry run), `duplicate`: the row already said it all, ' +
        '`skipped` (`stale_snapshot`): a snapshot behind the stored status, which changes nothing.',
    ),
  remittances_skipped: z
    .array(z.strictObject({ customer_id: z.string(), order_id: z.string(), reason: recordReason }))
    .describe('Each skipped remittance row, with why.'),
}).register(RESULT_SCHEMAS, { id: 'SyncRemitResult' });
export type SyncRemitResult = z.infer<typeof syncRemitResult>;

/** A run's remittance rows before any is written. */
const noRemittances = (): RunContext['remittances'] => ({
  remittances: { ...noOutcomes(), seen: 0 },
  remittances_skipped: [],
});

interface RunContext {
  db: Db;
  remit: RemitClient;
  dryRun: boolean;
  bps: Decimal;
  run: PostingRun<Kind>;
  remittances: Pick<SyncRemitResult, 'remittances' | 'remittances_skipped'>;
  /** remit's mid rate, read at most once per run, and only when a live quote needs it. */
  midRate: () => Promise<{ rate: RemitMidRate; readAt: string } | null>;
}

/** A stored quote, as remit answered it: a quote never changes, so it is read once. */
function storedQuote(row: RemittanceRow): RemitQuote | null {
  if (
    row.quote_id === null ||
    row.amount_usd === null ||
    row.fx_rate === null ||
    row.quoted_at === null ||
    row.quote_expires_at === null
  )
    return null;
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
async function readOrders(
  remit: RemitClient,
  remitCustomerId: string,
  stored: ReadonlyMap<string, RemittanceRow>,
  midRate: RunContext['midRate'],
): Promise<RemitOrderView[]> {
  const [orders, payments] = await Promise.all([
    remit.listOrders({ customerId: remitCustomerId }),
    remit.listPayments({ customerId: remitCustomerId }),
  ]);
  const paymentsByOrder = new Map<string, RemitPayment[]>();
  for (const p of payments) {
    if (p.payin_type !== 'orders') continue;
    paymentsByOrder.set(p.payin_id, [...(paymentsByOrder.get(p.payin_id) ?? []), p]);
  }
  // A first run reads each order's quote and settlement, one call each (remit lists neither): all
  // asked at once, the run's bound on calls in flight (REMIT_CALLS_AT_ONCE) spacing them out.
  return Promise.all(orders.map((order) => readOrder(remit, order, stored.get(order.id), paymentsByOrder, midRate)));
}

/** One order's view: its quote (unless stored), its payment among the customer's, its settlement (unless landed). */
async function readOrder(
  remit: RemitClient,
  order: RemitOrder,
  row: RemittanceRow | undefined,
  paymentsByOrder: ReadonlyMap<string, RemitPayment[]>,
  midRate: RunContext['midRate'],
): Promise<RemitOrderView> {
  const known = row !== undefined && row.quote_id === order.quote_id ? storedQuote(row) : null;
  const payment = paymentOf(paymentsByOrder.get(order.id) ?? []);
  // A settlement stored before its fees were kept (20261221) is read once more for them.
  const landed =
    row !== undefined &&
    row.settlement_status === 'settled' &&
    row.settlement_id === payment?.settlement_id &&
    row.settlement_fx_fee_usd !== null;
  const [quote, settlement] = await Promise.all([
    order.quote_id === null ? null : (known ?? remit.getQuote(order.quote_id)),
    !payment?.settlement_id || landed ? null : remit.getSettlement(payment.settlement_id),
  ]);
  // The mid rate is the quote's only while the quote is live; later it is another day's rate: not known.
  const live = quote !== null && known === null && Date.now() <= Date.parse(quote.expires_at);
  return { order, quote, payment, settlement, mid: live ? await midRate() : null };
}

/**
 * Customers whose remittance rows and postings are written together: a statement per step for
 * all of them (rows, postings read, entries posted in one batch), not one per customer.
 */
const CUSTOMERS_PER_CHUNK = 50;

/** One customer's records as remit has them now (its stored rows tell what need not be read again). */
async function readCustomer(
  customer: CustomerRow,
  stored: ReadonlyMap<string, RemittanceRow>,
  ctx: RunContext,
): Promise<RemittanceRecord[]> {
  const remitCustomerId = customer.remit_customer_id;
  assert(remitCustomerId !== null, 'sync-remit selects customers by remit_customer_id');
  const views = await readOrders(ctx.remit, remitCustomerId, stored, ctx.midRate);
  return views.map((view) =>
    remittanceRecordOf(
      { customer_id: customer.customer_id, remit_customer_id: remitCustomerId, pan: customer.pan },
      view,
    ),
  );
}

/** Each customer's part of a list, by the customer its order belongs to. */
function byCustomer<T extends { order_id: string }>(
  items: readonly T[],
  customerOf: ReadonlyMap<string, string>,
): Map<string, T[]> {
  const parts = new Map<string, T[]>();
  for (const item of items) {
    const customerId = customerOf.get(item.order_id);
    assert(customerId !== undefined, `order ${item.order_id} is of none of the customers at hand`);
    const part = parts.get(customerId);
    if (part) part.push(item);
    else parts.set(customerId, [item]);
  }
  return parts;
}

/** Some customers as read: the records of those remit answered for, beside their stored rows; the others failed. */
interface ChunkRead {
  customers: readonly CustomerRow[];
  stored: ReadonlyMap<string, RemittanceRow>;
  done: Array<{ customer: CustomerRow; value: RemittanceRecord[] }>;
  failed: CustomerFailure[];
}

/** Some customers' orders read from remit: a failed read is that customer's failure, and nothing of it is written. */
async function readChunk(customers: readonly CustomerRow[], ctx: RunContext): Promise<ChunkRead> {
  const rows = await findRemittancesOf(
    ctx.db,
    customers.map((c) => c.customer_id),
  );
  const stored = new Map(rows.map((row) => [row.order_id, row]));
  const { done, failed } = await forEachCustomer(customers, idOfRecord, (customer) =>
    readCustomer(customer, stored, ctx),
  );
  return { customers, stored, done, failed };
}

/** The rows and postings of the customers remit answered for, a statement per step for all of them. */
async function writeChunk({ stored, done }: ChunkRead, ctx: RunContext): Promise<void> {
  const { db, run, remittances } = ctx;
  const records = done.flatMap(({ value }) => value);
  const recordOf = new Map(records.map((r) => [r.order_id, r]));
  const customerOf = new Map(records.map((r) => [r.order_id, r.customer_id]));
  const orderIds = records.map((r) => r.order_id);
  const written = await upsertRemittances(db, records, { dryRun: ctx.dryRun });
  const counts = remittances.remittances;
  counts.seen += records.length;
  counts.inserted += written.created.length;
  counts.updated += written.updated.length;
  counts.duplicate += written.unchanged.length;
  counts.skipped += written.held.length;
  for (const order_id of written.held)
    remittances.remittances_skipped.push({
      customer_id: customerOf.get(order_id)!,
      order_id,
      reason: reason('stale_snapshot', { order_id }),
    });
  const factsOf = byCustomer(
    records.map((r) => ({ order_id: r.order_id, facts: remittanceFacts(r, stored.get(r.order_id)) })),
    customerOf,
  );
  const plans = done.map(({ customer }) => ({
    posting: run.customer(customer.customer_id),
    facts: (factsOf.get(customer.customer_id) ?? []).map((f) => f.facts),
  }));
  const add = (posting: (typeof plans)[number]['posting'], kind: Kind, draft: TransactionDraft) =>
    posting.addDraft(kind, draft, recordOf.get(String(draft.metadata.order_id))!);

  // fx_spread: once per paid order, while an assumed spread is set (domain/remittances.ts decides).
  const before = byCustomer(await remittancePostings(db, orderIds), customerOf);
  const accrued = plans.map(({ posting, facts }) => {
    const accruals = accrualsDue(facts, before.get(posting.customerId) ?? [], ctx.bps, randomUUID);
    for (const [code, ids] of [
      ['unpriced', accruals.unpriced],
      ['below_a_cent', accruals.belowACent],
    ] as const) {
      for (const id of ids)
        posting.add(
          'fx_spread',
          fxSpreadSourceTxnId(id),
          skippedAs(code, { order_id: id, fx_spread_bps: ctx.bps.toString() }),
          recordOf.get(id)!,
        );
    }
    for (const draft of accruals.drafts) add(posting, 'fx_spread', draft);
    return accruals.drafts;
  });
  await run.postAll(plans.map(({ posting }) => posting));

  // fx_spread_settle: when the settlement has landed, exactly the accrual (as stored now: a concurrent run's stands), once.
  const postings = ctx.dryRun ? before : byCustomer(await remittancePostings(db, orderIds), customerOf);
  plans.forEach(({ posting, facts }, i) => {
    const planned = ctx.dryRun ? accrued[i]! : [];
    for (const draft of settlementsDue(facts, postings.get(posting.customerId) ?? [], planned, randomUUID))
      add(posting, 'fx_spread_settle', draft);
  });
  await run.postAll(plans.map(({ posting }) => posting));
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
  const bps = new Decimal(
    input.fx_spread_bps === undefined ? (settings.fxSpreadBps ?? '0') : String(input.fx_spread_bps),
  );
  const run = new PostingRun<Kind>(db, {
    job: 'sync-remit',
    upstream: 'remit',
    kinds: ['fx_spread', 'fx_spread_settle'],
    dryRun,
    settings,
  });
  const remittances = noRemittances();
  const { customers: linked, failed: notLinked } = await selectCustomers(db, 'remit_customer_id', input.customer_ids);
  const customers = await findCustomers(
    db,
    linked.map((c) => c.customerId),
  );
  let failed: CustomerFailure[];
  if (upstreams.remit === null) {
    failed = notConfigured(linked, 'remit');
  } else {
    const bounded = withCallsAtOnce(upstreams.remit, REMIT_CALLS_AT_ONCE);
    let mid: Promise<{ rate: RemitMidRate; readAt: string } | null> | null = null;
    const midRate = () =>
      (mid ??= bounded.getMidRate().then(
        (rate) => ({ rate, readAt: new Date().toISOString() }),
        (error: unknown) => {
          // Only "when known": without it the remittance is recorded all the same.
          logger.warn('remit mid rate unavailable', { error: error instanceof Error ? error.message : String(error) });
          return null;
        },
      ));
    const ctx: RunContext = { db, remit: bounded, dryRun, bps, run, remittances, midRate };
    const chunks = Array.from({ length: Math.ceil(customers.length / CUSTOMERS_PER_CHUNK) }, (_, i) =>
      customers.slice(i * CUSTOMERS_PER_CHUNK, (i + 1) * CUSTOMERS_PER_CHUNK),
    );
    failed = [];
    let synced = 0;
    deps.progress({ done: 0, total: customers.length, unit: 'customers' });
    // A chunk is read from remit while the one before it is written: the run waits on remit or
    // on the database, not on one then the other. (A read that fails for good is awaited below.)
    const read = (chunk: readonly CustomerRow[]) => {
      const reading = readChunk(chunk, ctx);
      reading.catch(() => undefined);
      return reading;
    };
    let next = chunks.length === 0 ? null : read(chunks[0]!);
    for (let i = 0; next !== null; i += 1) {
      const chunk = await next;
      next = i + 1 < chunks.length ? read(chunks[i + 1]!) : null;
      await writeChunk(chunk, ctx);
      failed.push(...chunk.failed);
      synced += chunk.customers.length;
      deps.progress({ done: synced, total: customers.length, unit: 'customers' });
    }
  }
  const result: SyncRemitResult = {
    ...run.result(linked.length + notLinked.length, [...notLinked, ...failed], null),
    fx_spread_bps: bps.toString(),
    ...remittances,
  };
  logger.info('sync-remit done', {
    dry_run: dryRun,
    customers: result.customers,
    failed: result.customers_failed.length,
    records: result.records,
  });
  return result;
}

export const syncRemitJob = defineJob('sync-remit', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: every customer’s orders, payments and settlements',
  input: syncRemitInput,
  result: syncRemitResult,
  // Every call is a run of its own: runs are idempotent on database keys, not on BullMQ's job id.
  businessKey: () => null,
  run: runSyncRemit,
});
