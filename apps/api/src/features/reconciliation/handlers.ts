import { findRun, listRuns, type RunFilter, type RunRequest } from '@ledger/reconciliation';
import { ApiError } from '../../http/errors.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';

const FILTER_KEYS = ['status', 'category', 'check_name', 'from', 'to'] as const satisfies ReadonlyArray<
  keyof RunFilter
>;

export function handlers({ db, recon }: FeatureContext): Record<string, Handler> {
  return {
    listReconciliationRuns: async (req, res) => {
      res.json(await listRuns(db, pick(req.query, FILTER_KEYS) as RunFilter, pageOf(req.query)));
    },

    getReconciliationRun: async (req, res) => {
      const id = String(req.params.run_id);
      const run = await findRun(db, id);
      if (!run) throw new ApiError('not_found', `reconciliation run ${id} does not exist`);
      res.json(run);
    },

    runReconciliation: async (req, res) => {
      const { category, full } = (req.body ?? {}) as RunRequest;
      try {
        res.json(await recon.run({ category, full }));
      } catch (error) {
        if (!recon.closed) throw error;
        throw new ApiError(
          'not_ready',
          'the api is shutting down: the reconciliation run was stopped and nothing was written',
        );
      }
    },
  };
}
