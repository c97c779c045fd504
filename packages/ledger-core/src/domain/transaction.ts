import { hash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import { CUSTOMER_ACCOUNTS, nativeCurrencyOf } from './accounts.js';
import { CALENDAR_DATE_RULE, isCalendarDate } from './dates.js';
import { assert, LedgerError } from './errors.js';
import { ENTRY_LINES_MAX, MEMO_LENGTH_MAX, METADATA_PROPERTIES_MAX } from './limits.js';
import { isSymbol, SYMBOL_RULE } from './symbols.js';
import { Decimal, DECIMAL_PATTERN_SOURCE, DECIMAL_RULE, MONEY_PATTERN_SOURCE, MONEY_RULE, ZERO } from './money.js';
import {
  isBalanced,
  POSTING_RULES,
  reversingLines,
  type Currency,
  type EnterableTxnType,
  type JournalLineDraft,
  type PostingInput,
  type PostingRule,
  type TxnType,
} from './posting-rules/index.js';
import type { FeeSchedule } from './fees.js';
import type { EnterableSource, Source } from './sources.js';

/** A manual entry as it arrives on the wire (already schema-checked: strings, enums). */
export interface EntryRequest {
  txn_type: EnterableTxnType;
  customer_id?: string | null;
  source: EnterableSource;
  source_txn_id?: string;
  txn_date: string;
  amount_usd: string;
  symbol?: string | null;
  quantity?: string | null;
  category?: string | null;
  memo?: string | null;
  fee_usd?: string | null;
  original_currency?: Currency | null;
  original_amount?: string | null;
  /**
   * The rate the ledger converted `original_amount` at (AED per USD: the peg), kept as the
   * transaction's `fx_rate`. Absent: the operator's own figures, whose rate is their quotient.
   */
  fx_rate?: string | null;
  /** The fee in the original currency when the source states it (a feed's bundled fee). */
  original_fee?: string | null;
  metadata?: Record<string, unknown>;
  /**
   * The operator's word that the entry credits 1010 (money leaving the firm's operating bank):
   * a manual entry crediting 1010 without it is refused (domain/manual-entry.ts). Not part of what
   * the entry asks for: left out of its fingerprint.
   */
  credits_operating_bank?: boolean | null;
  /** An adjustment's lines; `native_amount`: the AED amount of a line of an AED account (1020, 2020), required there. */
  lines?: Array<{
    account_code: string;
    debit: string;
    credit: string;
    posting_kind?: string | null;
    native_amount?: string | null;
  }>;
}

/** A balanced transaction ready to be stored. */
export interface TransactionDraft {
  txnId: string;
  customerId: string | null;
  txnType: TxnType;
  source: Source;
  sourceTxnId: string;
  category: string;
  symbol: string | null;
  quantity: Decimal | null;
  txnDate: string;
  amountUsd: Decimal;
  originalCurrency: Currency | null;
  originalAmount: Decimal | null;
  fxRate: Decimal | null;
  pendingRecost: boolean;
  reversesTxnId: string | null;
  memo: string | null;
  metadata: Record<string, unknown>;
  /** Fingerprint of the request, to tell a retry from a different payload under one key. */
  requestHash: string | null;
  /**
   * Who posts it (domain/actors.ts). Absent: the actor of the work in hand when the store writes
   * it (runtime/actor.ts); set where a draft outlives its request (the group-commit batch).
   */
  postedBy?: string;
  lines: JournalLineDraft[];
}

/** The customer's fee bps recost charges a sell whose fee was stated and posted at ingest. */
export const STATED_FEE_BPS = '0';

export interface PostingPolicy {
  /** The customer's fee, per source, on a trade that does not state it; a trade is pinned to it and to its broker cost. */
  feeSchedule: FeeSchedule;
}

/** A refusal of one field of an entry: `path` is a JSON pointer into the entry. */
function invalid(path: string, message: string): LedgerError {
  return new LedgerError('validation_error', `${path.slice(1).replace(/\//g, '.')} ${message}`, [{ path, message }]);
}

const DECIMAL_KINDS = {
  money: { pattern: new RegExp(MONEY_PATTERN_SOURCE), rule: MONEY_RULE },
  quantity: { pattern: new RegExp(DECIMAL_PATTERN_SOURCE), rule: DECIMAL_RULE },
} as const;

/** Parses each present field, collecting every refusal rather than stopping at the first. */
class FieldReader {
  readonly problems: Array<{ path: string; message: string }> = [];

  parse(path: string, value: string | null | undefined, kind: keyof typeof DECIMAL_KINDS): Decimal | null {
    if (value === undefined || value === null) return null;
    const { pattern, rule } = DECIMAL_KINDS[kind];
    if (pattern.test(value)) return new Decimal(value);
    this.refuse(path, `must be ${rule}`);
    return null;
  }

  refuse(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  /** Throws one validation_error listing every refusal, if there was any. */
  settle(): void {
    const [first] = this.problems;
    if (first === undefined) return;
    const summary =
      this.problems.length === 1
        ? `${first.path.slice(1).replace(/\//g, '.')} ${first.message}`
        : `${this.problems.length} fields are invalid`;
    throw new LedgerError('validation_error', summary, this.problems);
  }
}

/**
 * Validates a manual entry and derives its journal lines (or takes the adjustment's own).
 * Every rule the database would refuse is checked here first, so that a bad entry fails alone,
 * with a 4xx, before it can share a statement with other entries. Pure: the caller supplies
 * the new id; nothing is stored.
 */
export function draftFromEntry(entry: EntryRequest, txnId: string, policy: PostingPolicy): TransactionDraft {
  const rule = POSTING_RULES[entry.txn_type];
  assert(rule, `no posting rule for ${entry.txn_type}`);
  // Refusals are collected in the entry's field order, so its validation_error lists them so.
  const fields = new FieldReader();
  refuseMissingParts(entry, rule, fields);
  const amountUsd = fields.parse('/amount_usd', entry.amount_usd, 'money') ?? ZERO;
  const quantity = fields.parse('/quantity', entry.quantity, 'quantity');
  if (quantity?.isZero()) fields.refuse('/quantity', 'must be greater than zero');
  const feeUsd = fields.parse('/fee_usd', entry.fee_usd, 'money');
  const conversion = readConversion(entry, amountUsd, feeUsd, fields);
  refuseOverLimits(entry, fields);
  const operatorLines = readOperatorLines(entry, fields);
  fields.settle();
  const { originalCurrency, originalAmount, originalFee, statedRate } = conversion;
  // The peg the ledger converted at, when it did; else the rate the operator's two amounts imply.
  const fxRate = originalAmount === null ? null : (statedRate ?? originalAmount.dividedBy(amountUsd));
  // Cents on both sides within MONEY_INTEGER_DIGITS_MAX keep the rate well inside Decimal's places.
  assert(fxRate === null || fxRate.isGreaterThan(0), 'a conversion rate of two positive amounts is positive');
  const lines = rule.lines({
    amountUsd,
    currency: originalCurrency ?? 'USD',
    feeUsd,
    customerFeeBps: policy.feeSchedule.customerFeeBps(entry.source),
    lines: operatorLines,
    aed:
      originalCurrency === 'AED' && originalAmount !== null && fxRate !== null
        ? { amount: originalAmount, fee: originalFee, rate: fxRate }
        : null,
  });
  if (!isBalanced(lines)) {
    throw new LedgerError('unbalanced_transaction', `${entry.txn_type} of ${entry.amount_usd} posts no balanced lines`);
  }
  const customerId = entry.customer_id ?? null;
  if (customerId === null) assertNoCustomerAccount(entry.txn_type, lines);
  return {
    txnId,
    customerId,
    txnType: entry.txn_type,
    source: entry.source,
    sourceTxnId: entry.source_txn_id ?? txnId,
    category: entry.category ?? rule.category,
    symbol: entry.symbol ?? null,
    quantity,
    txnDate: entry.txn_date,
    amountUsd,
    originalCurrency,
    originalAmount,
    fxRate,
    pendingRecost: rule.pendingRecost,
    reversesTxnId: null,
    memo: entry.memo ?? null,
    metadata: draftMetadata(entry, rule, policy, feeUsd),
    requestHash: entryFingerprint({ ...entry, category: entry.category ?? rule.category }),
    lines,
  };
}

/** Refuses what the entry's rule requires and it lacks: its customer, symbol, lines, a valid date. */
function refuseMissingParts(entry: EntryRequest, rule: PostingRule, fields: FieldReader): void {
  if (rule.customer === 'required' && (entry.customer_id ?? null) === null)
    fields.refuse('/customer_id', `is required for ${entry.txn_type}`);
  const symbol = entry.symbol ?? null;
  if (rule.symbol === 'required' && symbol === null) fields.refuse('/symbol', `is required for ${entry.txn_type}`);
  // Every door drafts here (manual entry, preview, imports, syncs): one symbol rule for all of them.
  if (symbol !== null && !isSymbol(symbol)) fields.refuse('/symbol', `must be ${SYMBOL_RULE}`);
  if (entry.lines && entry.txn_type !== 'adjustment')
    fields.refuse('/lines', 'may be given only for txn_type adjustment');
  if (!entry.lines && entry.txn_type === 'adjustment') fields.refuse('/lines', 'are required for txn_type adjustment');
  if (!isCalendarDate(entry.txn_date)) fields.refuse('/txn_date', `must be ${CALENDAR_DATE_RULE}`);
}

/** An entry's conversion from its original currency, parsed; all null when it states none. */
interface EntryConversion {
  originalCurrency: Currency | null;
  originalAmount: Decimal | null;
  originalFee: Decimal | null;
  /** The rate the entry states it converted at (`fx_rate`). */
  statedRate: Decimal | null;
}

/** Reads the original currency, amount, rate and fee: they come together, each positive. */
function readConversion(
  entry: EntryRequest,
  amountUsd: Decimal,
  feeUsd: Decimal | null,
  fields: FieldReader,
): EntryConversion {
  const originalAmount = fields.parse('/original_amount', entry.original_amount, 'money');
  const originalCurrency = entry.original_currency ?? null;
  if (((entry.original_amount ?? null) === null) !== (originalCurrency === null)) {
    fields.refuse('/original_currency', 'and original_amount go together: give both or neither');
  }
  if (originalAmount !== null && (originalAmount.isZero() || amountUsd.isZero())) {
    fields.refuse('/original_amount', 'and amount_usd must both be greater than zero when converting');
  }
  const statedRate = fields.parse('/fx_rate', entry.fx_rate, 'quantity');
  if (statedRate !== null && (originalAmount === null || statedRate.isZero())) {
    fields.refuse('/fx_rate', 'must be greater than zero, and is given only with original_amount');
  }
  const originalFee = fields.parse('/original_fee', entry.original_fee, 'money');
  if (originalFee !== null && (originalAmount === null || feeUsd === null))
    fields.refuse(
      '/original_fee',
      'is given only with original_amount and fee_usd (it is that fee in original_currency)',
    );
  if (
    entry.txn_type === 'sell_security' &&
    originalFee !== null &&
    originalAmount !== null &&
    !originalFee.isLessThan(originalAmount)
  )
    fields.refuse('/original_fee', 'must be less than original_amount: a sale’s fee comes out of its proceeds');
  return { originalCurrency, originalAmount, originalFee, statedRate };
}

/** The limits hold for every caller (jobs and imports too), not only for what the API checked. */
function refuseOverLimits(entry: EntryRequest, fields: FieldReader): void {
  if (entry.memo !== undefined && entry.memo !== null && Array.from(entry.memo).length > MEMO_LENGTH_MAX) {
    fields.refuse('/memo', `must be at most ${MEMO_LENGTH_MAX} characters`);
  }
  if (entry.metadata !== undefined && Object.keys(entry.metadata).length > METADATA_PROPERTIES_MAX) {
    fields.refuse('/metadata', `must have at most ${METADATA_PROPERTIES_MAX} properties`);
  }
  if (entry.lines !== undefined && entry.lines.length > ENTRY_LINES_MAX) {
    fields.refuse('/lines', `must have at most ${ENTRY_LINES_MAX} lines`);
  }
}

/** An adjustment's own lines, parsed: a line of an AED account states its AED amount, no other line does. */
function readOperatorLines(entry: EntryRequest, fields: FieldReader): PostingInput['lines'] {
  return (
    entry.lines?.map((l, i) => {
      const nativeAmount = fields.parse(`/lines/${i}/native_amount`, l.native_amount, 'money');
      const aed = nativeCurrencyOf(l.account_code) !== null;
      if (aed && (nativeAmount === null || nativeAmount.isZero()))
        fields.refuse(
          `/lines/${i}/native_amount`,
          `is required on a line of AED account ${l.account_code}: its amount in AED, greater than zero`,
        );
      if (!aed && nativeAmount !== null)
        fields.refuse(`/lines/${i}/native_amount`, `is given only on a line of an AED account (1020, 2020)`);
      return {
        accountCode: l.account_code,
        debit: fields.parse(`/lines/${i}/debit`, l.debit, 'money') ?? ZERO,
        credit: fields.parse(`/lines/${i}/credit`, l.credit, 'money') ?? ZERO,
        postingKind: l.posting_kind ?? 'adjustment',
        ...(aed && nativeAmount !== null && { nativeAmount }),
      };
    }) ?? null
  );
}

/**
 * A trade keeps the fees in force when it came in (what it states itself wins): recost
 * derives it with these, so a later change of the schedule re-prices later trades only. A
 * sell whose fee is stated has it posted now: recost must charge none (0 bps), whatever else says.
 */
function draftMetadata(
  entry: EntryRequest,
  rule: PostingRule,
  policy: PostingPolicy,
  feeUsd: Decimal | null,
): Record<string, unknown> {
  if (!rule.pendingRecost) return entry.metadata ?? {};
  return {
    ...policy.feeSchedule.pinsOf(entry.source),
    ...entry.metadata,
    ...(rule.txnType === 'sell_security' && feeUsd !== null ? { brokerage_bps: STATED_FEE_BPS } : {}),
  };
}
/**
 * A line on a customer account (2010, 2020, 2100) without a customer would move the firm's
 * wallets while no customer's moves: refused, naming the accounts. Only an adjustment (the
 * operator's lines) can get here; every rule that posts to these accounts requires a customer.
 */
function assertNoCustomerAccount(txnType: EnterableTxnType, lines: JournalLineDraft[]): void {
  const accounts = [...new Set(lines.map((l) => l.accountCode).filter((code) => CUSTOMER_ACCOUNTS.includes(code)))];
  if (accounts.length === 0) return;
  throw new LedgerError(
    'customer_required',
    `a ${txnType} moving customer account${accounts.length === 1 ? '' : 's'} ${accounts.join(', ')} needs the customer_id whose money it moves`,
    accounts.map((account_code) => ({ path: '/customer_id', account_code })),
  );
}

/**
 * A stable fingerprint of what an entry asks for: key order, decimal spelling ("100.0" vs
 * "100.00") and spelled-out defaults (null fields, empty metadata) do not change it; any change
 * of substance does. Metadata is the caller's own: its keys are sorted, its values kept as given.
 */
export function entryFingerprint(entry: EntryRequest): string {
  const { metadata, lines, ...fields } = entry;
  const canonical = {
    // The 1010 confirmation says nothing about what is posted: a retry with or without it is the same entry.
    ...canonicalFields({ ...fields, credits_operating_bank: undefined }),
    lines: lines?.map((line) => canonicalFields(line)),
    metadata: metadata && Object.keys(metadata).length > 0 ? metadata : undefined,
  };
  // One-shot: every manual entry is fingerprinted, and a Hash object per call costs twice as much.
  return hash('sha256', sortedKeysJson(canonical));
}

/** JSON with every object's keys sorted (by UTF-16 code units) and undefined values left out. */
const sortedKeysJson = configure({ deterministic: true, circularValue: Error, bigint: false }) as (
  value: unknown,
) => string;

const DECIMAL_FIELDS = new Set([
  'amount_usd',
  'quantity',
  'fee_usd',
  'original_amount',
  'fx_rate',
  'original_fee',
  'debit',
  'credit',
  'native_amount',
]);

/** Drops absent fields and spells decimals one way; the values were parsed before, so they are valid. */
function canonicalFields(fields: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [key, DECIMAL_FIELDS.has(key) ? new Decimal(value as string).toString() : value]),
  );
}

