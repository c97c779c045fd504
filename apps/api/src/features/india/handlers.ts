import { Decimal, istDate } from '@ledger/core/posting';
import {
  brokerFeesReport,
  capitalGainsReport,
  declarePriorLrsUsage,
  dividendsReport,
  financialYearOf,
  fxMarginReport,
  lrsReport,
  parseFinancialYear,
  presentPriorUsage,
  scheduleFaReport,
  settlementAuditReport,
  taxPackCsv,
  taxPackReport,
  type FinancialYear,
  type IndiaReportContext,
} from '@ledger/india';
import type { Request } from 'express';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';

/** `fy` as asked (YYYY-YY, consecutive years: else 400), or the FY of today in India. */
function fyOf(req: Request): FinancialYear {
  const { fy } = pick(req.query, ['fy']);
  return fy === undefined
    ? financialYearOf(istDate(new Date().toISOString()))
    : parseFinancialYear(fy, 'fy', '/query/fy');
}

const customerOf = (req: Request) => pick(req.query, ['customer']).customer ?? null;

export function handlers({ config, db }: FeatureContext): Record<string, Handler> {
  const context: IndiaReportContext = { book: config.book, db, settings: config.india };
  return {
    putIndiaLrsPriorUsage: async (req, res) => {
      const body = req.body as { fy: string; amount_usd: string; amount_inr: string; note?: string | null };
      const fy = parseFinancialYear(body.fy, 'fy', '/body/fy');
      const pan = String(req.params.pan);
      const { created, usage } = await declarePriorLrsUsage(db, fy, pan, {
        amountUsd: new Decimal(body.amount_usd),
        amountInr: new Decimal(body.amount_inr),
        note: body.note ?? null,
      });
      res.status(created ? 201 : 200).json({ pan, fy: fy.label, ...presentPriorUsage(usage) });
    },
    getIndiaLrs: async (req, res) => {
      res.json(await lrsReport(context, fyOf(req)));
    },
    getIndiaCapitalGains: async (req, res) => {
      res.json(await capitalGainsReport(context, fyOf(req), customerOf(req), pageOf(req.query)));
    },
    getIndiaDividends: async (req, res) => {
      res.json(await dividendsReport(context, fyOf(req), customerOf(req)));
    },
    // `fy` is required here: the validator refuses a request without it.
    getIndiaScheduleFa: async (req, res) => {
      res.json(await scheduleFaReport(context, fyOf(req), customerOf(req), pageOf(req.query)));
    },
    getIndiaSettlementAudit: async (req, res) => {
      res.json(await settlementAuditReport(context, fyOf(req)));
    },
    getIndiaBrokerFees: async (req, res) => {
      const { from, to } = pick(req.query, ['from', 'to']);
      res.json(
        await brokerFeesReport(
          context,
          { from: from ?? null, to: to ?? null, customerId: customerOf(req) },
          pageOf(req.query),
        ),
      );
    },
    // `pan` and `fy` are required here, the PAN's format checked: the validator refuses a request without them.
    getIndiaTaxPack: async (req, res) => {
      const { pan, format } = pick(req.query, ['pan', 'format']);
      const fy = fyOf(req);
      const pack = await taxPackReport(context, fy, pan!);
      if (format === 'csv')
        res
          .status(200)
          .attachment(`tax-pack-${pack.pan}-${fy.label}.csv`)
          .type('text/csv; charset=utf-8')
          .send(taxPackCsv(pack));
      else res.json(pack);
    },
    getIndiaFxMargin: async (req, res) => {
      res.json(await fxMarginReport(context, fyOf(req), config.upstreams.remit));
    },
  };
}
