import { customersByReference, Decimal, type Db } from '@ledger/core';
import type { UaefeedCashTransfer, UaefeedOrder } from '@ledger/upstream-clients';
import { z } from 'zod';
import type { JobSettings } from '../catalog.js';
import { mapCashTransfer, mapOrder, type UaefeedMapping } from './mapping.js';
import { draftMappings, postDrafts, type UaefeedRecordOutcome } from './posting.js';

/** The most records of each kind one batch may hold (a body is at most 1 MiB anyway). */
export const IMPORT_RECORDS_MAX = 5_000;

/**
 * A decimal as text: the feed sends JSON numbers, but a JSON number through the api's parser
 * would pass through a float; a hand-collected batch spells them as strings. The mapper judges
 * the value (422 naming the record), the schema only its form.
 */
const decimalText = z.string().regex(/^-?\d{1,20}(\.\d{1,20})?$/, 'must be a decimal string, e.g. "1471.20"');
const text = z.string().min(1).max(128);
const customerNumber = text.describe('The uaefeed customer number: names the ledger customer linked to it (uaefeed_customer_number).');

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
  reason: string;
}

export type ImportedRecord = UaefeedRecordOutcome & { record: string; customer_id: string };

export type ImportAnswer =
  | { outcome: 'invalid'; problems: ImportProblem[] }
  | { outcome: 'posted'; counts: Record<UaefeedRecordOutcome['outcome'], number>; records: ImportedRecord[] };

/**
 * Imports a batch: every record is checked first (its customer linked by `customerNumber`, it
 * maps, the ledger would accept its entry); one that is not makes the whole batch `invalid`,
 * naming each, and nothing is posted. Otherwise all are posted in bulk: each `inserted`,
 * `duplicate` (the same batch again posts nothing new), `skipped` (moved nothing upstream) or
 * `rejected` (posted before with other facts, or refused by the database) with the reason.
 */
export async function importUaefeedBatch(db: Db, batch: UaefeedImportBatch, settings: Pick<JobSettings, 'feeSchedule' | 'aedPerUsd'>): Promise<ImportAnswer> {
  const aedPerUsd = new Decimal(settings.aedPerUsd);
  const records = [
    ...(batch.cash_transfers ?? []).map((t, i) => ({ record: `/cash_transfers/${i}`, customerNumber: t.customerNumber, map: (id: string) => mapCashTransfer(t, id, aedPerUsd), sourceTxnId: t.transferId })),
    ...(batch.orders ?? []).map((o, i) => ({ record: `/orders/${i}`, customerNumber: o.customerNumber, map: (id: string) => mapOrder(o, id, aedPerUsd), sourceTxnId: o.orderId })),
  ];
  const customerOf = await customersByReference(db, 'uaefeed_customer_number', records.map((r) => r.customerNumber));
  const problems: ImportProblem[] = [];
  const mapped: Array<{ record: string; customerId: string; mapping: UaefeedMapping }> = [];
  for (const r of records) {
    const customerId = customerOf.get(r.customerNumber);
    if (customerId === undefined) {
      problems.push({ record: r.record, source_txn_id: r.sourceTxnId, reason: `not_linked: no customer has uaefeed_customer_number ${r.customerNumber}` });
      continue;
    }
    mapped.push({ record: r.record, customerId, mapping: r.map(customerId) });
  }
  // Drafted one by one so each refusal names its record.
  const drafted = mapped.map((m) => ({ ...m, ...draftMappings([m.mapping], settings) }));
  for (const d of drafted) {
    for (const u of d.unposted) if (u.outcome === 'rejected') problems.push({ record: d.record, source_txn_id: u.source_txn_id, reason: u.reason });
  }
  if (problems.length > 0) return { outcome: 'invalid', problems: problems.sort((a, b) => a.record.localeCompare(b.record, 'en', { numeric: true })) };

  const posted = await postDrafts(db, drafted.flatMap((d) => d.drafts), false);
  let next = 0;
  const answered: ImportedRecord[] = drafted.map((d) => {
    const outcome = d.drafts.length === 1 ? posted[next++]! : d.unposted[0]!;
    return { record: d.record, customer_id: d.customerId, ...outcome };
  });
  const counts = { inserted: 0, duplicate: 0, skipped: 0, rejected: 0 };
  for (const a of answered) counts[a.outcome] += 1;
  return { outcome: 'posted', counts, records: answered };
}
