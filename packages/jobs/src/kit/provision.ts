import { LedgerError } from '@ledger/core/posting';
import {
  findCustomers,
  upsertCustomer,
  type CustomerInput,
  type CustomerReference,
  type CustomerRow,
} from '@ledger/core/store';
import { createRegistryClient, RegistryNotFoundError, type RegistryClient } from '@ledger/upstream-clients';
import { z } from 'zod';
import type { JobDeps } from '../job-settings.js';
import { customerIdsField, forEachCustomer, idOfRecord, jobFailure, upstreamCallFacts } from './per-customer.js';
import { customerFailure, noOutcomes, outcomeCounts, reason, RESULT_SCHEMAS, type CustomerFailure } from './results.js';

/** What provisioning writes of a registry customer: each a column of `customers`. */
export type ProvisionField = 'name' | 'email' | CustomerReference;

/**
 * One book's side of the customer registry: which list it reads and which fields it writes.
 * A provisioning job is one of these and `runProvision`.
 */
/** A registry customer: its id, and each field a book writes (null: not known). */
export type RegistryEntry<Field extends ProvisionField> = { customer_id: string } & Record<Field, string | null>;

export interface RegistryBook<Entry extends RegistryEntry<Field>, Field extends ProvisionField> {
  kind: string;
  /** The registry's path of the book's customers, for the body's description. */
  path: string;
  fields: readonly Field[];
  list(registry: RegistryClient): Promise<Entry[]>;
  get(registry: RegistryClient, customerId: string): Promise<Entry>;
  /** Refuses an entry the ledger must not take (a LedgerError: that customer's failure). */
  check?(entry: Entry): void;
}

/** The body of a provisioning job: the same three fields for every book. */
export const provisionInputOf = (path: string, exampleId: string) =>
  z
    .object({
      customer_ids: customerIdsField.describe(
        'Registry customer ids to provision (each read on its own); null or absent: the whole list.',
      ),
      dry_run: z.boolean().optional().describe('Report what would change, write nothing.'),
      api_global_base_url: z
        .url({ protocol: /^https?$/ })
        .nullable()
        .optional()
        .describe(
          `Base URL of the customer registry (\`GET {api_global_base_url}/${path}\`). Null or absent: the worker’s API_GLOBAL_BASE_URL.`,
        ),
    })
    .strict()
    .meta({ examples: [{ customer_ids: [exampleId], dry_run: true, api_global_base_url: null }] });
export type ProvisionInput = z.infer<ReturnType<typeof provisionInputOf>>;

/** What a provisioning job answers, the fields it may write being `fields`. */
export const provisionResultOf = <Field extends ProvisionField>(id: string, fields: readonly [Field, ...Field[]]) =>
  z
    .strictObject({
      dry_run: z.boolean(),
      customers: z.number().int().min(0).describe('Registry customers the run was for, failed ones included.'),
      outcomes: outcomeCounts.describe(
        'Customers `inserted` (new to the ledger), `updated` (a field changed) or `duplicate` (nothing to change); in a dry run: would be.',
      ),
      changes: z
        .array(
          z.strictObject({
            customer_id: z.string(),
            outcome: z.enum(['inserted', 'updated']),
            fields: z.array(z.enum(fields)),
          }),
        )
        .describe('Per customer written (would be), the fields that change.'),
      customers_failed: z.array(customerFailure),
    })
    .register(RESULT_SCHEMAS, { id });
export type ProvisionResult<Field extends ProvisionField> = z.infer<ReturnType<typeof provisionResultOf<Field>>>;

/**
 * The fields of a registry customer the ledger lacks or holds otherwise. A field the registry
 * does not know (null) is left out, so it never blanks what the ledger knows.
 */
function changesOf<Field extends ProvisionField>(
  entry: RegistryEntry<Field>,
  fields: readonly Field[],
  known: CustomerRow | undefined,
): Partial<Record<Field, string>> {
  const changes: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const value = entry[field];
    if (value !== null && value !== (known?.[field] ?? null)) changes[field] = value;
  }
  return changes;
}

function customerInputOf(changes: Partial<Record<ProvisionField, string>>): CustomerInput {
  const { name, email, ...references } = changes;
  return { ...(name !== undefined && { name }), ...(email !== undefined && { email }), references };
}

