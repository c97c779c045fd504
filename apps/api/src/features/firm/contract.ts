import { READ } from '../../openapi/security.js';
import { ACCOUNT_TYPES } from '@ledger/core';
import { errorResponses, json, object, READ_ERRORS, ref } from '../../openapi/components.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';


/** The schemas of the firm's reports. */
export const schemas: Record<string, JsonSchema> = {
  AccountTotal: object(
    {
      account_code: ref('AccountCode'),
      name: { type: 'string' },
      account_type: { type: 'string', enum: ACCOUNT_TYPES },
      normal_side: { type: 'string', enum: ['debit', 'credit'] },
      dormant: { type: 'boolean' },
      debit: ref('Amount'),
      credit: ref('Amount'),
      net: { ...ref('SignedAmount'), description: 'debit − credit: positive for a debit balance.' },
      balance: { ...ref('SignedAmount'), description: 'The balance on the account’s normal side.' },
      line_count: { type: 'integer', minimum: 0 },
    },
    'One account of the chart with its running totals.',
  ),
  AccountTotals: object({ items: { type: 'array', items: ref('AccountTotal') } }, 'The chart of accounts with running totals.'),
  TrialBalance: object(
    {
      accounts: {
        type: 'array',
        items: object(
          {
            account_code: ref('AccountCode'),
            name: { type: 'string' },
            account_type: { type: 'string', enum: ACCOUNT_TYPES },
            debit_balance: ref('Amount'),
            credit_balance: ref('Amount'),
          },
          'An account’s balance in the debit or the credit column.',
        ),
      },
      total_debit: ref('Amount'),
      total_credit: ref('Amount'),
      difference: { ...ref('SignedAmount'), description: 'total_debit − total_credit: zero when the books balance.' },
      balanced: { type: 'boolean' },
    },
    'The trial balance of the book.',
  ),

};

export const paths: Paths = {
  '/v1/firm/accounts': {
    get: {
      operationId: 'getFirmAccounts',
      summary: 'The chart of accounts with running debit, credit, net and balance per account',
      tags: ['firm'],
      security: READ,
      responses: { '200': { description: 'Every account of the chart.', content: json(ref('AccountTotals')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
  '/v1/firm/trial_balance': {
    get: {
      operationId: 'getTrialBalance',
      summary: 'The same totals in trial-balance shape; `balanced` is false only if the books are broken',
      tags: ['firm'],
      security: READ,
      responses: { '200': { description: 'The trial balance.', content: json(ref('TrialBalance')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
};
