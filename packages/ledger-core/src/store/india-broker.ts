import type { Knex } from 'knex';
import { rependRecost } from './recost-states.js';
import {
  DIVIDEND_EVENTS,
  type DividendEvent,
  type DividendEventRow,
  type DividendWithholding,
} from './columns/dividend-events.js';
import { columnRefs, documentOf, documentRecords, insertList, insertValues } from './columns/table.js';
import type { Source } from '../domain/sources.js';

/** The customer holding each of these broker accounts (accounts no customer holds are absent). */
export async function customersByBrokerAccount(db: Knex, accounts: readonly string[]): Promise<Map<string, string>> {
  if (accounts.length === 0) return new Map();
  const rows = (await db('customers')
    .select('customer_id', 'usbroker_account_no')
    .whereIn('usbroker_account_no', [...accounts])) as Array<{ customer_id: string; usbroker_account_no: string }>;
  return new Map(rows.map((r) => [r.usbroker_account_no, r.customer_id]));
}

/** A broker's itemised fee of one trade, by the trade's business key (ADR 0009). */
export interface BrokerFee {
  source: Source;
  sourceTxnId: string;
  /** The broker's part (commission, SEC, TAF, IFSCA): recost's broker cost. Not negative, in cents. */
  amountUsd: string;
  /** The platform's part (`other_fee`), credited to the firm's account at the broker. Not negative, in cents. */
  platformFeeUsd: string;
  /** The daily-ledger row it comes from, kept for audit. */
  sourceRow: Record<string, unknown>;
}

/**
 * Records broker fees (insert-only: a fee once recorded stands, a re-run records nothing) and,
 * in the same database transaction, puts the trades whose fee is new back to pending recost
 * (ADR 0009: whoever records a fee for a recosted trade nulls its `recosted_at`), so the next
 * recost supersedes their broker cost with the itemised one.
 */
export async function recordBrokerFees(
  db: Knex,
  fees: readonly BrokerFee[],
): Promise<{ recorded: number; existing: number; repending: number }> {
  if (fees.length === 0) return { recorded: 0, existing: 0, repending: 0 };
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: Array<{ source: string; source_txn_id: string }> }>(
      `INSERT INTO broker_fees (source, source_txn_id, amount_usd, platform_fee_usd, source_row)
       SELECT f.source, f.source_txn_id, f.amount_usd, f.platform_fee_usd, f.source_row
         FROM json_to_recordset(?::json) AS f(source text, source_txn_id text, amount_usd numeric, platform_fee_usd numeric, source_row jsonb)
       ON CONFLICT (source, source_txn_id) DO NOTHING
       RETURNING source, source_txn_id`,
      [
        JSON.stringify(
          fees.map((f) => ({
            source: f.source,
            source_txn_id: f.sourceTxnId,
            amount_usd: f.amountUsd,
            platform_fee_usd: f.platformFeeUsd,
            source_row: f.sourceRow,
          })),
        ),
      ],
    );
    const repending =
      rows.length === 0
        ? 0
        : await rependRecost(
            trx,
            `SELECT t.txn_id, t.txn_date, t.posted_at FROM transactions t
               JOIN json_to_recordset(?::json) AS f(source text, source_txn_id text) ON t.source = f.source AND t.source_txn_id = f.source_txn_id`,
            [JSON.stringify(rows)],
          );
    return { recorded: rows.length, existing: fees.length - rows.length, repending };
  });
}

/**
 * Upserts dividend events by their DIV row. A known event keeps its facts; only a withholding it
 * lacked is filled in (never blanked by a run that does not see the DIVNRA row). Answers how many
 * were new and how many gained their withholding.
 */
export async function upsertDividendEvents(
  db: Knex,
  events: readonly DividendEvent[],
): Promise<{ inserted: number; updated: number }> {
  if (events.length === 0) return { inserted: 0, updated: 0 };
  const { rows } = await db.raw<{ rows: Array<{ inserted: boolean }> }>(
    `INSERT INTO dividend_events (${insertList(DIVIDEND_EVENTS)})
     SELECT ${insertValues(DIVIDEND_EVENTS, 'e')} FROM ${documentRecords(DIVIDEND_EVENTS, '?')} AS e
     ON CONFLICT (div_txn_no) DO UPDATE
       SET wht_txn_no = excluded.wht_txn_no, wht_rate = excluded.wht_rate, wht_usd = excluded.wht_usd, updated_at = now()
       WHERE dividend_events.wht_txn_no IS NULL AND excluded.wht_txn_no IS NOT NULL
     RETURNING (xmax = 0) AS inserted`,
    [documentOf(DIVIDEND_EVENTS, events)],
  );
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/** Fills in the withholding of known events that lack one (a DIVNRA row seen after its DIV row's run); answers how many. */
export async function addDividendWithholdings(db: Knex, withholdings: readonly DividendWithholding[]): Promise<number> {
  if (withholdings.length === 0) return 0;
  const { rowCount } = await db.raw(
    `UPDATE dividend_events d SET wht_txn_no = w.txn_no, wht_rate = w.rate, wht_usd = w.amount_usd, updated_at = now()
       FROM json_to_recordset(?::json) AS w(div_txn_no text, txn_no text, rate numeric, amount_usd numeric)
      WHERE d.div_txn_no = w.div_txn_no AND d.wht_txn_no IS NULL`,
    [
      JSON.stringify(
        withholdings.map((w) => ({ div_txn_no: w.divTxnNo, txn_no: w.txnNo, rate: w.rate, amount_usd: w.amountUsd })),
      ),
    ],
  );
  return Number(rowCount ?? 0);
}

/** A customer's dividend events, by pay date. */
export async function dividendEvents(db: Knex, customerId: string): Promise<DividendEventRow[]> {
  return (await db('dividend_events')
    .select(columnRefs(DIVIDEND_EVENTS))
    .where({ customer_id: customerId })
    .orderBy(['pay_date', 'div_txn_no'])) as DividendEventRow[];
}
