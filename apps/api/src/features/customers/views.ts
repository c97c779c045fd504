import { Decimal, formatDecimal, ACCOUNT, ZERO } from '@ledger/core/posting';
import {
  customerAccountBalances,
  customerActivity,
  customerDividendTotals,
  customerEquityCurve,
  customerPositions,
  customerStatement,
  getCustomer,
  owed,
  walletBalancesOf,
  type CustomerAccountBalance,
  type DateWindow,
} from '@ledger/core/reports';
import { listTransactions, type CustomerRow } from '@ledger/core/store';
import type { Request } from 'express';
import { presentPage } from '../../http/present.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import { presentTransactionSummary } from '../transactions/present.js';
import { presentCustomer, presentPosition } from './present.js';
import { portfolioOf } from './portfolio.js';

/** The customer a view is about: path parameter, checked to exist (404 otherwise). */
export async function customerOf(context: FeatureContext, req: Request): Promise<CustomerRow> {
  return getCustomer(context.db, String(req.params.customer_id));
}

const windowOf = (req: Request): DateWindow => pick(req.query, ['from', 'to'] as const);
const asOfOf = (req: Request): string | undefined => pick(req.query, ['as_of'] as const).as_of;

/**
 * Cash per wallet (in its own currency, exact, and at its USD equivalent), securities at cost and
 * totals, from the customer's account balances.
 */
export function summaryOf(
  customerId: string,
  asOf: string | undefined,
  balances: CustomerAccountBalance[],
  aedPerUsd: Decimal,
) {
  const cash = walletBalancesOf(balances, aedPerUsd);
  const cashTotal = cash.reduce((sum, wallet) => sum.plus(wallet.balance_usd), ZERO);
  const securities = owed(balances, ACCOUNT.securitiesLiabilityEquities);
  return {
    customer_id: customerId,
    as_of: asOf ?? null,
    cash: cash.map(({ currency, account_code, balance, balance_usd }) => ({
      currency,
      account_code,
      balance: formatDecimal(balance),
      balance_usd: formatDecimal(balance_usd),
    })),
    cash_total_usd: formatDecimal(cashTotal),
    securities_at_cost_usd: formatDecimal(securities),
    total_usd: formatDecimal(cashTotal.plus(securities)),
  };
}

function trialBalanceOf(customerId: string, asOf: string | undefined, balances: CustomerAccountBalance[]) {
  const accounts = balances.map((b) => {
    const net = new Decimal(b.net);
    return {
      account_code: b.account_code,
      name: b.name,
      account_type: b.account_type,
      debit: formatDecimal(new Decimal(b.debit)),
      credit: formatDecimal(new Decimal(b.credit)),
      debit_balance: formatDecimal(net.isGreaterThan(0) ? net : ZERO),
      credit_balance: formatDecimal(net.isLessThan(0) ? net.negated() : ZERO),
    };
  });
  const totalDebit = accounts.reduce((sum, a) => sum.plus(a.debit_balance), ZERO);
  const totalCredit = accounts.reduce((sum, a) => sum.plus(a.credit_balance), ZERO);
  return {
    customer_id: customerId,
    as_of: asOf ?? null,
    accounts,
    total_debit: formatDecimal(totalDebit),
    total_credit: formatDecimal(totalCredit),
    balanced: totalDebit.isEqualTo(totalCredit),
  };
}

/** The customer's statement over `window`: each movement with the running USD balance, and each wallet's own. */
function statementOf(
  customerId: string,
  window: DateWindow,
  { opening_balance_usd, movements, wallets }: Awaited<ReturnType<typeof customerStatement>>,
) {
  let balance = opening_balance_usd;
  const listed = movements.map((m) => {
    balance = balance.plus(m.amount_usd);
    return {
      ...m,
      amount_usd: formatDecimal(new Decimal(m.amount_usd)),
      balance_usd: formatDecimal(balance),
      amount: formatDecimal(m.amount),
    };
  });
  return {
    customer_id: customerId,
    from: window.from ?? null,
    to: window.to ?? null,
    opening_balance_usd: formatDecimal(opening_balance_usd),
    movements: listed,
    movements_total_usd: formatDecimal(balance.minus(opening_balance_usd)),
    closing_balance_usd: formatDecimal(balance),
    wallets: wallets.map((w) => ({
      currency: w.currency,
      account_code: w.account_code,
      opening_balance: formatDecimal(w.opening_balance),
      movements_total: formatDecimal(w.movements_total),
      closing_balance: formatDecimal(w.opening_balance.plus(w.movements_total)),
    })),
  };
}

