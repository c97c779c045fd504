-- The ledger's schema at head, as pg_dump --schema-only describes a fresh database migrated by
-- @ledger/core: tables, constraints, indexes, functions, triggers and their comments (not the data
-- migrations seed, nor knex's own migration tables).
-- Generated, never edited by hand: after changing the migrations run `pnpm --filter @ledger/core schema:dump`
-- and commit this file with them; test/schema-integrity.test.ts fails while the two disagree.
-- See docs/adr/0003.

--
-- Name: ledger_after_lines_inserted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_after_lines_inserted() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET enable_seqscan TO 'off'
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    SET search_path TO 'public', 'pg_temp'
    AS $$
    DECLARE
      bad_txn uuid;
      bad_account text;
    BEGIN
      SELECT n.txn_id INTO bad_txn
        FROM (SELECT DISTINCT txn_id, txn_date, customer_id FROM new_lines) n
        LEFT JOIN transactions t ON t.txn_id = n.txn_id
       WHERE t.txn_id IS NULL
          OR t.created_xid <> pg_current_xact_id()
          OR n.txn_date <> t.txn_date
          OR n.customer_id IS DISTINCT FROM t.customer_id
       LIMIT 1;
      IF bad_txn IS NOT NULL THEN
        RAISE EXCEPTION 'journal lines for transaction % must be posted with it and match its date and customer', bad_txn
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_lines_posted_with_transaction';
      END IF;
      SELECT n.account_code INTO bad_account
        FROM (SELECT DISTINCT account_code FROM new_lines) n LEFT JOIN accounts a ON a.account_code = n.account_code
       WHERE a.account_code IS NULL
       LIMIT 1;
      IF bad_account IS NOT NULL THEN
        RAISE EXCEPTION 'account % is not in the chart of accounts', bad_account
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_line_account_known';
      END IF;
      -- Lines may also be added after an early check (SET CONSTRAINTS ... IMMEDIATE): check again at commit.
      INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
      -- Totals rows are locked in account order, so concurrent posters never deadlock.
      INSERT INTO account_totals AS a (account_code, slot, debit_total, credit_total, line_count)
        SELECT account_code, (pg_backend_pid() % 16)::smallint, sum(debit), sum(credit), count(*)
          FROM new_lines GROUP BY account_code ORDER BY account_code
        ON CONFLICT (account_code, slot) DO UPDATE
          SET debit_total = a.debit_total + excluded.debit_total,
              credit_total = a.credit_total + excluded.credit_total,
              line_count = a.line_count + excluded.line_count;
      INSERT INTO account_daily_totals AS d (account_code, day, posting_kind, slot, debit_total, credit_total, line_count)
        SELECT account_code, txn_date, coalesce(posting_kind, ''), (pg_backend_pid() % 16)::smallint, sum(debit), sum(credit), count(*)
          FROM new_lines GROUP BY account_code, txn_date, coalesce(posting_kind, '')
         ORDER BY account_code, txn_date, coalesce(posting_kind, '')
        ON CONFLICT (account_code, day, posting_kind, slot) DO UPDATE
          SET debit_total = d.debit_total + excluded.debit_total,
              credit_total = d.credit_total + excluded.credit_total,
              line_count = d.line_count + excluded.line_count;
      RETURN NULL;
    END $$;

--
-- Name: FUNCTION ledger_after_lines_inserted(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_after_lines_inserted() IS 'Per INSERT statement on journal_lines, set-based: lines belong to a transaction created by this database transaction and agree with its date and customer, name a known account; account_totals move, locked in account order so concurrent posters never deadlock. SECURITY DEFINER with a pinned search_path (20261122); planner pinned to index lookups.';

--
-- Name: ledger_after_transactions_inserted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_after_transactions_inserted() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET enable_seqscan TO 'off'
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    SET search_path TO 'public', 'pg_temp'
    AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM new_txns WHERE created_xid <> pg_current_xact_id() OR posted_at <> now()) THEN
        RAISE EXCEPTION 'created_xid and posted_at are stamped by the database; they cannot be given'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_posting_stamp';
      END IF;
      IF EXISTS (SELECT 1 FROM (SELECT DISTINCT customer_id FROM new_txns WHERE customer_id IS NOT NULL) n
                  WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = n.customer_id)) THEN
        RAISE EXCEPTION 'customer_id names no customer of this book'
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_transaction_customer_known';
      END IF;
      IF EXISTS (SELECT 1 FROM new_txns n WHERE n.reverses_txn_id IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM transactions o WHERE o.txn_id = n.reverses_txn_id)) THEN
        RAISE EXCEPTION 'reverses_txn_id names no transaction'
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_reversed_transaction_known';
      END IF;
      INSERT INTO ledger_commit_checks (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
      -- Rows locked in key order, so concurrent posters never deadlock.
      INSERT INTO transaction_daily_totals AS d (day, txn_type, slot, txn_count, amount_usd_total)
        SELECT txn_date, txn_type, (pg_backend_pid() % 16)::smallint, count(*), sum(amount_usd)
          FROM new_txns GROUP BY txn_date, txn_type ORDER BY txn_date, txn_type
        ON CONFLICT (day, txn_type, slot) DO UPDATE
          SET txn_count = d.txn_count + excluded.txn_count,
              amount_usd_total = d.amount_usd_total + excluded.amount_usd_total;
      RETURN NULL;
    END $$;

--
-- Name: FUNCTION ledger_after_transactions_inserted(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_after_transactions_inserted() IS 'Per INSERT statement on transactions, set-based: created_xid and posted_at are the database stamps, the customer and the reversed original exist, and the commit check is scheduled. SECURITY DEFINER with a pinned search_path (20261122), so the runtime role needs no rights on ledger_commit_checks; planner pinned to index lookups, so a never-analysed table is not seq-scanned by a cached plan.';

--
-- Name: ledger_assert_balanced_at_commit(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_assert_balanced_at_commit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET enable_seqscan TO 'off'
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    SET search_path TO 'public', 'pg_temp'
    AS $$
    DECLARE
      bad record;
    BEGIN
      SELECT t.txn_id, count(l.line_id) AS line_count, coalesce(sum(l.debit), 0) AS debit_sum, coalesce(sum(l.credit), 0) AS credit_sum
        INTO bad
        FROM transactions t LEFT JOIN journal_lines l ON l.txn_id = t.txn_id
       WHERE t.posted_at = now() AND t.created_xid = NEW.xid
       GROUP BY t.txn_id
      HAVING count(l.line_id) < 2 OR coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0) OR NOT (coalesce(sum(l.debit), 0) > '-Infinity' AND coalesce(sum(l.debit), 0) < 'Infinity') OR NOT (coalesce(sum(l.credit), 0) > '-Infinity' AND coalesce(sum(l.credit), 0) < 'Infinity')
       LIMIT 1;
      IF bad.txn_id IS NOT NULL AND bad.line_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % journal line(s); at least 2 are required', bad.txn_id, bad.line_count
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_min_lines';
      ELSIF bad.txn_id IS NOT NULL AND (NOT (bad.debit_sum > '-Infinity' AND bad.debit_sum < 'Infinity') OR NOT (bad.credit_sum > '-Infinity' AND bad.credit_sum < 'Infinity')) THEN
        RAISE EXCEPTION 'transaction % has sums that are not finite numbers: debits %, credits %', bad.txn_id, bad.debit_sum, bad.credit_sum
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_finite';
      ELSIF bad.txn_id IS NOT NULL THEN
        RAISE EXCEPTION 'transaction % is unbalanced: debits % <> credits %', bad.txn_id, bad.debit_sum, bad.credit_sum
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
      END IF;
      DELETE FROM ledger_commit_checks WHERE xid = NEW.xid;
      RETURN NULL;
    END $$;

--
-- Name: FUNCTION ledger_assert_balanced_at_commit(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_assert_balanced_at_commit() IS 'At COMMIT, once per database transaction: every transaction it created has two or more lines and finite, equal debit and credit sums; else the commit fails. Deletes its ledger_commit_checks row, so inserts after SET CONSTRAINTS ... IMMEDIATE schedule a fresh check. SECURITY DEFINER with a pinned search_path.';

--
-- Name: ledger_closed_through(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_closed_through() RETURNS date
    LANGUAGE sql STABLE
    AS $$
      SELECT through FROM period_closes ORDER BY close_id DESC LIMIT 1
    $$;

--
-- Name: ledger_copy_lot_matches(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_copy_lot_matches() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
    BEGIN
      INSERT INTO lot_matches (derivation_txn_id, lot_txn_id, sell_txn_id, customer_id, symbol, acquired_on, transferred_on, quantity, cost_usd)
      SELECT n.txn_id, (m->>'lot_txn_id')::uuid, (n.metadata->>'recost_of')::uuid, n.customer_id, n.symbol,
             (m->>'acquired_on')::date, CASE WHEN n.metadata->>'original_txn_date' ~ '^\d{4}-\d{2}-\d{2}$' THEN (n.metadata->>'original_txn_date')::date ELSE n.txn_date END, (m->>'quantity')::numeric, (m->>'cost_usd')::numeric
        FROM new_txns n CROSS JOIN LATERAL jsonb_array_elements(n.metadata->'lots') AS m
       WHERE n.source = 'recost' AND n.reverses_txn_id IS NULL AND jsonb_typeof(n.metadata->'lots') = 'array';
      RETURN NULL;
    END $_$;

--
-- Name: ledger_guard_account_totals(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_account_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION '% on account_totals is refused: totals move only with posted journal lines', TG_OP
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;

--
-- Name: FUNCTION ledger_guard_account_totals(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_guard_account_totals() IS 'Refuses UPDATE and DELETE of account_totals, except the UPDATE made one trigger level down by ledger_after_lines_inserted: totals move only with posted journal lines.';

--
-- Name: ledger_guard_cash_request_posting(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_cash_request_posting() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF TG_OP = 'INSERT' AND NEW.status <> 'pending' THEN
        RAISE EXCEPTION 'cash request % is made %: a request is made pending, and only its confirmation completes it',
            NEW.cash_request_id, NEW.status
          USING ERRCODE = 'check_violation', CONSTRAINT = 'cash_request_made_pending';
      END IF;
      IF NEW.txn_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.txn_id IS DISTINCT FROM OLD.txn_id)
         AND NOT EXISTS (
           SELECT 1 FROM transactions t
            WHERE t.txn_id = NEW.txn_id
              AND t.customer_id = NEW.customer_id
              AND t.txn_type = NEW.direction
              AND t.amount_usd = NEW.amount_usd
              AND t.source = 'ledger'
              AND t.source_txn_id = 'cash-request:' || NEW.cash_request_id::text) THEN
        RAISE EXCEPTION 'cash request % of customer % names transaction %, which is not its own posting',
            NEW.cash_request_id, NEW.customer_id, NEW.txn_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'cash_request_own_posting';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: FUNCTION ledger_guard_cash_request_posting(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_guard_cash_request_posting() IS 'Refuses a cash request inserted other than pending, and a txn_id that is not the request''s own posting (its customer, type, USD amount, key cash-request:<id> of source ledger).';

--
-- Name: ledger_guard_cash_request_state(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_cash_request_state() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF OLD.status <> 'pending'
         AND (NEW.status, NEW.txn_id, NEW.failure_reason) IS DISTINCT FROM (OLD.status, OLD.txn_id, OLD.failure_reason) THEN
        RAISE EXCEPTION 'cash request % is %: a final state never changes', OLD.cash_request_id, OLD.status
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'cash_request_final_state';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: ledger_guard_daily_totals(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_daily_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION '% on % is refused: daily totals move only with posted transactions and lines', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;

--
-- Name: ledger_guard_exception_history(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_exception_history() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF (NEW.exception_id, NEW.upstream, NEW.record_key, NEW.first_seen_at)
           IS DISTINCT FROM (OLD.exception_id, OLD.upstream, OLD.record_key, OLD.first_seen_at) THEN
        RAISE EXCEPTION 'UPDATE on exceptions is refused for %: its record and first sighting are history', OLD.exception_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_history';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: FUNCTION ledger_guard_exception_history(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_guard_exception_history() IS 'Refuses an update that changes an exception''s record (upstream, key) or its first sighting.';

--
-- Name: ledger_guard_job_run_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_job_run_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF OLD.status <> 'running' THEN
        RAISE EXCEPTION 'job run % is %: a finished run is final', OLD.job_id, OLD.status
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'job_runs_final';
      END IF;
      IF (NEW.job_id, NEW.kind, NEW.input, NEW.first_started_at) IS DISTINCT FROM (OLD.job_id, OLD.kind, OLD.input, OLD.first_started_at)
         OR NEW.attempts < OLD.attempts THEN
        RAISE EXCEPTION 'job run %: its job, input, first start and attempts made are fixed', OLD.job_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'job_runs_final';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: ledger_guard_remittance_history(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_remittance_history() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF (NEW.order_id, NEW.customer_id, NEW.remit_customer_id, NEW.order_created_at, NEW.first_seen_at)
           IS DISTINCT FROM (OLD.order_id, OLD.customer_id, OLD.remit_customer_id, OLD.order_created_at, OLD.first_seen_at)
         OR jsonb_array_length(NEW.status_history) < jsonb_array_length(OLD.status_history)
         OR EXISTS (SELECT 1 FROM jsonb_array_elements(OLD.status_history) WITH ORDINALITY AS o(entry, i)
                     WHERE NEW.status_history -> (o.i::int - 1) IS DISTINCT FROM o.entry) THEN
        RAISE EXCEPTION 'UPDATE on remittances is refused for %: the order, its customer, its first sighting and the statuses seen are history (status_history only grows)', OLD.order_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_history';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: FUNCTION ledger_guard_remittance_history(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_guard_remittance_history() IS 'Refuses an update that changes a remittance''s order, customer, creation or first sighting, or rewrites its status_history (it may only grow).';

--
-- Name: ledger_guard_transaction_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_transaction_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      RAISE EXCEPTION 'transaction % is posted: a posted transaction never changes (recost''s state is in recost_states)', OLD.txn_id
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;

--
-- Name: FUNCTION ledger_guard_transaction_update(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_guard_transaction_update() IS 'Refuses every UPDATE of a posted transaction.';

--
-- Name: ledger_guard_variance_identity(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_guard_variance_identity() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF (NEW.variance_id, NEW.identity_key, NEW.check_name, NEW.txn_id, NEW.source_txn_id, NEW.customer_id, NEW.account_code,
          NEW.symbol, NEW.kind, NEW.first_seen_run_id, NEW.first_seen_at)
           IS DISTINCT FROM (OLD.variance_id, OLD.identity_key, OLD.check_name, OLD.txn_id, OLD.source_txn_id, OLD.customer_id,
          OLD.account_code, OLD.symbol, OLD.kind, OLD.first_seen_run_id, OLD.first_seen_at) THEN
        RAISE EXCEPTION 'UPDATE on variance_triage is refused for %: its identity and first sighting are history', OLD.variance_id
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_history';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: ledger_lot_matches_inserted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_lot_matches_inserted() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    SET enable_seqscan TO 'off'
    AS $$
    DECLARE
      unknown uuid;
    BEGIN
      SELECT named.txn_id INTO unknown
        FROM (SELECT DISTINCT id AS txn_id
                FROM new_matches m CROSS JOIN LATERAL unnest(ARRAY[m.derivation_txn_id, m.lot_txn_id, m.sell_txn_id]) AS id) named
       WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.txn_id = named.txn_id)
       LIMIT 1;
      IF FOUND THEN
        RAISE EXCEPTION 'a lot match names transaction %, which does not exist', unknown
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'lot_matches_transactions_known';
      END IF;
      RETURN NULL;
    END $$;

--
-- Name: ledger_number_period_close(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_number_period_close() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    DECLARE
      current_through date;
    BEGIN
      PERFORM pg_advisory_xact_lock(-8767168477922142570::bigint);
      SELECT coalesce(max(close_id), 0) + 1 INTO NEW.close_id FROM period_closes;
      current_through := ledger_closed_through();
      IF NEW.action = 'close' AND current_through IS NOT NULL AND NEW.through < current_through THEN
        RAISE EXCEPTION 'the books are closed through %: a close never moves backwards (reopen instead)', current_through
          USING ERRCODE = 'check_violation', CONSTRAINT = 'period_closes_forward_only';
      END IF;
      IF NEW.action = 'reopen' AND (current_through IS NULL OR NEW.through >= current_through) THEN
        RAISE EXCEPTION 'the books are closed through %: a reopening moves the close back', current_through
          USING ERRCODE = 'check_violation', CONSTRAINT = 'period_closes_reopen_moves_back';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: ledger_refuse_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      RAISE EXCEPTION '% on % is refused: the ledger is append-only; post a reversing entry instead', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'ledger_append_only';
    END $$;

--
-- Name: FUNCTION ledger_refuse_change(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_refuse_change() IS 'Refuses any change it is attached to (ledger_append_only): the journal is append-only, and rows other rows name (accounts, customers, transactions) are never deleted nor re-keyed, which is why no foreign key is needed to guard them. Corrections are reversing entries.';

--
-- Name: ledger_refuse_closed_period(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_refuse_closed_period() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    DECLARE
      latest record;
      refused date;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(-8767168477922142570::bigint);
      SELECT close_id, through INTO latest FROM period_closes ORDER BY close_id DESC LIMIT 1;
      IF latest.through IS NULL THEN
        RETURN NULL;
      END IF;
      SELECT min(n.txn_date) INTO refused FROM new_txns n WHERE n.txn_date <= latest.through
        AND NOT (n.txn_type = 'year_close' AND EXISTS (
          SELECT 1 FROM year_closes y WHERE y.txn_id = n.txn_id AND y.action = 'close' AND y.fy_end = n.txn_date));
      IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'txn_date % falls in the period closed through % (close %)', refused, latest.through, latest.close_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_period_closed',
                DETAIL = json_build_object('close_id', latest.close_id, 'through', latest.through, 'txn_date', refused)::text;
      END IF;
      RETURN NULL;
    END $$;

--
-- Name: ledger_refuse_raw_reopen(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_refuse_raw_reopen() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
      IF NEW.action = 'reopen' AND NOT (
           coalesce(current_setting('ledger.reopening', true), '') = 'on'
           AND pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')) THEN
        RAISE EXCEPTION 'a reopening is made by ledger_reopen_period(through, reason, actor), never inserted into period_closes'
          USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'period_closes_reopen_by_function';
      END IF;
      RETURN NEW;
    END $$;

--
-- Name: FUNCTION ledger_refuse_raw_reopen(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_refuse_raw_reopen() IS 'Refuses a reopen row not inserted by ledger_reopen_period.';

--
-- Name: period_closes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.period_closes (
    close_id bigint NOT NULL,
    action text NOT NULL,
    through date,
    reason text,
    actor text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT period_closes_action CHECK ((action = ANY (ARRAY['close'::text, 'reopen'::text]))),
    CONSTRAINT period_closes_actor_length CHECK (((length(actor) >= 1) AND (length(actor) <= 300))),
    CONSTRAINT period_closes_close_names_a_day CHECK (((action = 'reopen'::text) OR (through IS NOT NULL))),
    CONSTRAINT period_closes_reason_length CHECK (((length(reason) >= 1) AND (length(reason) <= 1000))),
    CONSTRAINT period_closes_reopen_has_reason CHECK (((action = 'close'::text) OR (reason IS NOT NULL)))
);

--
-- Name: TABLE period_closes; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.period_closes IS 'Closes and reopenings of the books, append-only: the latest row says through which day nothing may post.';

--
-- Name: COLUMN period_closes.close_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.period_closes.close_id IS 'Numbered under the period lock: the order in which closes took effect.';

--
-- Name: COLUMN period_closes.action; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.period_closes.action IS 'close (moves the close forward) or reopen (moves it back, with a reason).';

--
-- Name: COLUMN period_closes.through; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.period_closes.through IS 'The books are closed through this day after this row; null: nothing is closed.';

--
-- Name: COLUMN period_closes.reason; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.period_closes.reason IS 'Why (required to reopen).';

--
-- Name: COLUMN period_closes.actor; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.period_closes.actor IS 'Who: api, or api:<X-Ledger-Actor>.';

--
-- Name: ledger_reopen_period(date, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_reopen_period(p_through date, p_reason text, p_actor text) RETURNS SETOF public.period_closes
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    BEGIN
      IF coalesce(btrim(p_actor), '') = '' OR coalesce(btrim(p_reason), '') = '' THEN
        RAISE EXCEPTION 'a reopening names its actor and its reason'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'period_closes_reopen_has_reason';
      END IF;
      PERFORM set_config('ledger.reopening', 'on', true);
      RETURN QUERY INSERT INTO period_closes (action, through, reason, actor)
        VALUES ('reopen', p_through, p_reason, p_actor) RETURNING *;
      PERFORM set_config('ledger.reopening', 'off', true);
    END $$;

--
-- Name: FUNCTION ledger_reopen_period(p_through date, p_reason text, p_actor text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ledger_reopen_period(p_through date, p_reason text, p_actor text) IS 'The one way to reopen the books: through (null: nothing stays closed), reason and actor, neither blank; returns the row.';

--
-- Name: account_daily_totals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_daily_totals (
    account_code text NOT NULL,
    day date NOT NULL,
    posting_kind text NOT NULL,
    slot smallint NOT NULL,
    debit_total numeric DEFAULT 0 NOT NULL,
    credit_total numeric DEFAULT 0 NOT NULL,
    line_count bigint DEFAULT 0 NOT NULL,
    CONSTRAINT account_daily_totals_credit_total_finite CHECK (((credit_total > '-Infinity'::numeric) AND (credit_total < 'Infinity'::numeric))),
    CONSTRAINT account_daily_totals_debit_total_finite CHECK (((debit_total > '-Infinity'::numeric) AND (debit_total < 'Infinity'::numeric)))
);

--
-- Name: TABLE account_daily_totals; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.account_daily_totals IS 'Per account, txn_date and posting kind: the debits, credits and line count posted (account_totals by day). Moved only by ledger_after_lines_inserted, in the statement that posts the lines; a day only grows. Read summed over slots; a balance at the end of a day is the sum of the days up to it.';

--
-- Name: COLUMN account_daily_totals.posting_kind; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.account_daily_totals.posting_kind IS 'The lines'' posting_kind; '''' for lines without one.';

--
-- Name: COLUMN account_daily_totals.slot; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.account_daily_totals.slot IS 'pg_backend_pid() % 16 of the posting session, as account_totals.slot.';

--
-- Name: account_totals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_totals (
    account_code text NOT NULL,
    slot smallint NOT NULL,
    debit_total numeric DEFAULT 0 NOT NULL,
    credit_total numeric DEFAULT 0 NOT NULL,
    line_count bigint DEFAULT 0 NOT NULL,
    CONSTRAINT account_totals_credit_total_finite CHECK (((credit_total > '-Infinity'::numeric) AND (credit_total < 'Infinity'::numeric))),
    CONSTRAINT account_totals_debit_total_finite CHECK (((debit_total > '-Infinity'::numeric) AND (debit_total < 'Infinity'::numeric)))
);

--
-- Name: TABLE account_totals; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.account_totals IS 'Running debit and credit totals per account, moved by journal_lines_after_insert in the same statement as the lines, so balances need no scan of the journal. Spread over 16 slots per account so concurrent posters rarely wait on one hot row (1100 and 2010 are touched by almost every transaction): an account''s totals are the sum over its slots, and equal its journal sums (a reconciliation check). Written only by that trigger (its function is SECURITY DEFINER), never by hand (account_totals_guard).';

--
-- Name: COLUMN account_totals.slot; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.account_totals.slot IS 'pg_backend_pid() % 16 of the posting session: spreads an account''s totals over 16 rows so concurrent posters rarely lock the same one. Read totals summed over slots.';

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    account_code text NOT NULL,
    name text NOT NULL,
    account_type text NOT NULL,
    dormant boolean DEFAULT false NOT NULL,
    CONSTRAINT accounts_account_code_check CHECK ((account_code ~ '^[0-9]{4}$'::text)),
    CONSTRAINT accounts_account_type_check CHECK ((account_type = ANY (ARRAY['asset'::text, 'liability'::text, 'equity'::text, 'revenue'::text, 'expense'::text])))
);

--
-- Name: TABLE accounts; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.accounts IS 'The chart of accounts, seeded by migrations and the same on both books. Every journal line names one (checked per INSERT statement by journal_lines_after_insert, in place of a row-by-row foreign key). Never deleted nor re-keyed (accounts_no_delete), so a posted line always names an existing account. The runtime role only reads it: a new account is a migration.';

--
-- Name: COLUMN accounts.dormant; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.accounts.dormant IS 'Seeded but posted to by no rule (e.g. the bond accounts 1210 and 2110).';

--
-- Name: broker_fees; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.broker_fees (
    source text NOT NULL,
    source_txn_id text NOT NULL,
    amount_usd numeric NOT NULL,
    source_row jsonb DEFAULT '{}'::jsonb NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    platform_fee_usd numeric,
    CONSTRAINT broker_fees_amount_usd_cents CHECK ((amount_usd = round(amount_usd, 2))),
    CONSTRAINT broker_fees_amount_usd_check CHECK ((amount_usd >= (0)::numeric)),
    CONSTRAINT broker_fees_amount_usd_finite CHECK (((amount_usd > '-Infinity'::numeric) AND (amount_usd < 'Infinity'::numeric))),
    CONSTRAINT broker_fees_platform_fee_usd_cents CHECK (((platform_fee_usd = round(platform_fee_usd, 2)) AND (platform_fee_usd >= (0)::numeric))),
    CONSTRAINT broker_fees_platform_fee_usd_finite CHECK (((platform_fee_usd > '-Infinity'::numeric) AND (platform_fee_usd < 'Infinity'::numeric)))
);

--
-- Name: COLUMN broker_fees.platform_fee_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.broker_fees.platform_fee_usd IS 'The platform''s part of the customer''s fee the TRD row itemises (other_fee, made positive), credited to the firm account at the broker; null: recorded before 20270211.';

--
-- Name: cash_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cash_requests (
    cash_request_id uuid NOT NULL,
    customer_id text NOT NULL,
    direction text NOT NULL,
    amount numeric NOT NULL,
    currency text NOT NULL,
    amount_usd numeric NOT NULL,
    fx_rate numeric,
    status text DEFAULT 'pending'::text NOT NULL,
    reference text,
    memo text,
    failure_reason text,
    txn_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    idempotency_key text,
    request_hash text,
    created_by text DEFAULT 'sql'::text NOT NULL,
    updated_by text DEFAULT 'sql'::text NOT NULL,
    CONSTRAINT cash_requests_amount_cents CHECK ((amount = round(amount, 2))),
    CONSTRAINT cash_requests_amount_finite CHECK (((amount > '-Infinity'::numeric) AND (amount < 'Infinity'::numeric))),
    CONSTRAINT cash_requests_amount_positive CHECK ((amount > (0)::numeric)),
    CONSTRAINT cash_requests_amount_usd_cents CHECK ((amount_usd = round(amount_usd, 2))),
    CONSTRAINT cash_requests_amount_usd_finite CHECK (((amount_usd > '-Infinity'::numeric) AND (amount_usd < 'Infinity'::numeric))),
    CONSTRAINT cash_requests_amount_usd_positive CHECK ((amount_usd > (0)::numeric)),
    CONSTRAINT cash_requests_created_by_check CHECK (((length(created_by) >= 1) AND (length(created_by) <= 300))),
    CONSTRAINT cash_requests_currency CHECK ((currency = ANY (ARRAY['USD'::text, 'AED'::text]))),
    CONSTRAINT cash_requests_customer_id_check CHECK (((length(customer_id) >= 1) AND (length(customer_id) <= 128))),
    CONSTRAINT cash_requests_direction CHECK ((direction = ANY (ARRAY['deposit'::text, 'withdrawal'::text]))),
    CONSTRAINT cash_requests_failure_reason_check CHECK ((length(failure_reason) <= 1000)),
    CONSTRAINT cash_requests_fx_rate_finite CHECK (((fx_rate > '-Infinity'::numeric) AND (fx_rate < 'Infinity'::numeric))),
    CONSTRAINT cash_requests_fx_rate_positive CHECK ((fx_rate > (0)::numeric)),
    CONSTRAINT cash_requests_fx_rate_with_aed CHECK (((fx_rate IS NOT NULL) = (currency <> 'USD'::text))),
    CONSTRAINT cash_requests_hash_with_key CHECK (((request_hash IS NULL) = (idempotency_key IS NULL))),
    CONSTRAINT cash_requests_idempotency_key_length CHECK (((length(idempotency_key) >= 1) AND (length(idempotency_key) <= 128))),
    CONSTRAINT cash_requests_memo_check CHECK ((length(memo) <= 1000)),
    CONSTRAINT cash_requests_reason_when_failed CHECK (((failure_reason IS NULL) OR (status = 'failed'::text))),
    CONSTRAINT cash_requests_reference_check CHECK (((length(reference) >= 1) AND (length(reference) <= 256))),
    CONSTRAINT cash_requests_status CHECK ((status = ANY (ARRAY['pending'::text, 'completed'::text, 'failed'::text, 'cancelled'::text]))),
    CONSTRAINT cash_requests_txn_when_completed CHECK (((txn_id IS NOT NULL) = (status = 'completed'::text))),
    CONSTRAINT cash_requests_updated_by_check CHECK (((length(updated_by) >= 1) AND (length(updated_by) <= 300))),
    CONSTRAINT cash_requests_usd_is_usd CHECK (((currency <> 'USD'::text) OR (amount_usd = amount)))
);

--
-- Name: TABLE cash_requests; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.cash_requests IS 'A customer''s deposit or withdrawal, asked for (pending) and then confirmed (completed: posted, txn_id set), failed or cancelled; final states never change (docs/cash-requests.md has the transition table). The runtime role inserts and may update only status, txn_id, failure_reason and updated_at: a request keeps what was asked for. Confirm locks the row (FOR UPDATE) and posts in the same database transaction, so a request posts once, whatever races it.';

--
-- Name: COLUMN cash_requests.customer_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.customer_id IS 'Checked to name a known customer when the request is made (and again by the posting''s own check at confirm).';

--
-- Name: COLUMN cash_requests.amount; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.amount IS 'What the customer asked for, in currency, whole cents (fils for AED).';

--
-- Name: COLUMN cash_requests.amount_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.amount_usd IS 'The USD equivalent posted: amount for USD; amount / fx_rate rounded half-up to cents for AED.';

--
-- Name: COLUMN cash_requests.fx_rate; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.fx_rate IS 'AED per USD used to convert (the configured peg, AED_PER_USD, when the request was made); NULL for USD.';

--
-- Name: COLUMN cash_requests.failure_reason; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.failure_reason IS 'Why the request failed, as the operator said (fail only).';

--
-- Name: COLUMN cash_requests.txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.txn_id IS 'The transaction a confirmation posted (source ledger, source_txn_id ''cash-request:<id>''): set exactly when completed, unique, so no two requests claim one posting.';

--
-- Name: COLUMN cash_requests.idempotency_key; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.idempotency_key IS 'The Idempotency-Key the request was made with, if any: unique, so a retried create answers the request it made.';

--
-- Name: COLUMN cash_requests.request_hash; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.request_hash IS 'Fingerprint of what was asked for (customer, direction, amount by value, currency, reference, memo): a key reused for another request is refused.';

--
-- Name: COLUMN cash_requests.created_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.created_by IS 'Who made the request (as transactions.posted_by).';

--
-- Name: COLUMN cash_requests.updated_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cash_requests.updated_by IS 'Who made its last transition (its creator until one).';

--
-- Name: cash_statements; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cash_statements (
    customer_id text NOT NULL,
    upstream text NOT NULL,
    account text NOT NULL,
    month text NOT NULL,
    currency text NOT NULL,
    statement jsonb NOT NULL,
    statement_sha256 text NOT NULL,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT cash_statements_account_check CHECK (((length(account) >= 1) AND (length(account) <= 128))),
    CONSTRAINT cash_statements_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT cash_statements_customer_id_check CHECK (((length(customer_id) >= 1) AND (length(customer_id) <= 128))),
    CONSTRAINT cash_statements_month CHECK ((month ~ '^\d{4}-(0[1-9]|1[0-2])$'::text)),
    CONSTRAINT cash_statements_statement_object CHECK ((jsonb_typeof(statement) = 'object'::text)),
    CONSTRAINT cash_statements_statement_sha256_check CHECK ((statement_sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT cash_statements_upstream CHECK ((upstream = 'custodian'::text))
);

--
-- Name: TABLE cash_statements; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.cash_statements IS 'The custodian''s monthly cash statement of a customer''s account (sync-cash-statements), as validated: decimals as strings. Insert-only per content (statement_sha256): the same statement again stores nothing.';

--
-- Name: close_prices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.close_prices (
    symbol text NOT NULL,
    price_date date NOT NULL,
    close_usd numeric NOT NULL,
    source text NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT close_prices_close_usd_check CHECK ((close_usd > (0)::numeric)),
    CONSTRAINT close_prices_close_usd_finite CHECK (((close_usd > '-Infinity'::numeric) AND (close_usd < 'Infinity'::numeric))),
    CONSTRAINT close_prices_source_check CHECK (((length(source) >= 1) AND (length(source) <= 200))),
    CONSTRAINT close_prices_symbol_check CHECK (((length(symbol) >= 1) AND (length(symbol) <= 32)))
);

--
-- Name: TABLE close_prices; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.close_prices IS 'Closing price per symbol and day (USD), from the usbroker sync''s quotes or a CSV load.';

--
-- Name: COLUMN close_prices.source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.close_prices.source IS 'usbroker (the sync''s quote) or the file loaded.';

--
-- Name: cost_inflation_index; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cost_inflation_index (
    fy text NOT NULL,
    cii integer NOT NULL,
    source text NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT cost_inflation_index_cii_check CHECK ((cii > 0)),
    CONSTRAINT cost_inflation_index_fy_check CHECK ((fy ~ '^[0-9]{4}-[0-9]{2}$'::text)),
    CONSTRAINT cost_inflation_index_source_check CHECK (((length(source) >= 1) AND (length(source) <= 200)))
);

--
-- Name: TABLE cost_inflation_index; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.cost_inflation_index IS 'Cost Inflation Index per financial year (s. 48; 2001-02 = 100), loaded by POST /v1/jobs/load-cost-inflation-index.';

--
-- Name: COLUMN cost_inflation_index.fy; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cost_inflation_index.fy IS 'The financial year, YYYY-YY.';

--
-- Name: COLUMN cost_inflation_index.cii; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cost_inflation_index.cii IS 'The index notified for the year.';

--
-- Name: COLUMN cost_inflation_index.source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.cost_inflation_index.source IS 'The file loaded.';

--
-- Name: customers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.customers (
    customer_id text NOT NULL,
    name text,
    email text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    uaefeed_customer_number text,
    uaefeed_account_number text,
    custodian_account text,
    usbroker_account_no text,
    remit_customer_id text,
    pan text,
    partner_id text,
    created_by text DEFAULT 'sql'::text NOT NULL,
    updated_by text DEFAULT 'sql'::text NOT NULL,
    CONSTRAINT customers_created_by_check CHECK (((length(created_by) >= 1) AND (length(created_by) <= 300))),
    CONSTRAINT customers_custodian_account_length CHECK (((length(custodian_account) >= 1) AND (length(custodian_account) <= 128))),
    CONSTRAINT customers_customer_id_check CHECK (((length(customer_id) >= 1) AND (length(customer_id) <= 128))),
    CONSTRAINT customers_pan_format CHECK ((pan ~ '^[A-Z]{5}[0-9]{4}[A-Z]$'::text)),
    CONSTRAINT customers_pan_length CHECK (((length(pan) >= 1) AND (length(pan) <= 128))),
    CONSTRAINT customers_partner_id_length CHECK (((length(partner_id) >= 1) AND (length(partner_id) <= 128))),
    CONSTRAINT customers_remit_customer_id_length CHECK (((length(remit_customer_id) >= 1) AND (length(remit_customer_id) <= 128))),
    CONSTRAINT customers_uaefeed_account_number_length CHECK (((length(uaefeed_account_number) >= 1) AND (length(uaefeed_account_number) <= 128))),
    CONSTRAINT customers_uaefeed_customer_number_length CHECK (((length(uaefeed_customer_number) >= 1) AND (length(uaefeed_customer_number) <= 128))),
    CONSTRAINT customers_updated_by_check CHECK (((length(updated_by) >= 1) AND (length(updated_by) <= 300))),
    CONSTRAINT customers_usbroker_account_no_length CHECK (((length(usbroker_account_no) >= 1) AND (length(usbroker_account_no) <= 128)))
);

--
-- Name: TABLE customers; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.customers IS 'The book''s customers. A transaction''s customer_id must name one (checked per INSERT statement by transactions_after_insert). Never deleted nor re-keyed (customers_no_delete), so posted transactions keep naming an existing customer; name, email and metadata may change.';

--
-- Name: COLUMN customers.uaefeed_customer_number; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.uaefeed_customer_number IS 'UAE: the statement feed customer number (uaefeed `customerNumber`) this customer is synced from; unique where set.';

--
-- Name: COLUMN customers.uaefeed_account_number; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.uaefeed_account_number IS 'UAE: the statement feed trading account number.';

--
-- Name: COLUMN customers.custodian_account; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.custodian_account IS 'UAE: the custodian account (`account` of its holdings and statements); unique where set.';

--
-- Name: COLUMN customers.usbroker_account_no; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.usbroker_account_no IS 'India: the US broker account number (`account_no`) this customer is synced from; unique where set.';

--
-- Name: COLUMN customers.remit_customer_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.remit_customer_id IS 'India: the remittance provider customer id (`customer_id` of its orders and payments); unique where set.';

--
-- Name: COLUMN customers.pan; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.pan IS 'India: the Permanent Account Number, five letters, four digits, a letter (india-tax.md); LRS limits are per PAN, so not unique.';

--
-- Name: COLUMN customers.partner_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.partner_id IS 'India: the partner the customer came through, as the registry names it.';

--
-- Name: COLUMN customers.created_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.created_by IS 'Who created the customer (as transactions.posted_by).';

--
-- Name: COLUMN customers.updated_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.customers.updated_by IS 'Who last changed the customer.';

--
-- Name: dividend_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dividend_events (
    div_txn_no text NOT NULL,
    customer_id text NOT NULL,
    account_no text NOT NULL,
    symbol text NOT NULL,
    cusip text,
    ex_date date NOT NULL,
    pay_date date NOT NULL,
    shares numeric NOT NULL,
    per_share numeric NOT NULL,
    gross_usd numeric NOT NULL,
    wht_txn_no text,
    wht_rate numeric,
    wht_usd numeric,
    report_date date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT dividend_events_account_no_check CHECK (((length(account_no) >= 1) AND (length(account_no) <= 128))),
    CONSTRAINT dividend_events_cusip_check CHECK ((length(cusip) = 9)),
    CONSTRAINT dividend_events_div_txn_no_check CHECK (((length(div_txn_no) >= 1) AND (length(div_txn_no) <= 128))),
    CONSTRAINT dividend_events_gross_usd_check CHECK (((gross_usd > (0)::numeric) AND (gross_usd = round(gross_usd, 2)))),
    CONSTRAINT dividend_events_gross_usd_finite CHECK (((gross_usd > '-Infinity'::numeric) AND (gross_usd < 'Infinity'::numeric))),
    CONSTRAINT dividend_events_per_share_check CHECK ((per_share > (0)::numeric)),
    CONSTRAINT dividend_events_per_share_finite CHECK (((per_share > '-Infinity'::numeric) AND (per_share < 'Infinity'::numeric))),
    CONSTRAINT dividend_events_shares_check CHECK ((shares > (0)::numeric)),
    CONSTRAINT dividend_events_shares_finite CHECK (((shares > '-Infinity'::numeric) AND (shares < 'Infinity'::numeric))),
    CONSTRAINT dividend_events_symbol_check CHECK (((length(symbol) >= 1) AND (length(symbol) <= 32))),
    CONSTRAINT dividend_events_wht_rate_check CHECK (((wht_rate >= (0)::numeric) AND (wht_rate <= (1)::numeric))),
    CONSTRAINT dividend_events_wht_rate_finite CHECK (((wht_rate > '-Infinity'::numeric) AND (wht_rate < 'Infinity'::numeric))),
    CONSTRAINT dividend_events_wht_txn_no_check CHECK (((length(wht_txn_no) >= 1) AND (length(wht_txn_no) <= 128))),
    CONSTRAINT dividend_events_wht_usd_check CHECK (((wht_usd >= (0)::numeric) AND (wht_usd = round(wht_usd, 2)))),
    CONSTRAINT dividend_events_wht_usd_finite CHECK (((wht_usd > '-Infinity'::numeric) AND (wht_usd < 'Infinity'::numeric))),
    CONSTRAINT dividend_events_withholding_whole CHECK ((((wht_txn_no IS NULL) = (wht_usd IS NULL)) AND ((wht_usd IS NULL) = (wht_rate IS NULL))))
);

--
-- Name: TABLE dividend_events; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.dividend_events IS 'A US dividend of an India customer, per the broker''s daily ledger (sync-usbroker-ledger): the DIV row (div_txn_no; ex_date its trade_date, shares its quantity) and the withholding of its DIVNRA row (wht_txn_no, linked by ref_txn_no). USD; wht_rate a fraction (0.25 = 25 %). The postings are the journal''s (source usbroker, source_txn_id the row''s txn_no).';

--
-- Name: exceptions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.exceptions (
    exception_id bigint NOT NULL,
    upstream text NOT NULL,
    record_key text NOT NULL,
    customer_id text,
    reason_code text NOT NULL,
    reason text NOT NULL,
    record jsonb DEFAULT '{}'::jsonb NOT NULL,
    job text NOT NULL,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    times_seen integer DEFAULT 1 NOT NULL,
    state text DEFAULT 'open'::text NOT NULL,
    state_reason text,
    state_changed_at timestamp with time zone,
    state_changed_by text,
    CONSTRAINT exceptions_dismissed_with_reason CHECK (((state <> 'dismissed'::text) OR (state_reason IS NOT NULL))),
    CONSTRAINT exceptions_reason_code_form CHECK ((reason_code ~ '^[a-z][a-z0-9_]{0,63}$'::text)),
    CONSTRAINT exceptions_record_key_length CHECK (((length(record_key) >= 1) AND (length(record_key) <= 300))),
    CONSTRAINT exceptions_state CHECK ((state = ANY (ARRAY['open'::text, 'resolved'::text, 'dismissed'::text]))),
    CONSTRAINT exceptions_state_changed_when_closed CHECK (((state = 'open'::text) OR (state_changed_at IS NOT NULL))),
    CONSTRAINT exceptions_times_seen_positive CHECK ((times_seen >= 1)),
    CONSTRAINT exceptions_upstream_length CHECK (((length(upstream) >= 1) AND (length(upstream) <= 64)))
);

--
-- Name: TABLE exceptions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.exceptions IS 'Upstream records a sync could not post (refused, conflicting), one row per record, until posted (resolved) or dismissed.';

--
-- Name: COLUMN exceptions.upstream; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.upstream IS 'usbroker, remit, uaefeed, ...';

--
-- Name: COLUMN exceptions.record_key; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.record_key IS 'The record''s key upstream: the source_txn_id it posts under.';

--
-- Name: COLUMN exceptions.customer_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.customer_id IS 'The ledger customer the record belongs to, when known.';

--
-- Name: COLUMN exceptions.reason_code; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.reason_code IS 'Why, as a code: refused, conflict, unknown_customer, ...';

--
-- Name: COLUMN exceptions.reason; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.reason IS 'Why, in words, as the last run saw it.';

--
-- Name: COLUMN exceptions.record; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.record IS 'The record''s fields as the run saw them (never a credential).';

--
-- Name: COLUMN exceptions.job; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.job IS 'The run that last saw it (job:<kind>:<job_id>).';

--
-- Name: COLUMN exceptions.times_seen; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.times_seen IS 'How many runs found it.';

--
-- Name: COLUMN exceptions.state; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.state IS 'open; resolved (a later run posted it); dismissed (an operator, with a reason).';

--
-- Name: COLUMN exceptions.state_reason; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.state_reason IS 'Why it was dismissed, or what resolved it.';

--
-- Name: COLUMN exceptions.state_changed_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.exceptions.state_changed_by IS 'Who resolved or dismissed it (as transactions.posted_by).';

--
-- Name: exceptions_exception_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.exceptions ALTER COLUMN exception_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.exceptions_exception_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: holdings_snapshots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.holdings_snapshots (
    customer_id text NOT NULL,
    upstream text NOT NULL,
    as_of date NOT NULL,
    account text NOT NULL,
    currency text NOT NULL,
    positions jsonb NOT NULL,
    cash jsonb,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT holdings_snapshots_account_check CHECK (((length(account) >= 1) AND (length(account) <= 128))),
    CONSTRAINT holdings_snapshots_cash_object CHECK ((jsonb_typeof(cash) = 'object'::text)),
    CONSTRAINT holdings_snapshots_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT holdings_snapshots_customer_id_check CHECK (((length(customer_id) >= 1) AND (length(customer_id) <= 128))),
    CONSTRAINT holdings_snapshots_positions_array CHECK ((jsonb_typeof(positions) = 'array'::text)),
    CONSTRAINT holdings_snapshots_upstream CHECK ((upstream = ANY (ARRAY['custodian'::text, 'usbroker'::text])))
);

--
-- Name: TABLE holdings_snapshots; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.holdings_snapshots IS 'An upstream''s holdings of a customer at the end of as_of, as received (sync-holdings): positions an array of {symbol, quantity, cost, market_value, ...} with decimals as strings. Insert-only per (customer, upstream, day).';

--
-- Name: inr_rates; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.inr_rates (
    rate_date date NOT NULL,
    tt_buy numeric NOT NULL,
    mid numeric NOT NULL,
    source text NOT NULL,
    published_at timestamp without time zone NOT NULL,
    loaded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT inr_rates_mid_check CHECK ((mid > (0)::numeric)),
    CONSTRAINT inr_rates_mid_finite CHECK (((mid > '-Infinity'::numeric) AND (mid < 'Infinity'::numeric))),
    CONSTRAINT inr_rates_source_check CHECK (((length(source) >= 1) AND (length(source) <= 200))),
    CONSTRAINT inr_rates_tt_buy_check CHECK ((tt_buy > (0)::numeric)),
    CONSTRAINT inr_rates_tt_buy_finite CHECK (((tt_buy > '-Infinity'::numeric) AND (tt_buy < 'Infinity'::numeric)))
);

--
-- Name: TABLE inr_rates; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.inr_rates IS 'USD/INR per day for the India reports (INR per USD): SBI TT buying rate and a mid rate, loaded by POST /v1/jobs/load-fx-rates.';

--
-- Name: COLUMN inr_rates.tt_buy; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.inr_rates.tt_buy IS 'SBI TT buying rate, INR per USD (Rule 115).';

--
-- Name: COLUMN inr_rates.mid; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.inr_rates.mid IS 'Mid rate, INR per USD: the mean of TT buying and TT selling.';

--
-- Name: COLUMN inr_rates.source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.inr_rates.source IS 'Where the row came from (the file loaded).';

--
-- Name: COLUMN inr_rates.published_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.inr_rates.published_at IS 'The sheet''s own time (IST, as published): a later sheet of the same day replaces an earlier one.';

--
-- Name: issuers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.issuers (
    symbol text NOT NULL,
    entity_name text NOT NULL,
    address text NOT NULL,
    zip_code text NOT NULL,
    country text NOT NULL,
    nature_of_entity text NOT NULL,
    source text NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    instrument_type text,
    CONSTRAINT issuers_address_check CHECK (((length(address) >= 1) AND (length(address) <= 500))),
    CONSTRAINT issuers_country_check CHECK (((length(country) >= 1) AND (length(country) <= 100))),
    CONSTRAINT issuers_entity_name_check CHECK (((length(entity_name) >= 1) AND (length(entity_name) <= 200))),
    CONSTRAINT issuers_instrument_type_check CHECK ((instrument_type = ANY (ARRAY['share'::text, 'fund_unit'::text]))),
    CONSTRAINT issuers_nature_of_entity_check CHECK (((length(nature_of_entity) >= 1) AND (length(nature_of_entity) <= 200))),
    CONSTRAINT issuers_source_check CHECK (((length(source) >= 1) AND (length(source) <= 200))),
    CONSTRAINT issuers_symbol_check CHECK (((length(symbol) >= 1) AND (length(symbol) <= 32))),
    CONSTRAINT issuers_zip_code_check CHECK (((length(zip_code) >= 1) AND (length(zip_code) <= 20)))
);

--
-- Name: TABLE issuers; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.issuers IS 'The entity behind a symbol, as Schedule FA (table A3) names it: loaded from CSV.';

--
-- Name: COLUMN issuers.source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.issuers.source IS 'The file loaded.';

--
-- Name: COLUMN issuers.instrument_type; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.issuers.instrument_type IS 'share, or fund_unit (ETF and other fund units): decides the holding period for capital gains. Null: loaded before the column.';

--
-- Name: job_runs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_runs (
    job_id text NOT NULL,
    kind text NOT NULL,
    input jsonb NOT NULL,
    status text NOT NULL,
    attempts integer NOT NULL,
    first_started_at timestamp with time zone NOT NULL,
    attempt_started_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone,
    result jsonb,
    error text,
    lease_owner uuid,
    lease_expires_at timestamp with time zone,
    started_by text DEFAULT 'sql'::text NOT NULL,
    CONSTRAINT job_runs_attempts_positive CHECK ((attempts >= 1)),
    CONSTRAINT job_runs_finished_when_final CHECK (((status = 'running'::text) = (finished_at IS NULL))),
    CONSTRAINT job_runs_job_id_length CHECK (((length(job_id) >= 1) AND (length(job_id) <= 200))),
    CONSTRAINT job_runs_lease_has_expiry CHECK (((lease_owner IS NULL) = (lease_expires_at IS NULL))),
    CONSTRAINT job_runs_lease_while_running CHECK (((status = 'running'::text) OR (lease_owner IS NULL))),
    CONSTRAINT job_runs_result_when_done CHECK (((status = 'done'::text) = (result IS NOT NULL))),
    CONSTRAINT job_runs_started_by_length CHECK (((length(started_by) >= 1) AND (length(started_by) <= 300))),
    CONSTRAINT job_runs_status CHECK ((status = ANY (ARRAY['running'::text, 'done'::text, 'error'::text])))
);

--
-- Name: TABLE job_runs; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.job_runs IS 'One row per job that started: its attempts, the lease of the attempt running it, and its outcome (final once done or error).';

--
-- Name: COLUMN job_runs.job_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.job_id IS 'The BullMQ job id, as the job endpoint answered it.';

--
-- Name: COLUMN job_runs.kind; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.kind IS 'The job''s name, e.g. sync-usbroker.';

--
-- Name: COLUMN job_runs.input; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.input IS 'The job''s validated payload: a job Redis lost while it ran is queued again with it.';

--
-- Name: COLUMN job_runs.status; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.status IS 'running until done or error (final).';

--
-- Name: COLUMN job_runs.attempts; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.attempts IS 'Attempts started, whichever worker or delivery started them.';

--
-- Name: COLUMN job_runs.first_started_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.first_started_at IS 'When the first attempt started.';

--
-- Name: COLUMN job_runs.attempt_started_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.attempt_started_at IS 'When the current (or last) attempt started.';

--
-- Name: COLUMN job_runs.finished_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.finished_at IS 'When it became done or error.';

--
-- Name: COLUMN job_runs.result; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.result IS 'What the job reported, when done.';

--
-- Name: COLUMN job_runs.error; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.error IS 'Why it failed (error), or why the last attempt failed while it is retried.';

--
-- Name: COLUMN job_runs.lease_owner; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.lease_owner IS 'The attempt holding the run; null between attempts and once finished.';

--
-- Name: COLUMN job_runs.lease_expires_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.lease_expires_at IS 'Until when the holder''s lease stands; renewed while it runs; past it another attempt may take over.';

--
-- Name: COLUMN job_runs.started_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.job_runs.started_by IS 'Who queued the job (as transactions.posted_by): api[:<operator>], system when unknown to the worker; legacy before 20270209; sql when written by hand.';

--
-- Name: journal_lines; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.journal_lines (
    line_id bigint NOT NULL,
    txn_id uuid NOT NULL,
    account_code text NOT NULL,
    debit numeric DEFAULT 0 NOT NULL,
    credit numeric DEFAULT 0 NOT NULL,
    customer_id text,
    posting_kind text,
    txn_date date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    native_currency text,
    native_amount numeric,
    CONSTRAINT journal_lines_credit_cents CHECK ((credit = round(credit, 2))),
    CONSTRAINT journal_lines_credit_finite CHECK (((credit > '-Infinity'::numeric) AND (credit < 'Infinity'::numeric))),
    CONSTRAINT journal_lines_debit_cents CHECK ((debit = round(debit, 2))),
    CONSTRAINT journal_lines_debit_finite CHECK (((debit > '-Infinity'::numeric) AND (debit < 'Infinity'::numeric))),
    CONSTRAINT journal_lines_native_amount_cents CHECK (((native_amount = round(native_amount, 2)) AND ((native_amount > (0)::numeric) OR ((native_amount = (0)::numeric) AND (posting_kind = 'fx_rounding'::text) AND (account_code = '2020'::text))))),
    CONSTRAINT journal_lines_native_amount_finite CHECK (((native_amount > '-Infinity'::numeric) AND (native_amount < 'Infinity'::numeric))),
    CONSTRAINT journal_lines_native_currency_of_account CHECK (((native_currency IS NULL) OR ((native_currency = 'AED'::text) AND (account_code = ANY (ARRAY['1020'::text, '2020'::text]))))),
    CONSTRAINT journal_lines_native_pair CHECK (((native_currency IS NULL) = (native_amount IS NULL))),
    CONSTRAINT journal_lines_one_side CHECK (((debit >= (0)::numeric) AND (credit >= (0)::numeric) AND ((debit > (0)::numeric) <> (credit > (0)::numeric))))
);

--
-- Name: TABLE journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.journal_lines IS 'The journal: each transaction''s debit and credit lines. Append-only (never updated, deleted or truncated). Lines can be added only by the database transaction that created their transaction (journal_lines_after_insert), so a transaction balanced at its commit can never be unbalanced later.';

--
-- Name: COLUMN journal_lines.debit; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.debit IS 'Exactly one of debit and credit is positive, the other zero (journal_lines_one_side); finite, whole cents.';

--
-- Name: COLUMN journal_lines.credit; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.credit IS 'Exactly one of debit and credit is positive, the other zero (journal_lines_one_side); finite, whole cents.';

--
-- Name: COLUMN journal_lines.customer_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.customer_id IS 'Copied from the line''s transaction, checked equal at insert, so the journal is filtered and grouped by customer without a join.';

--
-- Name: COLUMN journal_lines.posting_kind; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.posting_kind IS 'Which leg of which posting rule wrote the line (deposit, brokerage_fee, ...); reports group by it.';

--
-- Name: COLUMN journal_lines.txn_date; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.txn_date IS 'Copied from the line''s transaction, checked equal at insert, so the journal is filtered and grouped by date without a join.';

--
-- Name: COLUMN journal_lines.native_currency; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.native_currency IS 'The currency of native_amount: ''AED'' on a line of an AED account (1020, 2020), else NULL (the line is in USD, the book''s currency).';

--
-- Name: COLUMN journal_lines.native_amount; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.journal_lines.native_amount IS 'The line''s amount in native_currency, positive, whole fils, on the line''s side (debit or credit, whichever is positive): an AED account''s AED balance is the sum of these, exact. NULL on a USD line, and on an AED line posted before 20270116 that 20270117 could not fill exactly (it shows its USD figure only).';

--
-- Name: CONSTRAINT journal_lines_native_amount_cents ON journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON CONSTRAINT journal_lines_native_amount_cents ON public.journal_lines IS 'A line''s AED amount is whole fils and positive; zero only on an fx_rounding line of 2020, which clears an emptied AED wallet''s USD rounding residue to 5090 and moves no AED.';

--
-- Name: journal_lines_line_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.journal_lines ALTER COLUMN line_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.journal_lines_line_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: ledger_commit_checks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_commit_checks (
    xid xid8 NOT NULL
);

--
-- Name: TABLE ledger_commit_checks; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.ledger_commit_checks IS 'One row per database transaction that posts transactions or lines, while it runs: its deferred constraint trigger ledger_commit_checks_balanced is the commit-time balance check, run once per database transaction and set-based, so bulk posting pays it once, not once per row. The check deletes the row. Written only by the SECURITY DEFINER insert checks.';

--
-- Name: COLUMN ledger_commit_checks.xid; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.ledger_commit_checks.xid IS 'The database transaction (pg_current_xact_id()) whose postings are checked at its COMMIT.';

--
-- Name: lot_matches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.lot_matches (
    derivation_txn_id uuid NOT NULL,
    lot_txn_id uuid NOT NULL,
    sell_txn_id uuid NOT NULL,
    customer_id text NOT NULL,
    symbol text NOT NULL,
    acquired_on date NOT NULL,
    transferred_on date NOT NULL,
    quantity numeric NOT NULL,
    cost_usd numeric NOT NULL,
    CONSTRAINT lot_matches_cost_usd_check CHECK (((cost_usd >= (0)::numeric) AND (cost_usd = round(cost_usd, 2)))),
    CONSTRAINT lot_matches_cost_usd_finite CHECK (((cost_usd > '-Infinity'::numeric) AND (cost_usd < 'Infinity'::numeric))),
    CONSTRAINT lot_matches_dates_ordered CHECK ((acquired_on <= transferred_on)),
    CONSTRAINT lot_matches_quantity_check CHECK ((quantity > (0)::numeric)),
    CONSTRAINT lot_matches_quantity_finite CHECK (((quantity > '-Infinity'::numeric) AND (quantity < 'Infinity'::numeric)))
);

--
-- Name: TABLE lot_matches; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.lot_matches IS 'What a sale took from each FIFO lot, copied from its recost derivation''s metadata.lots by transactions_copy_lot_matches as the entry is inserted. In effect while the derivation has no reversal.';

--
-- Name: COLUMN lot_matches.derivation_txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.derivation_txn_id IS 'The recost entry stating the match (its reversal supersedes it).';

--
-- Name: COLUMN lot_matches.lot_txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.lot_txn_id IS 'The buy whose lot the sale consumed.';

--
-- Name: COLUMN lot_matches.sell_txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.sell_txn_id IS 'The sale (sell_security).';

--
-- Name: COLUMN lot_matches.acquired_on; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.acquired_on IS 'The buy''s trade date: the acquisition date.';

--
-- Name: COLUMN lot_matches.transferred_on; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.transferred_on IS 'The sale''s trade date: the transfer date (the derivation''s metadata.original_txn_date when it was restated into an open period, else its txn_date).';

--
-- Name: COLUMN lot_matches.quantity; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.quantity IS 'Shares taken from the lot.';

--
-- Name: COLUMN lot_matches.cost_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lot_matches.cost_usd IS 'Their cost as the ledger relieves it (USD, fees excluded).';

--
-- Name: lrs_prior_usage; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.lrs_prior_usage (
    pan text NOT NULL,
    fy text NOT NULL,
    amount_usd numeric NOT NULL,
    amount_inr numeric NOT NULL,
    note text,
    declared_at timestamp with time zone DEFAULT now() NOT NULL,
    declared_by text NOT NULL,
    CONSTRAINT lrs_prior_usage_amount_inr_check CHECK (((amount_inr >= (0)::numeric) AND (amount_inr = round(amount_inr, 2)))),
    CONSTRAINT lrs_prior_usage_amount_inr_finite CHECK (((amount_inr > '-Infinity'::numeric) AND (amount_inr < 'Infinity'::numeric))),
    CONSTRAINT lrs_prior_usage_amount_usd_check CHECK (((amount_usd >= (0)::numeric) AND (amount_usd = round(amount_usd, 2)))),
    CONSTRAINT lrs_prior_usage_amount_usd_finite CHECK (((amount_usd > '-Infinity'::numeric) AND (amount_usd < 'Infinity'::numeric))),
    CONSTRAINT lrs_prior_usage_declared_by_check CHECK (((length(declared_by) >= 1) AND (length(declared_by) <= 200))),
    CONSTRAINT lrs_prior_usage_fy_format CHECK ((fy ~ '^[0-9]{4}-[0-9]{2}$'::text)),
    CONSTRAINT lrs_prior_usage_note_check CHECK ((length(note) <= 1000)),
    CONSTRAINT lrs_prior_usage_pan_format CHECK ((pan ~ '^[A-Z]{5}[0-9]{4}[A-Z]$'::text))
);

--
-- Name: TABLE lrs_prior_usage; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.lrs_prior_usage IS 'LRS remitted by a PAN in a FY through other banks, as declared: counted by the LRS limit and the TCS threshold before the book''s own remittances.';

--
-- Name: COLUMN lrs_prior_usage.fy; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lrs_prior_usage.fy IS 'The financial year, YYYY-YY.';

--
-- Name: COLUMN lrs_prior_usage.amount_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lrs_prior_usage.amount_usd IS 'USD counted against the LRS limit.';

--
-- Name: COLUMN lrs_prior_usage.amount_inr; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.lrs_prior_usage.amount_inr IS 'INR counted against the TCS threshold.';

--
-- Name: portfolio_snapshots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.portfolio_snapshots (
    customer_id text NOT NULL,
    upstream text NOT NULL,
    as_of date NOT NULL,
    positions jsonb NOT NULL,
    cash jsonb,
    taken_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT portfolio_snapshots_cash_object CHECK ((jsonb_typeof(cash) = 'object'::text)),
    CONSTRAINT portfolio_snapshots_customer_id_check CHECK (((length(customer_id) >= 1) AND (length(customer_id) <= 128))),
    CONSTRAINT portfolio_snapshots_positions_array CHECK ((jsonb_typeof(positions) = 'array'::text)),
    CONSTRAINT portfolio_snapshots_upstream CHECK ((upstream = ANY (ARRAY['custodian'::text, 'usbroker'::text])))
);

--
-- Name: TABLE portfolio_snapshots; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.portfolio_snapshots IS 'The customer views'' fallback when an upstream is down: the latest portfolio read per customer and upstream (refresh-snapshots, and every successful live read), replaced each time; taken_at says how old it is.';

--
-- Name: reconciliation_check_cycles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reconciliation_check_cycles (
    check_name text NOT NULL,
    cycle bigint,
    claimed_at timestamp with time zone DEFAULT now() NOT NULL,
    full_swept_at timestamp with time zone,
    swept_snapshot pg_snapshot
);

--
-- Name: TABLE reconciliation_check_cycles; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.reconciliation_check_cycles IS 'The last scheduled cycle each check was claimed for (cycle = floor(epoch seconds / its category''s interval)): a recon process runs a scheduled check only if it moves the cycle forward, so several processes of a book run each check once per cycle.';

--
-- Name: COLUMN reconciliation_check_cycles.cycle; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.reconciliation_check_cycles.cycle IS 'The last scheduled cycle the check was claimed for; null: never run by the scheduler.';

--
-- Name: COLUMN reconciliation_check_cycles.full_swept_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.reconciliation_check_cycles.full_swept_at IS 'When the check last swept the whole book clean.';

--
-- Name: COLUMN reconciliation_check_cycles.swept_snapshot; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.reconciliation_check_cycles.swept_snapshot IS 'High-water mark: the snapshot of the check''s last clean run (pg_current_snapshot()); an incremental run looks only at the transactions it did not see: created_xid at or after its xmax, or in progress when it was taken. Null: the next run is a full sweep.';

--
-- Name: reconciliation_runs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reconciliation_runs (
    run_id uuid NOT NULL,
    started_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    category text,
    status text NOT NULL,
    results jsonb NOT NULL,
    metadata jsonb NOT NULL,
    CONSTRAINT reconciliation_runs_category CHECK ((category = ANY (ARRAY['A'::text, 'B'::text, 'C'::text, 'D'::text]))),
    CONSTRAINT reconciliation_runs_finished_after_started CHECK ((finished_at >= started_at)),
    CONSTRAINT reconciliation_runs_metadata_object CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT reconciliation_runs_results_array CHECK ((jsonb_typeof(results) = 'array'::text)),
    CONSTRAINT reconciliation_runs_status CHECK ((status = ANY (ARRAY['ok'::text, 'warn'::text, 'fail'::text])))
);

--
-- Name: TABLE reconciliation_runs; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.reconciliation_runs IS 'One reconciliation run (docs/reconciliation.md): results holds one {check_name, category, status, metrics, ran_at} per check run, status the worst of them, metadata.variances the rows that broke a check (metadata.skipped: checks another instance held). category null: every category. Written whole when the run ends; never changed.';

--
-- Name: reconciliation_variances; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reconciliation_variances (
    run_id uuid NOT NULL,
    ordinal integer NOT NULL,
    check_name text NOT NULL,
    txn_id uuid,
    source_txn_id text,
    customer_id text,
    account_code text,
    symbol text,
    expected numeric,
    actual numeric,
    difference numeric,
    detail jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT reconciliation_variances_actual_finite CHECK (((actual > '-Infinity'::numeric) AND (actual < 'Infinity'::numeric))),
    CONSTRAINT reconciliation_variances_detail_object CHECK ((jsonb_typeof(detail) = 'object'::text)),
    CONSTRAINT reconciliation_variances_difference_finite CHECK (((difference > '-Infinity'::numeric) AND (difference < 'Infinity'::numeric))),
    CONSTRAINT reconciliation_variances_expected_finite CHECK (((expected > '-Infinity'::numeric) AND (expected < 'Infinity'::numeric))),
    CONSTRAINT reconciliation_variances_ordinal_check CHECK ((ordinal >= 0))
);

--
-- Name: TABLE reconciliation_variances; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.reconciliation_variances IS 'Each variance of a run, one row each (written with the run when ALERT_PERSIST_ENABLED): what broke which check, with the ledger''s expected figure, the actual one and their difference. ordinal is its place in the run''s metadata.variances. Never changed.';

--
-- Name: recost_flags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.recost_flags (
    txn_id uuid NOT NULL,
    reason text NOT NULL,
    detail jsonb DEFAULT '{}'::jsonb NOT NULL,
    flagged_at timestamp with time zone DEFAULT now() NOT NULL,
    cleared_at timestamp with time zone
);

--
-- Name: recost_states; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.recost_states (
    txn_id uuid NOT NULL,
    txn_date date NOT NULL,
    posted_at timestamp with time zone NOT NULL,
    recosted_at timestamp with time zone
);

--
-- Name: TABLE recost_states; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.recost_states IS 'Recost''s state of each transaction that has ever been pending recost: recosted_at null while pending (recost takes them in txn_date, posted_at, txn_id order), else when recost last derived it. A transaction without a row was never pending (its recosted_at is its posted_at). Only recosted_at may change.';

--
-- Name: remittances; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.remittances (
    order_id text NOT NULL,
    customer_id text NOT NULL,
    remit_customer_id text NOT NULL,
    pan text,
    status text NOT NULL,
    purpose_code text,
    reference_number text,
    amount_inr numeric NOT NULL,
    amount_usd numeric,
    quote_id text,
    quoted_at timestamp with time zone,
    quote_expires_at timestamp with time zone,
    fx_rate numeric,
    mid_rate numeric,
    mid_rate_source text,
    mid_rate_at timestamp with time zone,
    tcs_inr numeric,
    payment_id text,
    payment_status text,
    funds_available boolean,
    payment_error_code text,
    paid_at timestamp with time zone,
    settlement_id text,
    settlement_status text,
    settlement_amount_usd numeric,
    utr text,
    settled_at timestamp with time zone,
    remitted_on date NOT NULL,
    order_created_at timestamp with time zone NOT NULL,
    order_updated_at timestamp with time zone NOT NULL,
    status_history jsonb NOT NULL,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    settlement_fx_fee_usd numeric,
    settlement_txn_fee_usd numeric,
    CONSTRAINT remittances_amount_inr_finite CHECK (((amount_inr > '-Infinity'::numeric) AND (amount_inr < 'Infinity'::numeric))),
    CONSTRAINT remittances_amount_inr_paise CHECK (((amount_inr > (0)::numeric) AND (amount_inr < 'Infinity'::numeric) AND (amount_inr = round(amount_inr, 2)))),
    CONSTRAINT remittances_amount_usd_cents CHECK (((amount_usd > (0)::numeric) AND (amount_usd < 'Infinity'::numeric) AND (amount_usd = round(amount_usd, 2)))),
    CONSTRAINT remittances_amount_usd_finite CHECK (((amount_usd > '-Infinity'::numeric) AND (amount_usd < 'Infinity'::numeric))),
    CONSTRAINT remittances_fx_rate_finite CHECK (((fx_rate > '-Infinity'::numeric) AND (fx_rate < 'Infinity'::numeric))),
    CONSTRAINT remittances_history_array CHECK ((jsonb_typeof(status_history) = 'array'::text)),
    CONSTRAINT remittances_mid_rate_finite CHECK (((mid_rate > '-Infinity'::numeric) AND (mid_rate < 'Infinity'::numeric))),
    CONSTRAINT remittances_mid_rate_sourced CHECK ((((mid_rate IS NULL) = (mid_rate_source IS NULL)) AND ((mid_rate IS NULL) = (mid_rate_at IS NULL)))),
    CONSTRAINT remittances_order_id_check CHECK ((order_id ~ '^order_[A-Za-z0-9_-]+$'::text)),
    CONSTRAINT remittances_pan_format CHECK ((pan ~ '^[A-Z]{5}[0-9]{4}[A-Z]$'::text)),
    CONSTRAINT remittances_purpose_code_check CHECK ((purpose_code ~ '^[A-Z][0-9]{4}$'::text)),
    CONSTRAINT remittances_quote_priced CHECK ((((quote_id IS NULL) = (amount_usd IS NULL)) AND ((quote_id IS NULL) = (fx_rate IS NULL)))),
    CONSTRAINT remittances_rates_positive CHECK (((fx_rate > (0)::numeric) AND (fx_rate < 'Infinity'::numeric) AND (mid_rate > (0)::numeric) AND (mid_rate < 'Infinity'::numeric))),
    CONSTRAINT remittances_remit_customer_id_check CHECK ((remit_customer_id ~ '^cust_[A-Za-z0-9_-]+$'::text)),
    CONSTRAINT remittances_settlement_amount_usd_finite CHECK (((settlement_amount_usd > '-Infinity'::numeric) AND (settlement_amount_usd < 'Infinity'::numeric))),
    CONSTRAINT remittances_settlement_cents CHECK (((settlement_amount_usd >= (0)::numeric) AND (settlement_amount_usd < 'Infinity'::numeric) AND (settlement_amount_usd = round(settlement_amount_usd, 2)))),
    CONSTRAINT remittances_settlement_fx_fee_cents CHECK (((settlement_fx_fee_usd >= (0)::numeric) AND (settlement_fx_fee_usd < 'Infinity'::numeric) AND (settlement_fx_fee_usd = round(settlement_fx_fee_usd, 2)))),
    CONSTRAINT remittances_settlement_fx_fee_usd_finite CHECK (((settlement_fx_fee_usd > '-Infinity'::numeric) AND (settlement_fx_fee_usd < 'Infinity'::numeric))),
    CONSTRAINT remittances_settlement_txn_fee_cents CHECK (((settlement_txn_fee_usd >= (0)::numeric) AND (settlement_txn_fee_usd < 'Infinity'::numeric) AND (settlement_txn_fee_usd = round(settlement_txn_fee_usd, 2)))),
    CONSTRAINT remittances_settlement_txn_fee_usd_finite CHECK (((settlement_txn_fee_usd > '-Infinity'::numeric) AND (settlement_txn_fee_usd < 'Infinity'::numeric))),
    CONSTRAINT remittances_status CHECK ((status = ANY (ARRAY['active'::text, 'action_required'::text, 'under_review'::text, 'paid'::text, 'failed'::text, 'cancelled'::text, 'expired'::text]))),
    CONSTRAINT remittances_tcs_inr_finite CHECK (((tcs_inr > '-Infinity'::numeric) AND (tcs_inr < 'Infinity'::numeric))),
    CONSTRAINT remittances_tcs_paise CHECK (((tcs_inr >= (0)::numeric) AND (tcs_inr < 'Infinity'::numeric) AND (tcs_inr = round(tcs_inr, 2))))
);

--
-- Name: TABLE remittances; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.remittances IS 'LRS remittance orders of remit (sync-remit): the order, its quote, its payment and its settlement as last seen. The USD is not posted from here (the broker wire posts it); fx_spread and fx_spread_settle are posted with source remit and keys fx_spread:<order_id>, fx_spread_settle:<order_id>. A stale snapshot (lower status rank: on the way < paid < failed/cancelled/expired) never overwrites a later status.';

--
-- Name: COLUMN remittances.pan; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.pan IS 'The customer''s PAN when the order was synced (LRS and TCS are per PAN).';

--
-- Name: COLUMN remittances.amount_inr; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.amount_inr IS 'The order''s INR (remit''s paise as rupees): the quote''s from.amount.';

--
-- Name: COLUMN remittances.amount_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.amount_usd IS 'The order''s USD (the quote''s to.amount); null without a quote.';

--
-- Name: COLUMN remittances.fx_rate; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.fx_rate IS 'The customer''s rate, USD per INR, as quoted.';

--
-- Name: COLUMN remittances.mid_rate; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.mid_rate IS 'remit''s mid-market rate, USD per INR, when known: read while the quote was still live (mid_rate_at), never overwritten.';

--
-- Name: COLUMN remittances.tcs_inr; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.tcs_inr IS 'TCS collected by remit (the quote''s total_tax), INR.';

--
-- Name: COLUMN remittances.remitted_on; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.remitted_on IS 'The remittance''s date (FY, LRS, TCS): its paying payment''s created_at date in IST, else the order''s.';

--
-- Name: COLUMN remittances.status_history; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.status_history IS '[{status, at}]: each status the ledger saw, at the order''s updated_at.';

--
-- Name: COLUMN remittances.settlement_fx_fee_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.settlement_fx_fee_usd IS 'The settlement''s FX fee (remit fees.fx_fee), USD: posted to 5030 by fx_spread_settle. Null until read.';

--
-- Name: COLUMN remittances.settlement_txn_fee_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.remittances.settlement_txn_fee_usd IS 'The settlement''s transaction fee (remit fees.txn_fee), USD: posted to 5030 by fx_spread_settle. Null until read.';

--
-- Name: stock_splits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stock_splits (
    split_id uuid NOT NULL,
    source text NOT NULL,
    source_txn_id text NOT NULL,
    customer_id text NOT NULL,
    symbol text NOT NULL,
    effective_on date NOT NULL,
    shares numeric NOT NULL,
    ratio numeric NOT NULL,
    source_row jsonb DEFAULT '{}'::jsonb NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT stock_splits_ratio_check CHECK ((ratio > (0)::numeric)),
    CONSTRAINT stock_splits_ratio_finite CHECK (((ratio > '-Infinity'::numeric) AND (ratio < 'Infinity'::numeric))),
    CONSTRAINT stock_splits_shares_check CHECK (((shares <> (0)::numeric) AND (shares = round(shares, 8)))),
    CONSTRAINT stock_splits_shares_finite CHECK (((shares > '-Infinity'::numeric) AND (shares < 'Infinity'::numeric))),
    CONSTRAINT stock_splits_source_txn_id_check CHECK (((length(source_txn_id) >= 1) AND (length(source_txn_id) <= 256)))
);

--
-- Name: TABLE stock_splits; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.stock_splits IS 'Forward and reverse splits of a customer''s holding (usbroker SPLIT rows): shares of every open lot change, cost and acquisition dates do not. Moves no money, so no journal transaction: positions add its shares, recost applies it to the lots. Insert-only.';

--
-- Name: COLUMN stock_splits.split_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.split_id IS 'The split''s id (recost orders it among the pair''s trades).';

--
-- Name: COLUMN stock_splits.source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.source IS 'Who reported it (usbroker).';

--
-- Name: COLUMN stock_splits.source_txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.source_txn_id IS 'The upstream row''s key (the SPLIT row''s txn_no): a split is recorded once.';

--
-- Name: COLUMN stock_splits.customer_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.customer_id IS 'The customer whose holding split.';

--
-- Name: COLUMN stock_splits.symbol; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.symbol IS 'The symbol that split.';

--
-- Name: COLUMN stock_splits.effective_on; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.effective_on IS 'The effective (ex) date: trades of that day and later are in post-split shares.';

--
-- Name: COLUMN stock_splits.shares; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.shares IS 'Shares added (positive, forward split) or removed (negative, reverse split) by the split, before any cash in lieu.';

--
-- Name: COLUMN stock_splits.ratio; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.ratio IS 'New shares per old share as the broker states it (4 for 4-for-1, 0.1 for 1-for-10); kept for reading, the lots follow shares.';

--
-- Name: COLUMN stock_splits.source_row; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.source_row IS 'The upstream row as read.';

--
-- Name: COLUMN stock_splits.recorded_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.stock_splits.recorded_at IS 'When the ledger recorded it.';

--
-- Name: transaction_daily_totals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.transaction_daily_totals (
    day date NOT NULL,
    txn_type text NOT NULL,
    slot smallint NOT NULL,
    txn_count bigint DEFAULT 0 NOT NULL,
    amount_usd_total numeric DEFAULT 0 NOT NULL,
    CONSTRAINT transaction_daily_totals_amount_usd_total_finite CHECK (((amount_usd_total > '-Infinity'::numeric) AND (amount_usd_total < 'Infinity'::numeric)))
);

--
-- Name: TABLE transaction_daily_totals; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.transaction_daily_totals IS 'Per txn_date and txn_type: the transactions posted and their amount_usd. Moved only by ledger_after_transactions_inserted, in the statement that posts them. Read summed over slots.';

--
-- Name: COLUMN transaction_daily_totals.slot; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transaction_daily_totals.slot IS 'pg_backend_pid() % 16 of the posting session, as account_totals.slot.';

--
-- Name: transactions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.transactions (
    txn_id uuid NOT NULL,
    customer_id text,
    txn_type text NOT NULL,
    source text NOT NULL,
    source_txn_id text NOT NULL,
    category text NOT NULL,
    symbol text,
    quantity numeric,
    txn_date date NOT NULL,
    posted_at timestamp with time zone DEFAULT now() NOT NULL,
    amount_usd numeric NOT NULL,
    original_currency text,
    original_amount numeric,
    fx_rate numeric,
    reverses_txn_id uuid,
    memo text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    request_hash text,
    created_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    posted_by text DEFAULT 'sql'::text NOT NULL,
    CONSTRAINT transactions_amount_usd_cents CHECK ((amount_usd = round(amount_usd, 2))),
    CONSTRAINT transactions_amount_usd_check CHECK ((amount_usd >= (0)::numeric)),
    CONSTRAINT transactions_amount_usd_finite CHECK (((amount_usd > '-Infinity'::numeric) AND (amount_usd < 'Infinity'::numeric))),
    CONSTRAINT transactions_fx_rate_check CHECK ((fx_rate > (0)::numeric)),
    CONSTRAINT transactions_fx_rate_finite CHECK (((fx_rate > '-Infinity'::numeric) AND (fx_rate < 'Infinity'::numeric))),
    CONSTRAINT transactions_original_amount_cents CHECK ((original_amount = round(original_amount, 2))),
    CONSTRAINT transactions_original_amount_check CHECK ((original_amount >= (0)::numeric)),
    CONSTRAINT transactions_original_amount_finite CHECK (((original_amount > '-Infinity'::numeric) AND (original_amount < 'Infinity'::numeric))),
    CONSTRAINT transactions_original_currency_check CHECK ((original_currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT transactions_original_pair CHECK (((original_currency IS NULL) = (original_amount IS NULL))),
    CONSTRAINT transactions_posted_by_check CHECK (((length(posted_by) >= 1) AND (length(posted_by) <= 300))),
    CONSTRAINT transactions_quantity_8_places CHECK ((quantity = round(quantity, 8))),
    CONSTRAINT transactions_quantity_check CHECK ((quantity > (0)::numeric)),
    CONSTRAINT transactions_quantity_finite CHECK (((quantity > '-Infinity'::numeric) AND (quantity < 'Infinity'::numeric))),
    CONSTRAINT transactions_source_check CHECK ((source = ANY (ARRAY['manual'::text, 'ledger'::text, 'uaefeed'::text, 'custodian'::text, 'usbroker'::text, 'remit'::text, 'recost'::text]))),
    CONSTRAINT transactions_source_txn_id_check CHECK (((length(source_txn_id) >= 1) AND (length(source_txn_id) <= 256)))
);

--
-- Name: TABLE transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.transactions IS 'One row per posted ledger transaction; its journal lines balance (checked at COMMIT by ledger_commit_checks_balanced). Append-only: never updated nor deleted (transactions_guard_update); corrections are reversing transactions, recost''s state is in recost_states. (source, source_txn_id) is the idempotency key. See docs/adr/0001.';

--
-- Name: COLUMN transactions.customer_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.customer_id IS 'The customer the transaction belongs to, NULL when it concerns none (e.g. a firm-level adjustment). Checked to exist per INSERT statement (ledger_transaction_customer_known): one set-based check instead of a foreign-key lookup per row.';

--
-- Name: COLUMN transactions.source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.source IS 'Where the transaction came from: manual, ledger (its own entries, e.g. reversals) or an upstream. A fixed set: a new upstream needs a migration.';

--
-- Name: COLUMN transactions.source_txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.source_txn_id IS 'The source''s id of the record posted. (source, source_txn_id) is unique (transactions_source_txn_unique): posting the same record twice stores it once.';

--
-- Name: COLUMN transactions.quantity; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.quantity IS 'Units of symbol traded: finite, at most 8 decimal places.';

--
-- Name: COLUMN transactions.posted_at; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.posted_at IS 'Stamped by the database: the start of the posting database transaction, now(); it cannot be given (ledger_posting_stamp). With created_xid, how the commit check finds what a database transaction posted, through transactions_posted_at_idx.';

--
-- Name: COLUMN transactions.amount_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.amount_usd IS 'The amount in USD: numeric, never a float; finite and in whole cents (20261125).';

--
-- Name: COLUMN transactions.reverses_txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.reverses_txn_id IS 'For a reversal, the transaction it undoes (corrections are reversing entries, never edits). Checked to exist per INSERT statement (ledger_reversed_transaction_known); at most one reversal per original (transactions_one_reversal).';

--
-- Name: COLUMN transactions.request_hash; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.request_hash IS 'Fingerprint (sha256 of the canonical entry) of what the first posting of this key asked for: a repeat with the same fingerprint answers the stored transaction, a different one is an idempotency conflict (409).';

--
-- Name: COLUMN transactions.created_xid; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.created_xid IS 'The database transaction that posted this transaction, stamped by the database and never given (ledger_posting_stamp), so no caller can hide a transaction from the commit check. Journal lines may be added only by this same database transaction.';

--
-- Name: COLUMN transactions.posted_by; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.transactions.posted_by IS 'Who posted it: api[:<operator>], job:<kind>:<job_id>, webhook:<upstream>:<event>:<job_id>, system; legacy before 20261231; sql when written by hand.';

--
-- Name: uaefeed_statements; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.uaefeed_statements (
    customer_id text NOT NULL,
    kind text NOT NULL,
    month text NOT NULL,
    body text NOT NULL,
    body_sha256 text NOT NULL,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT uaefeed_statements_body_sha256_check CHECK ((body_sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT uaefeed_statements_customer_id_check CHECK (((length(customer_id) >= 1) AND (length(customer_id) <= 128))),
    CONSTRAINT uaefeed_statements_kind CHECK ((kind = ANY (ARRAY['cash'::text, 'holdings'::text]))),
    CONSTRAINT uaefeed_statements_month CHECK ((month ~ '^\d{4}-(0[1-9]|1[0-2])$'::text))
);

--
-- Name: TABLE uaefeed_statements; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.uaefeed_statements IS 'uaefeed''s monthly cash or holdings statement of a customer (sync-uaefeed-statements), the body exactly as received; never posted. Insert-only per content (body_sha256).';

--
-- Name: variance_sightings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.variance_sightings (
    run_id uuid NOT NULL,
    ordinal integer NOT NULL,
    variance_id bigint NOT NULL,
    seen_at timestamp with time zone NOT NULL,
    CONSTRAINT variance_sightings_ordinal CHECK ((ordinal >= 0))
);

--
-- Name: TABLE variance_sightings; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.variance_sightings IS 'Each run that saw a variance: ordinal is its place in the run''s metadata.variances. Insert-only.';

--
-- Name: variance_triage; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.variance_triage (
    variance_id bigint NOT NULL,
    identity_key text NOT NULL,
    check_name text NOT NULL,
    txn_id uuid,
    source_txn_id text,
    customer_id text,
    account_code text,
    symbol text,
    kind text,
    state text NOT NULL,
    assignee text,
    present boolean NOT NULL,
    judged_at timestamp with time zone NOT NULL,
    first_seen_run_id uuid NOT NULL,
    first_seen_at timestamp with time zone NOT NULL,
    last_seen_run_id uuid NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    times_seen integer NOT NULL,
    expected numeric,
    actual numeric,
    difference numeric,
    detail jsonb NOT NULL,
    state_changed_at timestamp with time zone NOT NULL,
    state_changed_by text NOT NULL,
    CONSTRAINT variance_triage_actual_finite CHECK (((actual > '-Infinity'::numeric) AND (actual < 'Infinity'::numeric))),
    CONSTRAINT variance_triage_assigned_to_someone CHECK (((state <> 'assigned'::text) OR (assignee IS NOT NULL))),
    CONSTRAINT variance_triage_detail_object CHECK ((jsonb_typeof(detail) = 'object'::text)),
    CONSTRAINT variance_triage_difference_finite CHECK (((difference > '-Infinity'::numeric) AND (difference < 'Infinity'::numeric))),
    CONSTRAINT variance_triage_expected_finite CHECK (((expected > '-Infinity'::numeric) AND (expected < 'Infinity'::numeric))),
    CONSTRAINT variance_triage_state CHECK ((state = ANY (ARRAY['open'::text, 'acknowledged'::text, 'assigned'::text, 'resolved'::text]))),
    CONSTRAINT variance_triage_times_seen CHECK ((times_seen >= 1))
);

--
-- Name: TABLE variance_triage; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.variance_triage IS 'One reconciliation variance across runs (docs/reconciliation.md#variance-triage): identity_key is the check and what the variance names (txn_id, source_txn_id, customer_id, account_code, symbol) with its kind (detail.problem). state: open, acknowledged, assigned (assignee), resolved. present: the latest run of its check that could judge it saw it (judged_at: that check result''s ran_at). The figures and detail are the last seen. Identity and first sighting never change; never deleted.';

--
-- Name: variance_triage_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.variance_triage_events (
    event_id bigint NOT NULL,
    variance_id bigint NOT NULL,
    action text NOT NULL,
    state text NOT NULL,
    assignee text,
    note text,
    run_id uuid,
    actor text NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT variance_triage_events_action CHECK ((action = ANY (ARRAY['opened'::text, 'acknowledged'::text, 'assigned'::text, 'noted'::text, 'resolved'::text, 'reopened'::text]))),
    CONSTRAINT variance_triage_events_state CHECK ((state = ANY (ARRAY['open'::text, 'acknowledged'::text, 'assigned'::text, 'resolved'::text])))
);

--
-- Name: TABLE variance_triage_events; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.variance_triage_events IS 'Every change of a variance''s triage: opened, reopened or resolved by a run (run_id), or acknowledged, assigned, noted or resolved by an operator, with the actor (docs/actors.md), the state after, the assignee and the note. Insert-only.';

--
-- Name: variance_triage_events_event_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.variance_triage_events ALTER COLUMN event_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.variance_triage_events_event_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: variance_triage_variance_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.variance_triage ALTER COLUMN variance_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.variance_triage_variance_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: year_closes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.year_closes (
    year_close_id bigint NOT NULL,
    action text NOT NULL,
    fy_start date NOT NULL,
    fy_end date NOT NULL,
    txn_id uuid,
    net_income_usd numeric NOT NULL,
    reason text,
    actor text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT year_closes_a_year CHECK (((fy_start < fy_end) AND (fy_end < (fy_start + 366)))),
    CONSTRAINT year_closes_action CHECK ((action = ANY (ARRAY['close'::text, 'reopen'::text]))),
    CONSTRAINT year_closes_actor_length CHECK (((length(actor) >= 1) AND (length(actor) <= 300))),
    CONSTRAINT year_closes_net_income_usd_finite CHECK (((net_income_usd > '-Infinity'::numeric) AND (net_income_usd < 'Infinity'::numeric))),
    CONSTRAINT year_closes_reason_length CHECK (((length(reason) >= 1) AND (length(reason) <= 1000))),
    CONSTRAINT year_closes_reopen_has_reason CHECK (((action = 'close'::text) OR (reason IS NOT NULL)))
);

--
-- Name: TABLE year_closes; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.year_closes IS 'Closings of financial years to 3000 and their reopenings, append-only: the latest row of a year is its state.';

--
-- Name: COLUMN year_closes.txn_id; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.year_closes.txn_id IS 'close: the closing entry (null: nothing to carry); reopen: its reversal.';

--
-- Name: COLUMN year_closes.net_income_usd; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.year_closes.net_income_usd IS 'Revenue less expenses the closing entry carried to 3000.';

--
-- Name: COLUMN year_closes.actor; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.year_closes.actor IS 'Who: api, or api:<X-Ledger-Actor>.';

--
-- Name: year_closes_year_close_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.year_closes ALTER COLUMN year_close_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.year_closes_year_close_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: account_daily_totals account_daily_totals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_daily_totals
    ADD CONSTRAINT account_daily_totals_pkey PRIMARY KEY (account_code, day, posting_kind, slot);

--
-- Name: account_totals account_totals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_totals
    ADD CONSTRAINT account_totals_pkey PRIMARY KEY (account_code, slot);

--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (account_code);

--
-- Name: broker_fees broker_fees_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.broker_fees
    ADD CONSTRAINT broker_fees_pkey PRIMARY KEY (source, source_txn_id);

--
-- Name: cash_requests cash_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cash_requests
    ADD CONSTRAINT cash_requests_pkey PRIMARY KEY (cash_request_id);

--
-- Name: cash_requests cash_requests_txn_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cash_requests
    ADD CONSTRAINT cash_requests_txn_unique UNIQUE (txn_id);

--
-- Name: cash_statements cash_statements_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cash_statements
    ADD CONSTRAINT cash_statements_pkey PRIMARY KEY (customer_id, upstream, account, month, statement_sha256);

--
-- Name: close_prices close_prices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.close_prices
    ADD CONSTRAINT close_prices_pkey PRIMARY KEY (symbol, price_date);

--
-- Name: cost_inflation_index cost_inflation_index_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cost_inflation_index
    ADD CONSTRAINT cost_inflation_index_pkey PRIMARY KEY (fy);

--
-- Name: customers customers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.customers
    ADD CONSTRAINT customers_pkey PRIMARY KEY (customer_id);

--
-- Name: dividend_events dividend_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dividend_events
    ADD CONSTRAINT dividend_events_pkey PRIMARY KEY (div_txn_no);

--
-- Name: exceptions exceptions_one_per_record; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.exceptions
    ADD CONSTRAINT exceptions_one_per_record UNIQUE (upstream, record_key);

--
-- Name: exceptions exceptions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.exceptions
    ADD CONSTRAINT exceptions_pkey PRIMARY KEY (exception_id);

--
-- Name: holdings_snapshots holdings_snapshots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.holdings_snapshots
    ADD CONSTRAINT holdings_snapshots_pkey PRIMARY KEY (customer_id, upstream, as_of);

--
-- Name: inr_rates inr_rates_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.inr_rates
    ADD CONSTRAINT inr_rates_pkey PRIMARY KEY (rate_date);

--
-- Name: issuers issuers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.issuers
    ADD CONSTRAINT issuers_pkey PRIMARY KEY (symbol);

--
-- Name: job_runs job_runs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_runs
    ADD CONSTRAINT job_runs_pkey PRIMARY KEY (job_id);

--
-- Name: journal_lines journal_lines_aed_line_has_native_amount; Type: CHECK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE public.journal_lines
    ADD CONSTRAINT journal_lines_aed_line_has_native_amount CHECK (((account_code <> ALL (ARRAY['1020'::text, '2020'::text])) OR (native_currency IS NOT NULL))) NOT VALID;

--
-- Name: CONSTRAINT journal_lines_aed_line_has_native_amount ON journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON CONSTRAINT journal_lines_aed_line_has_native_amount ON public.journal_lines IS 'A line on an AED account (1020, 2020) carries its AED amount. NOT VALID: lines posted before 20270116 are not checked (the journal cannot be corrected in place).';

--
-- Name: journal_lines journal_lines_customer_account_has_customer; Type: CHECK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE public.journal_lines
    ADD CONSTRAINT journal_lines_customer_account_has_customer CHECK (((account_code <> ALL (ARRAY['2010'::text, '2020'::text, '2100'::text])) OR (customer_id IS NOT NULL))) NOT VALID;

--
-- Name: CONSTRAINT journal_lines_customer_account_has_customer ON journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON CONSTRAINT journal_lines_customer_account_has_customer ON public.journal_lines IS 'A line on a customer account (2010, 2020, 2100) names its customer. NOT VALID: lines posted before 20261220 are not checked (the journal cannot be corrected in place).';

--
-- Name: journal_lines journal_lines_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.journal_lines
    ADD CONSTRAINT journal_lines_pkey PRIMARY KEY (line_id);

--
-- Name: ledger_commit_checks ledger_commit_checks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_commit_checks
    ADD CONSTRAINT ledger_commit_checks_pkey PRIMARY KEY (xid);

--
-- Name: lot_matches lot_matches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lot_matches
    ADD CONSTRAINT lot_matches_pkey PRIMARY KEY (derivation_txn_id, lot_txn_id);

--
-- Name: lrs_prior_usage lrs_prior_usage_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lrs_prior_usage
    ADD CONSTRAINT lrs_prior_usage_pkey PRIMARY KEY (pan, fy);

--
-- Name: period_closes period_closes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.period_closes
    ADD CONSTRAINT period_closes_pkey PRIMARY KEY (close_id);

--
-- Name: portfolio_snapshots portfolio_snapshots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.portfolio_snapshots
    ADD CONSTRAINT portfolio_snapshots_pkey PRIMARY KEY (customer_id, upstream);

--
-- Name: reconciliation_check_cycles reconciliation_check_cycles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reconciliation_check_cycles
    ADD CONSTRAINT reconciliation_check_cycles_pkey PRIMARY KEY (check_name);

--
-- Name: reconciliation_runs reconciliation_runs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reconciliation_runs
    ADD CONSTRAINT reconciliation_runs_pkey PRIMARY KEY (run_id);

--
-- Name: reconciliation_variances reconciliation_variances_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reconciliation_variances
    ADD CONSTRAINT reconciliation_variances_pkey PRIMARY KEY (run_id, ordinal);

--
-- Name: recost_flags recost_flags_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recost_flags
    ADD CONSTRAINT recost_flags_pkey PRIMARY KEY (txn_id);

--
-- Name: recost_states recost_states_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recost_states
    ADD CONSTRAINT recost_states_pkey PRIMARY KEY (txn_id);

--
-- Name: remittances remittances_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.remittances
    ADD CONSTRAINT remittances_pkey PRIMARY KEY (order_id);

--
-- Name: stock_splits stock_splits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock_splits
    ADD CONSTRAINT stock_splits_pkey PRIMARY KEY (split_id);

--
-- Name: stock_splits stock_splits_source_source_txn_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock_splits
    ADD CONSTRAINT stock_splits_source_source_txn_id_key UNIQUE (source, source_txn_id);

--
-- Name: transaction_daily_totals transaction_daily_totals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transaction_daily_totals
    ADD CONSTRAINT transaction_daily_totals_pkey PRIMARY KEY (day, txn_type, slot);

--
-- Name: transactions transactions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transactions
    ADD CONSTRAINT transactions_pkey PRIMARY KEY (txn_id);

--
-- Name: transactions transactions_source_txn_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.transactions
    ADD CONSTRAINT transactions_source_txn_unique UNIQUE (source, source_txn_id);

--
-- Name: uaefeed_statements uaefeed_statements_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.uaefeed_statements
    ADD CONSTRAINT uaefeed_statements_pkey PRIMARY KEY (customer_id, kind, month, body_sha256);

--
-- Name: variance_sightings variance_sightings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_sightings
    ADD CONSTRAINT variance_sightings_pkey PRIMARY KEY (run_id, ordinal);

--
-- Name: variance_triage_events variance_triage_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage_events
    ADD CONSTRAINT variance_triage_events_pkey PRIMARY KEY (event_id);

--
-- Name: variance_triage variance_triage_identity; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage
    ADD CONSTRAINT variance_triage_identity UNIQUE (identity_key);

--
-- Name: variance_triage variance_triage_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage
    ADD CONSTRAINT variance_triage_pkey PRIMARY KEY (variance_id);

--
-- Name: year_closes year_closes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.year_closes
    ADD CONSTRAINT year_closes_pkey PRIMARY KEY (year_close_id);

--
-- Name: year_closes year_closes_txn_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.year_closes
    ADD CONSTRAINT year_closes_txn_id_key UNIQUE (txn_id);

--
-- Name: cash_requests_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX cash_requests_created_idx ON public.cash_requests USING btree (created_at, cash_request_id);

--
-- Name: cash_requests_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX cash_requests_customer_idx ON public.cash_requests USING btree (customer_id, created_at);

--
-- Name: cash_requests_idempotency_key_unique; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX cash_requests_idempotency_key_unique ON public.cash_requests USING btree (idempotency_key) WHERE (idempotency_key IS NOT NULL);

--
-- Name: cash_requests_pending_withdrawals_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX cash_requests_pending_withdrawals_idx ON public.cash_requests USING btree (customer_id, currency) WHERE ((status = 'pending'::text) AND (direction = 'withdrawal'::text));

--
-- Name: customers_custodian_account_unique; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX customers_custodian_account_unique ON public.customers USING btree (custodian_account) WHERE (custodian_account IS NOT NULL);

--
-- Name: customers_remit_customer_id_unique; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX customers_remit_customer_id_unique ON public.customers USING btree (remit_customer_id) WHERE (remit_customer_id IS NOT NULL);

--
-- Name: customers_uaefeed_customer_number_unique; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX customers_uaefeed_customer_number_unique ON public.customers USING btree (uaefeed_customer_number) WHERE (uaefeed_customer_number IS NOT NULL);

--
-- Name: customers_usbroker_account_no_unique; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX customers_usbroker_account_no_unique ON public.customers USING btree (usbroker_account_no) WHERE (usbroker_account_no IS NOT NULL);

--
-- Name: dividend_events_customer; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX dividend_events_customer ON public.dividend_events USING btree (customer_id, pay_date);

--
-- Name: exceptions_open_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX exceptions_open_idx ON public.exceptions USING btree (first_seen_at) WHERE (state = 'open'::text);

--
-- Name: job_runs_running_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX job_runs_running_idx ON public.job_runs USING btree (lease_expires_at) WHERE (status = 'running'::text);

--
-- Name: journal_lines_account_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX journal_lines_account_idx ON public.journal_lines USING btree (account_code, line_id);

--
-- Name: journal_lines_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX journal_lines_customer_idx ON public.journal_lines USING btree (customer_id, account_code, txn_date) INCLUDE (debit, credit) WHERE ((customer_id IS NOT NULL) AND (account_code = ANY (ARRAY['2010'::text, '2020'::text, '2100'::text])));

--
-- Name: INDEX journal_lines_customer_idx; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON INDEX public.journal_lines_customer_idx IS 'A customer''s lines on the customer accounts (2010, 2020, 2100), by account and date, balances read from the index. Lines on the firm''s accounts are reached through the customer''s transactions (transactions_customer_idx).';

--
-- Name: journal_lines_txn_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX journal_lines_txn_idx ON public.journal_lines USING btree (txn_id);

--
-- Name: lot_matches_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX lot_matches_customer_idx ON public.lot_matches USING btree (customer_id, transferred_on);

--
-- Name: lot_matches_lot_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX lot_matches_lot_idx ON public.lot_matches USING btree (lot_txn_id);

--
-- Name: lot_matches_sell_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX lot_matches_sell_idx ON public.lot_matches USING btree (sell_txn_id);

--
-- Name: reconciliation_runs_results_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reconciliation_runs_results_idx ON public.reconciliation_runs USING gin (results jsonb_path_ops);

--
-- Name: reconciliation_runs_started_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reconciliation_runs_started_at_idx ON public.reconciliation_runs USING btree (started_at DESC, run_id);

--
-- Name: reconciliation_variances_check_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reconciliation_variances_check_idx ON public.reconciliation_variances USING btree (check_name, created_at);

--
-- Name: reconciliation_variances_created_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reconciliation_variances_created_at_idx ON public.reconciliation_variances USING btree (created_at);

--
-- Name: reconciliation_variances_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reconciliation_variances_customer_idx ON public.reconciliation_variances USING btree (customer_id, created_at) WHERE (customer_id IS NOT NULL);

--
-- Name: recost_states_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX recost_states_pending_idx ON public.recost_states USING btree (txn_date, posted_at, txn_id) WHERE (recosted_at IS NULL);

--
-- Name: remittances_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX remittances_customer_idx ON public.remittances USING btree (customer_id, remitted_on);

--
-- Name: remittances_pan_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX remittances_pan_idx ON public.remittances USING btree (pan, remitted_on) WHERE (pan IS NOT NULL);

--
-- Name: remittances_swept_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX remittances_swept_idx ON public.remittances USING btree (status) WHERE (status = ANY (ARRAY['failed'::text, 'cancelled'::text, 'expired'::text]));

--
-- Name: stock_splits_pair_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX stock_splits_pair_idx ON public.stock_splits USING btree (customer_id, symbol, effective_on);

--
-- Name: transactions_amount_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_amount_idx ON public.transactions USING btree (amount_usd, txn_id);

--
-- Name: transactions_created_xid_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_created_xid_idx ON public.transactions USING btree (created_xid);

--
-- Name: INDEX transactions_created_xid_idx; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON INDEX public.transactions_created_xid_idx IS 'How an incremental reconciliation check finds the transactions its last clean run''s snapshot did not see (created_xid at or after its xmax, or one of its in-progress xids).';

--
-- Name: transactions_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_customer_idx ON public.transactions USING btree (customer_id, txn_date);

--
-- Name: transactions_one_reversal; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX transactions_one_reversal ON public.transactions USING btree (reverses_txn_id) WHERE (reverses_txn_id IS NOT NULL);

--
-- Name: INDEX transactions_one_reversal; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON INDEX public.transactions_one_reversal IS 'At most one reversal per original: reversing twice would undo it twice.';

--
-- Name: transactions_pair_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_pair_idx ON public.transactions USING btree (symbol, customer_id, txn_date) WHERE (symbol IS NOT NULL);

--
-- Name: transactions_posted_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_posted_at_idx ON public.transactions USING btree (posted_at, txn_id);

--
-- Name: INDEX transactions_posted_at_idx; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON INDEX public.transactions_posted_at_idx IS 'How the commit check finds what its database transaction posted (posted_at = now()) without a scan.';

--
-- Name: transactions_posted_by_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_posted_by_idx ON public.transactions USING btree (posted_by text_pattern_ops);

--
-- Name: transactions_txn_date_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_txn_date_idx ON public.transactions USING btree (txn_date, txn_id);

--
-- Name: transactions_type_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX transactions_type_idx ON public.transactions USING btree (txn_type, txn_date);

--
-- Name: variance_sightings_variance_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX variance_sightings_variance_idx ON public.variance_sightings USING btree (variance_id, seen_at DESC);

--
-- Name: variance_triage_customer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX variance_triage_customer_idx ON public.variance_triage USING btree (customer_id, last_seen_at DESC) WHERE (customer_id IS NOT NULL);

--
-- Name: variance_triage_events_variance_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX variance_triage_events_variance_idx ON public.variance_triage_events USING btree (variance_id, event_id);

--
-- Name: variance_triage_last_seen_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX variance_triage_last_seen_idx ON public.variance_triage USING btree (last_seen_at DESC, variance_id DESC);

--
-- Name: variance_triage_present_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX variance_triage_present_idx ON public.variance_triage USING btree (check_name) WHERE present;

--
-- Name: variance_triage_unresolved_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX variance_triage_unresolved_idx ON public.variance_triage USING btree (check_name, customer_id) WHERE (state <> 'resolved'::text);

--
-- Name: year_closes_fy_end_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX year_closes_fy_end_idx ON public.year_closes USING btree (fy_end, year_close_id);

--
-- Name: account_daily_totals account_daily_totals_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_daily_totals_guard BEFORE DELETE OR UPDATE ON public.account_daily_totals FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_daily_totals();

--
-- Name: account_daily_totals account_daily_totals_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_daily_totals_no_truncate BEFORE TRUNCATE ON public.account_daily_totals FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: account_totals account_totals_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_totals_guard BEFORE DELETE OR UPDATE ON public.account_totals FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_account_totals();

--
-- Name: TRIGGER account_totals_guard ON account_totals; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER account_totals_guard ON public.account_totals IS 'Totals move only with posted journal lines, never by hand.';

--
-- Name: account_totals account_totals_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER account_totals_no_truncate BEFORE TRUNCATE ON public.account_totals FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER account_totals_no_truncate ON account_totals; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER account_totals_no_truncate ON public.account_totals IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: accounts accounts_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER accounts_no_delete BEFORE DELETE OR UPDATE OF account_code ON public.accounts FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER accounts_no_delete ON accounts; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER accounts_no_delete ON public.accounts IS 'Journal lines name accounts without a foreign key: an account is never deleted nor its code changed.';

--
-- Name: accounts accounts_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER accounts_no_truncate BEFORE TRUNCATE ON public.accounts FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER accounts_no_truncate ON accounts; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER accounts_no_truncate ON public.accounts IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: broker_fees broker_fees_no_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER broker_fees_no_change BEFORE DELETE OR UPDATE ON public.broker_fees FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: broker_fees broker_fees_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER broker_fees_no_truncate BEFORE TRUNCATE ON public.broker_fees FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: cash_requests cash_requests_guard_posting; Type: TRIGGER; Schema: public; Owner: -
--

CREATE CONSTRAINT TRIGGER cash_requests_guard_posting AFTER INSERT OR UPDATE OF status, txn_id ON public.cash_requests NOT DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_cash_request_posting();

--
-- Name: TRIGGER cash_requests_guard_posting ON cash_requests; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER cash_requests_guard_posting ON public.cash_requests IS 'A cash request is made pending, and completes only with its own posting: never another customer''s transaction.';

--
-- Name: cash_requests cash_requests_guard_state; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER cash_requests_guard_state BEFORE UPDATE OF status, txn_id, failure_reason ON public.cash_requests FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_cash_request_state();

--
-- Name: TRIGGER cash_requests_guard_state ON cash_requests; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER cash_requests_guard_state ON public.cash_requests IS 'A cash request moves only from pending (to completed, failed or cancelled); a final state, and the posting it names, never change.';

--
-- Name: customers customers_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER customers_no_delete BEFORE DELETE OR UPDATE OF customer_id ON public.customers FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER customers_no_delete ON customers; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER customers_no_delete ON public.customers IS 'Transactions name customers without a foreign key: a customer is never deleted nor its id changed.';

--
-- Name: customers customers_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER customers_no_truncate BEFORE TRUNCATE ON public.customers FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER customers_no_truncate ON customers; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER customers_no_truncate ON public.customers IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: exceptions exceptions_guard_history; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER exceptions_guard_history BEFORE UPDATE ON public.exceptions FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_exception_history();

--
-- Name: TRIGGER exceptions_guard_history ON exceptions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER exceptions_guard_history ON public.exceptions IS 'An exception''s record and first sighting never change: its age is measured from it.';

--
-- Name: exceptions exceptions_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER exceptions_no_delete BEFORE DELETE ON public.exceptions FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER exceptions_no_delete ON exceptions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER exceptions_no_delete ON public.exceptions IS 'An exception is dismissed or resolved, never deleted: it records what the books were missing, and since when.';

--
-- Name: exceptions exceptions_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER exceptions_no_truncate BEFORE TRUNCATE ON public.exceptions FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER exceptions_no_truncate ON exceptions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER exceptions_no_truncate ON public.exceptions IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: holdings_snapshots holdings_snapshots_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER holdings_snapshots_append_only BEFORE DELETE OR UPDATE ON public.holdings_snapshots FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER holdings_snapshots_append_only ON holdings_snapshots; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER holdings_snapshots_append_only ON public.holdings_snapshots IS 'A stored snapshot is what the upstream said that day: never edited or deleted.';

--
-- Name: holdings_snapshots holdings_snapshots_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER holdings_snapshots_no_truncate BEFORE TRUNCATE ON public.holdings_snapshots FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER holdings_snapshots_no_truncate ON holdings_snapshots; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER holdings_snapshots_no_truncate ON public.holdings_snapshots IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: job_runs job_runs_guard_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER job_runs_guard_update BEFORE UPDATE ON public.job_runs FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_job_run_update();

--
-- Name: TRIGGER job_runs_guard_update ON job_runs; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER job_runs_guard_update ON public.job_runs IS 'A finished run is final; the job, its input, its first start never change and attempts only grow.';

--
-- Name: journal_lines journal_lines_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_lines_after_insert AFTER INSERT ON public.journal_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_after_lines_inserted();

--
-- Name: TRIGGER journal_lines_after_insert ON journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER journal_lines_after_insert ON public.journal_lines IS 'Statement-level (REFERENCING NEW TABLE): one set-based check and one totals update per INSERT, not per line.';

--
-- Name: journal_lines journal_lines_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_lines_append_only BEFORE DELETE OR UPDATE ON public.journal_lines FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER journal_lines_append_only ON journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER journal_lines_append_only ON public.journal_lines IS 'Posted lines are never updated or deleted: corrections are reversing entries.';

--
-- Name: journal_lines journal_lines_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON public.journal_lines FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER journal_lines_no_truncate ON journal_lines; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER journal_lines_no_truncate ON public.journal_lines IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: ledger_commit_checks ledger_commit_checks_balanced; Type: TRIGGER; Schema: public; Owner: -
--

CREATE CONSTRAINT TRIGGER ledger_commit_checks_balanced AFTER INSERT ON public.ledger_commit_checks DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.ledger_assert_balanced_at_commit();

--
-- Name: TRIGGER ledger_commit_checks_balanced ON ledger_commit_checks; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER ledger_commit_checks_balanced ON public.ledger_commit_checks IS 'DEFERRABLE INITIALLY DEFERRED: the balance is judged at COMMIT, once all lines are written (by one statement or several). The guarantee behind "debits equal credits": whatever wrote the rows.';

--
-- Name: lot_matches lot_matches_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER lot_matches_append_only BEFORE DELETE OR UPDATE ON public.lot_matches FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER lot_matches_append_only ON lot_matches; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER lot_matches_append_only ON public.lot_matches IS 'A lot match is never edited or deleted: a superseded match stays, its derivation reversed.';

--
-- Name: lot_matches lot_matches_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER lot_matches_no_truncate BEFORE TRUNCATE ON public.lot_matches FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER lot_matches_no_truncate ON lot_matches; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER lot_matches_no_truncate ON public.lot_matches IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: lot_matches lot_matches_transactions_known; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER lot_matches_transactions_known AFTER INSERT ON public.lot_matches REFERENCING NEW TABLE AS new_matches FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_lot_matches_inserted();

--
-- Name: TRIGGER lot_matches_transactions_known ON lot_matches; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER lot_matches_transactions_known ON public.lot_matches IS 'A match''s derivation, lot and sale are transactions of the book: checked once per statement (transactions are never deleted).';

--
-- Name: period_closes period_closes_number; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER period_closes_number BEFORE INSERT ON public.period_closes FOR EACH ROW EXECUTE FUNCTION public.ledger_number_period_close();

--
-- Name: TRIGGER period_closes_number ON period_closes; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER period_closes_number ON public.period_closes IS 'Numbers a close under the period lock; a close moves forward only, a reopening back only.';

--
-- Name: period_closes period_closes_reopen_by_function; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER period_closes_reopen_by_function BEFORE INSERT ON public.period_closes FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_raw_reopen();

--
-- Name: TRIGGER period_closes_reopen_by_function ON period_closes; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER period_closes_reopen_by_function ON public.period_closes IS 'A reopening goes through ledger_reopen_period (actor and reason demanded); a raw INSERT of one is refused.';

--
-- Name: recost_states recost_states_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER recost_states_guard BEFORE DELETE OR UPDATE OF txn_id, txn_date, posted_at ON public.recost_states FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: recost_states recost_states_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER recost_states_no_truncate BEFORE TRUNCATE ON public.recost_states FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: remittances remittances_guard_history; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER remittances_guard_history BEFORE UPDATE ON public.remittances FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_remittance_history();

--
-- Name: TRIGGER remittances_guard_history ON remittances; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER remittances_guard_history ON public.remittances IS 'What a remittance says happened never changes; status_history only grows.';

--
-- Name: remittances remittances_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER remittances_no_delete BEFORE DELETE ON public.remittances FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER remittances_no_delete ON remittances; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER remittances_no_delete ON public.remittances IS 'A remittance seen is never deleted.';

--
-- Name: remittances remittances_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER remittances_no_truncate BEFORE TRUNCATE ON public.remittances FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER remittances_no_truncate ON remittances; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER remittances_no_truncate ON public.remittances IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: stock_splits stock_splits_no_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER stock_splits_no_change BEFORE DELETE OR UPDATE ON public.stock_splits FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER stock_splits_no_change ON stock_splits; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER stock_splits_no_change ON public.stock_splits IS 'A recorded split is never changed nor deleted.';

--
-- Name: stock_splits stock_splits_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER stock_splits_no_truncate BEFORE TRUNCATE ON public.stock_splits FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER stock_splits_no_truncate ON stock_splits; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER stock_splits_no_truncate ON public.stock_splits IS 'A recorded split is never truncated away.';

--
-- Name: transaction_daily_totals transaction_daily_totals_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transaction_daily_totals_guard BEFORE DELETE OR UPDATE ON public.transaction_daily_totals FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_daily_totals();

--
-- Name: transaction_daily_totals transaction_daily_totals_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transaction_daily_totals_no_truncate BEFORE TRUNCATE ON public.transaction_daily_totals FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: transactions transactions_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transactions_after_insert AFTER INSERT ON public.transactions REFERENCING NEW TABLE AS new_txns FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_after_transactions_inserted();

--
-- Name: TRIGGER transactions_after_insert ON transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER transactions_after_insert ON public.transactions IS 'Statement-level (REFERENCING NEW TABLE): one set-based check per INSERT, so bulk posting does not pay a lookup per row.';

--
-- Name: transactions transactions_copy_lot_matches; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transactions_copy_lot_matches AFTER INSERT ON public.transactions REFERENCING NEW TABLE AS new_txns FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_copy_lot_matches();

--
-- Name: TRIGGER transactions_copy_lot_matches ON transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER transactions_copy_lot_matches ON public.transactions IS 'Copies a recost derivation''s metadata.lots into lot_matches in the same statement.';

--
-- Name: transactions transactions_guard_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transactions_guard_update BEFORE UPDATE ON public.transactions FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_transaction_update();

--
-- Name: TRIGGER transactions_guard_update ON transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER transactions_guard_update ON public.transactions IS 'A posted transaction never changes: corrections are reversing entries, recost''s state is in recost_states.';

--
-- Name: transactions transactions_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transactions_no_delete BEFORE DELETE ON public.transactions FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER transactions_no_delete ON transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER transactions_no_delete ON public.transactions IS 'Posted transactions are never deleted: corrections are reversing entries.';

--
-- Name: transactions transactions_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transactions_no_truncate BEFORE TRUNCATE ON public.transactions FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: TRIGGER transactions_no_truncate ON transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER transactions_no_truncate ON public.transactions IS 'TRUNCATE skips row triggers, so it is refused on its own.';

--
-- Name: transactions transactions_refuse_closed_period; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER transactions_refuse_closed_period AFTER INSERT ON public.transactions REFERENCING NEW TABLE AS new_txns FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_closed_period();

--
-- Name: TRIGGER transactions_refuse_closed_period ON transactions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER transactions_refuse_closed_period ON public.transactions IS 'No transaction may be dated on or before the day the books are closed through.';

--
-- Name: variance_sightings variance_sightings_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_sightings_append_only BEFORE DELETE OR UPDATE ON public.variance_sightings FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: variance_sightings variance_sightings_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_sightings_no_truncate BEFORE TRUNCATE ON public.variance_sightings FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: variance_triage_events variance_triage_events_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_triage_events_append_only BEFORE DELETE OR UPDATE ON public.variance_triage_events FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: variance_triage_events variance_triage_events_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_triage_events_no_truncate BEFORE TRUNCATE ON public.variance_triage_events FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: variance_triage variance_triage_guard_history; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_triage_guard_history BEFORE UPDATE ON public.variance_triage FOR EACH ROW EXECUTE FUNCTION public.ledger_guard_variance_identity();

--
-- Name: variance_triage variance_triage_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_triage_no_delete BEFORE DELETE ON public.variance_triage FOR EACH ROW EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: variance_triage variance_triage_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER variance_triage_no_truncate BEFORE TRUNCATE ON public.variance_triage FOR EACH STATEMENT EXECUTE FUNCTION public.ledger_refuse_change();

--
-- Name: account_daily_totals account_daily_totals_account_code_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_daily_totals
    ADD CONSTRAINT account_daily_totals_account_code_fkey FOREIGN KEY (account_code) REFERENCES public.accounts(account_code);

--
-- Name: account_totals account_totals_account_code_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_totals
    ADD CONSTRAINT account_totals_account_code_fkey FOREIGN KEY (account_code) REFERENCES public.accounts(account_code);

--
-- Name: dividend_events dividend_events_customer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dividend_events
    ADD CONSTRAINT dividend_events_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customers(customer_id);

--
-- Name: reconciliation_variances reconciliation_variances_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reconciliation_variances
    ADD CONSTRAINT reconciliation_variances_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.reconciliation_runs(run_id);

--
-- Name: remittances remittances_customer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.remittances
    ADD CONSTRAINT remittances_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customers(customer_id);

--
-- Name: stock_splits stock_splits_customer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stock_splits
    ADD CONSTRAINT stock_splits_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customers(customer_id);

--
-- Name: variance_sightings variance_sightings_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_sightings
    ADD CONSTRAINT variance_sightings_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.reconciliation_runs(run_id);

--
-- Name: variance_sightings variance_sightings_variance_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_sightings
    ADD CONSTRAINT variance_sightings_variance_id_fkey FOREIGN KEY (variance_id) REFERENCES public.variance_triage(variance_id);

--
-- Name: variance_triage_events variance_triage_events_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage_events
    ADD CONSTRAINT variance_triage_events_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.reconciliation_runs(run_id);

--
-- Name: variance_triage_events variance_triage_events_variance_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage_events
    ADD CONSTRAINT variance_triage_events_variance_id_fkey FOREIGN KEY (variance_id) REFERENCES public.variance_triage(variance_id);

--
-- Name: variance_triage variance_triage_first_seen_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage
    ADD CONSTRAINT variance_triage_first_seen_run_id_fkey FOREIGN KEY (first_seen_run_id) REFERENCES public.reconciliation_runs(run_id);

--
-- Name: variance_triage variance_triage_last_seen_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.variance_triage
    ADD CONSTRAINT variance_triage_last_seen_run_id_fkey FOREIGN KEY (last_seen_run_id) REFERENCES public.reconciliation_runs(run_id);

--
-- Name: year_closes year_closes_txn_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.year_closes
    ADD CONSTRAINT year_closes_txn_id_fkey FOREIGN KEY (txn_id) REFERENCES public.transactions(txn_id) DEFERRABLE INITIALLY DEFERRED;
