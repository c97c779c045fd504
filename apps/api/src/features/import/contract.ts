import { IMPORT_RECORDS_MAX, uaefeedImportBatch } from '@ledger/jobs';
import { z } from 'zod';
import { errorResponses, json, object, ref, WRITE_ERRORS } from '../../openapi/components.js';
import { ADMIN } from '../../openapi/security.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';

const TAG = ['import'];

const batchSchema = z.toJSONSchema(uaefeedImportBatch, { unrepresentable: 'throw' }) as JsonSchema & {
  $schema?: string;
};
delete batchSchema.$schema;

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });

export const schemas: Record<string, JsonSchema> = {
  UaefeedImportBatch: {
    ...batchSchema,
    description:
      `A hand-collected batch in the feed's own record format (docs/upstreams/uaefeed.md), at most ${IMPORT_RECORDS_MAX} ` +
      'cash transfers and as many orders; each record names its customer by `customerNumber` (the customer’s ' +
      '`uaefeed_customer_number`). Decimals are strings, never JSON numbers.',
    examples: [
      {
        cash_transfers: [
          {
            customerNumber: '7000001',
            transferId: 'TRF-HAND-1',
            cashAccountNumber: '7000001-AED',
            type: 'DEPOSIT',
            amount: '367.25',
            currency: 'AED',
            status: 'COMPLETED',
            valueDate: '2026-01-15',
          },
        ],
        orders: [
          {
            customerNumber: '7000001',
            clOrdId: 'CL-HAND-1',
            orderId: 'ORD-HAND-1',
            symbol: 'EMAAR',
            side: 'BUY',
            ordQty: '10',
            cumQty: '10',
            avgPx: '14.69',
            netSettle: '147.12',
            ordStatus: 'FILLED',
            tradeDate: '2026-01-20',
            currency: 'AED',
            exchange: 'DFM',
          },
        ],
      },
    ],
  },
  UaefeedImportRecord: object(
    {
      record: {
        type: 'string',
        description: 'The record’s place in the body, a JSON pointer: `/cash_transfers/0`, `/orders/3`.',
      },
      source_txn_id: {
        type: 'string',
        description: 'Its transferId or orderId: the key it is posted under (source `uaefeed`).',
      },
      customer_id: ref('CustomerId'),
      outcome: ref('RecordOutcome'),
      txn_id: {
        type: ['string', 'null'],
        format: 'uuid',
        description: 'The transaction: inserted, duplicate, or the one a conflict left standing.',
      },
      reason: {
        oneOf: [{ type: 'null' }, ref('RecordReason')],
        description: 'Why it conflicted, was skipped or was rejected.',
      },
    },
    'What became of one record.',
  ),
  UaefeedImportResult: object(
    {
      inserted: count('Records posted now.'),
      duplicate: count('Records already posted with the same facts.'),
      conflict: count('Records already posted under their id with other facts.'),
      skipped: count('Records that moved nothing upstream.'),
      rejected: count('Records refused (see each one’s reason).'),
      records: {
        type: 'array',
        items: ref('UaefeedImportRecord'),
        description: 'Every record, cash transfers first, each in body order.',
      },
    },
    'The outcome of every record of the batch.',
  ),
};

export const paths: Paths = {
  '/v1/import/uaefeed': {
    post: {
      operationId: 'importUaefeed',
      summary: 'Import a hand-collected uaefeed batch (admin; UAE book)',
      description:
        'Checks every record first: its customer is linked (`customerNumber`), it maps to a ledger entry and the ledger ' +
        'would accept it. One that does not makes the answer 422 `invalid_records`, whose `details` name each bad record ' +
        '(`record`, `source_txn_id`, `reason`), and nothing is posted. Otherwise the whole batch is posted in bulk and ' +
        'the answer lists each record’s outcome; importing the same batch again posts nothing new (every record ' +
        '`duplicate`). The mappings are docs/posting-rules.md#uaefeed; imported trades wait for the next recost. ' +
        'Served directly, not through the job queue. On the India book: 409 `wrong_book`.',
      tags: TAG,
      security: ADMIN,
      requestBody: { description: 'The batch.', required: true, content: json(ref('UaefeedImportBatch')) },
      responses: {
        '200': { description: 'Posted: each record’s outcome.', content: json(ref('UaefeedImportResult')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict', 'Unprocessable'),
      },
    },
  },
};
