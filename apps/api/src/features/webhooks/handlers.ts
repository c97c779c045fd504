import { classifyRemitEvent, WEBHOOK_EVENT_PATTERN_SOURCE, type RemitEvent } from '@ledger/core/posting';
import { customersByReference } from '@ledger/core/store';
import { SYNC_REMIT_WEBHOOK } from '@ledger/jobs';
import type { FeatureContext, Handler } from '../feature.js';

const WEBHOOK_EVENT = new RegExp(WEBHOOK_EVENT_PATTERN_SOURCE);

export function handlers({ config, db, jobs, logger }: FeatureContext): Record<string, Handler> {
  return {
    receiveRemitWebhook: async (req, res) => {
      const receivedAt = new Date();
      const event = req.body as RemitEvent;
      const classified = classifyRemitEvent(event);
      const acknowledge = (triggered: boolean, reason: string, jobId: string | null = null) => {
        // The classification only: the raw body is never logged.
        logger.info('remit webhook', {
          entity_type: event.entity_type,
          event_type: event.event_type,
          order_id: classified.orderId,
          triggered_sync: triggered,
          reason,
          job_id: jobId,
        });
        res.json({
          received_at: receivedAt.toISOString(),
          entity_type: event.entity_type,
          event_type: event.event_type,
          remit_customer_id: classified.remitCustomerId,
          order_id: classified.orderId,
          triggered_sync: triggered,
          reason,
          job_id: jobId,
        });
      };

      if (config.book !== 'ENTITY_IND_IFSC')
        return acknowledge(false, `${config.book} has no remittances (they are ENTITY_IND_IFSC's): no sync`);
      if (!classified.triggers || classified.remitCustomerId === null) return acknowledge(false, classified.reason);
      const customerId = (await customersByReference(db, 'remit_customer_id', [classified.remitCustomerId])).get(
        classified.remitCustomerId,
      );
      // The event names the sync's actor (webhook:remit:<event>:<job_id>) when it is plain enough to.
      const named = `${event.entity_type}.${event.event_type}`;
      const actor = WEBHOOK_EVENT.test(named) ? { event: named } : {};
      if (customerId !== undefined) {
        const status = await jobs.enqueue(SYNC_REMIT_WEBHOOK, {
          customer_id: customerId,
          order_id: classified.orderId,
          ...actor,
        });
        return acknowledge(true, classified.reason, status.job_id);
      }
      // Not linked yet (the spec's trigger rule reads the event alone): the sync links them first.
      const status = await jobs.enqueue(SYNC_REMIT_WEBHOOK, {
        customer_id: null,
        remit_customer_id: classified.remitCustomerId,
        order_id: classified.orderId,
        ...actor,
      });
      acknowledge(
        true,
        `${classified.reason}; data.customer_id ${classified.remitCustomerId} is not linked to a customer of this book yet: the sync links it from the customer registry first (as provision-india does), then syncs it`,
        status.job_id,
      );
    },
  };
}
