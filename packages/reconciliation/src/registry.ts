import { assert } from '@ledger/core/posting';
import type { Check } from './check.js';
import { accountTotals } from './checks/account-totals.js';
import { custodianCashRecon } from './checks/custodian-cash-recon.js';
import { custodianLedgerRecon } from './checks/custodian-ledger-recon.js';
import { drCrSignConvention } from './checks/dr-cr-sign-convention.js';
import { journalLineCompleteness } from './checks/journal-line-completeness.js';
import { lrsUsbrokerTieOut } from './checks/lrs-usbroker-tie-out.js';
import { openExceptionsAge } from './checks/open-exceptions-age.js';
import { pendingFlowAge } from './checks/pending-flow-age.js';
import { periodReopens } from './checks/period-reopens.js';
import { saleLotMatches } from './checks/sale-lot-matches.js';
import { snapshotReconcile } from './checks/snapshot-reconcile.js';
import { stampedTradeDerivation } from './checks/stamped-trade-derivation.js';
import { sourceTxnUniqueness } from './checks/source-txn-uniqueness.js';
import { statedFeePosted } from './checks/stated-fee-posted.js';
import { uaefeedCashRecon } from './checks/uaefeed-cash-recon.js';
import { uaefeedHoldingsRecon } from './checks/uaefeed-holdings-recon.js';
import { usbrokerHoldingsRecon } from './checks/usbroker-holdings-recon.js';
import { usbrokerLedgerRecon } from './checks/usbroker-ledger-recon.js';
import { usbrokerOmnibusCash } from './checks/usbroker-omnibus-cash.js';
import { trialBalanceZero } from './checks/trial-balance-zero.js';
import { walletDerivation } from './checks/wallet-derivation.js';

/** Every check, in the order a run runs them. A new check: its file in checks/, and one line here. */
export const CHECKS: readonly Check[] = [
  trialBalanceZero,
  journalLineCompleteness,
  sourceTxnUniqueness,
  drCrSignConvention,
  statedFeePosted,
  walletDerivation,
  accountTotals,
  snapshotReconcile,
  saleLotMatches,
  stampedTradeDerivation,
  custodianLedgerRecon,
  custodianCashRecon,
  uaefeedHoldingsRecon,
  uaefeedCashRecon,
  usbrokerLedgerRecon,
  usbrokerHoldingsRecon,
  usbrokerOmnibusCash,
  lrsUsbrokerTieOut,
  pendingFlowAge,
  openExceptionsAge,
  periodReopens,
];

assert(new Set(CHECKS.map((c) => c.name)).size === CHECKS.length, 'reconciliation check names are unique');
