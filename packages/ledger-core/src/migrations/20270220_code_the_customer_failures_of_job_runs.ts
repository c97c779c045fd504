import type { Knex } from 'knex';

/**
 * Rewrites every `customers_failed[].reason` of stored runs whose JSON type is `from` into what
 * `rewrite` (SQL over the failure `f`) gives, the finished-run guard lifted for this one statement.
 */
const rewriteReasonsSql = (from: 'string' | 'object', rewrite: string) => `
    ALTER TABLE job_runs DISABLE TRIGGER job_runs_guard_update;
    UPDATE job_runs r
       SET result = jsonb_set(r.result, '{customers_failed}', (
             SELECT jsonb_agg(CASE WHEN jsonb_typeof(f -> 'reason') = '${from}'
                                   THEN jsonb_set(f, '{reason}', ${rewrite})
                                   ELSE f END ORDER BY i)
               FROM jsonb_array_elements(r.result -> 'customers_failed') WITH ORDINALITY AS e(f, i)))
     WHERE jsonb_typeof(r.result -> 'customers_failed') = 'array'
       AND jsonb_path_exists(r.result, '$.customers_failed[*].reason \\? (@.type() == "${from}")');
    ALTER TABLE job_runs ENABLE TRIGGER job_runs_guard_update;`;

/**
 * A sync job's `customers_failed[].reason` is `{code, detail}` from now on, a code of the closed
 * set the api documents (docs/outcomes.md#customer-failures), where it was prose led by its code
 * (`upstream_unavailable: remit GET /api/v1/orders answered 500 after 3 attempts`). The api
 * answers stored runs (`GET /v1/jobs`, a job's status) as the document states the results, so
 * the stored ones are rewritten: the prose split at its code (`detail.message` the rest),
 * `funding wires: …` (sync-usbroker's firm-wide wire list) as `detail.step`, `… is not configured
 * on this book` as `upstream_not_configured`, the earliest uncoded wordings by what they said,
 * and any other prose `uncoded` with the prose as its message: nothing is guessed.
 *
 * The codes are those of this day, written out: a migration does not change when the code does.
 * A finished run is final (job_runs_guard_update): the guard is lifted for this one statement,
 * in the migration's transaction, and only the reasons that are strings change. (`\\?` is
 * jsonpath's filter, escaped: knex.raw would take a bare one for a binding.)
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION pg_temp.coded_customer_failure(prose text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE
      rest text := prose;
      step text;
      parts text[];
      coded jsonb;
    BEGIN
      IF rest LIKE 'funding wires: %' THEN
        step := 'funding_wires';
        rest := substr(rest, length('funding wires: ') + 1);
      END IF;
      -- A code has no colon: this splits at the first ': '.
      parts := regexp_match(rest, '^([a-z_]+): (.*)$');
      IF parts[1] = 'upstream_unavailable' AND parts[2] ~ '^\\S+ is not configured' THEN
        coded := jsonb_build_object('code', 'upstream_not_configured',
                                    'detail', jsonb_build_object('upstream', split_part(parts[2], ' ', 1), 'message', parts[2]));
      ELSIF parts[1] IN ('not_linked', 'not_in_registry', 'upstream_not_configured', 'upstream_unavailable',
                         'upstream_refused', 'upstream_bad_payload', 'upstream_page_cap', 'validation_error', 'conflict') THEN
        coded := jsonb_build_object('code', parts[1], 'detail', jsonb_build_object('message', parts[2]));
      ELSIF rest = 'not in the customer registry' THEN
        coded := jsonb_build_object('code', 'not_in_registry', 'detail', jsonb_build_object('message', rest));
      ELSIF rest ~ '^(unknown customer$|not an India customer of this book|the customer has no usbroker account)' THEN
        coded := jsonb_build_object('code', 'not_linked', 'detail', jsonb_build_object('message', rest));
      ELSIF rest ~ '^\\S+ is not configured' THEN
        coded := jsonb_build_object('code', 'upstream_not_configured',
                                    'detail', jsonb_build_object('upstream', split_part(rest, ' ', 1), 'message', rest));
      ELSE
        coded := jsonb_build_object('code', 'uncoded', 'detail', jsonb_build_object('message', rest));
      END IF;
      IF step IS NOT NULL THEN
        coded := jsonb_set(coded, '{detail,step}', to_jsonb(step));
      END IF;
      RETURN coded;
    END $$;

    ${rewriteReasonsSql('string', "pg_temp.coded_customer_failure(f ->> 'reason')")}
    DROP FUNCTION pg_temp.coded_customer_failure(text);
  `);
}

/**
 * Back to prose, as the code before this one words it (`<code>: <message>`, `funding wires: …`,
 * `upstream_unavailable: <upstream> is not configured on this book`): that code's schema takes
 * a string, and a reason coded by later runs reads the same way.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION pg_temp.prose_customer_failure(reason jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE WHEN reason #>> '{detail,step}' = 'funding_wires' THEN 'funding wires: ' ELSE '' END ||
             CASE reason ->> 'code'
               WHEN 'uncoded' THEN ''
               WHEN 'upstream_not_configured' THEN 'upstream_unavailable: '
               ELSE (reason ->> 'code') || ': '
             END ||
             coalesce(reason #>> '{detail,message}', (reason -> 'detail')::text)
    $$;

    ${rewriteReasonsSql('object', "to_jsonb(pg_temp.prose_customer_failure(f -> 'reason'))")}
    DROP FUNCTION pg_temp.prose_customer_failure(jsonb);
  `);
}