/**
 * Whether reversing a transaction of this type re-pends it for recost: a trade's lot and
 * derivation stand until recost sees it reversed (ADR 0009), so its reversal nulls its
 * `recosted_at`, and the next recost re-derives its customer and symbol.
 */
export function reversalRependsRecost(txnType: TxnType): boolean {
  return txnType in POSTING_RULES && POSTING_RULES[txnType as EnterableTxnType].pendingRecost;
}

/** What reversing needs of the original transaction. */
export interface ReversibleTransaction {
  txnId: string;
  txnDate: string;
  txnType: TxnType;
  customerId: string | null;
  symbol: string | null;
  quantity: Decimal | null;
  amountUsd: Decimal;
  /** AED per USD the original converted at: the AED amount of a line posted before lines kept one (20270116). */
  fxRate: Decimal | null;
  lines: JournalLineDraft[];
}

/**
 * Refuses to reverse by hand a year's closing entry (reopening the period reverses it) and what a
 * job derived: a `recost` entry is recost's derivation of a trade, and nothing would re-derive it
 * once reversed, so the trade would go uncosted. Reversing
 * the trade itself re-pends it, and recost then supersedes its derivation (recost's own
 * supersession drafts its reversals directly, never through here).
 */
export function assertReversibleByHand(original: {
  txnId: string;
  txnType: TxnType;
  metadata: Record<string, unknown>;
}): void {
  if (original.txnType === 'year_close') {
    throw new LedgerError(
      'conflict',
      `transaction ${original.txnId} closes a financial year to retained earnings and cannot be reversed by hand: reopen the period before the year's end (POST /v1/periods/reopen), which reverses it`,
    );
  }
  if (original.txnType !== 'recost') return;
  const trade = original.metadata.recost_of;
  assert(typeof trade === 'string', `recost entry ${original.txnId} names no trade in metadata.recost_of`);
  throw new LedgerError(
    'derived_entry',
    `transaction ${original.txnId} is recost's derivation of trade ${trade} and cannot be reversed by hand: reverse trade ${trade} instead, and recost supersedes its derivation`,
    [{ recost_of: trade }],
  );
}

