import type { Knex } from 'knex';
import { ACCOUNT } from '../domain/accounts.js';
import type { WalletFunds } from '../domain/cash-requests.js';
import { assert, LedgerError } from '../domain/errors.js';
import type { Page } from '../domain/limits.js';
import { Decimal } from '../domain/money.js';
import type { Currency } from '../domain/posting-rules/types.js';
import type { CashRequestChange, CashRequestFilter, CashRequestStore, FundsOf } from '../use-cases/ports.js';
import { CASH_REQUESTS, type CashRequestRow, type NewCashRequest } from './columns/cash-requests.js';
import { ownOwedSql } from './columns/journal-lines.js';
import { columnRefs, documentOf, documentRecords, insertList, insertValues, selectList } from './columns/table.js';
import { currentActor } from '../runtime/actor.js';
import { isUniqueViolation, refusalOf } from './errors.js';
import { pagedQuery, type Paged } from './paged.js';
import { writeJournal } from './posting.js';
import type { TransactionDraft } from '../domain/transaction.js';

/*
 * Cash requests in SQL. Every change runs in one database transaction: the request's row is
 * locked FOR UPDATE (so concurrent confirms, fails and cancels of one request queue, and each
 * sees the state the one before it left), then the customer's funds lock (an advisory lock per
 * customer: two withdrawals of one customer are checked one after the other), then the decision
 * (the domain's, passed in), then the posting and the update, committed together.
 */

const COLUMNS = columnRefs(CASH_REQUESTS);

/** The wallet a currency's money sits in, per customer (funding rules: USD 2010, AED 2020 with each line's AED amount). */
const WALLET: Readonly<Record<Currency, string>> = { USD: ACCOUNT.customerWalletUsd, AED: ACCOUNT.customerWalletAed };

/** Serialises the funds checks of one customer until the database transaction ends. */
async function lockCustomerFunds(trx: Knex.Transaction, customerId: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('ledger-cash-request-funds'), hashtext(?))", [customerId]);
}

/**
 * The customer's wallet balance (credits less debits: a liability) in the wallet's currency (the
 * AED wallet from its lines' AED amounts; the USD of its lines that have none, posted before
 * 20270116, apart) and the amount of their other pending withdrawals from it (in the request's
 * currency, which is the wallet's), read after the funds lock, so each sees what committed before it.
 */
async function walletFunds(
  trx: Knex.Transaction,
  customerId: string,
  currency: Currency,
  exceptId: string | null,
): Promise<WalletFunds> {
  const { rows } = await trx.raw<{
    rows: Array<{ balance: string; unconverted_usd: string; pending: string; balance_usd: string; line_count: number }>;
  }>(
    `SELECT coalesce(sum(${ownOwedSql('l')}), 0)::text AS balance,
            coalesce(sum(l.credit - l.debit) FILTER (WHERE ${ownOwedSql('l')} IS NULL), 0)::text AS unconverted_usd,
            coalesce(sum(l.credit - l.debit), 0)::text AS balance_usd,
            count(*)::int AS line_count,
            (SELECT coalesce(sum(amount), 0) FROM cash_requests
              WHERE customer_id = ? AND currency = ? AND direction = 'withdrawal' AND status = 'pending'
                AND cash_request_id IS DISTINCT FROM ?::uuid)::text AS pending
       FROM journal_lines l WHERE l.account_code = ? AND l.customer_id = ?`,
    [customerId, currency, exceptId, WALLET[currency], customerId],
  );
  const [row] = rows;
  assert(row, 'the funds query answers one row');
  return {
    balance: new Decimal(row.balance),
    unconvertedUsd: new Decimal(row.unconverted_usd),
    pendingWithdrawals: new Decimal(row.pending),
    balanceUsd: new Decimal(row.balance_usd),
    lineCount: row.line_count,
  };
}

const INSERT_SQL = `INSERT INTO cash_requests (${insertList(CASH_REQUESTS)})
  SELECT ${insertValues(CASH_REQUESTS, 't')} FROM ${documentRecords(CASH_REQUESTS, '?')} AS t
  RETURNING ${selectList(CASH_REQUESTS)}`;

/** The request made with an Idempotency-Key, if any. */
async function madeWithKey(db: Knex, key: string): Promise<CashRequestRow | undefined> {
  return db('cash_requests').where({ idempotency_key: key }).first(COLUMNS);
}

/**
 * CashRequestStore.create. A key already used answers the request made with it before the funds
 * are checked: a retried withdrawal is not refused for the very request it retries.
 */
async function createCashRequest(
  db: Knex,
  request: NewCashRequest,
  check: (funds: WalletFunds) => void,
): Promise<{ request: CashRequestRow; created: boolean }> {
  try {
    return await db.transaction(async (trx) => {
      await lockCustomerFunds(trx, request.customerId);
      const earlier = request.idempotencyKey && (await madeWithKey(trx, request.idempotencyKey.key));
      if (earlier) return { request: earlier, created: false };
      const known = await trx('customers').where({ customer_id: request.customerId }).first('customer_id');
      if (!known)
        throw new LedgerError('unknown_customer', `customer_id ${request.customerId} names no customer of this book`);
      check(await walletFunds(trx, request.customerId, request.currency, request.cashRequestId));
      const { rows } = await trx.raw<{ rows: CashRequestRow[] }>(INSERT_SQL, [documentOf(CASH_REQUESTS, [request])]);
      const [row] = rows;
      assert(row, 'the insert answers the new request');
      return { request: row, created: true };
    });
  } catch (error) {
    // The key taken at the same moment by a request of another customer (another funds lock): that one stands.
    if (request.idempotencyKey && isUniqueViolation(error, 'cash_requests_idempotency_key_unique')) {
      const earlier = await madeWithKey(db, request.idempotencyKey.key);
      assert(earlier, 'a key that was taken names a request');
      return { request: earlier, created: false };
    }
    refusalOf(error);
  }
}

