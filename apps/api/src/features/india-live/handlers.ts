import { istDate, RECENT_TXNS_MAX, recentTransactions } from '@ledger/core';
import { financialYearOf, lrsUsePerPan, parseFinancialYear, type FinancialYear } from '@ledger/india';
import type { Request } from 'express';
import { pick } from '../../http/query.js';
import type { UsbrokerClient } from '@ledger/upstream-clients';
import type { FeatureContext, Handler } from '../feature.js';
import { compliance } from './compliance.js';
import { holdingsRecon } from './holdings-recon.js';
import { indiaCustomers, ledgerHoldings, paidRemittances, remitActivity, usbrokerActivity } from './ledger.js';
import { firmLedgerRecon, ledgerRecon } from './ledger-recon.js';
import { NO_HOLDINGS, type IndiaCustomer, type LedgerHoldings } from './live.js';
import { heldSymbols, nav } from './nav.js';
import { reconciliation, type RemittanceToWire } from './reconciliation.js';
import { remitOverview } from './remit-overview.js';
import { NON_PAID_STATUSES, remittanceExceptions } from './remittance-exceptions.js';
import { treasury } from './treasury.js';
import { readBrokerPerCustomer, readRemit } from './upstream.js';
import { usbrokerOverview } from './usbroker-overview.js';

/** A customer with their ledger holdings: what a broker read may need (NAV asks prices of the symbols held). */
type Holder = IndiaCustomer & { holdings: LedgerHoldings };

const today = () => new Date().toISOString().slice(0, 10);
/** The FY of today in India (IST). */
const currentFy = () => financialYearOf(istDate(new Date().toISOString()));
/** `fy` as asked (YYYY-YY, consecutive years: else 400), or the current FY. */
function fyOf(req: Request): FinancialYear {
  const { fy } = pick(req.query, ['fy']);
  return fy === undefined ? currentFy() : parseFinancialYear(fy, 'fy', '/query/fy');
}

/** The handlers of the live India reports: read the ledger and the upstreams, hand the data to the report, answer it. */
export function handlers({ config, db }: FeatureContext): Record<string, Handler> {
  const { usbroker, remit } = config.upstreams;
  const { concurrency, wireMatchDays } = config.indiaLive;

  /** The book's India customers with their ledger holdings (`withHoldings`), and each one's broker read with `read`. */
  const withBroker = async <T>(
    read: (client: UsbrokerClient, customer: Holder & { account_no: string }) => Promise<T>,
    withHoldings = true,
  ) => {
    const customers = await indiaCustomers(db, config.book);
    const holdings = withHoldings
      ? await ledgerHoldings(
          db,
          customers.map((c) => c.customer_id),
        )
      : new Map<string, LedgerHoldings>();
    const holders: Holder[] = customers.map((customer) => ({
      ...customer,
      holdings: holdings.get(customer.customer_id) ?? NO_HOLDINGS,
    }));
    const reads = await readBrokerPerCustomer(holders, usbroker, concurrency, read);
    return holders.map(({ holdings: held, ...customer }) => ({
      customer,
      holdings: held,
      read: reads.get(customer.customer_id) ?? null,
    }));
  };

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
      const read = await withBroker((client, customer) => client.getQuotes(heldSymbols(customer.holdings)));
      res.json(nav(read.map(({ customer, holdings, read: quotes }) => ({ customer, holdings, quotes }))));
    },
    getIndiaHoldingsRecon: async (_req, res) => {
      const read = await withBroker((client, customer) => client.listPositions(customer.account_no));
      res.json(
        holdingsRecon(read.map(({ customer, holdings, read: positions }) => ({ customer, holdings, positions }))),
      );
    },
    getIndiaLedgerRecon: async (_req, res) => {
      const read = await withBroker(async (client, customer) => {
        const [balance, positions] = await Promise.all([
          client.getBalance(customer.account_no),
          client.listPositions(customer.account_no),
        ]);
        return { balance, positions };
      });
      res.json(
        firmLedgerRecon(read.map(({ customer, holdings, read: broker }) => ledgerRecon(customer, holdings, broker))),
      );
    },
    getIndiaReconciliation: async (_req, res) => {
      const read = await withBroker(
        (client, customer) => client.listWires({ accountNo: customer.account_no, direction: 'IN' }),
        false,
      );
      const remittances = new Map<string, RemittanceToWire[]>();
      for (const r of await paidRemittances(
        db,
        read.map((c) => c.customer.customer_id),
      ))
        remittances.set(r.customer_id, [...(remittances.get(r.customer_id) ?? []), r]);
      const inputs = read
        .map(({ customer, read: wires }) => ({
          customer,
          wires,
          remittances: remittances.get(customer.customer_id) ?? [],
        }))
        .filter((input) => input.customer.account_no !== null || input.remittances.length > 0);
      res.json(reconciliation(inputs, wireMatchDays, today()));
    },
    getIndiaCompliance: async (_req, res) => {
      const read = await withBroker((client, customer) => client.getAccount(customer.account_no), false);
      const pans = [...new Set(read.flatMap(({ customer }) => (customer.pan === null ? [] : [customer.pan])))];
      const lrs = await lrsUsePerPan({ book: config.book, db, settings: config.india }, currentFy(), pans);
      res.json(
        compliance(
          read.map(({ customer, read: account }) => ({
            customer,
            account,
            lrs: customer.pan === null ? null : lrs.get(customer.pan)!,
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
