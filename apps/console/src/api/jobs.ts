import { api, unwrap, type Schemas } from './client.js';
import { resolveSchema, type FieldSchema, type OpenApiDocument } from './document.js';
import type { paths } from './schema.js';

export interface JobForm {
  kind: string;
  path: string;
  summary: string;
  fields: [string, FieldSchema][];
  required: string[];
}

/** Every job's start endpoint (their request bodies differ; a form follows each one's schema). */
type JobPath = Exclude<Extract<keyof paths, `/v1/jobs/${string}`>, `/v1/jobs/status/${string}`>;

/**
 * The books a job runs on, as its operation's description names them (the api writes
 * `Books: ENTITY_UAE, ENTITY_IND_IFSC;` from the job catalog's `books`); none named: every book.
 */
function booksOf(description: string | undefined): string[] | null {
  const named = /Books: ([A-Z_, ]+);/.exec(description ?? '');
  return named ? named[1]!.split(',').map((b) => b.trim()) : null;
}

/**
 * The jobs of `book` and their parameters, read from the API's own document: a new job gets
 * its form. A job of the other book is left out (its endpoint would answer 409 `wrong_book`).
 */
export function jobForms(document: OpenApiDocument, book: string): JobForm[] {
  return Object.entries(document.paths)
    .filter(([path, item]) => path.startsWith('/v1/jobs/') && item.post !== undefined)
    .filter(([, item]) => booksOf(item.post!.description)?.includes(book) ?? true)
    .map(([path, item]) => {
      const schema = resolveSchema(document, item.post!.requestBody?.content['application/json']?.schema ?? {});
      return {
        kind: path.slice('/v1/jobs/'.length),
        path,
        summary: item.post!.summary ?? '',
        fields: Object.entries(schema.properties ?? {}),
        required: schema.required ?? [],
      };
    });
}

/** Starts the job of `path` with `body`: its status record (`running`, or a sync job's `done`/`error`). */
export function startJob(path: string, body: Record<string, unknown>): Promise<Schemas['JobStatus']> {
  // The path and body come from the document at run time; the answer is typed (JobStatus).
  return unwrap(
    api.POST(path as JobPath, { body: body as never }) as Promise<{ data?: Schemas['JobStatus']; response: Response }>,
  );
}
