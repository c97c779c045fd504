import { jobActor, WEBHOOK_EVENT_PATTERN_SOURCE, webhookActor } from '@ledger/core/posting';
import { customersByReference, LOCK_KEYS, withAdvisoryLock } from '@ledger/core/store';
import { z } from 'zod';
import { defineJob, type JobDeps } from '../job-settings.js';
import { customerId } from '../kit/per-customer.js';
import { RESULT_SCHEMAS } from '../kit/results.js';
import { linkRemitCustomer } from './provision-india.js';
import { runSyncRemit, syncRemitResult } from './sync-remit.js';
import { runSyncUsbroker, syncUsbrokerResult } from './sync-usbroker.js';

export const SYNC_REMIT_WEBHOOK = 'sync-remit-webhook';

const remitCustomerId = z
  .string()
  .min(1)
  .max(256)
  .describe(
    'The event’s `data.customer_id`: a customer the book has not linked yet is linked from the customer registry first.',
  );
const orderId = z
  .string()
  .min(1)
  .max(256)
  .nullable()
  .optional()
  .describe('The order the event was about (for the log and the result).');
const event = z
  .string()
  .regex(new RegExp(WEBHOOK_EVENT_PATTERN_SOURCE))
  .optional()
  .describe('The triggering event, `<entity_type>.<event_type>`: what the sync records as its actor.');

/** The linked customer to sync, or (customer_id null) the remit customer to link first and sync. */
export const syncRemitWebhookInput = z
  .union([
    z
      .object({
        customer_id: customerId.describe('The ledger customer whose remit customer id the event named.'),
        remit_customer_id: remitCustomerId.optional(),
        order_id: orderId,
        event,
      })
      .strict(),
    z
      .object({
        customer_id: z.null().describe('The book had not linked the remit customer when the event came.'),
        remit_customer_id: remitCustomerId,
        order_id: orderId,
        event,
      })
      .strict(),
  ])
  .meta({
    examples: [
      { customer_id: 'IND-000001', order_id: 'order_000001', event: 'orders.paid' },
      { customer_id: null, remit_customer_id: 'cust_000001', order_id: 'order_000001', event: 'orders.paid' },
    ],
  });
export type SyncRemitWebhookInput = z.infer<typeof syncRemitWebhookInput>;

export const syncRemitWebhookResult = z
  .strictObject({
    customer_id: z.string().describe('The customer synced.'),
    order_id: z.string().nullable().describe('The order the event was about.'),
    linked: z.boolean().describe('Whether the remit customer was linked from the customer registry first.'),
    reason: z.string().describe('What the run did, in words, for the log.'),
    remit: syncRemitResult,
    broker: syncUsbrokerResult
      .nullable()
      .describe('The customer’s broker sync; null where usbroker is not configured.'),
  })
  .register(RESULT_SCHEMAS, { id: 'SyncRemitWebhookResult' });

/** The customer to sync: the one named, else the remit customer's (linked now, from the registry, if the book does not know it yet). */
async function customerToSync(
  input: SyncRemitWebhookInput,
  deps: JobDeps,
): Promise<{ customerId: string; linked: boolean }> {
  if (input.customer_id !== null) return { customerId: input.customer_id, linked: false };
  const remitId = input.remit_customer_id;
  // A duplicate delivery's sync may have linked it meanwhile.
  const known = (await customersByReference(deps.db, 'remit_customer_id', [remitId])).get(remitId);
  if (known !== undefined) return { customerId: known, linked: false };
  return { customerId: (await linkRemitCustomer(remitId, deps)).customerId, linked: true };
}

/**
 * sync-remit-webhook: what a triggering remit webhook schedules (spec, Events): the customer's
 * sync-remit, then their broker funding wires and orders (the wire is what posts the money),
 * under the cluster-wide India sync lock, so two triggered syncs never overlap. A remit customer
 * the book has not linked yet is linked first from the customer registry, as provision-india
 * would. Every step is idempotent: a duplicate delivery syncs again and changes nothing.
 */
export const syncRemitWebhookJob = defineJob(SYNC_REMIT_WEBHOOK, {
  mode: 'background',
  family: 'webhook-syncs',
  books: ['ENTITY_IND_IFSC'],
  why: 'the spec: the webhook acknowledges at once; one customer’s sync-remit on its own queue',
  input: syncRemitWebhookInput,
  result: syncRemitWebhookResult,
  // A duplicate delivery may sync again: the books' keys, not the queue, make it harmless.
  businessKey: () => null,
  actor: ({ event }, jobId) =>
    event === undefined ? jobActor(SYNC_REMIT_WEBHOOK, jobId) : webhookActor('remit', event, jobId),
  run: async (input, deps) =>
    withAdvisoryLock(deps.db, LOCK_KEYS.indiaSync, async () => {
      const { customerId: id, linked } = await customerToSync(input, deps);
      const remit = await runSyncRemit({ customer_ids: [id] }, deps);
      const broker =
        deps.upstreams.usbroker === null ? null : await runSyncUsbroker({ customer_ids: [id], recost: true }, deps);
      const reason = linked
        ? `remit customer ${input.remit_customer_id!} was not linked: linked it to ${id} from the customer registry (as provision-india does), then synced ${id}`
        : `synced ${id}`;
      return { customer_id: id, order_id: input.order_id ?? null, linked, reason, remit, broker };
    }),
});
