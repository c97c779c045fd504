import { IMPORT_RECORDS_MAX, uaefeedImportBatch } from '@ledger/jobs';
import { z } from 'zod';
import { errorResponses, json, ref, WRITE_ERRORS } from '../../openapi/components.js';
import { ADMIN } from '../../openapi/security.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';

const TAG = ['import'];

const batchSchema = z.toJSONSchema(uaefeedImportBatch, { unrepresentable: 'throw' }) as JsonSchema & {
  $schema?: string;
};
delete batchSchema.$schema;

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
