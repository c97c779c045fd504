import type {
  ApiDocument,
  JsonSchema,
  JsonType,
  Method,
  Operation,
  Parameter,
  Reference,
} from '../../src/openapi/types.js';

/**
 * Reading the OpenAPI document for the fuzzer: which operations take input, their parameters
 * and body schema, and a conservative judge of "this value certainly breaks this schema".
 */

export interface FuzzOperation {
  operationId: string;
  method: Uppercase<Method>;
  /** The path template, e.g. `/v1/transactions/{txn_id}/reverse`. */
  template: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The body schema (resolved one level) and the name it is declared under, if it is a $ref. */
  body?: { schema: JsonSchema; name: string | undefined; required: boolean; mediaTypes: string[] };
  /** Whether the operation may change the ledger (any method but GET). */
  writes: boolean;
}

const METHODS: Method[] = ['get', 'put', 'post', 'delete', 'patch'];

export function isReference(value: Parameter | Reference | JsonSchema): value is Reference {
  return typeof (value as Reference).$ref === 'string' && Object.keys(value).length === 1;
}

export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

export function resolveParameter(doc: ApiDocument, param: Parameter | Reference): Parameter {
  if (!isReference(param)) return param;
  const found = doc.components.parameters[refName(param.$ref)];
  if (!found) throw new Error(`unresolvable parameter ${param.$ref}`);
  return found;
}

/** The schema a `$ref` names (one level; siblings of the $ref are kept by `constraintsOf`). */
export function resolveSchema(doc: ApiDocument, schema: JsonSchema): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const found = doc.components.schemas[refName(schema.$ref)];
  if (!found) throw new Error(`unresolvable schema ${schema.$ref}`);
  return resolveSchema(doc, found);
}

/** Every operation of the document that takes input (a body, query or path parameters), minus `exclude`. */
export function fuzzableOperations(doc: ApiDocument, exclude: readonly string[]): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op: Operation | undefined = item[method];
      if (!op || exclude.includes(op.operationId)) continue;
      const params = (op.parameters ?? []).map((p) => resolveParameter(doc, p));
      const content = op.requestBody?.content ?? {};
      const [mediaType] = Object.values(content);
      const bodyRef = mediaType?.schema.$ref;
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Uppercase<Method>,
        template,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        ...(mediaType && {
          body: {
            schema: resolveSchema(doc, mediaType.schema),
            name: bodyRef === undefined ? undefined : refName(bodyRef),
            required: op.requestBody?.required ?? false,
            mediaTypes: Object.keys(content),
          },
        }),
        writes: method !== 'get',
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// The judge. It answers "certainly invalid" only for rules it implements exactly as Ajv does
// (the validator's engine, with coerceTypes off for bodies); anything it does not model it calls
// valid, so a value it lets through is never claimed to be bad input.
// ---------------------------------------------------------------------------------------------

/** Ajv-formats' uuid (it accepts an `urn:uuid:` prefix and either case). */
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** Formats whose violations can be told for sure; `null` when the format is not modelled. */
function formatViolation(format: JsonSchema['format'], value: string): string | null {
  switch (format) {
    case 'date':
      return isCalendarDate(value) ? null : 'is not a calendar date';
    case 'uuid':
      return UUID.test(value) ? null : 'is not a uuid';
    case 'email':
      // Only the unmistakable: every email Ajv accepts has an @ with something on both sides.
      return /^[^@]+@[^@]+$/.test(value) ? null : 'is not an email';
    default:
      return null;
  }
}

function typeOf(value: unknown): JsonType[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  if (typeof value === 'string') return ['string'];
  if (typeof value === 'boolean') return ['boolean'];
  return ['object'];
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Ajv counts string length in code points (a surrogate pair is one). */
const codePoints = (value: string): number => [...value].length;

/**
 * Why `value` (a JSON value, as JSON.parse would give it) certainly breaks `schema`, or null when
 * it may not. `path` is a JSON pointer for the message.
 */
export function violation(doc: ApiDocument, schema: JsonSchema, value: unknown, path = ''): string | null {
  if (schema.$ref !== undefined) {
    const viaRef = violation(doc, resolveSchema(doc, schema), value, path);
    if (viaRef) return viaRef;
  }
  const here = (message: string) => `${path || '/'} ${message}`;
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!typeOf(value).some((t) => allowed.includes(t))) return here(`is not ${allowed.join(' or ')}`);
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => deepEqual(e, value))) return here('is not one of the enum');
  if ('const' in schema && !deepEqual(schema.const, value)) return here('is not the const');
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && codePoints(value) < schema.minLength) return here('is too short');
    if (schema.maxLength !== undefined && codePoints(value) > schema.maxLength) return here('is too long');
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return here('breaks the pattern');
    const badFormat = schema.format === undefined ? null : formatViolation(schema.format, value);
    if (badFormat) return here(badFormat);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return here('is below the minimum');
    if (schema.maximum !== undefined && value > schema.maximum) return here('is above the maximum');
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return here('has too few items');
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return here('has too many items');
    if (schema.items !== undefined) {
      for (const [i, item] of value.entries()) {
        const inner = violation(doc, schema.items, item, `${path}/${i}`);
        if (inner) return inner;
      }
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const name of schema.required ?? []) if (!keys.includes(name)) return here(`lacks ${name}`);
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
      return here('has too many properties');
    const properties = schema.properties ?? {};
    for (const key of keys) {
      const propertySchema = properties[key];
      if (propertySchema === undefined) {
        if (schema.additionalProperties === false) return here(`has the unknown property ${JSON.stringify(key)}`);
        if (typeof schema.additionalProperties === 'object') {
          const inner = violation(doc, schema.additionalProperties, record[key], `${path}/${key}`);
          if (inner) return inner;
        }
        continue;
      }
      const inner = violation(doc, propertySchema, record[key], `${path}/${key}`);
      if (inner) return inner;
    }
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.every((alt) => violation(doc, alt, value, path) !== null))
    return here('matches no alternative');
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Nesting this deep is never ledger data (the api refuses far less). */
export const ABSURD_DEPTH = 1_000;

/**
 * Why the database could not store `value` as given (a NUL, an unpaired surrogate, a non-finite
 * number, absurd nesting), or null: the contract makes these a 400, never a 500 or a silent change.
 */
export function unstorable(value: unknown): string | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'a string holds NUL';
      if (LONE_SURROGATE.test(v)) return 'a string holds a lone surrogate';
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'a number is not finite';
    } else if (v !== null && typeof v === 'object') {
      if (depth >= ABSURD_DEPTH) return `nests ${ABSURD_DEPTH} deep`;
      for (const [key, child] of Object.entries(v)) {
        if (key.includes('\u0000') || LONE_SURROGATE.test(key)) return 'a key holds NUL or a lone surrogate';
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** Why a body certainly is bad input (schema or storability), or null when it may be fine. */
export function certainlyBad(doc: ApiDocument, schema: JsonSchema, body: unknown): string | null {
  return violation(doc, schema, body) ?? unstorable(body);
}
