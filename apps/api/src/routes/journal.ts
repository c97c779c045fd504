import {
  groupJournal,
  JOURNAL_GROUP_BY,
  listJournalLines,
  listPostings,
  type JournalFilter,
  type JournalGroupBy,
} from '@ledger/core';
import { Router } from 'express';
import { pageOf, pick, oneOf } from '../http/query.js';
import type { RouteContext } from './context.js';
import { presentJournalGroup, presentJournalLine, presentPage, presentPosting } from './present.js';

const FILTER_KEYS = ['txn_id', 'account_code', 'customer_id', 'posting_kind', 'from', 'to'] as const satisfies ReadonlyArray<
  keyof JournalFilter
>;
const POSTING_FILTER_KEYS = [...FILTER_KEYS, 'txn_type', 'source'] as const;

export function journalRoutes({ db }: RouteContext): Router {
  const router = Router();

  router.get('/v1/journal', async (req, res) => {
    const page = await listJournalLines(db, pick(req.query, FILTER_KEYS), pageOf(req.query));
    res.json(presentPage(page, presentJournalLine));
  });

  router.get('/v1/journal/grouped', async (req, res) => {
    const groupBy = oneOf<JournalGroupBy>(req.query.group_by, JOURNAL_GROUP_BY, 'account');
    const groups = await groupJournal(db, pick(req.query, FILTER_KEYS), groupBy, pageOf(req.query));
    res.json({ group_by: groups.group_by, ...presentPage(groups, presentJournalGroup) });
  });

  router.get('/v1/postings', async (req, res) => {
    const page = await listPostings(db, pick(req.query, POSTING_FILTER_KEYS), pageOf(req.query));
    res.json(presentPage(page, presentPosting));
  });

  return router;
}
