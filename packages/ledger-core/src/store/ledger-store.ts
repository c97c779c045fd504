import type { Knex } from 'knex';
import type { LedgerStore } from '../use-cases/ports.js';
import { closedThrough } from './periods.js';
import { writeJournal } from './posting.js';
import { findBySourceKeys, findFactsBySourceKeys, getTransaction } from './transactions.js';

/** The use cases' LedgerStore, in SQL on the book's database. */
export function ledgerStore(db: Knex): LedgerStore {
  return {
    write: (write) => writeJournal(db, write),
    findBySourceKeys: (keys) => findBySourceKeys(db, keys),
    findFactsBySourceKeys: (keys) => findFactsBySourceKeys(db, keys),
    findTransaction: (txnId) => getTransaction(db, { txnId }),
    findReversalOf: (txnId) => getTransaction(db, { reversesTxnId: txnId }),
    closedThrough: () => closedThrough(db),
  };
}
