import { istDate } from '@ledger/core/posting';
import { RECENT_TXNS_MAX, recentTransactions } from '@ledger/core/reports';
import type { Db } from '@ledger/core/store';
import { financialYearOf, lrsUsePerPan, parseFinancialYear, type FinancialYear } from '@ledger/india';
import type { Request } from 'express';
import { pick } from '../../http/query.js';
import { asOfDate, paidRemittancesToWire, type RemittanceToWire } from '@ledger/reconciliation';
import type { UsbrokerClient } from '@ledger/upstream-clients';
import type { FeatureContext, Handler } from '../feature.js';
import { compliance } from './compliance.js';
import { holdingsRecon } from './holdings-recon.js';
import { indiaCustomers, ledgerHoldings, remitActivity, usbrokerActivity } from './ledger.js';
import { firmLedgerRecon, ledgerRecon } from './ledger-recon.js';
import type { IndiaCustomer } from './live.js';
import { heldSymbols, nav, NO_QUOTES } from './nav.js';
import { reconciliation } from './reconciliation.js';
import { remitOverview } from './remit-overview.js';
import { NON_PAID_STATUSES, remittanceExceptions } from './remittance-exceptions.js';
import { treasury } from './treasury.js';
import { readBroker, readBrokerAccount, readBrokerPerCustomer, readRemit } from './upstream.js';
import { usbrokerOverview } from './usbroker-overview.js';

/** The FY of today in India (IST). */
const currentFy = () => financialYearOf(istDate(new Date().toISOString()));
/** `fy` as asked (YYYY-YY, consecutive years: else 400), or the current FY. */
function fyOf(req: Request): FinancialYear {
  const { fy } = pick(req.query, ['fy']);
  return fy === undefined ? currentFy() : parseFinancialYear(fy, 'fy', '/query/fy');
}

/** The handlers of the live India reports: read the ledger and the upstreams, hand the data to the report, answer it. */
export function handlers(context: FeatureContext): Record<string, Handler> {
  return { ...overviewHandlers(context), ...brokerTieOutHandlers(context) };
}

const idsOf = (customers: readonly IndiaCustomer[]) => customers.map((c) => c.customer_id);
const holdingsOf = (db: Db, customers: readonly IndiaCustomer[]) => ledgerHoldings(db, idsOf(customers));

/**
 * The book's India customers, each one's broker read with `read`, and what `fromLedger` reads
 * of the book for them. The book and the broker are read at the same time: neither needs the
 * other, so the report waits for the slower, not for both in turn.
 */
async function withBroker<T, L>(
  { config, db }: FeatureContext,
  read: (client: UsbrokerClient, customer: IndiaCustomer & { account_no: string }) => Promise<T>,
  fromLedger: (customers: readonly IndiaCustomer[]) => Promise<L>,
) {
  const customers = await indiaCustomers(db, config.book);
  const [ledger, reads] = await Promise.all([
    fromLedger(customers),
    readBrokerPerCustomer(customers, config.upstreams.usbroker, config.indiaLive.concurrency, read),
  ]);
  return {
    ledger,
    customers: customers.map((customer) => ({ customer, read: reads.get(customer.customer_id) ?? null })),
  };
}

/** Each customer's paid remittances, to be met by the broker's wires in (a customer with none: empty). */
async function remittancesToWireOf(db: Db, customers: readonly IndiaCustomer[]) {
  const byCustomer = new Map<string, RemittanceToWire[]>(customers.map((c) => [c.customer_id, []]));
  for (const r of await paidRemittancesToWire(db, idsOf(customers))) byCustomer.get(r.customer_id)!.push(r);
  return byCustomer;
}

