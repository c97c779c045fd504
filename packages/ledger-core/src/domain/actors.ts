/**
 * Who posted or changed something (docs/actors.md), one text: `api` for an admin write,
 * `api:<operator>` when the caller named the operator in the `X-Ledger-Actor` header;
 * `job:<kind>:<job_id>` for a job's postings; `webhook:remit:<entity_type>.<event_type>:<job_id>`
 * for the sync a remit webhook triggered; `system` for code run outside any request or job. A
 * column of text on the row itself, so the write path stays one statement.
 */

/** What an `X-Ledger-Actor` header may hold: an operator's name or e-mail, printable, 1 to 200 characters. */
export const ACTOR_NAME_PATTERN_SOURCE = "^[A-Za-z0-9._%+@' -]{1,200}$";
export const ACTOR_NAME_RULE = "an operator's name or e-mail: 1 to 200 letters, digits, spaces and . _ % + @ ' -";

/** The actor of an admin write through the API, with the operator the caller named, if any. */
export const apiActor = (operator: string | null | undefined): string => (operator ? `api:${operator}` : 'api');

/** The actor of a job's work. */
export const jobActor = (kind: string, jobId: string): string => `job:${kind}:${jobId}`;

/** A webhook event as an actor names it: `<entity_type>.<event_type>`, plain words. */
export const WEBHOOK_EVENT_PATTERN_SOURCE = '^[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9_-]{1,64}$';

/** The actor of the sync a webhook event triggered (`event`: `<entity_type>.<event_type>`), run as job `jobId`. */
export const webhookActor = (upstream: string, event: string, jobId: string): string =>
  `webhook:${upstream}:${event}:${jobId}`;

/** Work done outside any request or job (scripts, tests, the bench). */
export const SYSTEM_ACTOR = 'system';
