import { Decimal } from '@ledger/core/posting';
import type { UsbrokerClient, UsbrokerCostType, UsbrokerWire } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob, type JobDeps } from '../job-settings.js';
import {
  customerIdsField,
  forEachCustomer,
  idOfLinked,
  notConfigured,
  selectCustomers,
  upstreamFailure,
} from '../kit/per-customer.js';
import { PostingRun } from '../kit/posting-kit.js';
import { RESULT_SCHEMAS, syncResult } from '../kit/results.js';
import { heldQuotesResult, recordHeldQuotes } from './held-quotes.js';
import { orderEntry, wireEntry } from './usbroker-entries.js';

/** The customer's fee of a trade, in bps of notional, at most this (10 %): the fee split must leave the shares a cost. */
export const BROKERAGE_BPS_MAX = 1_000;

export const syncUsbrokerInput = z
  .object({
    customer_ids: customerIdsField
      .default(null)
      .describe('The customers to sync (ledger customer ids); null or absent: every customer with a usbroker account.'),
    recost: z.boolean().default(true).describe('Run recost after posting (not in a dry run).'),
    dry_run: z.boolean().default(false).describe('Read the broker and report what would be posted; write nothing.'),
    brokerage_bps: z
      .number()
      .min(0)
      .max(BROKERAGE_BPS_MAX)
      .optional()
      .describe(
        'The customer’s fee of these trades in bps of notional (the executed amount bundles it); absent: the fee schedule’s for usbroker (CUSTOMER_FEE_BPS_USBROKER, else CUSTOMER_FEE_BPS).',
      ),
  })
  .strict()
  .meta({ examples: [{ customer_ids: ['IND-000001'], recost: true, dry_run: false, brokerage_bps: 22 }] });
export type SyncUsbrokerInput = z.input<typeof syncUsbrokerInput>;

type Kind = 'wires' | 'orders';

const closePrices = heldQuotesResult
  .optional()
  .describe('Quotes of held symbols recorded as the day’s close (held-quotes.ts); absent in a dry run.');

/** What sync-usbroker reports: the kit's result (wires and orders), the wires of accounts no customer holds, the closes. */
export const syncUsbrokerResult = syncResult(['wires', 'orders'], {
  wires_of_unknown_accounts: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Completed wires of broker accounts no ledger customer holds (a run for every customer only).'),
  close_prices: closePrices,
}).register(RESULT_SCHEMAS, { id: 'SyncUsbrokerResult' });
export type SyncUsbrokerResult = z.infer<typeof syncUsbrokerResult>;

/** What sync-usbroker-trades reports: the kit's result (orders only) and the closes. */
export const syncUsbrokerTradesResult = syncResult(['orders'], { close_prices: closePrices }).register(RESULT_SCHEMAS, {
  id: 'SyncUsbrokerTradesResult',
});

interface BrokerSync {
  /** The orders this job ingests. */
  costType: UsbrokerCostType;
  /** Whether it ingests funding wires too. */
  wires: boolean;
}

/** The funding wires of the run's accounts, firm-wide, fetched once and split by account. */
async function wiresByAccount(
  usbroker: UsbrokerClient,
  accounts: Set<string>,
): Promise<{ byAccount: Map<string, UsbrokerWire[]>; unknown: number }> {
  const byAccount = new Map<string, UsbrokerWire[]>();
  let unknown = 0;
  for (const wire of await usbroker.listWires()) {
    if (!accounts.has(wire.account_no)) {
      if (wire.status === 'completed') unknown += 1;
      continue;
    }
    byAccount.set(wire.account_no, [...(byAccount.get(wire.account_no) ?? []), wire]);
  }
  return { byAccount, unknown };
}

/** The customer's fee on the run's orders: the run's `brokerage_bps` when given, else the schedule's for usbroker. */
function customerFeeBps(input: z.output<typeof syncUsbrokerInput>, settings: JobDeps['settings']): Decimal {
  return input.brokerage_bps === undefined
    ? settings.feeSchedule.customerFeeBps('usbroker')
    : new Decimal(String(input.brokerage_bps));
}

