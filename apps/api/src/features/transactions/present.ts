import type { StoredTransaction } from '@ledger/core/store';
import { count, object, text, textOrNull, timestamp, timestampOrNull, type Row } from '../../http/present.js';
import { presentJournalLine } from '../journal/present.js';

/** A transaction's facts, as listed (without its journal lines). */
export function presentTransactionSummary(t: Row) {
  return {
    txn_id: text(t.txn_id, 'txn_id'),
    customer_id: textOrNull(t.customer_id, 'customer_id'),
    txn_type: text(t.txn_type, 'txn_type'),
    source: text(t.source, 'source'),
    source_txn_id: text(t.source_txn_id, 'source_txn_id'),
    category: text(t.category, 'category'),
    symbol: textOrNull(t.symbol, 'symbol'),
    quantity: textOrNull(t.quantity, 'quantity'),
    txn_date: text(t.txn_date, 'txn_date'),
    posted_at: timestamp(t.posted_at, 'posted_at'),
    amount_usd: text(t.amount_usd, 'amount_usd'),
    original_currency: textOrNull(t.original_currency, 'original_currency'),
    original_amount: textOrNull(t.original_amount, 'original_amount'),
    fx_rate: textOrNull(t.fx_rate, 'fx_rate'),
    recosted_at: timestampOrNull(t.recosted_at, 'recosted_at'),
    reverses_txn_id: textOrNull(t.reverses_txn_id, 'reverses_txn_id'),
    reversed_by_txn_id: textOrNull(t.reversed_by_txn_id, 'reversed_by_txn_id'),
    memo: textOrNull(t.memo, 'memo'),
    metadata: object(t.metadata),
    posted_by: text(t.posted_by, 'posted_by'),
  };
}

/** A transaction with its journal lines. */
export function presentTransaction(t: StoredTransaction) {
  return {
    ...presentTransactionSummary(t),
    journal_lines: t.journal_lines.map((l) => presentJournalLine(l)),
  };
}

/** The lines an entry would post, as preview answers them. */
export function presentPreview(t: StoredTransaction) {
  return {
    balanced: true,
    journal_lines: t.journal_lines.map((line) => ({
      account_code: line.account_code,
      account_name: line.account_name,
      debit: line.debit,
      credit: line.credit,
      posting_kind: line.posting_kind,
      customer_id: line.customer_id,
      native_amount: line.native_amount,
    })),
  };
}

export function presentTransactionGroup(row: Row) {
  return {
    key: textOrNull(row.key, 'key'),
    count: count(row.count, 'count'),
    total_usd: text(row.total_usd, 'total_usd'),
  };
}

export function presentCategoryFacet(row: Row) {
  return {
    category: text(row.category, 'category'),
    count: count(row.count, 'count'),
    total_usd: text(row.total_usd, 'total_usd'),
  };
}
