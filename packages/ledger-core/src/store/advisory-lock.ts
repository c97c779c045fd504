import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The book's cluster-wide locks: Postgres session advisory locks on the book's database, so every
 * process of every replica sees the same lock, and one that dies releases it with its connection
 * (nothing to expire by hand). A lock is named by a string key; this is the one place that turns
 * keys into lock ids and takes them. (A lock that must belong to one database transaction, the
 * cash requests' per-customer funds lock, is taken inside it with pg_advisory_xact_lock instead.)
 */

/** The keys the ledger locks on; a check's lock is `recon:<check_name>`. */
export const LOCK_KEYS = {
  migrate: 'ledger-migrate',
  recost: 'ledger-recost',
  /** Webhook-triggered India syncs never overlap (spec, Limits). */
  indiaSync: 'india-sync',
  /** Postings take it shared in the database, a close or reopening exclusively (migrations/20261230). */
  periodClose: 'ledger-period-close',
} as const;

/**
 * The advisory lock id of a key: the first 8 bytes of the key's SHA-256 as a signed 64-bit
 * integer (a decimal string, for `::bigint`). Documented and fixed, unlike Postgres's internal
 * `hashtext`, so every version of every process computes the same id.
 */
export function advisoryLockId(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

/**
 * Runs `work` in one database transaction holding the period lock exclusively (a transaction
 * lock, migrations/20261230): postings wait for it, and it waits for the postings in flight.
 */
export function withPeriodLock<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [advisoryLockId(LOCK_KEYS.periodClose)]);
    return work(trx);
  });
}

export type LockAttempt<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `work` holding the lock `key`. By default waits while another holder runs; with
 * `{ wait: false }` takes it only if free and otherwise runs nothing (`acquired: false`). The
 * lock lives on a connection of its own, outside the pool (a pool of one can still do the work),
 * closed afterwards: closing the session releases the lock whatever `work` did.
 */
export function withAdvisoryLock<T>(db: Knex, key: string, work: () => Promise<T>): Promise<T>;
export function withAdvisoryLock<T>(
  db: Knex,
  key: string,
  work: () => Promise<T>,
  options: { wait: false },
): Promise<LockAttempt<T>>;
export async function withAdvisoryLock<T>(
  db: Knex,
  key: string,
  work: () => Promise<T>,
  options?: { wait: false },
): Promise<T | LockAttempt<T>> {
  return withLockSession(db, (session) => session.withLock(key, work, options as { wait: false }));
}

type RawConnection = {
  query(sql: string, values: unknown[]): Promise<{ rows: Array<{ acquired?: boolean }> }>;
  /** Set, knex's pool destroys the connection instead of handing it out again. */
  __knex__disposed?: unknown;
};

/** Locks taken one after another on one session: `withLock` is `withAdvisoryLock` without a connection of its own. */
export interface LockSession {
  withLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  withLock<T>(key: string, work: () => Promise<T>, options: { wait: false }): Promise<LockAttempt<T>>;
}

/**
 * Advisory locks on `connection`, each released as its work ends. `onReleaseFailed` hears of a
 * release that failed: the lock may still be held by the connection's backend.
 */
function locksOn(connection: RawConnection, onReleaseFailed: () => void): LockSession {
  const withLock = async <V>(key: string, run: () => Promise<V>, options?: { wait: false }) => {
    const id = advisoryLockId(key);
    if (options?.wait === false) {
      const { rows } = await connection.query('SELECT pg_try_advisory_lock($1::bigint) AS acquired', [id]);
      if (rows[0]?.acquired !== true) return { acquired: false } as const;
    } else await connection.query('SELECT pg_advisory_lock($1::bigint)', [id]);
    let value: V;
    try {
      value = await run();
    } finally {
      // The work's outcome stands; a failed release is the session's to clean up.
      await connection.query('SELECT pg_advisory_unlock($1::bigint)', [id]).catch(onReleaseFailed);
    }
    return options?.wait === false ? { acquired: true as const, value } : value;
  };
  return { withLock } as LockSession;
}

/**
 * Runs `work` with one connection of its own (outside the pool, as `withAdvisoryLock`'s) on
 * which it takes locks in turn, each released as its work ends: a caller taking many locks one
 * after another opens one connection, not one per lock, and a new connection costs a backend's
 * start (tens of ms on a loaded machine). Closed afterwards, which releases whatever a failed
 * release left held.
 */
export async function withLockSession<T>(db: Knex, work: (session: LockSession) => Promise<T>): Promise<T> {
  const connection = (await db.client.acquireRawConnection()) as RawConnection;
  try {
    return await work(locksOn(connection, () => undefined));
  } finally {
    await db.client.destroyRawConnection(connection);
  }
}

/** A lock session on a connection of the pool, whose database transactions run on that same connection. */
export interface PooledLockSession extends LockSession {
  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>, config?: Knex.TransactionConfig): Promise<T>;
}

/**
 * `withLockSession` on one connection of the pool (so within the pool's size), which `work` also
 * runs its database transactions on (`session.transaction`): a pool of one does the whole of it.
 * When `signal` aborts, the connection's statement in flight is cancelled (pg_cancel_backend,
 * through knex: a waiting lock or a long read ends now, not after the process has gone) and it
 * fails as the work's error; the cancel is awaited before the connection goes back. A connection
 * whose lock release failed is destroyed, never handed out holding a lock.
 */
export async function withPooledLockSession<T>(
  db: Knex,
  work: (session: PooledLockSession) => Promise<T>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<T> {
  signal?.throwIfAborted();
  const connection = (await db.client.acquireConnection()) as RawConnection;
  let cancelling: Promise<unknown> = Promise.resolve();
  const cancel = () => {
    cancelling = db.client.cancelQuery(connection).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  const session: PooledLockSession = Object.assign(
    locksOn(connection, () => {
      connection.__knex__disposed = 'an advisory lock release failed';
    }),
    {
      transaction: <V>(run: (trx: Knex.Transaction) => Promise<V>, config?: Knex.TransactionConfig) =>
        db.transaction(run, { ...config, connection }),
    },
  );
  try {
    return await work(session);
  } finally {
    signal?.removeEventListener('abort', cancel);
    await cancelling;
    db.client.releaseConnection(connection);
  }
}
