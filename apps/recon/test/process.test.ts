import { fileURLToPath } from 'node:url';
import { describeProcessStartup } from '@ledger/core/testing';
import { expect } from 'chai';

describeProcessStartup({
  name: 'recon',
  appDir: fileURLToPath(new URL('..', import.meta.url)),
  book: 'ENTITY_IND_IFSC',
  whenReady: (proc) => expect(proc.logs.map((l) => l.message)).to.include('scheduler started'),
});
