import { LedgerError, newId, type CashPolicy, type CashRequestAction, todayUtc } from '@ledger/core/posting';
import {
  createCashRequest,
  getCashRequest,
  listCashRequests,
  transitionCashRequest,
  type CashRequestFilter,
  type CashRequestInput,
} from '@ledger/core/store';
import type { Request, Response } from 'express';
import { ApiError } from '../../http/errors.js';
import { presentPage } from '../../http/present.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import { presentCashRequest } from './present.js';

const FILTER_KEYS = ['customer_id', 'status', 'direction', 'from', 'to'] as const satisfies ReadonlyArray<
  keyof CashRequestFilter
>;

/** The core names a refused field by its place in the request (`/amount`); the request is the body. */
function inBody(error: unknown): never {
  if (!(error instanceof LedgerError) || error.code !== 'validation_error') throw error;
  const details = (error.details ?? []).map((d) => {
    const detail = d as { path?: string };
    return typeof detail.path === 'string' ? { ...detail, path: `/body${detail.path}` } : d;
  });
  throw new LedgerError(error.code, error.message, details);
}

export function handlers({ config, db }: FeatureContext): Record<string, Handler> {
  const policy: CashPolicy = { feeSchedule: config.feeSchedule, aedPerUsd: config.aedPerUsd };

  const transition = (action: CashRequestAction) => async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { reason?: string | null };
    const request = await transitionCashRequest(
      db,
      String(req.params.cash_request_id),
      action,
      { txnId: newId(), txnDate: todayUtc(), reason: body.reason ?? null },
      policy,
    );
    res.json(presentCashRequest(request));
  };

  return {
    listCashRequests: async (req, res) => {
      const page = await listCashRequests(db, pick(req.query, FILTER_KEYS) as CashRequestFilter, pageOf(req.query));
      res.json(presentPage(page, presentCashRequest));
    },

    getCashRequest: async (req, res) => {
      const id = String(req.params.cash_request_id);
      const found = await getCashRequest(db, id);
      if (!found) throw new ApiError('not_found', `cash request ${id} does not exist`);
      res.json(presentCashRequest(found));
    },

    createCashRequest: async (req, res) => {
      const made = await createCashRequest(
        db,
        req.body as CashRequestInput,
        newId(),
        policy,
        req.get('idempotency-key') ?? null,
      ).catch(inBody);
      if (made.created) res.status(201).location(`/v1/cash-requests/${made.request.cash_request_id}`);
      res.json(presentCashRequest(made.request));
    },

    confirmCashRequest: transition('confirm'),
    failCashRequest: transition('fail'),
    cancelCashRequest: transition('cancel'),
  };
}
