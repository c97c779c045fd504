import { useQuery } from '@tanstack/react-query';

/** The parts of the API's own OpenAPI document the console builds forms from. */
export interface FieldSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: string[];
  items?: FieldSchema;
  description?: string;
  default?: unknown;
  $ref?: string;
}
export interface ObjectSchema extends FieldSchema {
  properties?: Record<string, FieldSchema>;
  required?: string[];
}
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: FieldSchema;
}
export interface Operation {
  summary?: string;
  description?: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { content: Record<string, { schema: ObjectSchema }> };
}
export interface OpenApiDocument {
  paths: Record<string, { get?: Operation; post?: Operation }>;
  components: { schemas: Record<string, ObjectSchema>; parameters: Record<string, Parameter> };
}

/** The document the api serves beside its docs (no token needed): read once a session. */
export function useApiDocument() {
  return useQuery({
    queryKey: ['openapi'],
    queryFn: async () => (await fetch('/docs/openapi.json')).json() as Promise<OpenApiDocument>,
    staleTime: Infinity,
  });
}

const lastSegment = (ref: string) => ref.split('/').pop()!;

/** A schema with its `$ref` followed. */
export function resolveSchema(document: OpenApiDocument, schema: ObjectSchema): ObjectSchema {
  return schema.$ref ? (document.components.schemas[lastSegment(schema.$ref)] ?? {}) : schema;
}

/** An operation's query parameters, `$ref`s followed, with their schemas resolved. */
export function queryParameters(document: OpenApiDocument, operation: Operation): Parameter[] {
  return (operation.parameters ?? [])
    .map((p) => ('$ref' in p ? document.components.parameters[lastSegment(p.$ref)]! : p))
    .filter((p) => p.in === 'query')
    .map((p) => ({ ...p, schema: resolveSchema(document, p.schema) }));
}
