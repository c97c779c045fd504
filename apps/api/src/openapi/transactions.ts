import { errorResponses, json, paramRef, READ_ERRORS, ref, WRITE_ERRORS } from './components.js';
import { ENTRY_EXAMPLES } from './entry-examples.js';
import { ADMIN, READ } from './security.js';
import type { Paths } from './types.js';

const FILTERS = [
  'CustomerIdFilter',
  'TxnTypeFilter',
  'SourceFilter',
  'CategoryFilter',
  'SymbolFilter',
  'From',
  'To',
  'AmountMin',
  'AmountMax',
].map(paramRef);
const PAGE = ['Limit', 'Offset'].map(paramRef);

const location = {
  Location: { description: 'The new transaction: `/v1/transactions/{txn_id}`.', schema: { type: 'string' } },
} as const;

const entryBody = {
  description: 'The manual entry.',
  required: true,
  // Named examples (one per txn_type) on the media type: Swagger UI offers them in a list.
  content: { 'application/json': { schema: ref('EntryRequest'), examples: ENTRY_EXAMPLES } },
};

export const transactionPaths: Paths = {
  '/v1/transactions': {
    get: {
      operationId: 'listTransactions',
      summary: 'Transactions, filtered, sorted and paged',
      tags: ['transactions'],
      security: READ,
      parameters: [...FILTERS, paramRef('Sort'), paramRef('Order'), ...PAGE],
      responses: { '200': { description: 'A page of transactions.', content: json(ref('TransactionPage')) }, ...errorResponses(...READ_ERRORS) },
    },
    post: {
      operationId: 'postTransaction',
      summary: 'Manual entry (admin)',
      description:
        'Posts a balanced transaction. 201 with the stored transaction and its journal lines. The same `source` + ' +
        '`source_txn_id` again: 200 with the existing transaction when the payload is the same (key order and decimal ' +
        'spelling do not matter), 409 `idempotency_conflict` when it differs. Concurrent identical requests post once. ' +
        'An unknown customer or account, or lines that do not balance: 422, and nothing is stored.',
      tags: ['transactions'],
      security: ADMIN,
      requestBody: entryBody,
      responses: {
        '201': { description: 'Posted.', headers: location, content: json(ref('Transaction')) },
        '200': { description: 'Already posted with this payload: the existing transaction.', content: json(ref('Transaction')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict', 'Unprocessable', 'NotConfiguredOrOverloaded'),
      },
    },
  },
  '/v1/transactions/categories': {
    get: {
      operationId: 'getTransactionCategories',
      summary: 'Facet counts per category, under the list’s filters',
      tags: ['transactions'],
      security: READ,
      parameters: FILTERS,
      responses: { '200': { description: 'Counts per category.', content: json(ref('CategoryFacets')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
  '/v1/transactions/grouped': {
    get: {
      operationId: 'getTransactionGroups',
      summary: 'Grouped totals, under the list’s filters',
      tags: ['transactions'],
      security: READ,
      parameters: [paramRef('TxnGroupBy'), ...FILTERS, ...PAGE],
      responses: { '200': { description: 'Groups.', content: json(ref('TransactionGroups')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
  '/v1/transactions/preview': {
    post: {
      operationId: 'previewTransaction',
      summary: 'The journal lines an entry would post, without storing anything (admin)',
      description:
        'Runs the very statement posting runs, with the commit-time checks forced, then rolls it back: it answers ' +
        'exactly as posting would (422 unbalanced, unknown customer or account; 409 for a `source_txn_id` already ' +
        'posted with another payload; the existing lines for one posted with this payload), and stores nothing.',
      tags: ['transactions'],
      security: ADMIN,
      requestBody: entryBody,
      responses: {
        '200': { description: 'The would-be journal lines.', content: json(ref('Preview')) },
        ...errorResponses(...WRITE_ERRORS, 'Conflict', 'Unprocessable'),
      },
    },
  },
  '/v1/transactions/{txn_id}': {
    get: {
      operationId: 'getTransaction',
      summary: 'One transaction with its journal lines',
      tags: ['transactions'],
      security: READ,
      parameters: [paramRef('TxnIdPath')],
      responses: {
        '200': { description: 'The transaction.', content: json(ref('Transaction')) },
        ...errorResponses(...READ_ERRORS, 'NotFound'),
      },
    },
  },
  '/v1/transactions/{txn_id}/reverse': {
    post: {
      operationId: 'reverseTransaction',
      summary: 'Post the reversing entry (admin)',
      description:
        'The reversal mirrors every line of the original and names it in `reverses_txn_id`. 201 when posted; any later ' +
        'or concurrent call answers 200 with the same reversal. Reversing a reversal: 409 `conflict`.',
      tags: ['transactions'],
      security: ADMIN,
      parameters: [paramRef('TxnIdPath')],
      requestBody: { description: 'Optional memo and date of the reversal.', required: false, content: json(ref('ReverseRequest')) },
      responses: {
        '201': { description: 'Reversed.', headers: location, content: json(ref('Transaction')) },
        '200': { description: 'Already reversed: the existing reversal.', content: json(ref('Transaction')) },
        ...errorResponses(...WRITE_ERRORS, 'NotFound', 'Conflict'),
      },
    },
  },
};
