import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import * as refuseNonFiniteAmounts from '../src/migrations/20261125_refuse_non_finite_amounts.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { asPgFailure, booksSnapshot, caught } from './helpers.js';

const CHECK_VIOLATION = '23514';

/** Every ledger table's numeric column, each of which must refuse NaN and ±Infinity. */
const NUMERIC_COLUMNS = [
  'account_daily_totals.credit_total',
  'account_daily_totals.debit_total',
  'account_totals.credit_total',
  'account_totals.debit_total',
  'broker_fees.amount_usd',
  'broker_fees.platform_fee_usd',
  'cash_requests.amount',
  'cash_requests.amount_usd',
  'cash_requests.fx_rate',
  'close_prices.close_usd',
  'dividend_events.gross_usd',
  'dividend_events.per_share',
  'dividend_events.shares',
  'dividend_events.wht_rate',
  'dividend_events.wht_usd',
  'inr_rates.mid',
  'inr_rates.tt_buy',
  'journal_lines.credit',
  'journal_lines.debit',
  'journal_lines.native_amount',
  'lot_matches.cost_usd',
  'lot_matches.quantity',
  'lrs_prior_usage.amount_inr',
  'lrs_prior_usage.amount_usd',
  'reconciliation_variances.actual',
  'reconciliation_variances.difference',
  'reconciliation_variances.expected',
  'remittances.amount_inr',
  'remittances.amount_usd',
  'remittances.fx_rate',
  'remittances.mid_rate',
  'remittances.settlement_amount_usd',
  'remittances.settlement_fx_fee_usd',
  'remittances.settlement_txn_fee_usd',
  'remittances.tcs_inr',
  'stock_splits.ratio',
  'stock_splits.shares',
  'transaction_daily_totals.amount_usd_total',
  'transactions.amount_usd',
  'transactions.fx_rate',
  'transactions.original_amount',
  'transactions.quantity',
  'variance_triage.actual',
  'variance_triage.difference',
  'variance_triage.expected',
  'year_closes.net_income_usd',
];

/** "an amount_usd", "a quantity". */
const an = (column: string) => `${/^[aeiou]/.test(column) ? 'an' : 'a'} ${column}`;

/** The settings the commit check must keep: the planner pins (20261121) and the owner's pinned search_path (20261122). */
const pinnedSettings = (schema: string) =>
  ['enable_hashjoin=off', 'enable_mergejoin=off', 'enable_seqscan=off', `search_path=${schema}, pg_temp`].sort();

async function commitCheckFunction(db: Knex): Promise<{ securityDefiner: boolean; settings: string[] }> {
  const { rows } = await db.raw<{ rows: Array<{ prosecdef: boolean; proconfig: string[] | null }> }>(
    `SELECT prosecdef, proconfig FROM pg_proc
      WHERE proname = 'ledger_assert_balanced_at_commit' AND pronamespace = current_schema()::regnamespace`,
  );
  expect(rows, 'one ledger_assert_balanced_at_commit').to.have.length(1);
  return { securityDefiner: rows[0]!.prosecdef, settings: [...(rows[0]!.proconfig ?? [])].sort() };
}

/**
 * Money and quantities are finite numbers at the ledger's precision, whatever writes them: the
 * database refuses NaN and ±Infinity (which Postgres orders above every number, NaN = NaN, so
 * sign and balance checks alone let them through) and amounts finer than the ledger keeps.
 * Written as the runtime role, with raw SQL, as an attacker with the service's connection would.
 */
