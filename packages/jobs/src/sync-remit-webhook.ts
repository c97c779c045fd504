import { jobActor, LOCK_KEYS, WEBHOOK_EVENT_PATTERN_SOURCE, webhookActor, withAdvisoryLock } from '@ledger/core';
import { z } from 'zod';
import { defineJob } from './catalog.js';
import { customerId } from './per-customer.js';
import { runSyncRemit } from './sync-remit.js';
import { runSyncUsbroker } from './sync-usbroker.js';

export const SYNC_REMIT_WEBHOOK = 'sync-remit-webhook';

export const syncRemitWebhookInput = z
  .object({
    customer_id: customerId.describe('The ledger customer whose remit customer id the event named.'),
    order_id: z.string().min(1).max(256).nullable().optional().describe('The order the event was about (for the log and the result).'),
    event: z
      .string()
      .regex(new RegExp(WEBHOOK_EVENT_PATTERN_SOURCE))
      .optional()
      .describe('The triggering event, `<entity_type>.<event_type>`: what the sync records as its actor.'),
  })
  .strict()
  .meta({ examples: [{ customer_id: 'IND-000001', order_id: 'order_000001', event: 'orders.paid' }] });
export type SyncRemitWebhookInput = z.infer<typeof syncRemitWebhookInput>;

/**
 * sync-remit-webhook: what a triggering remit webhook schedules (spec, Events): the customer's
 * sync-remit, then their broker funding wires and orders (the wire is what posts the money),
 * under the cluster-wide India sync lock, so two triggered syncs never overlap. Both steps are
 * idempotent: a duplicate delivery syncs again and changes nothing.
 */
export const syncRemitWebhookJob = defineJob(SYNC_REMIT_WEBHOOK, {
  input: syncRemitWebhookInput,
  // A duplicate delivery may sync again: the books' keys, not the queue, make it harmless.
  businessKey: () => null,
  actor: ({ event }, jobId) => (event === undefined ? jobActor(SYNC_REMIT_WEBHOOK, jobId) : webhookActor('remit', event, jobId)),
  run: async ({ customer_id: customerId, order_id: orderId }, deps) =>
    withAdvisoryLock(deps.db, LOCK_KEYS.indiaSync, async () => {
      const remit = await runSyncRemit({ customer_ids: [customerId] }, deps);
      const broker = deps.upstreams.usbroker === null ? null : await runSyncUsbroker({ customer_ids: [customerId], recost: true }, deps);
      return { customer_id: customerId, order_id: orderId ?? null, remit, broker };
    }),
});
