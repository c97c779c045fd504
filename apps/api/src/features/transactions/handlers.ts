import {
  draftManualEntry,
  LedgerError,
  newId,
  type EntryRequest,
  type ManualEntryPolicy,
  todayUtc,
} from '@ledger/core/posting';
import { currentActor } from '@ledger/core/runtime';
import {
  categoryFacets,
  createEntryBatcher,
  getTransaction,
  groupTransactions,
  listTransactions,
  postManualEntry,
  previewEntry,
  reverseTransaction,
  SORT_ORDERS,
  TRANSACTION_GROUP_BY,
  TRANSACTION_SORTS,
  type PostOutcome,
  type TransactionFilter,
  type TransactionGroupBy,
} from '@ledger/core/store';
import type { Response } from 'express';
import { ApiError } from '../../http/errors.js';
import { presentPage } from '../../http/present.js';
import { oneOf, pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import {
  presentCategoryFacet,
  presentPreview,
  presentTransaction,
  presentTransactionGroup,
  presentTransactionSummary,
} from './present.js';

const FILTER_KEYS = [
  'customer_id',
  'txn_type',
  'source',
  'category',
  'symbol',
  'from',
  'to',
  'amount_min',
  'amount_max',
  'posted_by',
] as const satisfies ReadonlyArray<keyof TransactionFilter>;

interface ReverseRequest {
  memo?: string | null;
  txn_date?: string;
}

/**
 * The draft of the entry in the body. The domain names a refused field by its place in the
 * entry (`/amount_usd`); the entry is the body, so the answer says `/body/amount_usd`, as the
 * validator does.
 */
function draftOfBody(body: unknown, policy: ManualEntryPolicy) {
  try {
    // Its actor on the draft: the entry may be posted by another request's batch.
    return { ...draftManualEntry(body as EntryRequest, newId(), policy), postedBy: currentActor() };
  } catch (error) {
    if (!(error instanceof LedgerError) || error.code !== 'validation_error') throw error;
    const details = (error.details ?? []).map((d) => {
      const detail = d as { path?: string };
      return typeof detail.path === 'string' ? { ...detail, path: `/body${detail.path}` } : d;
    });
    throw new LedgerError(error.code, error.message, details);
  }
}

/** 201 with Location when the call posted, 200 when it found what an earlier call posted. */
function sendOutcome(res: Response, outcome: PostOutcome): void {
  const body = presentTransaction(outcome.transaction);
  if (outcome.created) res.status(201).location(`/v1/transactions/${body.txn_id}`);
  res.json(body);
}

export function handlers({ config, db }: FeatureContext): Record<string, Handler> {
  const policy: ManualEntryPolicy = { feeSchedule: config.feeSchedule, aedPerUsd: config.aedPerUsd };
  // Concurrent entries share a statement and a commit; each caller is still answered alone.
  const entries = createEntryBatcher(db);

  return {
    listTransactions: async (req, res) => {
      const sort = oneOf(req.query.sort, TRANSACTION_SORTS, 'txn_date');
      const order = oneOf(req.query.order, SORT_ORDERS, 'desc');
      const page = await listTransactions(db, pick(req.query, FILTER_KEYS), pageOf(req.query), sort, order);
      res.json(presentPage(page, presentTransactionSummary));
    },

    getTransactionCategories: async (req, res) => {
      const facets = await categoryFacets(db, pick(req.query, FILTER_KEYS));
      res.json({ items: facets.items.map(presentCategoryFacet) });
    },

    getTransactionGroups: async (req, res) => {
      const groupBy = oneOf<TransactionGroupBy>(req.query.group_by, TRANSACTION_GROUP_BY, 'type');
      const groups = await groupTransactions(db, pick(req.query, FILTER_KEYS), groupBy, pageOf(req.query));
      res.json({ group_by: groups.group_by, ...presentPage(groups, presentTransactionGroup) });
    },

    getTransaction: async (req, res) => {
      const txnId = String(req.params.txn_id);
      const found = await getTransaction(db, { txnId });
      if (!found) throw new ApiError('not_found', `transaction ${txnId} does not exist`);
      res.json(presentTransaction(found.transaction));
    },

    postTransaction: async (req, res) => {
      sendOutcome(res, await postManualEntry(db, entries, draftOfBody(req.body, policy), policy.aedPerUsd));
    },

    previewTransaction: async (req, res) => {
      const { transaction } = await previewEntry(db, draftOfBody(req.body, policy), policy.aedPerUsd);
      res.json(presentPreview(transaction));
    },

    reverseTransaction: async (req, res) => {
      const body = (req.body ?? {}) as ReverseRequest;
      const outcome = await reverseTransaction(db, String(req.params.txn_id), {
        txnId: newId(),
        txnDate: body.txn_date ?? todayUtc(),
        memo: body.memo ?? null,
      });
      sendOutcome(res, outcome);
    },
  };
}
