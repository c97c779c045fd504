import { pipeline } from 'node:stream/promises';
import { streamJournal } from '@ledger/core/reports';
import {
  groupJournal,
  JOURNAL_GROUP_BY,
  listJournalLines,
  listPostings,
  type JournalFilter,
  type JournalGroupBy,
} from '@ledger/core/store';
import { presentPage } from '../../http/present.js';
import { oneOf, pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import {
  csvJournal,
  EXPORT_CONTENT_TYPES,
  EXPORT_FILE_NAMES,
  EXPORT_FORMATS,
  ledgerJournal,
  type ExportFormat,
} from './export.js';
import { presentJournalGroup, presentJournalLine, presentPosting } from './present.js';

const FILTER_KEYS = [
  'txn_id',
  'account_code',
  'customer_id',
  'posting_kind',
  'from',
  'to',
] as const satisfies ReadonlyArray<keyof JournalFilter>;
const POSTING_FILTER_KEYS = [...FILTER_KEYS, 'txn_type', 'source'] as const;

export function handlers({ db }: FeatureContext): Record<string, Handler> {
  return {
    listJournalLines: async (req, res) => {
      const page = await listJournalLines(db, pick(req.query, FILTER_KEYS), pageOf(req.query));
      res.json(presentPage(page, presentJournalLine));
    },

    getJournalGroups: async (req, res) => {
      const groupBy = oneOf<JournalGroupBy>(req.query.group_by, JOURNAL_GROUP_BY, 'account');
      const groups = await groupJournal(db, pick(req.query, FILTER_KEYS), groupBy, pageOf(req.query));
      res.json({ group_by: groups.group_by, ...presentPage(groups, presentJournalGroup) });
    },

    listPostings: async (req, res) => {
      const page = await listPostings(db, pick(req.query, POSTING_FILTER_KEYS), pageOf(req.query));
      res.json(presentPage(page, presentPosting));
    },

    exportJournal: async (req, res) => {
      const format = oneOf<ExportFormat>(req.query.format, EXPORT_FORMATS, 'ledger');
      res.status(200).attachment(EXPORT_FILE_NAMES[format]).type(EXPORT_CONTENT_TYPES[format]);
      // The cursor's rows flow at the pace the client reads; a client that goes away destroys the chain and frees the connection.
      try {
        await pipeline(
          streamJournal(db, pick(req.query, ['from', 'to'] as const)),
          format === 'csv' ? csvJournal() : ledgerJournal(),
          res,
        );
      } catch (error) {
        // The client left before the end: nothing to answer, nothing of ours failed.
        if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        throw error;
      }
    },
  };
}