describe('amounts in the database (raw SQL as the runtime role)', function () {
  this.timeout(60_000);
  let t: TestDatabase;
  let owner: Knex;
  let runtime: Knex;
  let schema: string;

  before(async () => {
    t = await createTestDatabase({ runtimeRole: true });
    owner = t.db;
    runtime = t.runtime!.db;
    const { rows } = await owner.raw<{ rows: Array<{ schema: string }> }>('SELECT current_schema() AS schema');
    schema = rows[0]!.schema;
  });
  after(async () => {
    await t?.drop();
  });

  type TxnColumns = Partial<
    Record<'amount_usd' | 'quantity' | 'original_currency' | 'original_amount' | 'fx_rate' | 'symbol', string>
  >;
  interface Line {
    account: string;
    debit: string;
    credit: string;
  }
  const dr = (account: string, amount: string): Line => ({ account, debit: amount, credit: '0' });
  const cr = (account: string, amount: string): Line => ({ account, debit: '0', credit: amount });
  const BALANCED: Line[] = [dr('1010', '100'), cr('3000', '100')];

  /** One transaction (an adjustment with the given columns) and its lines, in one database transaction of `q`. */
  async function post(q: Knex, columns: TxnColumns, lines: Line[] = BALANCED): Promise<string> {
    const id = randomUUID();
    const facts = { amount_usd: '100', ...columns };
    const names = Object.keys(facts);
    await q.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO transactions (txn_id, txn_type, source, source_txn_id, category, txn_date, ${names.join(', ')})
         VALUES (?, 'adjustment', 'manual', ?, 'adjustment', '2026-01-15', ${names.map(() => '?').join(', ')})`,
        [id, id, ...Object.values(facts)],
      );
      await trx.raw(
        `INSERT INTO journal_lines (txn_id, account_code, debit, credit, txn_date) VALUES ${lines.map(() => `(?, ?, ?, ?, '2026-01-15')`).join(', ')}`,
        lines.flatMap((l) => [id, l.account, l.debit, l.credit]),
      );
    });
    return id;
  }

  /** Asserts the refusal (check_violation, naming one of `constraints`) and that the books did not move. */
  async function expectRefused(work: () => Promise<unknown>, constraints: string[]): Promise<void> {
    const before = await booksSnapshot(owner);
    const error = asPgFailure(await caught(work));
    expect(error.code, error.message).to.equal(CHECK_VIOLATION);
    expect(error.constraint, error.message).to.be.oneOf(constraints);
    expect(await booksSnapshot(owner), 'nothing stored').to.deep.equal(before);
  }

  /** Asserts `work` posts one transaction with two lines, and returns the stored transaction's id. */
  async function expectStored(work: () => Promise<string>): Promise<string> {
    const before = await booksSnapshot(owner);
    const id = await work();
    const after = await booksSnapshot(owner);
    expect(Number(after.counts!.transactions) - Number(before.counts!.transactions)).to.equal(1);
    expect(Number(after.counts!.lines) - Number(before.counts!.lines)).to.equal(2);
    return id;
  }

  async function storedEquals(id: string, column: string, value: string): Promise<boolean> {
    const { rows } = await owner.raw<{ rows: Array<{ equal: boolean }> }>(
      `SELECT ?? = ?::numeric AS equal FROM transactions WHERE txn_id = ?`,
      [column, value, id],
    );
    return rows[0]?.equal === true;
  }

  it('has a validated finite check on every numeric column of every ledger table', async () => {
    const { rows: columns } = await owner.raw<{ rows: Array<{ name: string }> }>(
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND data_type = 'numeric' AND table_name <> 'knex_migrations'`,
    );
    expect(columns.map((c) => c.name).sort()).to.deep.equal(NUMERIC_COLUMNS);
    const { rows: checks } = await owner.raw<{ rows: Array<{ name: string; validated: boolean }> }>(
      `SELECT conname AS name, convalidated AS validated FROM pg_constraint
        WHERE contype = 'c' AND connamespace = current_schema()::regnamespace AND conname LIKE '%\\_finite'`,
    );
    expect(Object.fromEntries(checks.map((c) => [c.name, c.validated]))).to.deep.equal(
      Object.fromEntries(NUMERIC_COLUMNS.map((c) => [`${c.replace('.', '_')}_finite`, true])),
    );
  });

  describe('transactions', () => {
    /**
     * Each numeric column of a transaction: the other columns it needs, what its sign check
     * already refuses, values too precise, and values it takes.
     */
    const COLUMNS: Array<{
      column: 'amount_usd' | 'quantity' | 'original_amount' | 'fx_rate';
      with: TxnColumns;
      signCheck: string;
      tooPrecise: { constraint: string; values: string[] } | null;
      accepted: string[];
    }> = [
      {
        column: 'amount_usd',
        with: {},
        signCheck: 'transactions_amount_usd_check',
        tooPrecise: { constraint: 'transactions_amount_usd_cents', values: ['100.001', '100.00000001', '0.009'] },
        accepted: ['100.10', '100.1000', '0.01', '0', '12345678901234.99'],
      },
      {
        column: 'original_amount',
        with: { original_currency: 'AED' },
        signCheck: 'transactions_original_amount_check',
        tooPrecise: { constraint: 'transactions_original_amount_cents', values: ['367.255', '36.7250001'] },
        accepted: ['367.25', '367.2500', '0.01'],
      },
      {
        column: 'quantity',
        with: { symbol: 'AAPL' },
        signCheck: 'transactions_quantity_check',
        tooPrecise: { constraint: 'transactions_quantity_8_places', values: ['0.000000001', '2.123456789', '1e-9'] },
        accepted: ['0.00000001', '2.12345678', '2.1234567800', '10'],
      },
      {
        column: 'fx_rate',
        with: { original_currency: 'AED', original_amount: '367.25' },
        signCheck: 'transactions_fx_rate_check',
        tooPrecise: null, // kept at the precision it was computed to
        accepted: ['3.6725', '3.672500000000000001', '0.000000000000000001'],
      },
    ];

    for (const { column, with: others, signCheck, tooPrecise, accepted } of COLUMNS) {
      const finite = `transactions_${column}_finite`;

      it(`refuses a NaN ${column} as the runtime role, storing nothing`, async () => {
        await expectRefused(() => post(runtime, { ...others, [column]: 'NaN' }), [finite]);
      });

      it(`refuses an infinite ${column} (Infinity, -Infinity) as the runtime role, storing nothing`, async () => {
        await expectRefused(() => post(runtime, { ...others, [column]: 'Infinity' }), [finite]);
        // -Infinity is negative too: its sign check may be the one to refuse it.
        await expectRefused(() => post(runtime, { ...others, [column]: '-Infinity' }), [signCheck, finite]);
      });

      if (tooPrecise) {
        it(`refuses ${an(column)} with more decimal places than the ledger keeps (${tooPrecise.values.join(', ')}), storing nothing`, async () => {
          for (const value of tooPrecise.values) {
            await expectRefused(() => post(runtime, { ...others, [column]: value }), [tooPrecise.constraint]);
          }
        });
      }

      it(`stores ${an(column)} at ${column === 'fx_rate' ? 'the precision it was computed to' : 'the ledger’s precision, trailing zeros or not'} (${accepted.join(', ')})`, async () => {
        for (const value of accepted) {
          const id = await expectStored(() => post(runtime, { ...others, [column]: value }));
          expect(await storedEquals(id, column, value), `${column} ${value} stored as given`).to.equal(true);
        }
      });
    }
  });

  describe('journal lines', () => {
    for (const side of ['debit', 'credit'] as const) {
      const finite = `journal_lines_${side}_finite`;
      const line = side === 'debit' ? dr : cr;
      const other = side === 'debit' ? cr : dr;

      it(`refuses a NaN ${side} as the runtime role, storing nothing`, async () => {
        await expectRefused(() => post(runtime, {}, [line('1010', 'NaN'), other('3000', '100')]), [finite]);
      });

      it(`refuses an infinite ${side} (Infinity, -Infinity) as the runtime role, storing nothing`, async () => {
        await expectRefused(() => post(runtime, {}, [line('1010', 'Infinity'), other('3000', '100')]), [finite]);
        await expectRefused(
          () => post(runtime, {}, [line('1010', '-Infinity'), other('3000', '100')]),
          ['journal_lines_one_side', finite],
        );
      });

      it(`refuses a ${side} finer than a cent, even in balanced lines, storing nothing`, async () => {
        for (const amount of ['100.001', '100.00000001', '0.005']) {
          await expectRefused(
            () => post(runtime, {}, [line('1010', amount), other('3000', amount)]),
            [`journal_lines_${side}_cents`],
          );
        }
      });
    }

    it('refuses the attacker’s balanced pairs (debit NaN / credit NaN, debit Infinity / credit Infinity), storing nothing', async () => {
      for (const amount of ['NaN', 'Infinity']) {
        await expectRefused(
          () => post(runtime, {}, [dr('1010', amount), cr('3000', amount)]),
          ['journal_lines_debit_finite', 'journal_lines_credit_finite'],
        );
      }
    });

    it('stores lines of whole cents, trailing zeros or not (100.10, 100.1000, 0.01)', async () => {
      for (const amount of ['100.10', '100.1000', '0.01']) {
        await expectStored(() => post(runtime, {}, [dr('1010', amount), cr('3000', amount)]));
      }
      await expectStored(() => post(runtime, {}, [dr('1010', '100.1000'), cr('3000', '100.10')]));
    });
  });

  describe('account_totals', () => {
    it('refuses a non-finite running total even from the owner (the runtime role cannot write totals at all)', async () => {
      for (const column of ['debit_total', 'credit_total']) {
        for (const value of ['NaN', 'Infinity', '-Infinity']) {
          await expectRefused(
            () =>
              owner.raw(`INSERT INTO account_totals (account_code, slot, ??) VALUES ('1010', 99, ?)`, [column, value]),
            [`account_totals_${column}_finite`],
          );
        }
      }
    });
  });

  describe('the commit-time balance check', () => {
    it('still runs with the owner’s rights, a pinned search_path and its planner pins after being redefined', async () => {
      expect(await commitCheckFunction(owner)).to.deep.equal({
        securityDefiner: true,
        settings: pinnedSettings(schema),
      });
    });

    it('still refuses an unbalanced transaction, and one with a single line, of the runtime role at commit', async () => {
      await expectRefused(
        () => post(runtime, {}, [dr('1010', '100.01'), cr('3000', '100')]),
        ['ledger_transaction_balanced'],
      );
      await expectRefused(() => post(runtime, {}, [dr('1010', '100')]), ['ledger_transaction_min_lines']);
    });

    it('refuses a transaction whose sums are NaN or infinite, should such lines ever get past the row checks', async () => {
      // Only the owner can take the row checks away, and only inside this database transaction
      // (rolled back by the refusal): what is left to refuse is the commit check.
      const rowChecks: Array<[table: string, constraint: string]> = [
        ['journal_lines', 'journal_lines_debit_finite'],
        ['journal_lines', 'journal_lines_credit_finite'],
        ['account_totals', 'account_totals_debit_total_finite'],
        ['account_totals', 'account_totals_credit_total_finite'],
        ['account_daily_totals', 'account_daily_totals_debit_total_finite'],
        ['account_daily_totals', 'account_daily_totals_credit_total_finite'],
      ];
      for (const amount of ['NaN', 'Infinity']) {
        await expectRefused(async () => {
          await owner.transaction(async (trx) => {
            for (const [table, constraint] of rowChecks)
              await trx.raw('ALTER TABLE ?? DROP CONSTRAINT ??', [table, constraint]);
            const id = randomUUID();
            await trx.raw(
              `INSERT INTO transactions (txn_id, txn_type, source, source_txn_id, category, txn_date, amount_usd)
               VALUES (?, 'adjustment', 'manual', ?, 'adjustment', '2026-01-15', 100)`,
              [id, id],
            );
            await trx.raw(
              `INSERT INTO journal_lines (txn_id, account_code, debit, credit, txn_date)
               VALUES (?, '1010', ?, 0, '2026-01-15'), (?, '3000', 0, ?, '2026-01-15')`,
              [id, amount, id, amount],
            );
          });
        }, ['ledger_transaction_finite']);
      }
      const { rows } = await owner.raw<{ rows: Array<{ n: string }> }>(
        `SELECT count(*)::text AS n FROM pg_constraint WHERE conname = ANY (?::text[]) AND convalidated`,
        [rowChecks.map(([, constraint]) => constraint)],
      );
      expect(rows[0]!.n, 'the row checks are back').to.equal(String(rowChecks.length));
    });
  });

  describe('migration 20261125_refuse_non_finite_amounts', () => {
    it('goes down to the previous commit check and back up, keeping the owner’s rights and pins both ways', async () => {
      const fresh = await createTestDatabase();
      try {
        await refuseNonFiniteAmounts.down(fresh.db);
        expect(await commitCheckFunction(fresh.db)).to.deep.equal({
          securityDefiner: true,
          settings: pinnedSettings(schema),
        });
        const { rows } = await fresh.db.raw<{ rows: Array<{ n: string }> }>(
          `SELECT count(*)::text AS n FROM pg_constraint
            WHERE (conname LIKE '%\\_finite' OR conname LIKE '%\\_cents' OR conname LIKE '%\\_8\\_places')
              AND conrelid::regclass::text IN ('transactions', 'journal_lines', 'account_totals')
              -- a later migration's checks (an AED line's native amount, 20270116) are not this one's
              AND pg_get_constraintdef(oid) NOT LIKE '%native_amount%'`,
        );
        expect(rows[0]!.n, 'no check of this migration left').to.equal('0');
        await refuseNonFiniteAmounts.up(fresh.db);
        expect(await commitCheckFunction(fresh.db)).to.deep.equal({
          securityDefiner: true,
          settings: pinnedSettings(schema),
        });
      } finally {
        await fresh.drop();
      }
    });
  });
});
