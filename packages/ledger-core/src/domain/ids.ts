import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes drawn for 256 ids at a time. */
const pool = new Uint8Array(4096);
let drawn = pool.length;
/** The last id's millisecond and sequence: uuid's own v7 state, kept here since its random bytes come from the pool. */
const last = { msecs: -Infinity, seq: 0 };

/**
 * A new id (a transaction's, a cash request's): a UUIDv7, in the order ids are made within the
 * process exactly as uuid's v7() orders them (a new millisecond starts at a random sequence, the
 * same millisecond counts up), so recost's and the reports' ties on txn_id still follow the
 * order entries were made in. uuid's v7() asks Web Crypto for 16 bytes per id (~6 µs, a few per
 * cent of the api's CPU per manual entry); these come from a pool filled 256 ids at a time
 * (~0.6 µs).
 */
export function newId(): string {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  const random = pool.subarray(drawn, (drawn += 16));
  const now = Date.now();
  if (now > last.msecs) {
    last.msecs = now;
    last.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    last.seq = (last.seq + 1) | 0;
    if (last.seq === 0) last.msecs += 1;
  }
  return v7({ msecs: last.msecs, seq: last.seq, random });
}
