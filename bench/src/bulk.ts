import { accountTotals, postTransactions, trialBalance, upsertCustomer } from '@ledger/core';
import type { TestDatabase } from '@ledger/core/testing';
import { customerId, drafts } from './fixtures.js';

export interface BulkResult {
  transactions: number;
  journalLines: number;
  seconds: number;
  transactionsPerSecond: number;
  journalLinesPerSecond: number;
  rerunSeconds: number;
}

/** Posts `count` transactions through the batch API the sync jobs use, then the same batch again. */
export async function benchBulkPosting(database: TestDatabase, count: number, customers = 1_000): Promise<BulkResult> {
  const { db } = database;
  for (let i = 0; i < customers; i += 1) await upsertCustomer(db, customerId(i, customers), {});
  const batch = drafts(count, customers);
  const journalLines = batch.reduce((n, d) => n + d.lines.length, 0);

  const started = process.hrtime.bigint();
  const first = await postTransactions(db, batch);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (first.inserted !== count) throw new Error(`posted ${first.inserted} of ${count}`);

  const totalsBefore = JSON.stringify(await accountTotals(db));
  const rerunStarted = process.hrtime.bigint();
  const second = await postTransactions(db, batch);
  const rerunSeconds = Number(process.hrtime.bigint() - rerunStarted) / 1e9;
  if (second.inserted !== 0) throw new Error(`re-running the batch posted ${second.inserted} again`);
  if (JSON.stringify(await accountTotals(db)) !== totalsBefore) throw new Error('re-running the batch changed the books');
  if (!(await trialBalance(db)).balanced) throw new Error('trial balance does not balance');

  return {
    transactions: count,
    journalLines,
    seconds,
    transactionsPerSecond: count / seconds,
    journalLinesPerSecond: journalLines / seconds,
    rerunSeconds,
  };
}
