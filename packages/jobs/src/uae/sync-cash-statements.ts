import { createHash } from 'node:crypto';
import { compareCashStatement, previousMonth, type CashStatementFigures } from '@ledger/core/posting';
import { insertCashStatements, ledgerCashMovements, type CashStatementSnapshot } from '@ledger/core/store';
import type { CustodianCashStatement } from '@ledger/upstream-clients';
import { z } from 'zod';
import { defineJob } from '../job-settings.js';
import { customerSelection } from './customers.js';
import { calendarMonth, forEachLinked, selectCustomers } from '../kit/per-customer.js';
import { customerFailure, noOutcomes, outcomeCounts, RESULT_SCHEMAS } from '../kit/results.js';

export const syncCashStatementsInput = z
  .object({
    ...customerSelection,
    month: calendarMonth
      .optional()
      .describe('The month, YYYY-MM. Absent: the last closed month (the one before the current, UTC).'),
  })
  .strict()
  .meta({ examples: [{ month: '2026-03' }, { customer_ids: ['UAE-000001'], month: '2026-03', dry_run: true }] });
export type SyncCashStatementsInput = z.infer<typeof syncCashStatementsInput>;

/** One customer's month: the custodian's net cash movement beside the ledger's, in AED (decimal strings). */
const cashStatementComparison = z.strictObject({
  customer_id: z.string(),
  account: z.string(),
  currency: z.string(),
  statement_net: z.string().describe('closing − opening balance of the statement.'),
  ledger_net: z.string().describe('What the ledger’s postings of that month moved the customer’s cash by.'),
  difference: z.string().describe('statement_net − ledger_net: zero when they agree.'),
  statement_lines: z.number().int().min(0),
  ledger_transactions: z.number().int().min(0),
}) satisfies z.ZodType<Omit<CashStatementFigures, 'agrees'>>;
type CashStatementComparison = z.infer<typeof cashStatementComparison>;

export const syncCashStatementsResult = z
  .strictObject({
    dry_run: z.boolean(),
    month: z.string(),
    statements: outcomeCounts.describe(
      'Statements `inserted` now, or `duplicate`: the same statement was already stored. All 0 in a dry run.',
    ),
    customers: z.array(cashStatementComparison),
    differences: z.array(cashStatementComparison).describe('The comparisons that differ (amount or count).'),
    customers_failed: z.array(customerFailure),
  })
  .register(RESULT_SCHEMAS, { id: 'SyncCashStatementsResult' });

/** A statement's content hash: the same content is stored once (JSON of a validated object, keys in the schema's order). */
function sha256(statement: CustodianCashStatement): string {
  return createHash('sha256').update(JSON.stringify(statement)).digest('hex');
}

/**
 * sync-cash-statements (docs/jobs.md#sync-cash-statements): each linked customer's custodian
 * cash statement of `month` stored in `cash_statements` (insert-only per content) and compared
 * with the ledger's own AED cash movements of that customer and month (the uaefeed postings:
 * uaefeed is the posting source, the custodian only reconciles, upstreams.md). Differences are in
 * the result.
 */
export const syncCashStatementsJob = defineJob('sync-cash-statements', {
  mode: 'background',
  family: 'syncs',
  books: ['ENTITY_UAE'],
  why: 'the spec',
  input: syncCashStatementsInput,
  result: syncCashStatementsResult,
  businessKey: () => null,
  run: async (input, { db, upstreams, progress, logger }) => {
    const dryRun = input.dry_run ?? false;
    const month = input.month ?? previousMonth(new Date());
    const { customers, failed: notLinked } = await selectCustomers(db, 'custodian_account', input.customer_ids);
    const fetched = await forEachLinked(
      customers,
      'custodian',
      upstreams.custodian,
      async (custodian, { reference }) => custodian.getCashStatement({ account: reference, month }),
      progress,
    );

    const snapshots: CashStatementSnapshot[] = fetched.done.map(({ customer, value }) => ({
      customerId: customer.customerId,
      upstream: 'custodian',
      account: value.account,
      month: value.month,
      currency: value.currency,
      statement: { ...value },
      statementSha256: sha256(value),
    }));
    const { inserted, existing } = dryRun ? { inserted: 0, existing: 0 } : await insertCashStatements(db, snapshots);

    const movements = await ledgerCashMovements(db, {
      customerIds: fetched.done.map((d) => d.customer.customerId),
      source: 'uaefeed',
      currency: 'AED',
      month,
    });
    const ledgerOf = new Map(movements.map((m) => [m.customerId, m]));
    const figures = fetched.done.map(({ customer, value }) => {
      const { agrees, ...compared } = compareCashStatement(value, ledgerOf.get(customer.customerId)!);
      const comparison: CashStatementComparison = {
        customer_id: customer.customerId,
        account: value.account,
        currency: value.currency,
        ...compared,
      };
      return { comparison, agrees };
    });
    const comparisons = figures.map((f) => f.comparison);
    const differences = figures.filter((f) => !f.agrees).map((f) => f.comparison);
    const customersFailed = [...notLinked, ...fetched.failed];
    logger.info('sync-cash-statements done', {
      dry_run: dryRun,
      month,
      inserted,
      duplicate: existing,
      differences: differences.length,
      customers_failed: customersFailed.length,
    });
    return {
      dry_run: dryRun,
      month,
      statements: { ...noOutcomes(), inserted, duplicate: existing },
      customers: comparisons,
      differences,
      customers_failed: customersFailed,
    };
  },
});
