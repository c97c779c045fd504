import type { Knex } from 'knex';
import type { Page } from '../domain/limits.js';
import { CUSTOMERS, type CustomerInput, type CustomerRow } from './columns/customers.js';
import { columnRefs } from './columns/table.js';
import { pagedQuery, type Paged } from './paged.js';

export type { CustomerInput, CustomerRow } from './columns/customers.js';

const CUSTOMER_COLUMNS = columnRefs(CUSTOMERS);

/** Creates or updates a customer; fields left out of the body keep their value. */
export async function upsertCustomer(db: Knex, customerId: string, input: CustomerInput): Promise<{ created: boolean; customer: CustomerRow }> {
  const details = Object.entries(CUSTOMERS).flatMap(([name, column]) => {
    const value = column.write?.(input);
    return value === undefined ? [] : [[name, value] as const];
  });
  const [row] = await db('customers')
    .insert({ customer_id: customerId, ...Object.fromEntries(details) })
    .onConflict('customer_id')
    .merge({ ...Object.fromEntries(details.map(([name]) => [name, db.raw('??', [`excluded.${name}`])])), updated_at: db.fn.now() })
    .returning([...CUSTOMER_COLUMNS, db.raw('(xmax = 0) AS created')]);
  const { created, ...customer } = row as { created: boolean } & CustomerRow;
  return { created, customer };
}

export function listCustomers(db: Knex, filter: { q?: string }, page: Page): Promise<Paged<CustomerRow>> {
  const filtered = () => {
    const query = db('customers');
    if (filter.q !== undefined) {
      const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.where((w) => w.whereILike('customer_id', pattern).orWhereILike('name', pattern).orWhereILike('email', pattern));
    }
    return query;
  };
  return pagedQuery<CustomerRow>(filtered, (query) => query.select(CUSTOMER_COLUMNS).orderBy('customer_id'), page);
}