/**
 * CashRequestStore.postCovered: under the customer's funds lock, so it queues with cash requests'
 * checks and confirms, and with other entries debiting the customer's wallets. A key already taken
 * (a retry, or a reuse) is left to the caller to answer, before the funds are checked: a retried
 * entry is not refused for itself.
 */
async function postCovered(
  db: Knex,
  draft: TransactionDraft,
  currencies: Currency[],
  settle: (funds: FundsOf) => TransactionDraft,
): Promise<boolean> {
  const { customerId } = draft;
  assert(customerId !== null, `entry ${draft.txnId} debits a wallet and names no customer`);
  try {
    return await db.transaction(async (trx) => {
      await lockCustomerFunds(trx, customerId);
      const taken = await trx('transactions')
        .where({ source: draft.source, source_txn_id: draft.sourceTxnId })
        .first('txn_id');
      if (taken) return false;
      const settled = settle(await fundsOf(trx, customerId, currencies));
      return (await writeJournal(trx, { drafts: [settled] })).inserted.has(draft.txnId);
    });
  } catch (error) {
    refusalOf(error);
  }
}

/** The funds of each of a customer's wallets named, read in `trx`. */
async function fundsOf(trx: Knex.Transaction, customerId: string, currencies: Currency[]): Promise<FundsOf> {
  const funds: FundsOf = {};
  for (const currency of currencies) funds[currency] = await walletFunds(trx, customerId, currency, null);
  return funds;
}

/** CashRequestStore.change. */
async function changeCashRequest(
  db: Knex,
  cashRequestId: string,
  decide: (current: CashRequestRow, funds: () => Promise<WalletFunds>) => Promise<CashRequestChange>,
): Promise<{ request: CashRequestRow; changed: boolean }> {
  try {
    return await db.transaction(async (trx) => {
      const current: CashRequestRow | undefined = await trx('cash_requests')
        .where({ cash_request_id: cashRequestId })
        .forUpdate()
        .first(COLUMNS);
      if (!current) throw new LedgerError('not_found', `cash request ${cashRequestId} does not exist`);
      const funds = async () => {
        await lockCustomerFunds(trx, current.customer_id);
        return walletFunds(trx, current.customer_id, current.currency, current.cash_request_id);
      };
      const change = await decide(current, funds);
      if (change.kind === 'none') return { request: current, changed: false };
      let txnId: string | null = null;
      if (change.draft) {
        const { inserted } = await writeJournal(trx, { drafts: [change.draft] });
        // The key is cash-request:<id> of source ledger: only this path posts it, under this lock.
        assert(inserted.has(change.draft.txnId), `the posting of cash request ${cashRequestId} was already taken`);
        txnId = change.draft.txnId;
      }
      const [updated]: CashRequestRow[] = await trx('cash_requests')
        .where({ cash_request_id: cashRequestId })
        .update({
          status: change.status,
          txn_id: txnId,
          failure_reason: change.failureReason ?? null,
          updated_at: trx.fn.now(),
          updated_by: currentActor(),
        })
        .returning(COLUMNS);
      assert(updated, 'the locked request is updated');
      return { request: updated, changed: true };
    });
  } catch (error) {
    refusalOf(error);
  }
}

export async function getCashRequest(db: Knex, cashRequestId: string): Promise<CashRequestRow | null> {
  const row: CashRequestRow | undefined = await db('cash_requests')
    .where({ cash_request_id: cashRequestId })
    .first(COLUMNS);
  return row ?? null;
}

/** Cash requests under the filters, newest first (`from`/`to`: the created date, UTC, inclusive). */
export function listCashRequests(db: Knex, filter: CashRequestFilter, page: Page): Promise<Paged<CashRequestRow>> {
  const filtered = () => {
    const query = db('cash_requests');
    if (filter.customer_id !== undefined) query.where('customer_id', filter.customer_id);
    if (filter.status !== undefined) query.where('status', filter.status);
    if (filter.direction !== undefined) query.where('direction', filter.direction);
    if (filter.from !== undefined)
      query.where('created_at', '>=', db.raw("(?::date)::timestamp AT TIME ZONE 'UTC'", [filter.from]));
    if (filter.to !== undefined)
      query.where('created_at', '<', db.raw("((?::date) + 1)::timestamp AT TIME ZONE 'UTC'", [filter.to]));
    return query;
  };
  return pagedQuery<CashRequestRow>(
    filtered,
    (query) =>
      query.select(COLUMNS).orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'cash_request_id', order: 'desc' },
      ]),
    page,
  );
}

/** The use cases' CashRequestStore, in SQL on the book's database. */
export function cashRequestStore(db: Knex): CashRequestStore {
  return {
    create: (request, check) => createCashRequest(db, request, check),
    find: (id) => getCashRequest(db, id),
    list: (filter, page) => listCashRequests(db, filter, page),
    change: (id, decide) => changeCashRequest(db, id, decide),
    postCovered: (draft, currencies, settle) => postCovered(db, draft, currencies, settle),
    funds: (customerId, currencies) => db.transaction((trx) => fundsOf(trx, customerId, currencies)),
  };
}
