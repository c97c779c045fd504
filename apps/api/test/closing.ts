import { Decimal, FeeSchedule } from '@ledger/core/posting';
import type { RecostOptions } from '@ledger/core/store';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { deposit, startApi, type TestApi } from './support.js';

// What the suites closing periods and years share: a book with C-1, its entries, its reports' answers.

/** Recost of every pending trade: the customer's fee 22 bps, the broker's cost the schedule's default (4 bps). */
export const RECOST: RecostOptions = { policy: { feeSchedule: new FeeSchedule(new Decimal(22)) }, limit: null };

/** An api of the suite's own whose book has customer C-1. */
export async function startApiWithC1(): Promise<TestApi> {
  const api = await startApi();
  expect((await api.put('/v1/customers/C-1', {})).status).to.equal(201);
  return api;
}

/** Posts C-1's manual deposit with the fields given, under a key of its own; answers the transaction (201, or the test fails). */
export async function postEntry(api: TestApi, fields: Record<string, unknown>): Promise<Record<string, string>> {
  const reply = await api.post('/v1/transactions', deposit({ source_txn_id: `entry-${randomUUID()}`, ...fields }));
  expect(reply.status, reply.text).to.equal(201);
  return reply.body;
}

/** Each path as the ledger token reads it (200, or the test fails), with its exact body: equal answers, unchanged reports. */
export const reportsAnswered = (api: TestApi, paths: readonly string[]): Promise<string[]> =>
  Promise.all(
    paths.map(async (path) => {
      const reply = await api.get(path, { token: 'ledger' });
      expect(reply.status, `${path}: ${reply.text}`).to.equal(200);
      return `${path}\n${reply.text}`;
    }),
  );
