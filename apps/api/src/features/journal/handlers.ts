import {
  groupJournal,
  JOURNAL_GROUP_BY,
  listJournalLines,
  listPostings,
  type JournalFilter,
  type JournalGroupBy,
} from '@ledger/core';
import { presentPage } from '../../http/present.js';
import { oneOf, pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import { presentJournalGroup, presentJournalLine, presentPosting } from './present.js';

const FILTER_KEYS = ['txn_id', 'account_code', 'customer_id', 'posting_kind', 'from', 'to'] as const satisfies ReadonlyArray<
  keyof JournalFilter
>;
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
  };
}
