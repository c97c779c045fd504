import type { CustomerRow } from '@ledger/core/store';
import type { UsbrokerClient } from '@ledger/upstream-clients';
import type { Request, Response } from 'express';
import { ApiError } from '../../http/errors.js';
import { ledgerHoldings } from '../india-live/ledger.js';
import { ledgerRecon } from '../india-live/ledger-recon.js';
import { readBrokerAccount, readBrokerPerCustomer } from '../india-live/upstream.js';
import type { FeatureContext, Handler } from '../feature.js';
import { holdingsOf } from './holdings.js';
import { customerOf } from './views.js';

const ON_UAE = 'the UAE book has no US broker: broker views are India-only';
const NO_LINK = 'the customer has no usbroker account linked';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The India book's broker client, or null on the UAE book; 503 when the India book does not configure it. */
function brokerOf(context: FeatureContext): UsbrokerClient | null {
  if (context.config.book !== 'ENTITY_IND_IFSC') return null;
  const client = context.config.upstreams.usbroker;
  if (client === null) throw new ApiError('upstream_unavailable', 'usbroker is not configured on this book');
  return client;
}

/**
 * A raw broker view: the customer's account read live with `read`, answered with `field`.
 * On the UAE book and for an unlinked customer: 200 with `available` false and `empty`.
 * A broker that does not answer (or answers nonsense): 503 `upstream_unavailable`.
 */
function rawBrokerView<T>(
  context: FeatureContext,
  field: string,
  empty: T,
  read: (client: UsbrokerClient, accountNo: string, req: Request) => Promise<T>,
): Handler {
  return async (req: Request, res: Response) => {
    const customer = await customerOf(context, req);
    const client = brokerOf(context);
    const base = { customer_id: customer.customer_id, account_no: customer.usbroker_account_no };
    if (client === null || customer.usbroker_account_no === null) {
      res.json({
        ...base,
        account_no: null,
        available: false,
        reason: client === null ? ON_UAE : NO_LINK,
        fetched_at: null,
        [field]: empty,
      });
      return;
    }
    let data: T;
    try {
      data = await read(client, customer.usbroker_account_no, req);
    } catch (error) {
      context.logger.warn('usbroker view failed', {
        customer_id: customer.customer_id,
        field,
        error: messageOf(error),
      });
      throw new ApiError('upstream_unavailable', `usbroker could not be read: ${messageOf(error)}`);
    }
    res.json({ ...base, available: true, reason: null, fetched_at: new Date().toISOString(), [field]: data });
  };
}

/** India: the customer's ledger cash and shares against the broker's live balance and positions (the India reports' one comparison). */
async function ledgerReconOf(context: FeatureContext, customer: CustomerRow) {
  const india = {
    customer_id: customer.customer_id,
    account_no: customer.usbroker_account_no,
    remit_customer_id: customer.remit_customer_id,
    pan: customer.pan,
  };
  const holdings = (await ledgerHoldings(context.db, [customer.customer_id])).get(customer.customer_id)!;
  if (context.config.book !== 'ENTITY_IND_IFSC')
    return ledgerRecon(india, holdings, 'not_applicable', context.config.recon);
  const reads = await readBrokerPerCustomer([india], context.config.upstreams.usbroker, 1, (client, linked) =>
    readBrokerAccount(client, linked.account_no),
  );
  return ledgerRecon(india, holdings, reads.get(customer.customer_id) ?? null, context.config.recon);
}

const currentMonth = () => new Date().toISOString().slice(0, 7);

/** The handlers of the views that read an upstream. */
export function upstreamHandlers(context: FeatureContext): Record<string, Handler> {
  return {
    getCustomerHoldings: async (req, res) => {
      res.json(await holdingsOf(context, await customerOf(context, req)));
    },
    getCustomerLedgerRecon: async (req, res) => {
      res.json(await ledgerReconOf(context, await customerOf(context, req)));
    },
    getCustomerUsbrokerBalance: rawBrokerView(context, 'balance', null, (client, accountNo) =>
      client.getBalance(accountNo),
    ),
    getCustomerUsbrokerPortfolio: rawBrokerView(context, 'positions', [], (client, accountNo) =>
      client.listPositions(accountNo),
    ),
    getCustomerUsbrokerOrders: rawBrokerView(context, 'orders', [], (client, accountNo, req) => {
      const { after_id: afterId, limit } = req.query as { after_id?: string; limit?: string | number };
      return client.listOrdersPage(accountNo, {
        ...(afterId !== undefined && { afterId }),
        ...(limit !== undefined && { limit: Number(limit) }),
      });
    }),
    getCustomerUsbrokerStatement: rawBrokerView(context, 'statement', null, (client, accountNo, req) =>
      client.getMonthlyStatement(accountNo, typeof req.query.month === 'string' ? req.query.month : currentMonth()),
    ),
  };
}
