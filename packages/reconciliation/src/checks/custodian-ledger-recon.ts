import { compareCashStatement, Decimal, previousMonth } from '@ledger/core/posting';
import { ledgerCashMovements } from '@ledger/core/store';
import { BOTH_BOOKS, variance, type Check } from '../check.js';
import { compareEachRead, linkedCustomers, readPerCustomer, unreachableVariance } from '../upstream.js';

/**
 * UAE: for the last closed month (UTC), each custodian-linked customer's cash statement, read
 * live (read-only), UPSTREAM_CONCURRENCY customers at a time, against the ledger's AED cash
 * movements of that month (uaefeed is the posting source of UAE cash, the custodian only
 * reconciles it), read from the AED wallet's lines in AED (their AED amounts: so an AED amount a
 * posting path got wrong shows here): the statement's net (closing − opening) equals the ledger's, with as many
 * postings as statement lines — the comparison sync-cash-statements stores, made live. No linked
 * customer (the India book): `ok`. The custodian not configured, or unreachable for a customer:
 * `warn` naming why, never `fail`. A month that differs beyond RECON_MONEY_TOLERANCE_USD (in the
 * statement's currency, AED) or by its count: `warn`.
 */
export const custodianLedgerRecon: Check = {
  name: 'custodian_ledger_recon',
  category: 'C',
  books: BOTH_BOOKS,
  run: async ({ db, upstreams, settings, now }) => {
    const start = await linkedCustomers(db, upstreams, 'custodian');
    if (start.outcome) return start.outcome;
    const { linked, client } = start;
    const month = previousMonth(now);
    const ledger = new Map(
      (
        await ledgerCashMovements(db, {
          customerIds: linked.map((c) => c.customer_id),
          source: 'uaefeed',
          currency: 'AED',
          month,
        })
      ).map((m) => [m.customerId, m]),
    );
    const reads = await readPerCustomer(linked, (c) => client.getCashStatement({ account: c.account, month }));
    return compareEachRead(reads, {
      unreachable: (c, error) => unreachableVariance('custodian', c.customer_id, { account: c.account, month }, error),
      compare: (c, statement) => {
        const figures = compareCashStatement(statement, ledger.get(c.customer_id)!);
        const differs =
          new Decimal(figures.difference).abs().isGreaterThan(settings.moneyToleranceUsd) ||
          figures.statement_lines !== figures.ledger_transactions;
        if (!differs) return [];
        return [
          variance({
            customer_id: c.customer_id,
            expected: figures.ledger_net,
            actual: figures.statement_net,
            difference: figures.difference,
            detail: {
              problem: 'cash_statement_differs',
              account: c.account,
              month,
              currency: statement.currency,
              statement_lines: figures.statement_lines,
              ledger_transactions: figures.ledger_transactions,
            },
          }),
        ];
      },
      differ: 'differ',
      metrics: { month },
      max: settings.variancesPerCheckMax,
    });
  },
};
