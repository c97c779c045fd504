import type { Knex } from 'knex';
import { assertPage, type Page } from '../domain/limits.js';

export interface CustomerInput {
  name?: string | null;
  email?: string | null;
  metadata?: Record<string, unknown>;
}

const CUSTOMER_COLUMNS = ['customer_id', 'name', 'email', 'metadata', 'created_at', 'updated_at'];

/** Creates or updates a customer; fields left out of the body keep their value. */
export async function upsertCustomer(db: Knex, customerId: string, input: CustomerInput) {
  const values = {
    customer_id: customerId,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.email !== undefined && { email: input.email }),
    ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
  };
  const changes = Object.keys(values)
    .filter((k) => k !== 'customer_id')
    .map((k) => [k, db.raw('??', [`excluded.${k}`])]);
  const [row] = await db('customers')
    .insert(values)
    .onConflict('customer_id')
    .merge({ ...Object.fromEntries(changes), updated_at: db.fn.now() })
    .returning([...CUSTOMER_COLUMNS, db.raw('(xmax = 0) AS created')]);
  const { created, ...customer } = row as { created: boolean } & Record<string, unknown>;
  return { created, customer };
}

export async function listCustomers(db: Knex, filter: { q?: string }, page: Page) {
  const scoped = () => {
    const query = db('customers');
    if (filter.q !== undefined) {
      const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.where((w) => w.whereILike('customer_id', pattern).orWhereILike('name', pattern).orWhereILike('email', pattern));
    }
    return query;
  };
  const [items, [total]] = await Promise.all([
    scoped().select(CUSTOMER_COLUMNS).orderBy('customer_id').limit(assertPage(page).limit).offset(page.offset),
    scoped().count<Array<{ count: string }>>({ count: '*' }),
  ]);
  return { items, total: Number(total?.count ?? 0), ...page };
}
