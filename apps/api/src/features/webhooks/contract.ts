import { errorResponses, json, object, ref } from '../../openapi/components.js';
import { REMIT_SIGNATURE } from '../../openapi/security.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';

const text: JsonSchema = { type: 'string', maxLength: 256 };

/** The schemas of the remit webhook. */
export const schemas: Record<string, JsonSchema> = {
  RemitWebhookEvent: {
    type: 'object',
    description:
      'An order or payment lifecycle event of the remittance provider, as it sends it (spec, Events). Fields beyond these are accepted and ignored.',
    required: ['entity_type', 'event_type', 'data'],
    properties: {
      entity_type: {
        ...text,
        description: '`orders`, `payment`, `payments` or `payment_link`; others are acknowledged without a sync.',
      },
      event_type: { ...text, description: 'E.g. `paid`, `funds_available`, `success`, `failed`, `action_required`.' },
      data: {
        type: 'object',
        description:
          'The snapshot: `id` is its own id (`order_…` or `payt_…`); a payment names its order in `payin_id`.',
        properties: {
          id: text,
          customer_id: {
            ...text,
            description: 'The provider’s customer id (a ledger customer’s `remit_customer_id`).',
          },
          payin_id: text,
          status: text,
          amount: { type: 'integer' },
        },
      },
    },
  },
  RemitWebhookAck: object(
    {
      received_at: { type: 'string', format: 'date-time' },
      entity_type: { type: 'string' },
      event_type: { type: 'string' },
      remit_customer_id: { type: ['string', 'null'] },
      order_id: {
        type: ['string', 'null'],
        description: 'The order the event is about: `data.id` of an order, `data.payin_id` of a payment.',
      },
      triggered_sync: { type: 'boolean' },
      reason: { type: 'string', description: 'Why a sync was or was not scheduled.' },
      job_id: {
        type: ['string', 'null'],
        description: 'The scheduled sync (`sync-remit-webhook`): poll `GET /v1/jobs/status/{job_id}`. Null when none.',
      },
    },
    'The acknowledgement: the event was received and classified by the trigger rule.',
  ),
};

export const paths: Paths = {
  '/v1/india/webhooks/remit': {
    post: {
      operationId: 'receiveRemitWebhook',
      summary: 'Receive a remittance provider event (signed)',
      description:
        'Authenticated by `X-Remit-Signature: sha256=<hex>`, the HMAC-SHA256 of the raw body with `REMIT_WEBHOOK_SECRET` (constant-time). ' +
        'Secret unset: 503 `not_configured` for every payload. Signature missing or wrong: 401 `invalid_signature`. Signed but not JSON: 400. ' +
        'A body with a `Content-Encoding` other than `identity` is 415 `unsupported_media_type`, unread: the signature is over the bytes as sent. ' +
        'Otherwise 200 with the acknowledgement: an `orders` event triggers a sync only when `paid`; a payment (`payment`, `payments`, ' +
        '`payment_link`) only when `funds_available` or `success`. A triggered sync (the customer’s remittances, then their broker wires) ' +
        'is queued and runs in the background under the cluster-wide India sync lock; the answer does not wait for it. A ' +
        '`data.customer_id` not yet linked to a customer of the book triggers the sync too: it links them from the customer registry first (as provision-india does), then syncs them. On the UAE book every event is acknowledged without a sync (it has no remittances). ' +
        'A duplicate delivery may sync again and changes nothing.',
      tags: ['webhooks'],
      security: REMIT_SIGNATURE,
      requestBody: {
        description: 'The provider’s event, byte for byte as signed.',
        required: true,
        content: json(ref('RemitWebhookEvent')),
      },
      responses: {
        '200': { description: 'Received and classified.', content: json(ref('RemitWebhookAck')) },
        ...errorResponses(
          'BadRequest',
          'Unauthorized',
          'PayloadTooLarge',
          'UnsupportedMediaType',
          'InternalError',
          'NotConfigured',
          'EnqueueUnconfirmed',
        ),
      },
    },
  },
};
