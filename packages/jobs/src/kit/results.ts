import {
  JOURNAL_OUTCOMES,
  RECOST_FLAG_REASONS,
  REJECTION_CODES,
  type LedgerError,
  type LedgerErrorCode,
} from '@ledger/core/posting';
import type { RecostResult } from '@ledger/core/store';
import { z } from 'zod';

/*
 * The one vocabulary of every batch result (docs/outcomes.md): what became of each record, why,
 * and the shapes every job's result is built from. Each is a zod schema, so a job's result is
 * declared once: its TypeScript type is inferred from it, the job runtime checks a result
 * against it before storing it, and the api's OpenAPI components are generated from it.
 */

/**
 * The schemas of batch results, each by the name the OpenAPI document gives it: the api
 * generates its components from this registry, so a schema here is defined nowhere else.
 */
export const RESULT_SCHEMAS = z.registry<{ id: string }>();

/**
 * What became of one record: the journal's outcomes (inserted, duplicate, conflict, rejected),
 * `updated` for a mutable record whose stored facts changed (the journal never answers it: a
 * posted transaction is never changed), and `skipped`: nothing to do by design, with a reason.
 */
export const RECORD_OUTCOMES = [...JOURNAL_OUTCOMES, 'updated', 'skipped'] as const;
export type RecordOutcomeName = (typeof RECORD_OUTCOMES)[number];

/**
 * The jobs' own reason codes (docs/outcomes.md#the-jobs-reason-codes): why a record was skipped,
 * conflicted or refused before the journal, or why a trade's fees could not be recorded. With
 * the journal's rejection codes they are the closed set a reason may carry.
 */
export const JOB_REASON_CODES = [
  'idempotency_conflict',
  'validation_error',
  'moved_nothing',
  'nothing_executed',
  'unpriced',
  'below_a_cent',
  'stale_snapshot',
  'not_linked',
  'unsupported_currency',
  'invalid_amount',
  'invalid_date',
  'invalid_quantity',
  'missing_price',
  'missing_fill',
  'negative_fee',
  'not_own_cash_account',
  'cash_account_currency_mismatch',
  'unknown_row_code',
  'fees_add_up_to_a_credit',
  'fees_finer_than_a_cent',
  'no_matching_order',
  'several_matching_orders',
  'malformed',
  'bad_symbol',
  'bad_instrument_type',
  'missing_field',
  'field_too_long',
  'superseded_in_file',
  'revised_same_day',
  'older_than_stored',
  'no_tt_rate',
  'no_tt_rate_saturday',
] as const;
export const RECORD_REASON_CODES = [...REJECTION_CODES, ...JOB_REASON_CODES] as const;
export type RecordReasonCode = (typeof RECORD_REASON_CODES)[number];

export const isRecordReasonCode = (code: string): code is RecordReasonCode =>
  (RECORD_REASON_CODES as readonly string[]).includes(code);

/**
 * The ledger's refusals that can fail one customer of a run (provisioning: a registry field the
 * ledger refuses, a reference another customer holds). A posting's refusals are its record's
 * issue, never its customer's failure; any other code reaching a customer is a bug (asserted).
 */
export const CUSTOMER_REFUSAL_CODES = ['validation_error', 'conflict'] as const satisfies readonly LedgerErrorCode[];

/**
 * Why a run could not do a customer (docs/outcomes.md#customer-failures), the others carrying
 * on: the closed set a `customers_failed[].reason.code` carries. `uncoded` only on runs stored
 * before reasons had codes (migration 20270220), whose prose named none.
 */
export const CUSTOMER_FAILURE_CODES = [
  'not_linked',
  'not_in_registry',
  'upstream_not_configured',
  'upstream_unavailable',
  'upstream_refused',
  'upstream_bad_payload',
  'upstream_page_cap',
  ...CUSTOMER_REFUSAL_CODES,
  'uncoded',
] as const;
export type CustomerFailureCode = (typeof CUSTOMER_FAILURE_CODES)[number];

export const isCustomerRefusalCode = (code: string): code is (typeof CUSTOMER_REFUSAL_CODES)[number] =>
  (CUSTOMER_REFUSAL_CODES as readonly string[]).includes(code);

const count = z.number().int().min(0);

export const recordOutcome = z
  .enum(RECORD_OUTCOMES)
  .describe(
    '`inserted`: written now; `updated`: a mutable record (reference row, customer, remittance, cached portfolio) ' +
      'whose stored facts changed, never a posted transaction; `duplicate`: already there with the same facts ' +
      '(nothing written); `conflict`: already there under its key with other facts (the stored one stands); ' +
      '`rejected`: refused (by the ledger or by its mapping); `skipped`: nothing to do by design. Each of the last ' +
      'three with a reason (docs/outcomes.md).',
  )
  .register(RESULT_SCHEMAS, { id: 'RecordOutcome' });

/** Why, as a code: the exceptions a batch opens carry the same. */
export const recordReasonCode = z
  .enum(RECORD_REASON_CODES)
  .describe('A code of the closed set of docs/outcomes.md (the rejection codes and the jobs’ own), never prose.')
  .register(RESULT_SCHEMAS, { id: 'RecordReasonCode' });

/** A reason: a code of a closed set and the facts behind it (`facts` says which), never prose alone. */
const reasonOf = <Code extends z.ZodType<string>>(code: Code, facts: string) =>
  z.strictObject({ code, detail: z.record(z.string(), z.unknown()).describe(facts) });

