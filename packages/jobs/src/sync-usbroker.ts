import { brokerCustomers, Decimal, recost as recostBook, type BrokerCustomer, type RecostResult } from '@ledger/core';
import type { UsbrokerClient, UsbrokerCostType, UsbrokerWire } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob, recostPolicyOf, type JobDeps } from './catalog.js';
import { recordHeldQuotes } from './held-quotes.js';
import type { JobKind } from './modes.js';
import { orderEntry, wireEntry } from './usbroker-entries.js';
import { CUSTOMER_CONCURRENCY, customerIdsField, forEach, upstreamFailureReason } from './per-customer.js';
import { addCounts, CustomerBatch, noCounts, type CustomerFailure, type PostingCounts, type RecordIssue } from './usbroker-posting.js';

/** Customers synced at once: each holds a database connection while it posts and a broker call while it reads. */
/** The customer's fee of a trade, in bps of notional, at most this (10 %): the fee split must leave the shares a cost. */
export const BROKERAGE_BPS_MAX = 1_000;

export const syncUsbrokerInput = z
  .object({
    customer_ids: customerIdsField.default(null).describe('The customers to sync (ledger customer ids); null or absent: every customer with a usbroker account.'),
    recost: z.boolean().default(true).describe('Run recost after posting (not in a dry run).'),
    dry_run: z.boolean().default(false).describe('Read the broker and report what would be posted; write nothing.'),
    brokerage_bps: z
      .number()
      .min(0)
      .max(BROKERAGE_BPS_MAX)
      .optional()
      .describe('The customer’s fee of these trades in bps of notional (the executed amount bundles it); absent: the fee schedule’s for usbroker (CUSTOMER_FEE_BPS_USBROKER, else CUSTOMER_FEE_BPS).'),
  })
  .strict()
  .meta({ examples: [{ customer_ids: ['IND-000001'], recost: true, dry_run: false, brokerage_bps: 22 }] });
export type SyncUsbrokerInput = z.input<typeof syncUsbrokerInput>;

/** What a broker sync reports. */
export interface SyncUsbrokerResult extends Record<string, unknown> {
  dry_run: boolean;
  /** Customers the run was for. */
  customers: number;
  customers_synced: number;
  customers_failed: CustomerFailure[];
  /** Funding wires (sync-usbroker only). */
  wires?: PostingCounts;
  /** Completed wires of broker accounts no ledger customer holds (a run for every customer only). */
  wires_of_unknown_accounts?: number;
  orders: PostingCounts;
  refused: RecordIssue[];
  conflicts: RecordIssue[];
  /** The recost run after posting; null when not asked for, or in a dry run. */
  recost: RecostResult | null;
  /** Quotes of held symbols recorded as the day's close (held-quotes.ts); absent in a dry run. */
  close_prices?: { recorded: number; error: string | null };
}

type Kind = 'wires' | 'orders';

interface BrokerSync {
  /** The orders this job ingests. */
  costType: UsbrokerCostType;
  /** Whether it ingests funding wires too. */
  wires: boolean;
}

const failure = (customer_id: string, reason: string): CustomerFailure => ({ customer_id, reason });

