import { errorResponses, json, READ_ERRORS, ref } from './components.js';
import { READ } from './security.js';
import type { Paths } from './types.js';

export const firmPaths: Paths = {
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
