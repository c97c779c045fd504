import { accountTotals, firmEarnings, firmSummary, trialBalance } from '@ledger/core/reports';
import { pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';

const WINDOW = ['from', 'to'] as const;

export function handlers({ config, db }: FeatureContext): Record<string, Handler> {
  return {
    getFirmAccounts: async (req, res) => {
      res.json({ items: await accountTotals(db, { asOf: pick(req.query, ['as_of']).as_of }) });
    },

    getTrialBalance: async (req, res) => {
      res.json(await trialBalance(db, { asOf: pick(req.query, ['as_of']).as_of }));
    },

    getFirmSummary: async (req, res) => {
      res.json(await firmSummary(db, pick(req.query, WINDOW), { aedPerUsd: config.aedPerUsd }));
    },

    getFirmEarnings: async (req, res) => {
      res.json(await firmEarnings(db, pick(req.query, WINDOW)));
    },
  };
}
