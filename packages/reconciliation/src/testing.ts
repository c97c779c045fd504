/**
 * What a test or a benchmark uses to show that the live India tie-out reports and their checks
 * decide alike (issue 36): the same items flagged, with the same status and figures, whatever
 * the book. Not used by the product itself.
 */
import type { ReconciliationRun, RunVariance } from './run.js';

/** The three live India reports' bodies as the api answers them (the fields compared). */
export interface TieOutReports {
  /** `GET /v1/india/reconciliation`. */
  reconciliation: {
    remittances: Array<Record<string, unknown> & { status: string; order_id: string }>;
    totals: { remittances: Record<string, number> };
  };
  /** `GET /v1/india/holdings-recon`. */
  holdings: {
    customers: Array<{ customer_id: string; symbols: Array<{ symbol: string; status: string; difference: string }> }>;
  };
  /** `GET /v1/india/ledger-recon`. */
  ledger: { customers: Array<{ customer_id: string; difference: { cash_status: string } | null }> };
}

/** How many items of each tie-out were compared, and every difference between report and check (none: they agree). */
export interface TieOutAgreement {
  compared: { remittances: number; symbols: number; customers: number };
  disagreements: string[];
}

type Row = unknown[];
const key = (row: Row) => JSON.stringify(row);

/** The rows one side has and the other lacks, named by tie-out and side. */
function differences(tieOut: string, report: Row[], check: Row[]): string[] {
  const [inReport, inCheck] = [new Set(report.map(key)), new Set(check.map(key))];
  return [
    ...[...inReport]
      .filter((row) => !inCheck.has(row))
      .map((row) => `${tieOut}: the report flags ${row}, the check not`),
    ...[...inCheck]
      .filter((row) => !inReport.has(row))
      .map((row) => `${tieOut}: the check flags ${row}, the report not`),
  ];
}

/**
 * Compares a category C run with the three reports read from the same book: the LRS
 * remittances the report ages are the variances of `lrs_usbroker_tie_out` (status, order,
 * customer, USD, window end and the unmatched wires named) and its counts are the check's
 * metrics; the symbols holdings-recon flags are `usbroker_holdings_recon`'s variances; the
 * customers whose cash ledger-recon flags are `usbroker_ledger_recon`'s.
 */
export function tieOutAgreement(
  run: Pick<ReconciliationRun, 'results' | 'metadata'>,
  reports: TieOutReports,
): TieOutAgreement {
  const variances = (check: string): RunVariance[] => run.metadata.variances.filter((v) => v.check_name === check);
  const { reconciliation, holdings, ledger } = reports;
  const aged = reconciliation.remittances
    .filter((r) => r.status === 'aged_in_transit')
    .map((r) => [r.status, r.order_id, r.customer_id, r.amount_usd, r.window_ends_on, r.unmatched_wires]);
  const lrs = variances('lrs_usbroker_tie_out').map((v) => [
    v.detail.status,
    v.source_txn_id,
    v.customer_id,
    v.expected,
    v.detail.window_ends_on,
    v.detail.unmatched_wires,
  ]);
  const symbols = holdings.customers.flatMap((c) =>
    c.symbols.filter((s) => s.status !== 'match').map((s) => [c.customer_id, s.symbol, s.status, s.difference]),
  );
  const held = variances('usbroker_holdings_recon').map((v) => [
    v.customer_id,
    v.symbol,
    v.detail.status,
    v.difference,
  ]);
  const cash = ledger.customers
    .filter((c) => c.difference !== null && c.difference.cash_status !== 'match')
    .map((c) => [c.customer_id, c.difference!.cash_status]);
  const ledgerCash = variances('usbroker_ledger_recon').map((v) => [v.customer_id, v.detail.status]);
  const lrsMetrics = run.results.find((r) => r.check_name === 'lrs_usbroker_tie_out')?.metrics ?? {};
  const counts = Object.entries(reconciliation.totals.remittances)
    .filter(([status, count]) => lrsMetrics[status] !== count)
    .map(([status, count]) => `lrs: the report counts ${count} ${status}, the check ${String(lrsMetrics[status])}`);
  return {
    compared: {
      remittances: reconciliation.remittances.length,
      symbols: holdings.customers.reduce((n, c) => n + c.symbols.length, 0),
      customers: ledger.customers.length,
    },
    disagreements: [
      ...differences('lrs', aged, lrs),
      ...counts,
      ...differences('holdings', symbols, held),
      ...differences('ledger cash', cash, ledgerCash),
    ],
  };
}
