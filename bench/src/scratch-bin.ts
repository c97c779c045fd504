import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { postTransactions, upsertCustomer } from '@ledger/core/store';
import { createTestDatabase } from '@ledger/core/testing';
import { customerId, drafts } from './fixtures.js';
import { backendCpuSecondsOf } from './cpu.js';

const t = await createTestDatabase({ poolMax: 2 });
const owner = t.db;
for (let i = 0; i < 1000; i += 1) await upsertCustomer(owner, customerId(i, 1000), {});
await postTransactions(owner, drafts(50_000, 1000, 0));
const c: any = await owner.client.acquireConnection();
const pid = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
const cols = {
  transactions: 'txn_id, customer_id, txn_type, source, source_txn_id, category, symbol, quantity, txn_date, amount_usd, original_currency, original_amount, fx_rate, reverses_txn_id, memo, metadata, request_hash, posted_by',
  journal_lines: 'line_id, txn_id, account_code, debit, credit, customer_id, posting_kind, txn_date, native_currency, native_amount',
};
for (const [table, list] of Object.entries(cols)) {
  for (const fmt of ['text', 'binary'])
    await pipeline(c.query(copyTo(`COPY ${table} (${list}) TO STDOUT (FORMAT ${fmt})`)), createWriteStream(`/work/scratch/${table}.${fmt}`));
  await c.query(`CREATE TABLE bare_${table} AS SELECT ${list} FROM ${table} WITH NO DATA`);
}
const res: Record<string, number[]> = {};
for (let r = 0; r < 4; r += 1) for (const fmt of r % 2 ? ['text', 'binary'] : ['binary', 'text']) for (const table of Object.keys(cols)) {
  await c.query('BEGIN'); await c.query(`TRUNCATE bare_${table}`);
  const t0 = backendCpuSecondsOf(pid);
  await pipeline(createReadStream(`/work/scratch/${table}.${fmt}`), c.query(copyFrom(`COPY bare_${table} (${cols[table as keyof typeof cols]}) FROM STDIN (FORMAT ${fmt})`)));
  (res[`${table} ${fmt}`] ??= []).push(backendCpuSecondsOf(pid) - t0);
  await c.query('ROLLBACK');
}
const lines = Number((await c.query('SELECT count(*) FROM journal_lines')).rows[0].count);
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(24), v.map((x) => ((x * 1e6) / lines).toFixed(2)).join(' '), 'µs per journal line');
await owner.client.releaseConnection(c);
await t.drop();
process.exit(0);
