import { accountTotals, trialBalance } from '@ledger/core';
import { Router } from 'express';
import type { RouteContext } from './context.js';

export function firmRoutes({ db }: RouteContext): Router {
  const router = Router();

  router.get('/v1/firm/accounts', async (_req, res) => {
    res.json({ items: await accountTotals(db) });
  });

  router.get('/v1/firm/trial_balance', async (_req, res) => {
    res.json(await trialBalance(db));
  });

  return router;
}
