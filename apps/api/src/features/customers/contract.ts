import { ADMIN, READ } from '../../openapi/security.js';
import { METADATA_PROPERTIES_MAX } from '@ledger/core/posting';
import { CUSTOMER_REFERENCES } from '@ledger/core/store';
import {
  errorResponses,
  json,
  listEnvelope,
  object,
  paramRef,
  READ_ERRORS,
  ref,
  timestamps,
  WRITE_ERRORS,
} from '../../openapi/components.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';

/** Where the customer is found upstream (the provisioning jobs keep them; an operator may set them). */
const REFERENCE_DESCRIPTIONS: Record<(typeof CUSTOMER_REFERENCES)[number], string> = {
  uaefeed_customer_number: 'UAE: statement feed customer number; names one customer of the book at most.',
  uaefeed_account_number: 'UAE: statement feed trading account number.',
  custodian_account: 'UAE: custodian account; names one customer of the book at most.',
  usbroker_account_no: 'India: US broker account number; names one customer of the book at most.',
  remit_customer_id: 'India: remittance provider customer id; names one customer of the book at most.',
  pan: 'India: Permanent Account Number (five letters, four digits, a letter).',
  partner_id: 'India: the partner the customer came through.',
};
const PAN_PATTERN = '^[A-Z]{5}[0-9]{4}[A-Z]$';
const references = (input: boolean) =>
  Object.fromEntries(
    CUSTOMER_REFERENCES.map((name) => [
      name,
      {
        type: ['string', 'null'],
        description: REFERENCE_DESCRIPTIONS[name],
        ...(input && { minLength: 1, maxLength: 128, ...(name === 'pan' && { pattern: PAN_PATTERN }) }),
      },
    ]),
  );

/** The schemas of customers. */
export const schemas: Record<string, JsonSchema> = {
  Customer: object(
    {
      customer_id: ref('CustomerId'),
      name: { type: ['string', 'null'] },
      email: { type: ['string', 'null'] },
      metadata: { type: 'object' },
      ...references(false),
      first_activity_date: {
        type: ['string', 'null'],
        format: 'date',
        description:
          'The day of their first transaction in this book (null before any): the customer "since". `created_at` is when the book learned of them (a provisioning run), not when they started.',
      },
      ...timestamps('created_at', 'updated_at'),
      created_by: ref('Actor'),
      updated_by: {
        ...ref('Actor'),
        description: 'Who last changed it (sync jobs that provision customers included).',
      },
    },
    'A customer of the book.',
  ),
  CustomerPage: listEnvelope(ref('Customer'), 'A page of customers, by customer_id.'),
  CustomerInput: {
    type: 'object',
    description: 'Fields left out keep their value (or their default when the customer is created).',
    additionalProperties: false,
    properties: {
      name: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
      email: { type: ['string', 'null'], format: 'email', maxLength: 254 },
      metadata: { type: 'object', maxProperties: METADATA_PROPERTIES_MAX },
      ...references(true),
    },
  },
};

export const paths: Paths = {
  '/v1/customers': {
    get: {
      operationId: 'listCustomers',
      summary: 'Customers, by customer_id, optionally searched',
      tags: ['customers'],
      security: READ,
      parameters: [paramRef('CustomerSearch'), paramRef('Limit'), paramRef('Offset')],
      responses: {
        '200': { description: 'A page of customers.', content: json(ref('CustomerPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/customers/{customer_id}': {
    put: {
      operationId: 'putCustomer',
      summary: 'Create or update a customer (admin)',
      description:
        'Manual entry refuses a customer_id the book does not know (422 `unknown_customer`); this is how an operator makes one known. An upstream reference another customer already holds is 409 `conflict` naming the field.',
      tags: ['customers'],
      security: ADMIN,
      parameters: [paramRef('CustomerIdPath')],
      requestBody: { description: 'The customer’s fields.', required: true, content: json(ref('CustomerInput')) },
      responses: {
        '201': { description: 'Created.', content: json(ref('Customer')) },
        '200': { description: 'Updated.', content: json(ref('Customer')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict'),
      },
    },
  },
};