/** The registry customers to provision: each named one read on its own (a 404 is its failure), or the whole list. */
async function registryCustomers<Entry extends RegistryEntry<Field>, Field extends ProvisionField>(
  book: RegistryBook<Entry, Field>,
  registry: RegistryClient,
  ids: readonly string[] | null,
): Promise<{ entries: Entry[]; failed: CustomerFailure[] }> {
  // Without the list there is no customer to fail: the job fails (a refusal for good, anything else retried).
  if (ids === null)
    return {
      entries: await book.list(registry).catch((error: unknown) => Promise.reject(jobFailure(error))),
      failed: [],
    };
  const entries: Entry[] = [];
  const failed: CustomerFailure[] = [];
  const { failed: unreadable } = await forEachCustomer(
    ids.map((customer_id) => ({ customer_id })),
    idOfRecord,
    async ({ customer_id }) => {
      try {
        entries.push(await book.get(registry, customer_id));
      } catch (error) {
        if (error instanceof RegistryNotFoundError)
          failed.push({ customer_id, reason: reason('not_in_registry', upstreamCallFacts(error)) });
        else throw error;
      }
    },
    () => undefined,
  );
  return { entries, failed: [...failed, ...unreadable] };
}

/** The registry the job reads: its body's, else the worker's; neither is a refusal for good. */
export function registryOf(
  input: Pick<ProvisionInput, 'api_global_base_url'>,
  deps: Pick<JobDeps, 'settings'>,
): RegistryClient {
  const baseUrl = input.api_global_base_url ?? deps.settings.apiGlobalBaseUrl;
  // Not a customer's failure: without a registry no customer can be read. Permanent: retrying cannot help.
  if (baseUrl === undefined)
    throw new LedgerError(
      'validation_error',
      'no customer registry: give api_global_base_url, or set API_GLOBAL_BASE_URL on the worker',
    );
  return createRegistryClient({ baseUrl });
}

/**
 * Provisioning (docs/jobs.md#provision-india, #provision-uae): a book's customers from the
 * platform's customer registry onto ledger customers; missing customers are created; a field the
 * registry does not know keeps the ledger's value; one customer's failure is theirs alone.
 */
export async function runProvision<Entry extends RegistryEntry<Field>, Field extends ProvisionField>(
  book: RegistryBook<Entry, Field>,
  input: ProvisionInput,
  deps: JobDeps,
): Promise<ProvisionResult<Field>> {
  const { db, logger } = deps;
  const dryRun = input.dry_run ?? false;
  const registry = registryOf(input, deps);
  const ids = input.customer_ids ?? null;
  const { entries, failed: unread } = await registryCustomers(book, registry, ids);
  const known = new Map(
    (
      await findCustomers(
        db,
        entries.map((e) => e.customer_id),
      )
    ).map((c) => [c.customer_id, c]),
  );
  const result: ProvisionResult<Field> = {
    dry_run: dryRun,
    customers: ids?.length ?? entries.length,
    outcomes: noOutcomes(),
    changes: [],
    customers_failed: [],
  };
  const { failed } = await forEachCustomer(
    entries,
    idOfRecord,
    async (entry) => {
      book.check?.(entry);
      const current = known.get(entry.customer_id);
      const changes = changesOf(entry, book.fields, current);
      const fields = Object.keys(changes) as Field[];
      if (current !== undefined && fields.length === 0) {
        result.outcomes.duplicate += 1;
        return;
      }
      // A reference another customer holds is refused here (LedgerError conflict): this customer's failure.
      if (!dryRun) await upsertCustomer(db, entry.customer_id, customerInputOf(changes));
      const outcome = current === undefined ? 'inserted' : 'updated';
      result.outcomes[outcome] += 1;
      result.changes.push({ customer_id: entry.customer_id, outcome, fields });
    },
    (done, total) => deps.progress({ done, total, unit: 'customers' }),
  );
  const order = new Map((ids ?? entries.map((e) => e.customer_id)).map((id, i) => [id, i]));
  const byOrder = (a: { customer_id: string }, b: { customer_id: string }) =>
    (order.get(a.customer_id) ?? 0) - (order.get(b.customer_id) ?? 0);
  result.changes.sort(byOrder);
  result.customers_failed = [...unread, ...failed].sort(byOrder);
  logger.info(`${book.kind} done`, {
    dry_run: dryRun,
    ...result.outcomes,
    failed: result.customers_failed.length,
  });
  return result;
}
