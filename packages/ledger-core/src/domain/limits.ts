import { assert } from './errors.js';

/**
 * Limits on everything a caller can ask for, in one place: the API's document states them and
 * the core asserts them, so a job, an import or the webhook cannot bypass what the API refuses.
 */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 500;
/** Deeper pages than this are a scan the database should not be asked for. */
export const PAGE_OFFSET_MAX = 1_000_000;
export const MEMO_LENGTH_MAX = 1_000;
export const METADATA_PROPERTIES_MAX = 100;
export const ENTRY_LINES_MAX = 200;
/** An Idempotency-Key's length, in characters (cash requests). */
export const IDEMPOTENCY_KEY_LENGTH_MAX = 128;
/**
 * Manual entries waiting for the group commit of one api process. Past it the process is
 * overloaded: new entries are refused at once (503 `overloaded`) instead of queueing without
 * bound and answering after the caller gave up. At a few thousand entries a second this is
 * about two seconds of work.
 */
export const ENTRIES_WAITING_MAX = 5_000;

/** One page of a list: how many rows, after skipping how many. */
export interface Page {
  limit: number;
  offset: number;
}

/**
 * Asserts a page is within the limits. Callers validate what they are sent (the API refuses
 * more with a 400); a page past this point out of bounds is a bug, and must never reach SQL,
 * where a non-integer limit is silently dropped and the whole table is read.
 */
export function assertPage(page: Page): Page {
  assert(
    Number.isSafeInteger(page.limit) && page.limit >= 1 && page.limit <= PAGE_LIMIT_MAX,
    `page limit ${page.limit} is within 1..${PAGE_LIMIT_MAX}`,
  );
  assert(
    Number.isSafeInteger(page.offset) && page.offset >= 0 && page.offset <= PAGE_OFFSET_MAX,
    `page offset ${page.offset} is within 0..${PAGE_OFFSET_MAX}`,
  );
  return page;
}
