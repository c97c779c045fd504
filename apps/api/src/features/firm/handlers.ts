import { accountTotals, trialBalance } from '@ledger/core';
import type { FeatureContext, Handler } from '../feature.js';

export function handlers({ db }: FeatureContext): Record<string, Handler> {
  return {
    getFirmAccounts: async (_req, res) => {
      res.json({ items: await accountTotals(db) });
    },

    getTrialBalance: async (_req, res) => {
      res.json(await trialBalance(db));
    },
  };
}
