/**
 * Who posted or changed something (docs/period-close.md, "Who posted what"), one text:
 * `api` for an admin write, `api:<operator>` when the caller named the operator in the
 * `X-Ledger-Actor` header; `job:<kind>:<job_id>` for a job's postings; `webhook:<event_id>` for
 * a webhook-triggered sync. A column of text, so the write path stays one statement.
 */

/** What an `X-Ledger-Actor` header may hold: an operator's name or e-mail, printable, 1 to 200 characters. */
export const ACTOR_NAME_PATTERN_SOURCE = "^[A-Za-z0-9._%+@' -]{1,200}$";
export const ACTOR_NAME_RULE = "an operator's name or e-mail: 1 to 200 letters, digits, spaces and . _ % + @ ' -";

/** The actor of an admin write through the API, with the operator the caller named, if any. */
export const apiActor = (operator: string | null | undefined): string => (operator ? `api:${operator}` : 'api');
