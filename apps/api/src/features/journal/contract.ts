import { READ } from '../../openapi/security.js';
import { ACCOUNT_TYPES } from '@ledger/core/posting';
import { JOURNAL_GROUP_BY } from '@ledger/core/store';
import {
  errorResponses,
  groupedEnvelope,
  json,
  listEnvelope,
  nullable,
  object,
  paramRef,
  READ_ERRORS,
  ref,
} from '../../openapi/components.js';
import { PATTERNS } from '../../openapi/patterns.js';
import type { JsonSchema, Paths } from '../../openapi/types.js';
import { EXPORT_FORMATS } from './export.js';

const FILTERS = ['TxnIdFilter', 'AccountCodeFilter', 'CustomerIdFilter', 'PostingKindFilter', 'From', 'To'].map(
  paramRef,
);
const PAGE = ['Limit', 'Offset'].map(paramRef);

const journalLineProperties: Record<string, JsonSchema> = {
  line_id: {
    type: 'string',
    pattern: PATTERNS.lineId.pattern,
    description: 'Position in the journal: later lines have larger ids.',
  },
  txn_id: ref('TxnId'),
  account_code: ref('AccountCode'),
  account_name: { type: 'string' },
  debit: { ...ref('Amount'), description: 'Zero when the line is a credit.' },
  credit: { ...ref('Amount'), description: 'Zero when the line is a debit.' },
  customer_id: nullable('CustomerId'),
  posting_kind: { type: ['string', 'null'] },
  txn_date: ref('Date'),
  created_at: { type: 'string', format: 'date-time' },
  native_currency: {
    type: ['string', 'null'],
    enum: ['AED', null],
    description: 'AED on a line of an AED account (1020, 2020); null on a USD line.',
  },
  native_amount: nullable(
    'Amount',
    'The line’s amount in `native_currency`, on the line’s side (debit or credit): an AED account’s AED balance is their sum. Null on a USD line, and on an AED line posted before lines kept it (its USD figure stands alone).',
  ),
};

/** The schemas of the journal views; `JournalLine` is also what a transaction's lines are. */
export const schemas: Record<string, JsonSchema> = {
  JournalLine: object(
    journalLineProperties,
    'One debit or credit of a transaction; exactly one of debit and credit is non-zero.',
  ),
  JournalLinePage: listEnvelope(ref('JournalLine'), 'A page of journal lines, newest first.'),
  JournalGroups: groupedEnvelope(
    object(
      {
        key: { type: ['string', 'null'] },
        line_count: { type: 'integer', minimum: 0 },
        debit: ref('Amount'),
        credit: ref('Amount'),
        net: { ...ref('SignedAmount'), description: 'debit − credit.' },
      },
      'One group of journal lines.',
    ),
    JOURNAL_GROUP_BY,
    'Debit, credit and net per group, by key (`day`: newest first).',
  ),
  Posting: object(
    {
      ...journalLineProperties,
      account_type: { type: 'string', enum: ACCOUNT_TYPES },
      txn_type: ref('TxnType'),
      source: ref('Source'),
      source_txn_id: { type: 'string' },
      category: { type: 'string' },
      symbol: { type: ['string', 'null'] },
      posted_at: { type: 'string', format: 'date-time' },
      reverses_txn_id: { type: ['string', 'null'], format: 'uuid' },
    },
    'A journal line flattened with its transaction’s facts.',
  ),
  PostingPage: listEnvelope(ref('Posting'), 'A page of postings, newest first.'),
};

export const paths: Paths = {
  '/v1/journal': {
    get: {
      operationId: 'listJournalLines',
      summary: 'Journal lines, newest first',
      description: '`from` and `to` bound the lines’ txn_date.',
      tags: ['journal'],
      security: READ,
      parameters: [...FILTERS, ...PAGE],
      responses: {
        '200': { description: 'A page of journal lines.', content: json(ref('JournalLinePage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/journal/grouped': {
    get: {
      operationId: 'getJournalGroups',
      summary: 'Debit, credit and net per account, posting kind, customer or day',
      tags: ['journal'],
      security: READ,
      parameters: [paramRef('JournalGroupBy'), ...FILTERS, ...PAGE],
      responses: {
        '200': { description: 'Groups.', content: json(ref('JournalGroups')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/postings': {
    get: {
      operationId: 'listPostings',
      summary: 'Journal lines flattened with their transaction’s facts, newest first',
      tags: ['journal'],
      security: READ,
      parameters: [...FILTERS, paramRef('TxnTypeFilter'), paramRef('SourceFilter'), ...PAGE],
      responses: {
        '200': { description: 'A page of postings.', content: json(ref('PostingPage')) },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
  '/v1/journal/export': {
    get: {
      operationId: 'exportJournal',
      summary: 'The book’s journal as a ledger/hledger file or CSV, streamed',
      description:
        '`format=ledger` (default): one entry per transaction, dated, its txn_id as the code, described by type, customer, symbol and memo, its source as tags; a posting per journal line, `<code> <name>` and the USD amount, debits positive (an AED line shows its AED amount in a posting comment, `; native: <amount> AED`, signed as the USD amount). `hledger -f - balance` over it gives each account’s debit − credit, as `/v1/firm/accounts` does. `format=csv`: one row per journal line, with the line’s `native_currency` and `native_amount` last (empty on a USD line). Ordered by txn_date, txn_id, line; `from` and `to` bound txn_date. Streamed from a database cursor: any size, constant memory; a failure midway cuts the connection (the text ends early), so a complete export is one whose connection closed normally.',
      tags: ['journal'],
      security: READ,
      parameters: [
        {
          name: 'format',
          in: 'query',
          description: 'The file format.',
          schema: { type: 'string', enum: EXPORT_FORMATS, default: 'ledger' },
        },
        paramRef('From'),
        paramRef('To'),
      ],
      responses: {
        '200': {
          description: 'The journal, streamed.',
          content: {
            'text/plain': { schema: { type: 'string', description: 'A ledger/hledger journal.' } },
            'text/csv': { schema: { type: 'string', description: 'One row per journal line.' } },
          },
        },
        ...errorResponses(...READ_ERRORS),
      },
    },
  },
};
