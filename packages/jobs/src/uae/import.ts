import { Decimal } from '@ledger/core/posting';
import { customersByReference, postedTradesOf, type Db } from '@ledger/core/store';
import type { UaefeedCashTransfer, UaefeedOrder } from '@ledger/upstream-clients';
import { z } from 'zod';
import type { JobSettings } from '../job-settings.js';
import { draftOf, PostingRun } from '../kit/posting-kit.js';
import {
  countOutcomes,
  outcomeCounts,
  reason,
  recordOutcome,
  recordReason,
  RESULT_SCHEMAS,
  type OutcomeCounts,
  type Reason,
} from '../kit/results.js';
import { inPostingOrder, mapCashTransfer, mapOrder, postedFills, type PostedFill } from './mapping.js';
import { UAEFEED_KINDS, type UaefeedKind } from './sync-uaefeed.js';

/** The most records of each kind one batch may hold (a body is at most 1 MiB anyway). */
export const IMPORT_RECORDS_MAX = 5_000;

/**
 * A decimal as text: the feed sends JSON numbers, but a JSON number through the api's parser
 * would pass through a float; a hand-collected batch spells them as strings. The mapper judges
 * the value (422 naming the record), the schema only its form.
 */
const decimalText = z.string().regex(/^-?\d{1,20}(\.\d{1,20})?$/, 'must be a decimal string, e.g. "1471.20"');
const text = z.string().min(1).max(128);
const customerNumber = text.describe(
  'The uaefeed customer number: names the ledger customer linked to it (uaefeed_customer_number).',
);

const transferRecord = z
  .object({
    customerNumber,
    transferId: text,
    cashAccountNumber: text,
    type: z.enum(['DEPOSIT', 'WITHDRAW']),
    amount: decimalText,
    currency: z.string().regex(/^[A-Z]{3}$/),
    status: z.enum(['COMPLETED', 'REJECTED']),
    valueDate: z.string().max(10).describe('YYYY-MM-DD'),
  })
  .strict() satisfies z.ZodType<UaefeedCashTransfer & { customerNumber: string }>;

const orderRecord = z
  .object({
    customerNumber,
    clOrdId: text,
    orderId: text,
    symbol: text,
    side: z.enum(['BUY', 'SELL']),
    ordQty: decimalText,
    cumQty: decimalText,
    avgPx: decimalText.nullable(),
    netSettle: decimalText,
    ordStatus: z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED']),
    tradeDate: z.string().max(10).describe('YYYY-MM-DD'),
    currency: z.string().regex(/^[A-Z]{3}$/),
    exchange: text,
  })
  .strict() satisfies z.ZodType<UaefeedOrder & { customerNumber: string }>;

/** A hand-collected batch (POST /v1/import/uaefeed): the feed's own records, each naming its customer by uaefeed customer number. */
export const uaefeedImportBatch = z
  .object({
    cash_transfers: z.array(transferRecord).max(IMPORT_RECORDS_MAX).optional(),
    orders: z.array(orderRecord).max(IMPORT_RECORDS_MAX).optional(),
  })
  .strict();
export type UaefeedImportBatch = z.infer<typeof uaefeedImportBatch>;

/** A record of the batch that cannot be posted, named by its place in the body. */
export interface ImportProblem {
  record: string;
  source_txn_id: string;
  reason: Reason;
}

/** What became of one record of the batch. */
const importedRecord = z
  .strictObject({
    record: z.string().describe('The record’s place in the body, a JSON pointer: `/cash_transfers/0`, `/orders/3`.'),
    source_txn_id: z.string().describe('Its transferId or orderId: the key it is posted under (source `uaefeed`).'),
    customer_id: z.string(),
    outcome: recordOutcome,
    txn_id: z.uuid().nullable().describe('The transaction: inserted, duplicate, or the one a conflict left standing.'),
    reason: recordReason.nullable().describe('Why it conflicted, was skipped or was rejected.'),
  })
  .describe('What became of one record.')
  .register(RESULT_SCHEMAS, { id: 'UaefeedImportRecord' });
type ImportedRecord = z.infer<typeof importedRecord>;

/** The answer of an import that posted: its outcome counts, and every record in body order. */
export const uaefeedImportResult = outcomeCounts
  .extend({
    records: z.array(importedRecord).describe('Every record, cash transfers first, each in body order.'),
  })
  .describe('The outcome of every record of the batch (never `updated`: a posted transaction is never changed).')
  .register(RESULT_SCHEMAS, { id: 'UaefeedImportResult' });

export type ImportAnswer =
  | { outcome: 'invalid'; problems: ImportProblem[] }
  | { outcome: 'posted'; counts: OutcomeCounts; records: ImportedRecord[] };

/**
 * Imports a batch: every record is checked first (its customer linked by `customerNumber`, it
 * maps, the ledger would accept its entry); one that is not makes the whole batch `invalid`,
 * naming each, and nothing is posted. Otherwise all are posted through the posting kit: each
 * `inserted`, `duplicate` (the same batch again posts nothing new), `conflict` (posted before
 * with other facts), `skipped` (moved nothing upstream) or `rejected` (refused by the database).
 */
