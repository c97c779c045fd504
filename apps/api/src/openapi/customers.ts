import { errorResponses, json, paramRef, READ_ERRORS, ref, WRITE_ERRORS } from './components.js';
import { ADMIN, READ } from './security.js';
import type { Paths } from './types.js';

export const customerPaths: Paths = {
  '/v1/customers': {
    get: {
      operationId: 'listCustomers',
      summary: 'Customers, by customer_id, optionally searched',
      tags: ['customers'],
      security: READ,
      parameters: [paramRef('CustomerSearch'), paramRef('Limit'), paramRef('Offset')],
      responses: { '200': { description: 'A page of customers.', content: json(ref('CustomerPage')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
  '/v1/customers/{customer_id}': {
    put: {
      operationId: 'putCustomer',
      summary: 'Create or update a customer (admin)',
      description: 'Manual entry refuses a customer_id the book does not know (422 `unknown_customer`); this is how an operator makes one known.',
      tags: ['customers'],
      security: ADMIN,
      parameters: [paramRef('CustomerIdPath')],
      requestBody: { description: 'The customer’s fields.', required: true, content: json(ref('CustomerInput')) },
      responses: {
        '201': { description: 'Created.', content: json(ref('Customer')) },
        '200': { description: 'Updated.', content: json(ref('Customer')) },
        ...errorResponses(...WRITE_ERRORS),
      },
    },
  },
};