/** The handlers of the views read from the journal (and, for prices, the snapshot cache). */
export function viewHandlers(context: FeatureContext): Record<string, Handler> {
  return { ...holdingHandlers(context), ...activityHandlers(context) };
}

/** What the customer holds (as of a day, or now): summary, overview, positions, portfolio, trial balance. */
function holdingHandlers(context: FeatureContext): Record<string, Handler> {
  const { db } = context;
  return {
    getCustomerSummary: async (req, res) => {
      const { customer_id } = await customerOf(context, req);
      const asOf = asOfOf(req);
      res.json(
        summaryOf(customer_id, asOf, await customerAccountBalances(db, customer_id, asOf), context.config.aedPerUsd),
      );
    },

    getCustomerOverview: async (req, res) => {
      const customer = await customerOf(context, req);
      const [balances, activity, positions] = await Promise.all([
        customerAccountBalances(db, customer.customer_id),
        customerActivity(db, customer.customer_id),
        customerPositions(db, customer.customer_id),
      ]);
      res.json({
        customer: presentCustomer(customer),
        summary: summaryOf(customer.customer_id, undefined, balances, context.config.aedPerUsd),
        activity: { ...activity, position_count: positions.length },
        links: {
          uaefeed: customer.uaefeed_customer_number !== null,
          custodian: customer.custodian_account !== null,
          usbroker: customer.usbroker_account_no !== null,
          remit: customer.remit_customer_id !== null,
        },
      });
    },

    getCustomerPositions: async (req, res) => {
      const { customer_id } = await customerOf(context, req);
      const asOf = asOfOf(req);
      res.json({
        customer_id,
        as_of: asOf ?? null,
        items: (await customerPositions(db, customer_id, asOf)).map(presentPosition),
      });
    },

    getCustomerPortfolio: async (req, res) => {
      const { customer_id } = await customerOf(context, req);
      res.json(await portfolioOf(context, customer_id));
    },

    getCustomerTrialBalance: async (req, res) => {
      const { customer_id } = await customerOf(context, req);
      const asOf = asOfOf(req);
      res.json(trialBalanceOf(customer_id, asOf, await customerAccountBalances(db, customer_id, asOf)));
    },
  };
}

/** What the customer did over a window: dividends, orders, statement, equity curve. */
function activityHandlers(context: FeatureContext): Record<string, Handler> {
  const { db } = context;
  return {
    getCustomerDividends: async (req, res) => {
      // The page is read first: a bad one is a 400 whoever the customer is.
      const page = pageOf(req.query);
      const { customer_id } = await customerOf(context, req);
      const window = windowOf(req);
      const [totals, listed] = await Promise.all([
        customerDividendTotals(db, customer_id, window),
        listTransactions(db, { customer_id, ...window, txn_types: ['dividend', 'wht_tax'] }, page, 'txn_date', 'desc'),
      ]);
      res.json({ customer_id, totals, ...presentPage(listed, presentTransactionSummary) });
    },

    getCustomerOrders: async (req, res) => {
      const page = pageOf(req.query);
      const { customer_id } = await customerOf(context, req);
      const filter = {
        customer_id,
        ...windowOf(req),
        ...pick(req.query, ['symbol'] as const),
        txn_types: ['buy_security', 'sell_security'],
      };
      res.json(presentPage(await listTransactions(db, filter, page, 'txn_date', 'desc'), presentTransactionSummary));
    },

    getCustomerStatement: async (req, res) => {
      const { customer_id } = await customerOf(context, req);
      const window = windowOf(req);
      res.json(
        statementOf(customer_id, window, await customerStatement(db, customer_id, window, context.config.aedPerUsd)),
      );
    },

    getCustomerEquityCurve: async (req, res) => {
      const { customer_id } = await customerOf(context, req);
      const window = windowOf(req);
      const points = await customerEquityCurve(db, customer_id, window);
      res.json({
        customer_id,
        from: points[0]?.day ?? window.from ?? null,
        to: points.at(-1)?.day ?? window.to ?? null,
        points,
      });
    },
  };
}