async function syncBroker(
  kind: 'sync-usbroker' | 'sync-usbroker-trades',
  sync: BrokerSync,
  rawInput: SyncUsbrokerInput,
  deps: JobDeps,
): Promise<SyncUsbrokerResult> {
  const input = syncUsbrokerInput.parse(rawInput);
  const { db, logger, progress, settings } = deps;
  const bps = customerFeeBps(input, settings);
  const run = new PostingRun<Kind>(db, {
    job: kind,
    upstream: 'usbroker',
    kinds: sync.wires ? ['wires', 'orders'] : ['orders'],
    dryRun: input.dry_run,
    settings,
  });
  const { customers, failed: notLinked } = await selectCustomers(db, 'usbroker_account_no', input.customer_ids);
  const total = customers.length + notLinked.length;
  const usbroker = deps.upstreams.usbroker;
  const customersDone = (done: number) => progress({ done, total: customers.length, unit: 'customers' });
  // The firm-wide wire list is read before any customer: the status record counts the run's
  // customers from the start instead of staying null through that read.
  customersDone(0);
  if (usbroker === null) return run.result(total, [...notLinked, ...notConfigured(customers, 'usbroker')], null);

  let wires = new Map<string, UsbrokerWire[]>();
  let unknownWires: number | undefined;
  if (sync.wires) {
    unknownWires = 0;
    if (customers.length > 0) {
      try {
        const found = await wiresByAccount(usbroker, new Set(customers.map((c) => c.reference)));
        wires = found.byAccount;
        if (input.customer_ids === null) unknownWires = found.unknown;
      } catch (error) {
        const failure = upstreamFailure(error);
        if (failure === null) throw error;
        // A firm-wide list: without it no customer of the run can be synced; `step` says it was that read.
        const reason = { ...failure, detail: { ...failure.detail, step: 'funding_wires' } };
        const failed = customers.map((c) => ({ customer_id: c.customerId, reason }));
        return { ...run.result(total, [...notLinked, ...failed], null), wires_of_unknown_accounts: unknownWires };
      }
    }
  }

  const { failed } = await forEachCustomer(
    customers,
    idOfLinked,
    async ({ customerId, reference: account }) => {
      const records = run.customer(customerId);
      for (const wire of wires.get(account) ?? [])
        records.add('wires', wire.transfer_id, wireEntry(wire, customerId), wire);
      for (const order of await usbroker.listOrders(account)) {
        if (order.cost_type === sync.costType)
          records.add('orders', order.order_id, orderEntry(order, customerId, account, bps), order);
      }
      await run.post(records);
    },
    customersDone,
  );
  const recost = await run.recostIfPosted(input.recost, settings);
  const result: SyncUsbrokerResult = {
    ...run.result(total, [...notLinked, ...failed], recost),
    ...(unknownWires !== undefined && { wires_of_unknown_accounts: unknownWires }),
    ...(!input.dry_run && { close_prices: await recordHeldQuotes(db, usbroker) }),
  };
  logger.info(`${kind} done`, {
    customers: result.customers,
    customers_failed: result.customers_failed.length,
    records: result.records,
    dry_run: input.dry_run,
  });
  return result;
}

/**
 * sync-usbroker for the given customers: their completed funding wires (deposit / withdrawal) and
 * executed `quantity` orders, then recost (docs/jobs.md#sync-usbroker). Exported for the remit
 * webhook's per-customer sync.
 */
export const runSyncUsbroker = (input: SyncUsbrokerInput, deps: JobDeps) =>
  syncBroker('sync-usbroker', { costType: 'quantity', wires: true }, input, deps);

/** sync-usbroker-trades: the executed `full_portfolio_cost` orders, then recost (docs/jobs.md#sync-usbroker-trades). */
export const runSyncUsbrokerTrades = (input: SyncUsbrokerInput, deps: JobDeps) =>
  syncBroker('sync-usbroker-trades', { costType: 'full_portfolio_cost', wires: false }, input, deps);

export const syncUsbrokerJob = defineJob('sync-usbroker', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: every India customer, paged upstream calls: minutes',
  input: syncUsbrokerInput,
  result: syncUsbrokerResult,
  // Every call is a run of its own: a run finding nothing new posts nothing.
  businessKey: () => null,
  run: runSyncUsbroker,
});

export const syncUsbrokerTradesJob = defineJob('sync-usbroker-trades', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'decided: as sync-usbroker',
  input: syncUsbrokerInput,
  result: syncUsbrokerTradesResult,
  businessKey: () => null,
  run: runSyncUsbrokerTrades,
});
