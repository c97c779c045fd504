/**
 * The subset of OpenAPI 3.1 (JSON Schema 2020-12) this API's document uses, typed so that a
 * misspelt keyword fails the build rather than silently loosening validation.
 */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  enum?: readonly unknown[];
  const?: unknown;
  format?: 'date' | 'date-time' | 'uuid' | 'email';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  maxProperties?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  examples?: unknown[];
}

export interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description: string;
  schema: JsonSchema;
}

export interface MediaType {
  schema: JsonSchema;
  example?: unknown;
  /** Named examples (Swagger UI offers them in a list). */
  examples?: Record<string, { summary?: string; description?: string; value: unknown }>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, MediaType>;
}

export interface RequestBody {
  description: string;
  required: boolean;
  content: Record<string, MediaType>;
}

/** One alternative of an operation's security: the schemes it names must all be present. */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: SecurityRequirement[];
  parameters?: Array<Parameter | Reference>;
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject | Reference>;
}

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type PathItem = Partial<Record<Method, Operation>>;
export type Paths = Record<string, PathItem>;

export interface ApiKeyScheme {
  type: 'apiKey';
  in: 'header';
  name: string;
  description: string;
}

export interface ApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; summary: string; description: string };
  servers: Array<{ url: string; description: string }>;
  tags: Array<{ name: string; description: string }>;
  /** Default for an operation that states none: any read credential (fail closed). */
  security: SecurityRequirement[];
  paths: Paths;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, ApiKeyScheme>;
  };
}
