import type { Knex } from 'knex';
import { LedgerError } from '../domain/errors.js';
import { currentActor } from '../runtime/actor.js';
import type { Page } from '../domain/limits.js';
import {
  CUSTOMER_REFERENCES,
  CUSTOMERS,
  type CustomerInput,
  type CustomerReference,
  type CustomerRow,
} from './columns/customers.js';
import { columnRefs } from './columns/table.js';
import { isUniqueViolation } from './errors.js';
import { pagedQuery, type Paged } from './paged.js';

export type { CustomerInput, CustomerRow } from './columns/customers.js';

const CUSTOMER_COLUMNS = columnRefs(CUSTOMERS);

/** A customer with the day of their first transaction: what an operator reads as "customer since". */
export type CustomerWithActivity = CustomerRow & { first_activity_date: string | null };

/**
 * The day of the customer's first transaction, null before any (transactions_customer_idx answers
 * it). Not `created_at`: that is when the book learned of the customer (a provisioning run, often
 * long after they started), which made every customer of a loaded book "since" the load.
 */
export const firstActivity = (db: Knex) =>
  db.raw(
    '(SELECT min(t.txn_date) FROM transactions t WHERE t.customer_id = customers.customer_id) AS first_activity_date',
  );

/** An upstream reference another customer holds: one upstream account must not post into two customers. */
function referenceTaken(error: unknown): LedgerError | null {
  const reference = CUSTOMER_REFERENCES.find((name) => isUniqueViolation(error, `customers_${name}_unique`));
  return reference === undefined
    ? null
    : new LedgerError('conflict', `${reference} is already another customer's`, [{ field: reference }]);
}

/** Creates or updates a customer, as the work's actor; fields left out of the body keep their value. */
export async function upsertCustomer(
  db: Knex,
  customerId: string,
  input: CustomerInput,
): Promise<{ created: boolean; customer: CustomerWithActivity }> {
  const details = Object.entries(CUSTOMERS).flatMap(([name, column]) => {
    const value = column.write?.(input);
    return value === undefined ? [] : [[name, value] as const];
  });
  const actor = currentActor();
  const [row] = await db('customers')
    .insert({ customer_id: customerId, ...Object.fromEntries(details), created_by: actor, updated_by: actor })
    .onConflict('customer_id')
    .merge({
      ...Object.fromEntries(details.map(([name]) => [name, db.raw('??', [`excluded.${name}`])])),
      updated_at: db.fn.now(),
      updated_by: actor,
    })
    .returning([...CUSTOMER_COLUMNS, firstActivity(db), db.raw('(xmax = 0) AS created')])
    .catch((error: unknown) => {
      throw referenceTaken(error) ?? error;
    });
  const { created, ...customer } = row as { created: boolean } & CustomerWithActivity;
  return { created, customer };
}

/**
 * Customers by id (those the book knows; unknown ids are left out), or, with `ids` null, every
 * customer carrying `reference` (e.g. every India customer: `remit_customer_id`); by id.
 */
export async function findCustomers(
  db: Knex,
  ids: readonly string[] | null,
  reference?: CustomerReference,
): Promise<CustomerRow[]> {
  const query = db('customers').select(CUSTOMER_COLUMNS).orderBy('customer_id');
  if (ids !== null) query.whereIn('customer_id', [...ids]);
  if (reference !== undefined) query.whereNotNull(reference);
  return (await query) as CustomerRow[];
}

export function listCustomers(db: Knex, filter: { q?: string }, page: Page): Promise<Paged<CustomerWithActivity>> {
  const filtered = () => {
    const query = db('customers');
    if (filter.q !== undefined) {
      const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.where((w) =>
        w.whereILike('customer_id', pattern).orWhereILike('name', pattern).orWhereILike('email', pattern),
      );
    }
    return query;
  };
  return pagedQuery<CustomerWithActivity>(
    filtered,
    (query) => query.select([...CUSTOMER_COLUMNS, firstActivity(db)]).orderBy('customer_id'),
    page,
  );
}
