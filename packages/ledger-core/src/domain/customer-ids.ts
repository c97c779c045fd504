/**
 * The alphabet of a customer id, wherever one enters (a path, a body, a job's customer_ids):
 * letters, digits, `-`, `_` and `.`, 1 to CUSTOMER_ID_LENGTH_MAX characters, not `.` or `..`
 * alone. So an id is never a path (`../../etc/passwd`), a query or a space, in a URL, a file
 * name or a log line. The registries' ids (`IND-000003`, `UAE-000001`) and the tests' (`C-1`,
 * `cust_1`) are in it.
 */
export const CUSTOMER_ID_LENGTH_MAX = 128;
export const CUSTOMER_ID_PATTERN_SOURCE = `^(?!\\.{1,2}$)[A-Za-z0-9._-]{1,${CUSTOMER_ID_LENGTH_MAX}}$`;
const CUSTOMER_ID_PATTERN = new RegExp(CUSTOMER_ID_PATTERN_SOURCE);

export const CUSTOMER_ID_RULE = `a customer id of 1 to ${CUSTOMER_ID_LENGTH_MAX} letters, digits, "-", "_" or ".", not "." or ".." alone, e.g. "C-1"`;

export function isCustomerId(text: string): boolean {
  return CUSTOMER_ID_PATTERN.test(text);
}
