/** Longest upstream `reason` kept in an error: enough to read, too short to carry a dump. */
const REASON_LENGTH_MAX = 200;

/**
 * uaefeed answered, with HTTP 200, `status: "FAILED"`: a business refusal such as
 * `CUSTOMER_NOT_FOUND`. Not retried: the same call gets the same refusal. For a sync it is that
 * customer's failure, with `rejectCode` as the reason.
 */
export class UaefeedRejectedError extends Error {
  override name = 'UaefeedRejectedError';
  readonly upstream = 'uaefeed';
  readonly reason: string | null;
  constructor(
    readonly method: string,
    /** Relative to the base URL, without the query string. */
    readonly path: string,
    /** The upstream's stable code, e.g. `CUSTOMER_NOT_FOUND`; `UNKNOWN` when it gave none. */
    readonly rejectCode: string,
    reason: string | null,
  ) {
    const shortReason = reason === null ? null : reason.slice(0, REASON_LENGTH_MAX);
    super(`uaefeed ${method} /${path} refused: ${rejectCode}${shortReason === null ? '' : ` (${shortReason})`}`);
    this.reason = shortReason;
  }
}
