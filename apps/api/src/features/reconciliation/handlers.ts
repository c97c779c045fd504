import {
  findRun,
  getVariance,
  listVariances,
  listRuns,
  triageOfRun,
  triageVariance,
  varianceCounts,
  type ReconciliationRun,
  type RunFilter,
  type RunRequest,
  type TriageAction,
  type VarianceFilter,
} from '@ledger/reconciliation';
import type { Db } from '@ledger/core/store';
import { ApiError } from '../../http/errors.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';

const FILTER_KEYS = ['status', 'category', 'check_name', 'from', 'to'] as const satisfies ReadonlyArray<
  keyof RunFilter
>;
const VARIANCE_FILTER_KEYS = ['state', 'check_name', 'customer_id', 'run_id'] as const satisfies ReadonlyArray<
  keyof VarianceFilter
>;

/** A run as answered: each variance with the variance it is across runs and its state now. */
async function withTriage(db: Db, run: ReconciliationRun) {
  const triage = await triageOfRun(db, run.run_id);
  return {
    ...run,
    metadata: {
      ...run.metadata,
      variances: run.metadata.variances.map((v, ordinal) => ({
        ...v,
        variance_id: triage.get(ordinal)?.variance_id ?? null,
        state: triage.get(ordinal)?.state ?? null,
      })),
    },
  };
}

/** The path's id: the validator coerces "Infinity" to a number and lets it through. */
function varianceIdOf(raw: unknown): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1)
    throw new ApiError('validation_error', 'variance_id must be a positive integer', [
      { path: '/path/variance_id', message: 'must be a positive integer' },
    ]);
  return id;
}

export function handlers({ db, recon }: FeatureContext): Record<string, Handler> {
  const act =
    (action: TriageAction['action']): Handler =>
    async (req, res) => {
      const body = (req.body ?? {}) as Omit<TriageAction, 'action'>;
      res.json(await triageVariance(db, varianceIdOf(req.params.variance_id), { ...body, action } as TriageAction));
    };
  return {
    listReconciliationRuns: async (req, res) => {
      res.json(await listRuns(db, pick(req.query, FILTER_KEYS) as RunFilter, pageOf(req.query)));
    },

    getReconciliationRun: async (req, res) => {
      const id = String(req.params.run_id);
      const run = await findRun(db, id);
      if (!run) throw new ApiError('not_found', `reconciliation run ${id} does not exist`);
      res.json(await withTriage(db, run));
    },

    runReconciliation: async (req, res) => {
      const { category, full } = (req.body ?? {}) as RunRequest;
      let run: ReconciliationRun;
      try {
        run = await recon.run({ category, full });
      } catch (error) {
        if (!recon.closed) throw error;
        throw new ApiError(
          'not_ready',
          'the api is shutting down: the reconciliation run was stopped and nothing was written',
        );
      }
      res.json(await withTriage(db, run));
    },

    listReconciliationVariances: async (req, res) => {
      res.json(await listVariances(db, pick(req.query, VARIANCE_FILTER_KEYS) as VarianceFilter, pageOf(req.query)));
    },

    countReconciliationVariances: async (req, res) => {
      res.json(await varianceCounts(db, pick(req.query, ['customer_id'] as const)));
    },

    getReconciliationVariance: async (req, res) => {
      const id = varianceIdOf(req.params.variance_id);
      const found = await getVariance(db, id);
      if (!found) throw new ApiError('not_found', `variance ${id} does not exist`);
      res.json(found);
    },

    acknowledgeReconciliationVariance: act('acknowledge'),
    assignReconciliationVariance: act('assign'),
    noteReconciliationVariance: act('note'),
    resolveReconciliationVariance: act('resolve'),
  };
}
