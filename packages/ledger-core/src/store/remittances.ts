import type { Knex } from 'knex';
import { assert } from '../domain/errors.js';
import {
  fxSpreadSettleSourceTxnId,
  fxSpreadSourceTxnId,
  snapshotWins,
  statusesOfRank,
  SWEPT_STATUSES,
  type RemittanceStatus,
} from '../domain/remittances.js';
import { REMITTANCES, type RemittanceRecord, type RemittanceRow } from './columns/remittances.js';
import { columnRefs, documentOf, documentRecords, insertList, insertValues } from './columns/table.js';
import { notReversedSql, remitPostingSql } from './read-model.js';

/** Columns a later snapshot may only fill, never blank: a settlement does not un-land, a mid rate read once stands. */
const FILL_ONLY = [
  'settlement_id',
  'settlement_status',
  'settlement_amount_usd',
  'settlement_fx_fee_usd',
  'settlement_txn_fee_usd',
  'utr',
  'settled_at',
  'paid_at',
  'pan',
];
const MID_RATE = ['mid_rate', 'mid_rate_source', 'mid_rate_at'];
const KEPT = ['order_id', 'customer_id', 'remit_customer_id', 'order_created_at'];

const sqlList = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]::text[]`;
const rankOf = (status: string) =>
  `(CASE WHEN ${status} = ANY (${sqlList(statusesOfRank(2))}) THEN 2 WHEN ${status} = ANY (${sqlList(statusesOfRank(1))}) THEN 1 ELSE 0 END)`;

/** domain/remittances.ts snapshotWins, in SQL: a final status only takes itself; otherwise the rank may not go down. */
const SNAPSHOT_WINS = `CASE WHEN ${rankOf('remittances.status')} = 2 THEN excluded.status = remittances.status
  ELSE ${rankOf('excluded.status')} >= ${rankOf('remittances.status')} END`;

/** Each written column and the value a snapshot gives it. */
const UPDATED = Object.keys(REMITTANCES)
  .filter((name) => 'write' in REMITTANCES[name as keyof typeof REMITTANCES] && !KEPT.includes(name))
  .map((name): [string, string] => {
    if (FILL_ONLY.includes(name)) return [name, `COALESCE(excluded.${name}, remittances.${name})`];
    if (MID_RATE.includes(name))
      return [name, `CASE WHEN remittances.mid_rate IS NULL THEN excluded.${name} ELSE remittances.${name} END`];
    return [name, `excluded.${name}`];
  });
const UPDATES = UPDATED.map(([name, value]) => `${name} = ${value}`);
/** Whether the snapshot changes anything of the row: a re-run that learns nothing new updates nothing. */
const CHANGES = `ROW(${UPDATED.map(([, value]) => value).join(', ')}) IS DISTINCT FROM ROW(${UPDATED.map(([name]) => `remittances.${name}`).join(', ')})`;

/** What an upsert did with each record: created, updated, unchanged (the row already says it all), or held (a stale snapshot). */
export interface RemittancesWritten {
  created: string[];
  updated: string[];
  unchanged: string[];
  held: string[];
}

/**
 * Inserts or updates remittances, one statement. A snapshot whose status is behind the stored
 * one (domain/remittances.ts) changes nothing: it is answered in `held`; one that changes no
 * column is `unchanged` (its row keeps its updated_at). A changed status is appended to
 * `status_history`. Safe to run concurrently with itself (the primary key decides). With
 * `dryRun`, the same statement in a database transaction rolled back: what it would do.
 */
export async function upsertRemittances(
  db: Knex,
  records: RemittanceRecord[],
  { dryRun = false } = {},
): Promise<RemittancesWritten> {
  if (records.length === 0) return { created: [], updated: [], unchanged: [], held: [] };
  const write = async (q: Knex | Knex.Transaction) => {
    const { rows } = await q.raw<{ rows: Array<{ order_id: string; created: boolean }> }>(
      `INSERT INTO remittances (${insertList(REMITTANCES)}, status_history)
       SELECT ${insertValues(REMITTANCES, 's')}, jsonb_build_array(jsonb_build_object('status', s.status, 'at', s.order_updated_at))
         FROM ${documentRecords(REMITTANCES, '?')} AS s
       ON CONFLICT (order_id) DO UPDATE SET
         ${UPDATES.join(',\n         ')},
         status_history = CASE WHEN excluded.status = remittances.status THEN remittances.status_history
                               ELSE remittances.status_history || excluded.status_history END,
         updated_at = now()
       WHERE ${SNAPSHOT_WINS} AND ${CHANGES}
       RETURNING order_id, (xmax = 0) AS created`,
      [documentOf(REMITTANCES, records)],
    );
    const written = new Set(rows.map((r) => r.order_id));
    const untouched = records.filter((r) => !written.has(r.order_id));
    const stored = new Map<string, RemittanceStatus>(
      untouched.length === 0
        ? []
        : (
            await q('remittances')
              .whereIn(
                'order_id',
                untouched.map((r) => r.order_id),
              )
              .select('order_id', 'status')
          ).map((r: { order_id: string; status: RemittanceStatus }) => [r.order_id, r.status]),
    );
    const isHeld = (r: RemittanceRecord) => !snapshotWins(stored.get(r.order_id) ?? r.status, r.status);
    return {
      created: rows.filter((r) => r.created).map((r) => r.order_id),
      updated: rows.filter((r) => !r.created).map((r) => r.order_id),
      unchanged: untouched.filter((r) => !isHeld(r)).map((r) => r.order_id),
      held: untouched.filter(isHeld).map((r) => r.order_id),
    };
  };
  if (!dryRun) return write(db);
  let answer: RemittancesWritten | undefined;
  const rolledBack = new Error('dry run: rolled back');
  await db
    .transaction(async (trx) => {
      answer = await write(trx);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
  assert(answer, 'the dry run answered before rolling back');
  return answer;
}

/** The stored remittances of a ledger customer (or of several, in one statement), by order id. */
export async function findRemittancesOf(db: Knex, customerIds: string | readonly string[]): Promise<RemittanceRow[]> {
  return (await db('remittances')
    .select(columnRefs(REMITTANCES))
    .whereIn('customer_id', typeof customerIds === 'string' ? [customerIds] : [...customerIds])
    .orderBy('order_id')) as RemittanceRow[];
}

/** A remittance's posting: its `fx_spread` or `fx_spread_settle` transaction, and whether it was reversed. */
export interface RemittancePosting {
  order_id: string;
  txn_id: string;
  txn_type: 'fx_spread' | 'fx_spread_settle';
  customer_id: string | null;
  amount_usd: string;
  txn_date: string;
  reversed: boolean;
}

/*
 * An order's two keys as rows, each joined on the key by equality: `source_txn_id IN (a, b)` in
 * the join condition made Postgres test every remit posting against every order (a run over a
 * growing book slowed quadratically); an equality join looks each key up in
 * transactions_source_txn_unique.
 */
const POSTINGS_OF = (orders: string, extra = '') => `
  SELECT o.order_id,${extra} t.txn_id, t.txn_type, t.customer_id, t.amount_usd, t.txn_date,
         NOT ${notReversedSql('t.txn_id')} AS reversed
    FROM ${orders}
    CROSS JOIN LATERAL (VALUES (:accrual || o.order_id), (:settle || o.order_id)) AS k(source_txn_id)
    JOIN transactions t ON ${remitPostingSql('t', 'k.source_txn_id')}`;
const KEY_PREFIXES = { accrual: fxSpreadSourceTxnId(''), settle: fxSpreadSettleSourceTxnId('') };

/** The `fx_spread` and `fx_spread_settle` postings of these orders (source remit, keyed by order). */
export async function remittancePostings(db: Knex, orderIds: readonly string[]): Promise<RemittancePosting[]> {
  if (orderIds.length === 0) return [];
  const { rows } = await db.raw<{ rows: RemittancePosting[] }>(
    `${POSTINGS_OF('unnest(:orders::text[]) AS o(order_id)')} ORDER BY o.order_id, t.txn_type`,
    {
      ...KEY_PREFIXES,
      orders: [...orderIds],
    },
  );
  return rows;
}

/** A posting refund-reversal-india reverses: of a cancelled, failed or expired order, not reversed yet. */
export interface OutstandingRemittancePosting extends Omit<RemittancePosting, 'txn_type'> {
  txn_type: 'fx_spread';
  status: string;
  order_updated_at: Date;
}

/**
 * Every `fx_spread` accrual of a cancelled, failed or expired order that no reversal has cleared,
 * oldest order first. Only the accrual: a settlement that was posted is money that reached the
 * bank, and a refund does not take it back out (1300 then shows it owed to the provider).
 */
export async function outstandingSweptPostings(db: Knex): Promise<OutstandingRemittancePosting[]> {
  const { rows } = await db.raw<{ rows: Array<OutstandingRemittancePosting> }>(
    `SELECT * FROM (${POSTINGS_OF('remittances o', ' o.status, o.order_updated_at,')} WHERE o.status = ANY (:swept::text[])) p
      WHERE NOT p.reversed AND p.txn_type = 'fx_spread'
      ORDER BY p.order_updated_at, p.order_id, p.txn_type`,
    { ...KEY_PREFIXES, swept: [...SWEPT_STATUSES] },
  );
  return rows;
}