/**
 * The reversing entry of a transaction: its lines mirrored (AED amounts too), dated `txnDate`,
 * keyed by the original so that at most one can ever exist. A reversal is never itself reversed.
 */
export function draftReversal(
  original: ReversibleTransaction,
  txnId: string,
  txnDate: string,
  memo: string | null,
): TransactionDraft {
  if (original.txnType === 'reversal') {
    throw new LedgerError('conflict', `transaction ${original.txnId} is itself a reversal and cannot be reversed`);
  }
  // ISO dates compare as strings.
  if (!isCalendarDate(txnDate)) throw invalid('/txn_date', `must be ${CALENDAR_DATE_RULE}`);
  if (txnDate < original.txnDate) {
    throw invalid(
      '/txn_date',
      `cannot be before the original's date (${original.txnDate}): a reversal is dated on or after it`,
    );
  }
  const lines = reversingLines(original.lines, original.fxRate);
  assert(isBalanced(lines), `reversal of ${original.txnId} does not balance`);
  return {
    txnId,
    customerId: original.customerId,
    txnType: 'reversal',
    source: 'ledger',
    sourceTxnId: `reversal:${original.txnId}`,
    category: 'reversal',
    symbol: original.symbol,
    quantity: original.quantity,
    txnDate,
    amountUsd: original.amountUsd,
    originalCurrency: null,
    originalAmount: null,
    fxRate: null,
    pendingRecost: false,
    reversesTxnId: original.txnId,
    memo,
    metadata: {},
    requestHash: null,
    lines,
  };
}
