import { fileURLToPath } from 'node:url';
import { describeProcessStartup } from '@ledger/core/testing';
import { expect } from 'chai';

describeProcessStartup({
  name: 'recon',
  metrics: [
    'ledger_recon_check_results_total',
    'ledger_recon_check_status',
    'ledger_book_transactions',
    'ledger_book_journal_lines',
  ],
  appDir: fileURLToPath(new URL('..', import.meta.url)),
  book: 'ENTITY_IND_IFSC',
  whenReady: (proc) => expect(proc.logs.map((l) => l.message)).to.include('scheduler started'),
});