export async function importUaefeedBatch(
  db: Db,
  batch: UaefeedImportBatch,
  settings: Pick<JobSettings, 'feeSchedule' | 'aedPerUsd'>,
): Promise<ImportAnswer> {
  const aedPerUsd = new Decimal(settings.aedPerUsd);
  const records = batchRecords(batch, aedPerUsd);
  const customerOf = await customersByReference(
    db,
    'uaefeed_customer_number',
    records.map((r) => r.customerNumber),
  );
  const fillsOf = new Map<string, Map<string, PostedFill[]>>();
  for (const customerId of new Set(customerOf.values()))
    fillsOf.set(customerId, postedFills(await postedTradesOf(db, 'uaefeed', customerId)));
  const run = new PostingRun<UaefeedKind>(db, {
    job: 'import-uaefeed',
    upstream: 'uaefeed',
    kinds: UAEFEED_KINDS,
    dryRun: false,
    settings,
  });
  const problems: ImportProblem[] = [];
  const mapped: MappedRecord[] = [];
  for (const r of records) {
    const customerId = customerOf.get(r.customerNumber);
    if (customerId === undefined) {
      problems.push({
        record: r.record,
        source_txn_id: r.sourceTxnId,
        reason: reason('not_linked', { uaefeed_customer_number: r.customerNumber }),
      });
      continue;
    }
    const m = r.map(customerId, fillsOf.get(customerId)!);
    const drafted = draftOf(m, run.policy);
    if ('outcome' in drafted && drafted.outcome === 'rejected')
      problems.push({ record: r.record, source_txn_id: r.sourceTxnId, reason: drafted.reason });
    mapped.push({ ...r, customerId, mapped: m });
  }
  if (problems.length > 0)
    return {
      outcome: 'invalid',
      problems: problems.sort((a, b) => a.record.localeCompare(b.record, 'en', { numeric: true })),
    };

  const answered = await postByCustomer(run, mapped);
  const inBodyOrder = mapped.map((m) => answered.get(m.record)!);
  return { outcome: 'posted', counts: countOutcomes(inBodyOrder.map((a) => a.outcome)), records: inBodyOrder };
}

/** The batch's records in body order, each with how it maps once its customer is known. */
function batchRecords(batch: UaefeedImportBatch, aedPerUsd: Decimal) {
  return [
    ...(batch.cash_transfers ?? []).map((t, i) => ({
      record: `/cash_transfers/${i}`,
      kind: 'cash_transfers' as const,
      fields: t,
      customerNumber: t.customerNumber,
      map: (id: string) => mapCashTransfer(t, { customerId: id, customerNumber: t.customerNumber }, aedPerUsd),
      sourceTxnId: t.transferId,
    })),
    ...(batch.orders ?? []).map((o, i) => ({
      record: `/orders/${i}`,
      kind: 'orders' as const,
      fields: o,
      customerNumber: o.customerNumber,
      map: (id: string, fills: Map<string, PostedFill[]>) => mapOrder(o, id, aedPerUsd, fills.get(o.orderId)),
      sourceTxnId: o.orderId,
    })),
  ];
}

type BatchRecord = ReturnType<typeof batchRecords>[number];
/** A record of the batch mapped for its customer. */
type MappedRecord = BatchRecord & { customerId: string; mapped: ReturnType<BatchRecord['map']> };

/** Posts the mapped records, per customer in posting order; answers what became of each, by its place in the body. */
async function postByCustomer(
  run: PostingRun<UaefeedKind>,
  mapped: MappedRecord[],
): Promise<Map<string, ImportedRecord>> {
  // Per customer, in posting order; the kit answers a customer's drafted records first, then the skipped ones.
  const byCustomer = new Map<string, typeof mapped>();
  for (const m of inPostingOrder(mapped)) byCustomer.set(m.customerId, [...(byCustomer.get(m.customerId) ?? []), m]);
  const answered = new Map<string, ImportedRecord>();
  await Promise.all(
    [...byCustomer].map(async ([customerId, own]) => {
      const customer = run.customer(customerId);
      for (const m of own) customer.add(m.kind, m.sourceTxnId, m.mapped, m.fields);
      const outcomes = await run.post(customer);
      const inAnswerOrder = [
        ...own.filter((m) => m.mapped.kind === 'entry'),
        ...own.filter((m) => m.mapped.kind !== 'entry'),
      ];
      inAnswerOrder.forEach((m, i) => {
        const o = outcomes[i]!;
        answered.set(m.record, {
          record: m.record,
          source_txn_id: o.source_txn_id,
          customer_id: customerId,
          outcome: o.outcome,
          txn_id: o.txn_id,
          reason: o.reason,
        });
      });
    }),
  );
  return answered;
}
