import { todayUtc } from '@ledger/core/posting';
import { closePeriod, closeYear, listPeriodCloses, listYearCloses, reopenPeriod } from '@ledger/core/store';
import { pageOf } from '../../http/query.js';
import { actorOf } from '../../http/request-context.js';
import type { FeatureContext, Handler } from '../feature.js';

export function handlers({ config, db, logger }: FeatureContext): Record<string, Handler> {
  return {
    listPeriodCloses: async (req, res) => {
      res.json(await listPeriodCloses(db, pageOf(req.query)));
    },

    closePeriod: async (req, res) => {
      const { through } = req.body as { through: string };
      const { close, created } = await closePeriod(db, { through, actor: actorOf(req), today: todayUtc() });
      if (created)
        logger.info('period closed', { close_id: close.close_id, through: close.through, actor: close.actor });
      res.status(created ? 201 : 200).json(close);
    },

    closeYear: async (req, res) => {
      const { through } = req.body as { through: string };
      const { yearClose, created } = await closeYear(db, {
        through,
        fiscalYearStartMonth: config.fiscalYearStartMonth,
        actor: actorOf(req),
      });
      if (created) {
        const { year_close_id, fy_end, txn_id, net_income_usd, actor } = yearClose;
        logger.info('year closed', { year_close_id, fy_end, txn_id, net_income_usd, actor });
      }
      res.status(created ? 201 : 200).json(yearClose);
    },

    listYearCloses: async (req, res) => {
      res.json(await listYearCloses(db, pageOf(req.query)));
    },

    reopenPeriod: async (req, res) => {
      const { through, reason } = req.body as { through?: string; reason: string };
      const close = await reopenPeriod(db, { through: through ?? null, reason, actor: actorOf(req) });
      logger.info('period reopened', { close_id: close.close_id, through: close.through, actor: close.actor });
      res.status(201).json(close);
    },
  };
}
