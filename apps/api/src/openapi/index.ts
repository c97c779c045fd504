import { ERROR_STATUS, type ErrorCode } from '../http/errors.js';
import { assert, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '@ledger/core/posting';
import { paramRef, parameters, responses, schemas } from './components.js';
import { FEATURES } from '../features/index.js';
import { ADMIN, READ, SECURITY_SCHEMES } from './security.js';
import type { ApiDocument, JsonSchema, Paths } from './types.js';

/** What each error code means; a code without a meaning fails the build. */
const ERROR_MEANING: Record<ErrorCode, string> = {
  validation_error: 'query, path or body breaks this contract (`details` lists each rule: `path`, `message`)',
  invalid_json: 'the body is not JSON',
  undecodable_body: 'the body does not decode as its `Content-Encoding` (gzip, deflate, br) says',
  expectation_failed: 'an `Expect` header other than `100-continue`',
  request_timeout: "the request (headers and body) did not arrive within the server's request timeout",
  request_header_fields_too_large: "the request line and headers are over the server's limit",
  customer_required:
    'an adjustment moving a customer account (2010, 2020, 2100) without `customer_id` (`details` names each account); nothing stored',
  entry_refused:
    'the database refused the entry for a rule no earlier check named (`details` names the constraint); nothing stored',
  period_closed:
    'dated on or before the day the books are closed through (`details[0]` names the close: `close_id`, `through`); post the correction on an open day (docs/period-close.md); nothing stored',
  invalid_records:
    'records of an import that cannot be posted (`details`: each one’s `record`, `source_txn_id`, `reason`); nothing posted',
  unauthorized: 'credential missing or unknown',
  invalid_signature: 'the webhook signature is missing or does not match the body',
  forbidden: 'the ledger token on an admin endpoint',
  not_found: 'unknown id or route',
  method_not_allowed: 'the route exists, the method does not (`Allow` lists those that do)',
  not_acceptable: 'the `Accept` header excludes JSON',
  conflict: 'the ledger’s state refuses it (e.g. reversing a reversal)',
  idempotency_conflict: '`source` + `source_txn_id` reused with a different payload',
  invalid_state_transition: 'a state machine refuses the transition',
  derived_entry:
    'a `recost` entry cannot be reversed by hand: reverse the trade it derives from (`details`: `recost_of`), and recost supersedes it; nothing stored',
  wrong_book: 'the job runs on the other book (ENTITY_UAE or ENTITY_IND_IFSC); nothing was queued',
  payload_too_large: 'the body is over the limit (1 MiB by default)',
  unsupported_media_type: 'the body is not `application/json`',
  unbalanced_transaction: 'the lines do not balance (or there are fewer than two); nothing stored',
  unknown_account: 'an account code the chart does not have; nothing stored',
  unknown_customer: 'a customer_id the book does not know; nothing stored',
  insufficient_funds:
    'a withdrawal request, or a manual entry debiting a customer wallet (2010, 2020: a withdrawal, buy, fee, tax or adjustment), larger than the wallet’s balance less the customer’s other pending withdrawals; nothing stored or posted',
  source_reserved:
    'a manual entry naming an upstream’s source (`uaefeed`, `custodian`, `usbroker`, `remit`): its records and keys are its sync’s alone; manual entries use `manual`; nothing stored',
  aed_off_peg:
    'a manual entry whose AED line’s USD is more than 0.01 from its AED at the peg (`AED_PER_USD`), or whose `fx_rate` is not the peg (`details` names each line); nothing stored',
  operating_bank_credit_unconfirmed:
    'a manual entry crediting 1010 (money leaving the operating bank) without `"credits_operating_bank": true`; nothing stored',
  internal_error: 'a fault of the server: the body says nothing more, the log has it under the request_id',
  not_configured: 'the credential the endpoint needs is not configured on the server (fail closed)',
  not_ready: 'the database is unreachable or its schema is not at head',
  enqueue_unconfirmed:
    'a job was sent to the job queue and no answer came: it may have been queued; poll its status (`details[0].job_id`) before starting it again',
  overloaded: 'too many entries are waiting to be posted on this process; retry after `Retry-After` seconds',
  upstream_unavailable:
    'a live upstream view (the India broker views): the upstream is not configured on this book or did not answer',
};

const errorTable = (Object.keys(ERROR_STATUS) as ErrorCode[])
  .map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_MEANING[code]} |`)
  .join('\n');

const description = `
The double-entry ledger of one book (\`ENTITY_UAE\` or \`ENTITY_IND_IFSC\`): every transaction is a set of
journal lines whose debits equal their credits, checked by the posting rule, by the store and by the database at
commit. The journal is append-only: corrections are reversing entries.

## Authentication
| Endpoint | Credential |
|---|---|
| \`/health/*\`, \`/ping\`, \`/docs\`, \`/docs/openapi.json\` | none |
| every other \`GET\` | \`${SECURITY_SCHEMES.ledgerToken.name}\` (ledger token) or \`${SECURITY_SCHEMES.adminToken.name}\` (admin token) |
| \`POST /v1/transactions\`, \`POST /v1/transactions/preview\`, \`POST /v1/transactions/{txn_id}/reverse\`, every \`POST /v1/cash-requests*\`, \`PUT /v1/customers/{customer_id}\` | admin token |

- Missing or unknown token: 401 \`unauthorized\`. The valid ledger token on an admin endpoint: 403 \`forbidden\`.
- \`LEDGER_TOKEN\` or \`LEDGER_ADMIN_TOKEN\` unset: requests that need it get 503 \`not_configured\`, never open access.
- Credentials are checked before the body is read: an unauthenticated request with a bad body is a 401.
- Each operation's \`security\` below is what the server enforces: the server reads it from this document.

## Errors
Every error has one shape: \`{"error": {"code", "message", "details"?}, "request_id"}\`. \`code\` is stable;
\`message\` is for people. No input ever causes a 500, and a 500 carries no stack trace or SQL.

| Status | code | When |
|---|---|---|
${errorTable}

## Conventions
- Money and quantities are decimal strings (\`"1234.50"\`), never JSON numbers. The ledger currency is USD.
- Lists answer \`{items, total, limit, offset}\`; \`limit\` defaults to ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX} (more is a 400).
- Dates are \`YYYY-MM-DD\`; \`from\` and \`to\` are inclusive. Unknown query parameters are a 400.
- Every response carries \`X-Request-Id\` (the caller's, if it sent a plain one).
- Every admin write takes an optional \`X-Ledger-Actor\` (the operator's name or e-mail): what it writes records
  \`api:<operator>\` as its actor (\`posted_by\` of a transaction), \`api\` without it; jobs record \`job:<kind>:<job_id>\`.
`.trim();

/** The features' paths (or schemas) in one record; a name two features claim is a bug. */
function merged<T extends Paths | Record<string, JsonSchema>>(records: T[], what: string): T {
  const all: Record<string, unknown> = {};
  for (const record of records) {
    for (const [name, value] of Object.entries(record)) {
      assert(!(name in all), `${what} ${name} is defined by two features`);
      all[name] = value;
    }
  }
  return all as T;
}

/**
 * Every admin operation takes the optional `X-Ledger-Actor` header (the operator, recorded as
 * `api:<operator>` on what it writes): added here, once, so no admin write can miss it.
 */
function withActorHeader(paths: Paths): Paths {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (operation.security === ADMIN)
        operation.parameters = [...(operation.parameters ?? []), paramRef('LedgerActor')];
    }
  }
  return paths;
}

export const apiDocument: ApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Ledger service API',
    version: '1.0.0',
    summary: 'Double-entry ledger of one book: transactions, journal, firm reports, customers.',
    description,
  },
  servers: [{ url: '/', description: 'This deployment (one book).' }],
  tags: FEATURES.map((feature) => feature.tag),
  security: READ,
  paths: withActorHeader(
    merged(
      FEATURES.map((feature) => feature.paths),
      'path',
    ),
  ),
  components: {
    schemas: merged([schemas, ...FEATURES.map((feature) => feature.schemas ?? {})], 'schema'),
    parameters,
    responses,
    securitySchemes: SECURITY_SCHEMES,
  },
};
