import { ACCOUNT, customerAccountBalances, Decimal, formatDecimal, owed, ZERO, type CustomerRow } from '@ledger/core';
import type { UsbrokerClient } from '@ledger/upstream-clients';
import type { Request, Response } from 'express';
import { ApiError } from '../../http/errors.js';
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
function rawBrokerView<T>(context: FeatureContext, field: string, empty: T, read: (client: UsbrokerClient, accountNo: string, req: Request) => Promise<T>): Handler {
  return async (req: Request, res: Response) => {
    const customer = await customerOf(context, req);
    const client = brokerOf(context);
    const base = { customer_id: customer.customer_id, account_no: customer.usbroker_account_no };
    if (client === null || customer.usbroker_account_no === null) {
      res.json({ ...base, account_no: null, available: false, reason: client === null ? ON_UAE : NO_LINK, fetched_at: null, [field]: empty });
      return;
    }
    let data: T;
    try {
      data = await read(client, customer.usbroker_account_no, req);
    } catch (error) {
      context.logger.warn('usbroker view failed', { customer_id: customer.customer_id, field, error: messageOf(error) });
      throw new ApiError('upstream_unavailable', `usbroker could not be read: ${messageOf(error)}`);
    }
    res.json({ ...base, available: true, reason: null, fetched_at: new Date().toISOString(), [field]: data });
  };
}

const sum = (values: string[]) => values.reduce((total, value) => total.plus(value), ZERO);

/** India: the customer's ledger cash and securities at cost against the broker's live balance and positions. */
async function ledgerReconOf(context: FeatureContext, customer: CustomerRow) {
  const balances = await customerAccountBalances(context.db, customer.customer_id);
  const ledgerCash = owed(balances, ACCOUNT.customerWalletUsd);
  const ledgerSecurities = owed(balances, ACCOUNT.securitiesLiabilityEquities);
  const base = {
    customer_id: customer.customer_id,
    account_no: customer.usbroker_account_no,
    ledger: { cash_usd: formatDecimal(ledgerCash), securities_at_cost_usd: formatDecimal(ledgerSecurities) },
  };
  const unread = (status: string, error: string | null) => ({ ...base, status, broker: null, difference: null, error });
  if (context.config.book !== 'ENTITY_IND_IFSC') return unread('not_applicable', null);
  const client = context.config.upstreams.usbroker;
  if (client === null) return unread('error', 'usbroker is not configured on this book');
  if (customer.usbroker_account_no === null) return unread('no_link', null);
  try {
    const [balance, positions] = await Promise.all([client.getBalance(customer.usbroker_account_no), client.listPositions(customer.usbroker_account_no)]);
    const brokerCash = new Decimal(balance.cash);
    const brokerCost = sum(positions.map((p) => p.cost_basis));
    const difference = { cash_usd: ledgerCash.minus(brokerCash), securities_usd: ledgerSecurities.minus(brokerCost) };
    return {
      ...base,
      status: difference.cash_usd.isZero() && difference.securities_usd.isZero() ? 'ok' : 'mismatch',
      broker: {
        cash: balance.cash,
        securities_cost_basis: formatDecimal(brokerCost),
        market_value: formatDecimal(sum(positions.map((p) => p.market_value))),
        as_of: balance.as_of,
      },
      difference: { cash_usd: formatDecimal(difference.cash_usd), securities_usd: formatDecimal(difference.securities_usd) },
      error: null,
    };
  } catch (error) {
    return unread('error', `usbroker could not be read: ${messageOf(error)}`);
  }
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
    getCustomerUsbrokerBalance: rawBrokerView(context, 'balance', null, (client, accountNo) => client.getBalance(accountNo)),
    getCustomerUsbrokerPortfolio: rawBrokerView(context, 'positions', [], (client, accountNo) => client.listPositions(accountNo)),
    getCustomerUsbrokerOrders: rawBrokerView(context, 'orders', [], (client, accountNo, req) => {
      const { after_id: afterId, limit } = req.query as { after_id?: string; limit?: string | number };
      return client.listOrdersPage(accountNo, { ...(afterId !== undefined && { afterId }), ...(limit !== undefined && { limit: Number(limit) }) });
    }),
    getCustomerUsbrokerStatement: rawBrokerView(context, 'statement', null, (client, accountNo, req) =>
      client.getMonthlyStatement(accountNo, typeof req.query.month === 'string' ? req.query.month : currentMonth()),
    ),
  };
}
