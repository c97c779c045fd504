import { dismissException, getException, listExceptions, type ExceptionFilter } from '@ledger/core/store';
import { ApiError } from '../../http/errors.js';
import { pageOf } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';

/** The path's id: the validator coerces "Infinity" to a number and lets it through. */
function idOf(raw: unknown): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1)
    throw new ApiError('validation_error', 'exception_id must be a positive integer', [
      { path: '/path/exception_id', message: 'must be a positive integer' },
    ]);
  return id;
}

export function handlers({ db }: FeatureContext): Record<string, Handler> {
  return {
    listExceptions: async (req, res) => {
      const { state, upstream, reason, customer_id, from, to } = req.query as Record<string, string | undefined>;
      const filter = Object.fromEntries(
        Object.entries({ state, upstream, reason_code: reason, customer_id, from, to }).filter(
          ([, v]) => v !== undefined,
        ),
      );
      res.json(await listExceptions(db, filter as ExceptionFilter, pageOf(req.query)));
    },

    getException: async (req, res) => {
      const id = idOf(req.params.exception_id);
      const found = await getException(db, id);
      if (!found) throw new ApiError('not_found', `exception ${id} does not exist`);
      res.json(found);
    },

    dismissException: async (req, res) => {
      res.json(await dismissException(db, idOf(req.params.exception_id), (req.body as { reason: string }).reason));
    },
  };
}