/** The book's India activity and the upstreams' standing: broker and remit overviews, treasury, NAV, remittance exceptions. */
function overviewHandlers({ config, db }: FeatureContext): Record<string, Handler> {
  const { usbroker, remit } = config.upstreams;
  return {
    getIndiaUsbroker: async (_req, res) => {
      const [rows, recent] = await Promise.all([usbrokerActivity(db), recentTransactions(db, {}, 'usbroker')]);
      res.json(usbrokerOverview(rows, recent));
    },
    getIndiaRemit: async (req, res) => {
      const fy = fyOf(req);
      res.json(remitOverview(await remitActivity(db, { from: fy.start, to: fy.end }, RECENT_TXNS_MAX), fy.label));
    },
    getIndiaTreasury: async (_req, res) => {
      res.json(
        treasury(
          await readRemit(config.book, remit, async (client) => {
            const [balances, midRate] = await Promise.all([client.getBalances(), client.getMidRate()]);
            return { balances, midRate };
          }),
        ),
      );
    },
    getIndiaNav: async (_req, res) => {
      const customers = await indiaCustomers(db, config.book);
      const holdings = await holdingsOf(db, customers);
      const held = new Map(customers.map((c) => [c.customer_id, heldSymbols(holdings.get(c.customer_id)!)]));
      // Prices name no account: one read of every symbol a linked customer holds, not one per customer.
      const symbols = [
        ...new Set(customers.flatMap((c) => (c.account_no === null ? [] : held.get(c.customer_id)!))),
      ].sort();
      const prices = await readBroker(usbroker, (client) => client.getQuotes(symbols));
      res.json(
        nav(
          customers.map((customer) => ({
            customer,
            holdings: holdings.get(customer.customer_id)!,
            // A customer holding nothing needs no price: valued whether or not the prices could be read.
            quotes:
              customer.account_no === null ? null : held.get(customer.customer_id)!.length === 0 ? NO_QUOTES : prices,
          })),
        ),
      );
    },
    getIndiaRemittanceExceptions: async (_req, res) => {
      const customers = await indiaCustomers(db, config.book);
      const customerOf = new Map(
        customers.filter((c) => c.remit_customer_id !== null).map((c) => [c.remit_customer_id!, c.customer_id]),
      );
      const read = await readRemit(config.book, remit, async (client) =>
        (await Promise.all(NON_PAID_STATUSES.map((status) => client.listOrders({ status })))).flat(),
      );
      res.json(remittanceExceptions(read, customerOf, new Date()));
    },
  };
}

/** Each customer's broker account read against the book: holdings, ledger, remittances to wires, LRS compliance. */
function brokerTieOutHandlers(context: FeatureContext): Record<string, Handler> {
  const { config, db } = context;
  return {
    getIndiaHoldingsRecon: async (_req, res) => {
      const { ledger: holdings, customers } = await withBroker(
        context,
        (client, customer) => client.listPositions(customer.account_no),
        (all) => holdingsOf(db, all),
      );
      res.json(
        holdingsRecon(
          customers.map(({ customer, read: positions }) => ({
            customer,
            holdings: holdings.get(customer.customer_id)!,
            positions,
          })),
          config.recon.quantityTolerance,
        ),
      );
    },
    getIndiaLedgerRecon: async (_req, res) => {
      const { ledger: holdings, customers } = await withBroker(
        context,
        (client, customer) => readBrokerAccount(client, customer.account_no),
        (all) => holdingsOf(db, all),
      );
      res.json(
        firmLedgerRecon(
          customers.map(({ customer, read: broker }) =>
            ledgerRecon(customer, holdings.get(customer.customer_id)!, broker, config.recon),
          ),
        ),
      );
    },
    getIndiaReconciliation: async (_req, res) => {
      const { ledger: remittances, customers } = await withBroker(
        context,
        (client, customer) => client.listWires({ accountNo: customer.account_no, direction: 'IN' }),
        (all) => remittancesToWireOf(db, all),
      );
      const inputs = customers
        .map(({ customer, read: wires }) => ({
          customer,
          wires,
          remittances: remittances.get(customer.customer_id)!,
        }))
        .filter((input) => input.customer.account_no !== null || input.remittances.length > 0);
      res.json(reconciliation(inputs, config.recon.tieOutDayWindow, asOfDate(new Date())));
    },
    getIndiaCompliance: async (_req, res) => {
      const { ledger: lrs, customers } = await withBroker(
        context,
        (client, customer) => client.getAccount(customer.account_no),
        (all) =>
          lrsUsePerPan({ book: config.book, db, settings: config.india }, currentFy(), [
            ...new Set(all.flatMap((c) => (c.pan === null ? [] : [c.pan]))),
          ]),
      );
      res.json(
        compliance(
          customers.map(({ customer, read: account }) => ({
            customer,
            account,
            lrs: customer.pan === null ? null : lrs.get(customer.pan)!,
          })),
        ),
      );
    },
  };
}
