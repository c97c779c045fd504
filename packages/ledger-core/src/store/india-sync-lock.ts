import type { Knex } from 'knex';

/**
 * The cluster-wide India sync lock: a Postgres session advisory lock on the book's database, so
 * every api and worker replica of the book sees the same lock, and a process that dies releases
 * it with its connection (nothing to expire by hand). The key is fixed: one lock per book.
 */
export const INDIA_SYNC_LOCK_KEY = 7_316_205_001;

/**
 * Runs `work` holding the India sync lock, waiting for it while another holder runs: two
 * webhook-triggered syncs never overlap. The lock lives on one pooled connection held for the
 * duration; `work` uses the pool as usual.
 */
export async function withIndiaSyncLock<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  const connection = (await db.client.acquireConnection()) as { query(sql: string, values?: unknown[]): Promise<unknown> };
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [INDIA_SYNC_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [INDIA_SYNC_LOCK_KEY]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}
