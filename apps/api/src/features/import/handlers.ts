import { importUaefeedBatch, type UaefeedImportBatch } from '@ledger/jobs';
import { ApiError } from '../../http/errors.js';
import type { FeatureContext, Handler } from '../feature.js';

const IMPORT_BOOK = 'ENTITY_UAE';

export function handlers({ config, db }: FeatureContext): Record<string, Handler> {
  const settings = { feeSchedule: config.feeSchedule, aedPerUsd: config.aedPerUsd.toString() };
  return {
    importUaefeed: async (req, res) => {
      if (config.book !== IMPORT_BOOK)
        throw new ApiError('wrong_book', `the uaefeed import runs on ${IMPORT_BOOK}; this is ${config.book}`, [
          { book: config.book, books: [IMPORT_BOOK] },
        ]);
      const answer = await importUaefeedBatch(db, req.body as UaefeedImportBatch, settings);
      if (answer.outcome === 'invalid') {
        throw new ApiError(
          'invalid_records',
          `${answer.problems.length} record(s) cannot be posted; nothing was posted`,
          answer.problems,
        );
      }
      res.json({ ...answer.counts, records: answer.records });
    },
  };
}