export const recordReason = reasonOf(
  recordReasonCode,
  'The facts behind the code (the field and value, the conflicting fields, …).',
)
  .describe('Why a record was skipped, conflicted or rejected: a code and structured facts.')
  .register(RESULT_SCHEMAS, { id: 'RecordReason' });
export type Reason = z.infer<typeof recordReason>;

export const customerFailureCode = z
  .enum(CUSTOMER_FAILURE_CODES)
  .describe('A code of the closed set of docs/outcomes.md#customer-failures, never prose.')
  .register(RESULT_SCHEMAS, { id: 'CustomerFailureCode' });

export const customerFailureReason = reasonOf(
  customerFailureCode,
  'The facts behind the code: the upstream, the call (`method`, `path`: no query string, no host) and its `status`, ' +
    'the reference the customer lacks, …, and `message`, the failure in words. Never a credential.',
)
  .describe('Why a customer could not be done: a code and structured facts.')
  .register(RESULT_SCHEMAS, { id: 'CustomerFailureReason' });
export type CustomerFailureReason = z.infer<typeof customerFailureReason>;

/** A reason (a record's, or a customer failure's: the code says which set). */
export const reason = <Code extends RecordReasonCode | CustomerFailureCode>(
  code: Code,
  detail: Record<string, unknown> = {},
) => ({ code, detail });

/** A ledger refusal's facts, as a reason's detail: its message, and its details when it has some. */
export const ledgerErrorDetail = (error: LedgerError): Record<string, unknown> => ({
  message: error.message,
  ...(error.details !== undefined && error.details.length > 0 && { details: error.details }),
});

/** A reason in one line, `<code>: <message>`, where a string is wanted (a log, an error, a field that is prose). */
export const reasonText = ({ code, detail }: { code: string; detail: Record<string, unknown> }): string =>
  `${code}: ${typeof detail.message === 'string' ? detail.message : JSON.stringify(detail)}`;

export const outcomeCounts = z
  .strictObject(Object.fromEntries(RECORD_OUTCOMES.map((o) => [o, count])) as Record<RecordOutcomeName, typeof count>)
  .describe('How many records had each outcome (in a dry run: would have).')
  .register(RESULT_SCHEMAS, { id: 'OutcomeCounts' });
export type OutcomeCounts = z.infer<typeof outcomeCounts>;

export const noOutcomes = (): OutcomeCounts => Object.fromEntries(RECORD_OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;

/** Counts of a list of outcomes. */
export function countOutcomes(outcomes: Iterable<RecordOutcomeName>): OutcomeCounts {
  const counts = noOutcomes();
  for (const o of outcomes) counts[o] += 1;
  return counts;
}

export const recordIssue = z
  .strictObject({
    customer_id: z.string(),
    kind: z.string(),
    source_txn_id: z.string(),
    outcome: z.enum(['conflict', 'rejected']),
    reason: recordReason,
  })
  .describe('A record that needs a person: posted before with other facts (conflict) or refused (rejected).')
  .register(RESULT_SCHEMAS, { id: 'RecordIssue' });
export type RecordIssue = z.infer<typeof recordIssue>;

export const customerFailure = z
  .strictObject({ customer_id: z.string(), reason: customerFailureReason })
  .describe('A customer the run could not do, and why; the others carried on.')
  .register(RESULT_SCHEMAS, { id: 'CustomerFailure' });
export type CustomerFailure = z.infer<typeof customerFailure>;

export const recostResult = z
  .strictObject({
    recosted: count.describe('Pending transactions recosted.'),
    derivations_posted: count,
    superseded: count.describe('Earlier derivations reversed because the derivation changed.'),
    flagged: z.array(
      z.strictObject({
        txn_id: z.string(),
        reason: z.enum(RECOST_FLAG_REASONS),
        detail: z.record(z.string(), z.string()),
      }),
    ),
    remaining: count.describe('Pending transactions left for the next run.'),
  })
  .describe('A recost run (docs/posting-rules.md#recost).')
  // The use case's own type, held to this schema: the job answers what recost returns.
  .register(RESULT_SCHEMAS, { id: 'RecostResult' }) satisfies z.ZodType<RecostResult>;

/** Outcome counts per kind of record, one key a kind. */
const countsByKind = <Kind extends string>(kinds: readonly Kind[]) =>
  z.strictObject(Object.fromEntries(kinds.map((k) => [k, outcomeCounts])) as Record<Kind, typeof outcomeCounts>);

/** The fields every sync job answers, its counts by the kinds of record it posts. */
const syncFields = <Kind extends string>(kinds: readonly Kind[]) => ({
  dry_run: z.boolean(),
  customers: count.describe('Customers the run was for, failed ones included.'),
  customers_synced: count,
  customers_failed: z.array(customerFailure),
  records: countsByKind(kinds).describe('Outcome counts per kind of record.'),
  issues: z.array(recordIssue).describe('Every conflicted or refused record.'),
  recost: recostResult
    .nullable()
    .describe(
      'The recost run after posting; null when the job does not recost, was not asked to, posted nothing, or dry ran.',
    ),
});

/** A sync job's result schema: the shared fields, and the job's own (`extra`). */
export const syncResult = <Kind extends string, Extra extends z.ZodRawShape>(kinds: readonly Kind[], extra: Extra) =>
  z.strictObject({ ...syncFields(kinds), ...extra });

/** What every sync job answers (its own fields beside these). */
export type SyncResult<Kind extends string> = z.infer<z.ZodObject<ReturnType<typeof syncFields<Kind>>>>;
