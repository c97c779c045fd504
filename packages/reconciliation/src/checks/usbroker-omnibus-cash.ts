import { ACCOUNT, Decimal, formatDecimal, ZERO } from '@ledger/core/posting';
import type { Book } from '@ledger/core/runtime';
import { variance, type Check, type CheckOutcome } from '../check.js';
import { matchCash } from '../matchers/cash.js';
import { ledgerDebitBalance, tradesPendingRecost } from '../matchers/reads.js';
import { linkedCustomers, readPerCustomer } from '../upstream.js';

/** The India book alone: the UAE book's 1100 is the custodian's, and no firm account at usbroker feeds it. */
const INDIA: readonly Book[] = ['ENTITY_IND_IFSC'];

/**
 * India: the omnibus cash at the broker in the ledger (1100: debits − credits of every line)
 * equals what usbroker holds for the book, read live (read-only): the cash of every broker-linked
 * customer's account (their wallets, 2010) plus the firm's own account (`USBROKER_FIRM_ACCOUNT`,
 * credited the platform's part of each fee). The broker keeps its own part of a fee at execution,
 * and recost settles it out of 1100 (`broker_cost_settled`): a trade's broker cost modelled wrong,
 * never settled, or a movement of 1100 with no customer's or firm's cash behind it shows here as
 * the difference, to the cent by the cash matcher. Trades pending recost have not had their
 * settlement yet: the check compares the books as posted and names how many are pending
 * (`pending_recost`), so a difference seen before recost has run is read with them in mind.
 * usbroker not configured, or USBROKER_FIRM_ACCOUNT unset: `warn` naming the setting (skipped).
 * An account unreadable: `warn` naming it, no variance (the total is unknown: nothing is judged).
 */
export const usbrokerOmnibusCash: Check = {
  name: 'usbroker_omnibus_cash',
  category: 'C',
  books: INDIA,
  run: async ({ db, upstreams, settings }) => {
    const start = await linkedCustomers(db, upstreams, 'usbroker');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const firmAccount = upstreams.usbrokerFirmAccount;
    if (firmAccount === null)
      return skipped(linked.length, 'the firm account at usbroker is not configured (USBROKER_FIRM_ACCOUNT unset)');
    const ledger = await ledgerDebitBalance(db, ACCOUNT.omnibusCash);
    const pending = await tradesPendingRecost(db, 'usbroker');
    const accounts = [...linked.map((c) => c.account_no), firmAccount];
    const reads = await readPerCustomer(accounts, (account) => client.getBalance(account));
    const unreadable = reads.flatMap((r) =>
      r.error === undefined ? [] : [{ account_no: r.customer, error: r.error }],
    );
    if (unreadable.length > 0)
      return {
        status: 'warn',
        metrics: { customers: linked.length, unreachable: unreadable.length, unreadable, pending_recost: pending },
        variances: [],
      };
    const cashOf = (r: (typeof reads)[number]) => new Decimal(r.value!.cash);
    const firmCash = cashOf(reads.at(-1)!);
    const customersCash = reads.slice(0, -1).reduce((sum, r) => sum.plus(cashOf(r)), ZERO);
    const broker = customersCash.plus(firmCash);
    const matched = matchCash(ledger, broker, settings.moneyToleranceUsd);
    const metrics = {
      customers: linked.length,
      ledger_omnibus: formatDecimal(ledger),
      customers_cash: formatDecimal(customersCash),
      firm_cash: formatDecimal(firmCash),
      difference: matched.difference,
      pending_recost: pending,
    };
    if (matched.status === 'match') return { status: 'ok', metrics: { ...metrics, variances: 0 }, variances: [] };
    return {
      status: 'warn',
      metrics: { ...metrics, variances: 1 },
      variances: [
        variance({
          account_code: ACCOUNT.omnibusCash,
          expected: formatDecimal(ledger),
          actual: formatDecimal(broker),
          difference: matched.difference,
          detail: {
            problem: 'omnibus_cash_differs',
            customers_cash: formatDecimal(customersCash),
            firm_account: firmAccount,
            firm_cash: formatDecimal(firmCash),
            customers: linked.length,
            pending_recost: pending,
          },
        }),
      ],
    };
  },
};

/** Not looked at: `warn` naming why (a run that could not look judges nothing). */
const skipped = (customers: number, reason: string): CheckOutcome => ({
  status: 'warn',
  metrics: { customers, skipped: true, reason },
  variances: [],
});
