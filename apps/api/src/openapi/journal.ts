import { errorResponses, json, paramRef, READ_ERRORS, ref } from './components.js';
import { READ } from './security.js';
import type { Paths } from './types.js';

const FILTERS = ['TxnIdFilter', 'AccountCodeFilter', 'CustomerIdFilter', 'PostingKindFilter', 'From', 'To'].map(paramRef);
const PAGE = ['Limit', 'Offset'].map(paramRef);

export const journalPaths: Paths = {
  '/v1/journal': {
    get: {
      operationId: 'listJournalLines',
      summary: 'Journal lines, newest first',
      description: '`from` and `to` bound the lines’ txn_date.',
      tags: ['journal'],
      security: READ,
      parameters: [...FILTERS, ...PAGE],
      responses: { '200': { description: 'A page of journal lines.', content: json(ref('JournalLinePage')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
  '/v1/journal/grouped': {
    get: {
      operationId: 'getJournalGroups',
      summary: 'Debit, credit and net per account, posting kind, customer or day',
      tags: ['journal'],
      security: READ,
      parameters: [paramRef('JournalGroupBy'), ...FILTERS, ...PAGE],
      responses: { '200': { description: 'Groups.', content: json(ref('JournalGroups')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
  '/v1/postings': {
    get: {
      operationId: 'listPostings',
      summary: 'Journal lines flattened with their transaction’s facts, newest first',
      tags: ['journal'],
      security: READ,
      parameters: [...FILTERS, paramRef('TxnTypeFilter'), paramRef('SourceFilter'), ...PAGE],
      responses: { '200': { description: 'A page of postings.', content: json(ref('PostingPage')) }, ...errorResponses(...READ_ERRORS) },
    },
  },
};