/** The funding wires of the run's accounts, firm-wide, fetched once and split by account. */
async function wiresByAccount(usbroker: UsbrokerClient, accounts: Set<string>): Promise<{ byAccount: Map<string, UsbrokerWire[]>; unknown: number }> {
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

async function syncBroker(kind: JobKind, sync: BrokerSync, rawInput: SyncUsbrokerInput, deps: JobDeps): Promise<SyncUsbrokerResult> {
  const input = syncUsbrokerInput.parse(rawInput);
  const { db, logger, progress, settings } = deps;
  const bps = input.brokerage_bps === undefined ? settings.feeSchedule.customerFeeBps('usbroker') : new Decimal(String(input.brokerage_bps));
  const kinds: Kind[] = sync.wires ? ['wires', 'orders'] : ['orders'];
  const result: SyncUsbrokerResult = {
    dry_run: input.dry_run,
    customers: 0,
    customers_synced: 0,
    customers_failed: [],
    ...(sync.wires && { wires: noCounts(), wires_of_unknown_accounts: 0 }),
    orders: noCounts(),
    refused: [],
    conflicts: [],
    recost: null,
  };

  const known = await brokerCustomers(db, input.customer_ids);
  const byId = new Map(known.map((c) => [c.customer_id, c]));
  const customers: Array<BrokerCustomer & { usbroker_account_no: string }> = [];
  for (const id of input.customer_ids ?? known.map((c) => c.customer_id)) {
    const customer = byId.get(id);
    if (customer === undefined) result.customers_failed.push(failure(id, 'unknown customer'));
    else if (customer.usbroker_account_no === null) result.customers_failed.push(failure(id, 'the customer has no usbroker account (usbroker_account_no)'));
    else customers.push({ ...customer, usbroker_account_no: customer.usbroker_account_no });
  }
  result.customers = customers.length + result.customers_failed.length;
  const usbroker = deps.upstreams.usbroker;
  if (usbroker === null) {
    result.customers_failed.push(...customers.map((c) => failure(c.customer_id, 'usbroker is not configured (USBROKER_BASE_URL)')));
    return result;
  }

  let wires = new Map<string, UsbrokerWire[]>();
  if (sync.wires && customers.length > 0) {
    try {
      const found = await wiresByAccount(usbroker, new Set(customers.map((c) => c.usbroker_account_no)));
      wires = found.byAccount;
      if (input.customer_ids === null) result.wires_of_unknown_accounts = found.unknown;
    } catch (error) {
      const reason = upstreamFailureReason(error);
      if (reason === null) throw error;
      // A firm-wide list: without it no customer of the run can be synced.
      result.customers_failed.push(...customers.map((c) => failure(c.customer_id, `funding wires: ${reason}`)));
      return result;
    }
  }

  progress({ done: 0, total: customers.length, unit: 'customers' });
  await forEach(
    customers,
    CUSTOMER_CONCURRENCY,
    async (customer) => {
      const account = customer.usbroker_account_no;
      const batch = new CustomerBatch<Kind>(customer.customer_id, kinds, settings);
      try {
        for (const wire of wires.get(account) ?? []) batch.add('wires', wire.transfer_id, wireEntry(wire, customer.customer_id));
        for (const order of await usbroker.listOrders(account)) {
          if (order.cost_type === sync.costType) batch.add('orders', order.order_id, orderEntry(order, customer.customer_id, account, bps));
        }
      } catch (error) {
        const reason = upstreamFailureReason(error);
        if (reason === null) throw error;
        result.customers_failed.push(failure(customer.customer_id, reason));
        return;
      }
      await batch.post(db, input.dry_run);
      for (const k of kinds) addCounts(result[k]!, batch.counts[k]);
      result.refused.push(...batch.refused);
      result.conflicts.push(...batch.conflicts);
      result.customers_synced += 1;
    },
    (done) => progress({ done, total: customers.length, unit: 'customers' }),
  );

  if (input.recost && !input.dry_run) {
    result.recost = await recostBook(db, {
      policy: recostPolicyOf(settings),
      limit: null,
    });
  }
  if (!input.dry_run) result.close_prices = await recordHeldQuotes(db, usbroker);
  result.customers_failed.sort((a, b) => a.customer_id.localeCompare(b.customer_id));
  logger.info(`${kind} done`, {
    customers: result.customers,
    customers_failed: result.customers_failed.length,
    orders_posted: result.orders.posted,
    wires_posted: result.wires?.posted,
    dry_run: input.dry_run,
  });
  return result;
}

/**
 * sync-usbroker for the given customers: their completed funding wires (deposit / withdrawal) and
 * executed `quantity` orders, then recost (docs/jobs.md#sync-usbroker). Exported for the remit
 * webhook's per-customer sync.
 */
export const runSyncUsbroker = (input: SyncUsbrokerInput, deps: JobDeps) => syncBroker('sync-usbroker', { costType: 'quantity', wires: true }, input, deps);

/** sync-usbroker-trades: the executed `full_portfolio_cost` orders, then recost (docs/jobs.md#sync-usbroker-trades). */
export const runSyncUsbrokerTrades = (input: SyncUsbrokerInput, deps: JobDeps) =>
  syncBroker('sync-usbroker-trades', { costType: 'full_portfolio_cost', wires: false }, input, deps);

export const syncUsbrokerJob = defineJob<z.output<typeof syncUsbrokerInput>, SyncUsbrokerResult>('sync-usbroker', {
  input: syncUsbrokerInput,
  // Every call is a run of its own: a run finding nothing new posts nothing.
  businessKey: () => null,
  run: runSyncUsbroker,
});

export const syncUsbrokerTradesJob = defineJob<z.output<typeof syncUsbrokerInput>, SyncUsbrokerResult>('sync-usbroker-trades', {
  input: syncUsbrokerInput,
  businessKey: () => null,
  run: runSyncUsbrokerTrades,
});
