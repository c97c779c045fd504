import { count, text, textOrNull, timestamp, type Row } from '../../http/present.js';

/** A journal line as every view shows it (a transaction's lines, the journal, postings). */
export function presentJournalLine(l: Row) {
  return {
    line_id: String(l.line_id),
    txn_id: text(l.txn_id, 'txn_id'),
    account_code: text(l.account_code, 'account_code'),
    account_name: text(l.account_name, 'account_name'),
    debit: text(l.debit, 'debit'),
    credit: text(l.credit, 'credit'),
    customer_id: textOrNull(l.customer_id, 'customer_id'),
    posting_kind: textOrNull(l.posting_kind, 'posting_kind'),
    txn_date: text(l.txn_date, 'txn_date'),
    created_at: timestamp(l.created_at, 'created_at'),
    native_currency: textOrNull(l.native_currency, 'native_currency'),
    native_amount: textOrNull(l.native_amount, 'native_amount'),
  };
}

/** A journal line flattened with its transaction's facts. */
export function presentPosting(row: Row) {
  return {
    ...presentJournalLine(row),
    account_type: text(row.account_type, 'account_type'),
    txn_type: text(row.txn_type, 'txn_type'),
    source: text(row.source, 'source'),
    source_txn_id: text(row.source_txn_id, 'source_txn_id'),
    category: text(row.category, 'category'),
    symbol: textOrNull(row.symbol, 'symbol'),
    posted_at: timestamp(row.posted_at, 'posted_at'),
    reverses_txn_id: textOrNull(row.reverses_txn_id, 'reverses_txn_id'),
  };
}

export function presentJournalGroup(row: Row) {
  return {
    key: textOrNull(row.key, 'key'),
    line_count: count(row.line_count, 'line_count'),
    debit: text(row.debit, 'debit'),
    credit: text(row.credit, 'credit'),
    net: text(row.net, 'net'),
  };
}
