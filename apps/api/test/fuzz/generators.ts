import querystring from 'node:querystring';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { ApiDocument, JsonSchema, Parameter } from '../../src/openapi/types.js';
import type { Rng } from './prng.js';
import { certainlyBad, resolveSchema, violation, type FuzzOperation } from './schema.js';
import type { FuzzCase } from './send.js';
import {
  ALL_BAD_VALUES,
  BAD_STRINGS,
  badFreeFormObjects,
  INTEGER_SPELLINGS,
  INVALID_UTF8,
  ODD_KEYS,
  RAW_NUMBERS,
  UUID_SAMPLE,
} from './values.js';

/** A path parameter's fixture: the value requests use, and whether variants of it could write. */
export interface PathFixture {
  value: string;
  /**
   * True when a variant the schema accepts could write (a new customer id would create one): then
   * only certainly-bad variants are sent. False when it cannot (the id of a reversal, which can
   * never be reversed): then odd-but-valid variants (an uppercase uuid) are sent too.
   */
  variantsMayWrite: boolean;
}

/** A request that is well-formed but breaks a ledger rule: 4xx, nothing stored. */
export interface SemanticCase {
  name: string;
  body: unknown;
  /** Path parameter values for this case (default: the fixtures). */
  path?: Record<string, string>;
}

export interface GeneratorInput {
  doc: ApiDocument;
  rng: Rng;
  tokens: { admin: string; ledger: string };
  pathFixtures: Record<string, PathFixture>;
  /** Valid bodies by body schema name; a schema's `examples` are used when it has none here. */
  validBodies: Record<string, Array<Record<string, unknown>>>;
  semantic: Record<string, SemanticCase[]>;
  bodyLimitBytes: number;
}

type Expect = FuzzCase['expect'];
type QueryPair = [key: string, value: string | undefined];

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/** A short, printable rendering of a value for the report. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  if (Buffer.isBuffer(value))
    text = `<${value.length} bytes> ${JSON.stringify(value.subarray(0, max).toString('latin1'))}`;
  else if (typeof value === 'string') text = JSON.stringify(value);
  else text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes its WTF-8 bytes instead of throwing. */
export function encodeComponent(value: string): string {
  let out = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

function decodeComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

function rngUuid(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// ---------------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------------

type PathKey = string | number;
interface Slot {
  at: PathKey[];
  schema: JsonSchema;
  required: boolean;
}

export interface Generated {
  /** Candidate cases by group (an operation and a generator); every group is sampled, leftovers fill up. */
  groups: Map<string, FuzzCase[]>;
  /** Draws one more random case (fully random bodies and query strings). */
  randomCase(): FuzzCase | undefined;
}

export function generate(input: GeneratorInput, operations: FuzzOperation[]): Generated {
  const { doc, rng, tokens } = input;
  const groups = new Map<string, FuzzCase[]>();
  const add = (c: FuzzCase | undefined) => {
    if (!c) return;
    const key = `${c.operationId} :: ${c.generator}`;
    const list = groups.get(key) ?? [];
    list.push(c);
    groups.set(key, list);
  };

  const fixture = (name: string): PathFixture => {
    const found = input.pathFixtures[name];
    if (!found)
      throw new Error(`no fixture for path parameter "${name}": add one line to PATH_FIXTURES in fuzz.test.ts`);
    return found;
  };

  function validQueryValue(param: Parameter): string {
    const schema = resolveSchema(doc, param.schema);
    const candidates: unknown[] = [
      schema.enum?.[0],
      schema.default,
      ...(schema.examples ?? []),
      schema.format === 'uuid' ? UUID_SAMPLE : undefined,
      schema.format === 'date' ? '2026-01-15' : undefined,
      'x',
      'C-1',
      '1',
    ];
    for (const candidate of candidates) {
      if (candidate === undefined) continue;
      const asQuery = schema.type === 'integer' || schema.type === 'number' ? Number(candidate) : String(candidate);
      if (violation(doc, param.schema, asQuery) === null) return String(candidate);
    }
    throw new Error(`no valid value known for query parameter ${param.name}: give its schema an example`);
  }

  const requiredQuery = (op: FuzzOperation): QueryPair[] =>
    op.queryParams.filter((p) => p.required).map((p) => [p.name, encodeComponent(validQueryValue(p))]);

  function buildPath(
    op: FuzzOperation,
    overrides: Record<string, string> = {},
    query: QueryPair[] = requiredQuery(op),
  ): string {
    const path = op.template.replace(
      /\{([^}]+)\}/g,
      (_, name: string) => overrides[name] ?? encodeComponent(fixture(name).value),
    );
    if (query.length === 0) return path;
    return `${path}?${query.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&')}`;
  }

  function makeCase(
    op: FuzzOperation,
    generator: string,
    detail: string,
    options: {
      path?: string;
      body?: Buffer | Buffer[];
      /** Content-Type; null sends none. Default application/json when there is a body. */
      contentType?: string | null;
      headers?: Record<string, string>;
      expect?: Expect;
      echo?: FuzzCase['echo'];
      method?: string;
      raw?: Buffer;
    } = {},
  ): FuzzCase {
    const headers: Record<string, string> = { 'X-Ledger-Admin-Token': tokens.admin };
    const contentType =
      options.contentType === undefined ? (options.body ? 'application/json' : null) : options.contentType;
    if (contentType !== null) headers['Content-Type'] = contentType;
    Object.assign(headers, options.headers);
    return {
      operationId: op.operationId,
      generator,
      detail,
      method: options.method ?? op.method,
      path: options.path ?? buildPath(op),
      ...(options.raw && { raw: options.raw }),
      headers,
      ...(options.body !== undefined && { body: options.body }),
      expect: options.expect ?? 'reject',
      ...(options.echo && { echo: options.echo }),
    };
  }

  const validBodiesOf = (op: FuzzOperation): Array<Record<string, unknown>> => {
    const body = op.body;
    if (!body) return [];
    const listed = body.name === undefined ? undefined : input.validBodies[body.name];
    const examples = (body.schema.examples ?? []) as Array<Record<string, unknown>>;
    const bases = listed ?? (examples.length > 0 ? examples : body.schema.required?.length ? [] : [{}]);
    if (bases.length === 0) {
      throw new Error(
        `no valid body for ${op.operationId} (${body.name}): add one line to VALID_BODIES in fuzz.test.ts`,
      );
    }
    for (const base of bases) {
      const problem = certainlyBad(doc, body.schema, roundTrip(base));
      if (problem) throw new Error(`the valid ${body.name} body is not valid: ${problem}`);
    }
    return bases;
  };

  /** A body for requests whose point is elsewhere (path, headers): the first valid one, or none. */
  const firstBody = (op: FuzzOperation): Buffer | undefined => {
    const [base] = validBodiesOf(op);
    return base ? Buffer.from(JSON.stringify(base)) : undefined;
  };

  const badBodies = new Map<string, Buffer>();
  /** A certainly-bad body of the operation (its first body mutation), for requests whose point is elsewhere. */
  const badBodyOf = (op: FuzzOperation): Buffer => {
    const known = badBodies.get(op.operationId);
    if (known) return known;
    const [base] = validBodiesOf(op);
    const bad = Buffer.from(JSON.stringify({ ...base, unexpected: '\u0000' }));
    badBodies.set(op.operationId, bad);
    return bad;
  };

  // ---- body slots -------------------------------------------------------------------------

  function slotsOf(schema: JsonSchema, value: unknown, at: PathKey[] = []): Slot[] {
    const resolved = resolveSchema(doc, schema);
    const slots: Slot[] = [];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && resolved.properties) {
      const record = value as Record<string, unknown>;
      for (const [key, propertySchema] of Object.entries(resolved.properties)) {
        slots.push({ at: [...at, key], schema: propertySchema, required: resolved.required?.includes(key) ?? false });
        if (key in record) slots.push(...slotsOf(propertySchema, record[key], [...at, key]));
      }
    }
    if (Array.isArray(value) && resolved.items) {
      for (const [i, item] of value.slice(0, 2).entries()) {
        slots.push({ at: [...at, i], schema: resolved.items, required: false });
        slots.push(...slotsOf(resolved.items, item, [...at, i]));
      }
    }
    return slots;
  }

  const DELETE = Symbol('delete');
  function setAt(body: unknown, at: PathKey[], value: unknown): unknown {
    const copy = structuredClone(body) as Record<PathKey, unknown>;
    let parent: Record<PathKey, unknown> = copy;
    for (const key of at.slice(0, -1)) parent = parent[key] as Record<PathKey, unknown>;
    const last = at[at.length - 1] as PathKey;
    if (value === DELETE) {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else {
      // defineProperty, so that a key like __proto__ becomes an own property JSON.stringify writes.
      Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }

  const pointer = (at: PathKey[]) => `/${at.map((k) => (typeof k === 'number' ? '*' : k)).join('/')}`;

  /** Body mutations of one slot, each certainly bad. */
  function slotMutations(op: FuzzOperation, base: Record<string, unknown>, baseName: string, slot: Slot): FuzzCase[] {
    const schema = op.body!.schema;
    const cases: FuzzCase[] = [];
    const generator = `body ${pointer(slot.at)}`;
    const push = (mutated: unknown, detail: string) => {
      if (certainlyBad(doc, schema, roundTrip(mutated)) === null) return;
      cases.push(makeCase(op, generator, `${baseName}: ${detail}`, { body: Buffer.from(JSON.stringify(mutated)) }));
    };
    if (slot.required) push(setAt(base, slot.at, DELETE), 'deleted');
    const resolved = resolveSchema(doc, slot.schema);
    const freeForm = [resolved.type].flat().includes('object') && !resolved.properties;
    for (const value of [...ALL_BAD_VALUES, ...(freeForm ? badFreeFormObjects() : [])]) {
      push(setAt(base, slot.at, value), `= ${preview(value)}`);
    }
    if (resolved.properties && resolved.additionalProperties === false) {
      for (const key of ODD_KEYS) push(setAt(base, [...slot.at, key], 1), `+ key ${preview(key)}`);
    }
    return cases;
  }

  // ---- raw bodies: syntax, transport, size -------------------------------------------------

  function rawBodyCases(op: FuzzOperation, base: Record<string, unknown>, bad: Record<string, unknown>): FuzzCase[] {
    const schema = op.body!.schema;
    const valid = JSON.stringify(base);
    const validBytes = Buffer.from(valid);
    const badText = JSON.stringify(bad);
    const badBytes = Buffer.from(badText);
    const cases: FuzzCase[] = [];
    const c = (generator: string, detail: string, options: Parameters<typeof makeCase>[3]) =>
      cases.push(makeCase(op, generator, detail, options));

    // Content types that are not JSON, around a body that is (the type alone must refuse it).
    for (const type of [
      'text/plain',
      'text/json',
      'application/octet-stream',
      'application/x-ndjson',
      'json',
      '',
      ';;;',
      'application/json-patch+json',
    ]) {
      // An empty Content-Type reads as no body: a valid call where the body is optional (POST /v1/jobs/recost).
      const arguable = type === '' && !op.body!.required;
      c('content-type not JSON', `Content-Type ${preview(type)}, valid JSON body`, {
        body: validBytes,
        contentType: type,
        ...(arguable && { expect: 'no-5xx' as const }),
      });
    }
    c('content-type missing', 'no Content-Type, valid JSON body', { body: validBytes, contentType: null });
    const form = new URLSearchParams(
      Object.entries(base).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    c('content-type form', 'application/x-www-form-urlencoded', {
      body: Buffer.from(form.toString()),
      contentType: 'application/x-www-form-urlencoded',
    });
    c('content-type form', 'JSON content type, form body', { body: Buffer.from(form.toString()) });
    const boundary = '----fuzz0123456789';
    c('content-type multipart', 'multipart/form-data with the JSON as a part', {
      body: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${valid}\r\n--${boundary}--\r\n`,
      ),
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    // Charsets: declared ones the bytes are not in, or that are not UTF-8.
    // (RFC 8259 lets a recipient ignore charset, so even these carry a bad body.)
    c('charset', 'charset=utf-16, UTF-8 bytes of a bad body', {
      body: badBytes,
      contentType: 'application/json; charset=utf-16',
    });
    c('charset', 'charset=utf-16, UTF-16LE bytes of a bad body', {
      body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(badText, 'utf16le')]),
      contentType: 'application/json; charset=utf-16',
    });
    for (const charset of ['latin1', 'utf-32', 'koi8-r', 'x-unknown', 'utf-7']) {
      c('charset', `charset=${charset}, bad body`, {
        body: badBytes,
        contentType: `application/json; charset=${charset}`,
      });
    }
    c('content-type +json', 'application/vnd.api+json, bad body', {
      body: badBytes,
      contentType: 'application/vnd.api+json',
    });
    // Content-Encoding: bodies that are not what they claim, compressed bad JSON, a bomb.
    for (const encoding of ['gzip', 'deflate', 'br', 'x-gzip', 'compress', 'zstd', 'gzip, gzip', 'GZIP', 'unknown']) {
      c('content-encoding, not encoded', `Content-Encoding ${encoding}, plain JSON body`, {
        body: validBytes,
        headers: { 'Content-Encoding': encoding },
      });
    }
    const gzipped = gzipSync(validBytes);
    c('content-encoding, corrupt', 'gzip cut in half', {
      body: gzipped.subarray(0, gzipped.length >> 1),
      headers: { 'Content-Encoding': 'gzip' },
    });
    c('content-encoding, corrupt', 'gzip with a flipped byte', {
      body: Buffer.concat([gzipped.subarray(0, 12), Buffer.from([gzipped[12]! ^ 0xff]), gzipped.subarray(13)]),
      headers: { 'Content-Encoding': 'gzip' },
    });
    c('content-encoding, corrupt', 'deflate claimed, gzip sent', {
      body: gzipped,
      headers: { 'Content-Encoding': 'deflate' },
    });
    // About 1 in 28 random byte strings is an empty brotli stream followed by bytes zlib ignores:
    // no body at all, a valid call where the body is optional (POST /v1/jobs/refresh-snapshots).
    c('content-encoding, corrupt', 'br claimed, random bytes', {
      body: Buffer.from(Array.from({ length: 64 }, () => rng.int(256))),
      headers: { 'Content-Encoding': 'br' },
      ...(!op.body!.required && { expect: 'no-5xx' as const }),
    });
    c('content-encoding, valid', 'gzip of invalid JSON', {
      body: gzipSync('{"txn_type":'),
      headers: { 'Content-Encoding': 'gzip' },
    });
    c('content-encoding, valid', 'gzip of a bad body', {
      body: gzipSync(badBytes),
      headers: { 'Content-Encoding': 'gzip' },
    });
    c('content-encoding, valid', 'deflate of a bad body', {
      body: deflateSync(badBytes),
      headers: { 'Content-Encoding': 'deflate' },
    });
    c('content-encoding, valid', 'br of a bad body', {
      body: brotliCompressSync(badBytes),
      headers: { 'Content-Encoding': 'br' },
    });
    c('oversized', 'gzip bomb: 8 MiB of JSON in a small gzip', {
      body: gzipSync(`${' '.repeat(8 << 20)}${valid}`),
      headers: { 'Content-Encoding': 'gzip' },
    });
    // Empty and non-object bodies (no body at all is a valid call where the body is optional).
    const emptyExpect = op.body!.required ? {} : { expect: 'no-5xx' as const };
    c('empty body', 'JSON content type, Content-Length: 0', {
      headers: { 'Content-Length': '0' },
      contentType: 'application/json',
      ...emptyExpect,
    });
    c('empty body', 'JSON content type, chunked, no chunks', {
      headers: { 'Transfer-Encoding': 'chunked' },
      contentType: 'application/json',
      body: [],
      ...emptyExpect,
    });
    for (const text of [' ', 'null', 'true', '1', '"x"', '[]', `[${valid}]`]) {
      c('not an object', `body ${preview(text)}`, { body: Buffer.from(text) });
    }
    // Not JSON.
    for (const text of [
      '{',
      `${valid}x`,
      `${valid}\u0000`,
      `${valid}${valid}`,
      valid.replace(/"/g, "'"),
      `${valid.slice(0, -1)},}`,
      valid.slice(0, valid.length >> 1),
      `\u0000${valid}`,
    ]) {
      c('invalid JSON', preview(text), { body: Buffer.from(text) });
    }
    // Size: just over the limit, far over, chunked without a length.
    c('oversized', 'whitespace padding to limit + 1 byte', {
      body: Buffer.concat([Buffer.from(' '.repeat(input.bodyLimitBytes + 1 - validBytes.length)), validBytes]),
    });
    c('oversized', '2 MiB string property', {
      body: Buffer.from(JSON.stringify({ ...bad, filler: 'x'.repeat(2 << 20) })),
    });
    c('oversized', '2 MiB chunked, no Content-Length', {
      headers: { 'Transfer-Encoding': 'chunked' },
      body: [
        Buffer.from(`{"filler":"`),
        ...Array.from({ length: 32 }, () => Buffer.from('x'.repeat(64 << 10))),
        Buffer.from('"}'),
      ],
    });
    // Deep nesting as raw text (JSON.stringify could not even build some of these).
    for (const depth of [5_000, 100_000]) {
      c('deep nesting', `${depth} levels of [`, { body: Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`) });
    }
    c('deep nesting', '5000 levels of {"a":', { body: Buffer.from(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`) });
    c('deep nesting', '5000 levels inside a valid body', {
      body: Buffer.from(`${valid.slice(0, -1)},"metadata":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`),
    });
    c('deep nesting', '20000 unclosed [', { body: Buffer.from('['.repeat(20_000)) });
    // Duplicate keys: the last one wins in JSON.parse, so a bad last value must be refused.
    for (const key of Object.keys(base)) {
      const badValue = ALL_BAD_VALUES.find((v) => certainlyBad(doc, schema, roundTrip({ ...base, [key]: v })) !== null);
      if (badValue === undefined) continue;
      c('duplicate keys', `${key} twice, the last ${preview(badValue)}`, {
        body: Buffer.from(`${valid.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(badValue)}}`),
      });
    }
    c('duplicate keys', '{"a":1,"a":2} appended', { body: Buffer.from(`${valid.slice(0, -1)},"a":1,"a":2}`) });
    // Number literals where strings go, and literals JSON does not have.
    for (const key of Object.keys(base)) {
      for (const raw of RAW_NUMBERS) {
        const text = `${valid.slice(0, -1)},${JSON.stringify(key)}:${raw}}`;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined; // not JSON at all: certainly bad
        }
        if (parsed !== undefined && certainlyBad(doc, schema, parsed) === null) continue;
        c('raw number', `${key}: ${raw}`, { body: Buffer.from(text) });
      }
    }
    // Invalid UTF-8 in a string value (decoded, it becomes U+FFFD: sent only where that is bad too).
    for (const [key, value] of Object.entries(base)) {
      if (typeof value !== 'string') continue;
      for (const bytes of INVALID_UTF8) {
        const decoded = `${value}${bytes.toString('utf8')}`;
        if (certainlyBad(doc, schema, { ...base, [key]: decoded }) === null) continue;
        const [before, after] = valid.split(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
        if (after === undefined) continue;
        c('invalid UTF-8', `${key}: ${preview(value)} + ${bytes.toString('hex')}`, {
          body: Buffer.concat([
            Buffer.from(`${before}${JSON.stringify(key)}:${JSON.stringify(value).slice(0, -1)}`),
            bytes,
            Buffer.from(`"${after}`),
          ]),
        });
      }
    }
    return cases;
  }

  // ---- random bodies -------------------------------------------------------------------------

  const RANDOM_CHARS = [
    'a',
    'Z',
    '0',
    '9',
    '.',
    '-',
    '_',
    ' ',
    'é',
    '😀',
    '\u0000',
    '\uD800',
    '\uDC00',
    '"',
    '\\',
    '\n',
    '%',
    '１',
  ];
  const randomString = () => Array.from({ length: rng.int(12) }, () => rng.pick(RANDOM_CHARS)).join('');

  function randomJson(depth: number, keys: readonly string[], validLeaves: readonly unknown[]): unknown {
    const roll = rng.int(10);
    if (depth <= 0 || roll < 5) {
      const leafRoll = rng.int(3);
      if (leafRoll === 0 && validLeaves.length > 0) return structuredClone(rng.pick(validLeaves));
      if (leafRoll === 1) return randomString();
      return structuredClone(rng.pick(ALL_BAD_VALUES));
    }
    if (roll < 7) return Array.from({ length: rng.int(4) }, () => randomJson(depth - 1, keys, validLeaves));
    const object: Record<string, unknown> = {};
    for (let i = rng.int(7); i > 0; i--) {
      Object.defineProperty(object, rng.pick(keys), {
        value: randomJson(depth - 1, keys, validLeaves),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }

  function randomBodyCase(op: FuzzOperation): FuzzCase | undefined {
    const body = op.body!;
    const bases = validBodiesOf(op);
    const keys = [
      ...new Set([...Object.keys(resolveSchema(doc, body.schema).properties ?? {}), ...ODD_KEYS, 'lines', 'metadata']),
    ];
    const validLeaves = bases.flatMap((b) => Object.values(b));
    for (let attempt = 0; attempt < 30; attempt++) {
      let value: unknown;
      if (rng.chance(0.5) && bases.length > 0) {
        // Start from a valid body and overwrite a few keys at random.
        const object = structuredClone(rng.pick(bases));
        for (let i = 1 + rng.int(3); i > 0; i--) {
          Object.defineProperty(object, rng.pick(keys), {
            value: randomJson(2, keys, validLeaves),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        value = object;
      } else {
        value = rng.chance(0.85) ? randomJson(3, keys, validLeaves) : randomJson(1, keys, validLeaves);
        if (value === null || typeof value !== 'object') value = randomJson(3, keys, validLeaves);
      }
      const text = JSON.stringify(value);
      if (text === undefined) continue;
      if (certainlyBad(doc, body.schema, JSON.parse(text)) === null) continue;
      return makeCase(op, 'random body', preview(text), { body: Buffer.from(text) });
    }
    return undefined;
  }

  // ---- query parameters ----------------------------------------------------------------------

  /** 'bad' (certainly refused), 'odd' (a validator may coerce it) or 'valid', as the server parses the query. */
  function queryVerdict(param: Parameter, rawValue: string): 'bad' | 'odd' | 'valid' {
    const parsed = querystring.parse(`v=${rawValue}`).v;
    if (typeof parsed !== 'string') return 'bad';
    const schema = resolveSchema(doc, param.schema);
    if (schema.type === 'integer' || schema.type === 'number') {
      if (parsed === '') return 'bad';
      const n = Number(parsed);
      if (Number.isNaN(n) || (schema.type === 'integer' && !Number.isInteger(n))) return 'bad';
      if ((schema.minimum !== undefined && n < schema.minimum) || (schema.maximum !== undefined && n > schema.maximum))
        return 'bad';
      return /^(0|[1-9][0-9]*)$/.test(parsed) ? 'valid' : 'odd';
    }
    return violation(doc, param.schema, parsed) === null ? 'valid' : 'bad';
  }

  const ODD_QUERY_STRINGS = [`urn:uuid:${UUID_SAMPLE}`, UUID_SAMPLE.toUpperCase()];

  function queryCases(op: FuzzOperation, param: Parameter): FuzzCase[] {
    const cases: FuzzCase[] = [];
    const schema = resolveSchema(doc, param.schema);
    const numeric = schema.type === 'integer' || schema.type === 'number';
    const others = requiredQuery(op).filter(([k]) => k !== param.name);
    const spellings = numeric
      ? INTEGER_SPELLINGS.map(encodeComponent)
      : [...BAD_STRINGS, ...ODD_QUERY_STRINGS, 'z'.repeat(5_000)]
          .map(encodeComponent)
          .concat(['%ED%A0%80', '%FF', '%C0%80', '%', '%zz', '%00']);
    for (const raw of new Set(spellings)) {
      if (raw.length > 6_000) continue; // a URL over Node's 16 KiB header limit never reaches the app
      const verdict = queryVerdict(param, raw);
      const decoded = querystring.parse(`v=${raw}`).v as string;
      const oddString = !numeric && ODD_QUERY_STRINGS.includes(decoded);
      if (verdict === 'valid' && !oddString) continue;
      const expect: Expect = verdict === 'bad' ? 'reject' : 'no-5xx';
      const echo =
        expect === 'no-5xx' && (param.name === 'limit' || param.name === 'offset')
          ? { [param.name]: Number(decoded) }
          : undefined;
      cases.push(
        makeCase(op, `query ${param.name}`, `${param.name}=${preview(raw, 60)}`, {
          path: buildPath(op, {}, [...others, [param.name, raw]]),
          expect,
          ...(echo && { echo }),
        }),
      );
    }
    const valid = encodeComponent(validQueryValue(param));
    cases.push(
      makeCase(op, 'query repeated', `${param.name} twice`, {
        path: buildPath(op, {}, [...others, [param.name, valid], [param.name, numeric ? '2' : valid]]),
      }),
      makeCase(op, 'query repeated', `${param.name}[]`, {
        path: buildPath(op, {}, [...others, [`${param.name}[]`, valid]]),
      }),
      makeCase(op, 'query repeated', `${param.name} without =`, {
        path: buildPath(op, {}, [...others, [param.name, undefined]]),
      }),
      makeCase(op, 'query unknown', `${param.name.toUpperCase()}=`, {
        path: buildPath(op, {}, [...requiredQuery(op), [param.name.toUpperCase(), valid]]),
      }),
    );
    if (param.required) {
      cases.push(makeCase(op, 'query missing', `without ${param.name}`, { path: buildPath(op, {}, others) }));
    }
    return cases;
  }

  function unknownQueryCases(op: FuzzOperation): FuzzCase[] {
    // A write carries a valid body: the unknown parameter alone must refuse it.
    const body = op.body ? firstBody(op) : undefined;
    const withBody = body ? { body } : {};
    const pairs: QueryPair[] = [
      ['foo', '1'],
      ['__proto__', '1'],
      ['__proto__[limit]', '1'],
      ['constructor', 'x'],
      ['hasOwnProperty', '1'],
      ['toString', 'x'],
      ['a%00', '1'],
      ['%ED%A0%80', '1'],
      ['limit%00', '1'],
      ['page', '2'],
      ['cursor', 'abc'],
    ];
    const cases = pairs.map((pair) =>
      makeCase(op, 'query unknown', `${pair[0]}=${pair[1] ?? ''}`, {
        path: buildPath(op, {}, [...requiredQuery(op), pair]),
        ...withBody,
      }),
    );
    cases.push(
      makeCase(op, 'query unknown', 'empty key =1', {
        path: buildPath(op, {}, [...requiredQuery(op), ['', '1']]),
        expect: op.writes ? 'reject' : 'no-5xx',
        ...(body && { body: badBodyOf(op) }),
      }),
      makeCase(op, 'query unknown', 'only &&&', {
        path: `${buildPath(op)}${requiredQuery(op).length ? '&' : '?'}&&&`,
        expect: op.writes ? 'reject' : 'no-5xx',
        ...(body && { body: badBodyOf(op) }),
      }),
      // Request line and headers over Node's limit (16 KiB): refused before the app, still in the error shape.
      makeCase(op, 'oversized head', '40 KiB query string', {
        path: buildPath(op, {}, [...requiredQuery(op), ['foo', 'x'.repeat(40_000)]]),
        ...withBody,
      }),
      makeCase(op, 'oversized head', '40 KiB header', {
        headers: { 'X-Fuzz': 'x'.repeat(40_000) },
        ...(body ? { body: badBodyOf(op) } : { path: buildPath(op, {}, [...requiredQuery(op), ['foo', '1']]) }),
      }),
    );
    return cases;
  }

  function randomQueryCase(op: FuzzOperation): FuzzCase | undefined {
    const param = rng.pick(op.queryParams);
    const others = requiredQuery(op).filter(([k]) => k !== param.name);
    for (let attempt = 0; attempt < 20; attempt++) {
      const raw = encodeComponent(rng.chance(0.5) ? randomString() : `${rng.pick(INTEGER_SPELLINGS)}${randomString()}`);
      if (queryVerdict(param, raw) !== 'bad') continue;
      return makeCase(op, `query ${param.name}`, `${param.name}=${preview(raw, 60)} (random)`, {
        path: buildPath(op, {}, [...others, [param.name, raw]]),
      });
    }
    return undefined;
  }

  // ---- path parameters -----------------------------------------------------------------------

  function pathCases(op: FuzzOperation, param: Parameter): FuzzCase[] {
    const { value, variantsMayWrite } = fixture(param.name);
    const raws = [
      '%00',
      `${encodeComponent(value)}%00`,
      '..',
      '.',
      '%2E%2E',
      '..%2F..%2Fetc%2Fpasswd',
      '../',
      '%2F',
      '%',
      '%zz',
      '%ED%A0%80',
      '%FF',
      '%C0%80',
      '%F0%9F%98%80',
      '%C3%A9',
      '%20',
      '%0A',
      '%7F',
      'x'.repeat(4_000),
      'null',
      'undefined',
      '-1',
      '1e309',
      'Infinity',
      '%5B%5D',
      '%7B%7D',
      "'%20OR%201=1--",
      '%3Cscript%3E',
      `urn:uuid:${value}`,
      encodeComponent(value.toUpperCase()),
      `%7B${encodeComponent(value)}%7D`,
      encodeComponent(value.replace(/-/g, '')),
      `${encodeComponent(value)}0`,
      encodeComponent(value.slice(0, -1)),
      `%20${encodeComponent(value)}`,
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      rngUuid(rng),
    ];
    const body = op.body ? firstBody(op) : undefined;
    const cases: FuzzCase[] = [];
    for (const raw of new Set(raws)) {
      const decoded = decodeComponent(raw);
      const structural = raw.includes('/'); // changes which route matches, if any
      const verdict: 'bad' | 'odd' =
        decoded === undefined || (!structural && violation(doc, param.schema, decoded) !== null) ? 'bad' : 'odd';
      if (verdict === 'odd' && op.writes && variantsMayWrite) continue;
      cases.push(
        makeCase(op, `path ${param.name}`, `${param.name}=${preview(raw, 60)}`, {
          path: buildPath(op, { [param.name]: raw }),
          ...(body && { body }),
          expect: verdict === 'bad' ? 'reject' : 'no-5xx',
        }),
      );
    }
    return cases;
  }

  // ---- methods, route spellings, HTTP itself ----------------------------------------------------

  /** Methods the path does not have (405), with a valid body when the path takes one. */
  function methodCases(op: FuzzOperation): FuzzCase[] {
    const item = doc.paths[op.template] ?? {};
    const defined = Object.keys(item).map((m) => m.toUpperCase());
    const withBody = operations.find((o) => o.template === op.template && o.body);
    const body = withBody ? firstBody(withBody) : undefined;
    return ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'OPTIONS']
      .filter((m) => !defined.includes(m))
      .map((method) =>
        makeCase(op, 'method not allowed', `${method} ${op.template}`, {
          method,
          ...(body && method !== 'GET' && { body }),
          // OPTIONS may be answered (an Allow list) without doing anything.
          expect: method === 'OPTIONS' ? 'no-5xx' : 'reject',
        }),
      );
  }

  /** The route spelt otherwise (case, slashes, dots, encodings), with a bad body: never routed around validation. */
  function routeSpellingCases(op: FuzzOperation): FuzzCase[] {
    const path = buildPath(op, {}, []);
    const spellings = [
      path.toUpperCase(),
      path.replace('/v1/', '/V1/'),
      `${path}/`,
      `/${path}`,
      path.replace('/v1/', '/v1//'),
      `${path}/.`,
      path.replace('/v1/', '/v1/./'),
      `/v1/..${path}`,
      `${path}%2F`,
      `${path};x=1`,
      `${path}%00`,
      `${path}%20`,
      `${path}.json`,
      path.replace(/\/v1\/(.)/, (_, first: string) => `/v1/%${first.charCodeAt(0).toString(16).toUpperCase()}`),
    ];
    return [...new Set(spellings)].map((spelt) =>
      makeCase(op, 'route spelling', spelt.slice(0, 120), { path: spelt, body: badBodyOf(op) }),
    );
  }

  /** HTTP the parser (or Node) refuses before the app: still the error shape. */
  function httpCases(op: FuzzOperation): FuzzCase[] {
    const path = buildPath(op);
    const valid = firstBody(op) ?? Buffer.from('{}');
    const request = (lines: string[], body: Buffer | string = valid, requestLine = `${op.method} ${path} HTTP/1.1`) =>
      Buffer.concat([
        Buffer.from(
          [requestLine, `X-Ledger-Admin-Token: ${tokens.admin}`, 'Connection: close', ...lines, '', ''].join('\r\n'),
          'latin1',
        ),
        Buffer.isBuffer(body) ? body : Buffer.from(body),
      ]);
    const host = 'Host: 127.0.0.1';
    const json = 'Content-Type: application/json';
    const chunked = `${valid.length.toString(16)}\r\n${valid.toString('latin1')}\r\n0\r\n\r\n`;
    const raws: Array<[string, Buffer]> = [
      ['Content-Length: abc', request([host, json, 'Content-Length: abc'])],
      ['Content-Length: -1', request([host, json, 'Content-Length: -1'])],
      [
        'two Content-Lengths',
        request([host, json, `Content-Length: ${valid.length}`, `Content-Length: ${valid.length + 1}`]),
      ],
      [
        'Content-Length and chunked',
        request([host, json, `Content-Length: ${valid.length}`, 'Transfer-Encoding: chunked'], chunked),
      ],
      [
        'bad chunk size',
        request([host, json, 'Transfer-Encoding: chunked'], `zz\r\n${valid.toString('latin1')}\r\n0\r\n\r\n`),
      ],
      ['Transfer-Encoding gzip, not chunked', request([host, json, 'Transfer-Encoding: gzip'])],
      ['space in a header name', request([host, 'Content Type: application/json', `Content-Length: ${valid.length}`])],
      ['NUL in a header value', request([host, json, `Content-Length: ${valid.length}`, 'X-Fuzz: a\u0000b'])],
      [
        'lowercase method',
        request([host, json, `Content-Length: ${valid.length}`], valid, `${op.method.toLowerCase()} ${path} HTTP/1.1`),
      ],
      ['no Host header', request([json, `Content-Length: ${valid.length}`])],
    ];
    const cases = raws.map(([detail, raw]) => makeCase(op, 'malformed HTTP', detail, { raw }));
    cases.push(
      makeCase(op, 'expect header', 'Expect: fuzz', { body: badBodyOf(op), headers: { Expect: 'fuzz' } }),
      makeCase(op, 'expect header', 'Expect: 100-continue, bad body', {
        body: badBodyOf(op),
        headers: { Expect: '100-continue' },
      }),
      makeCase(op, 'upgrade header', 'Connection: Upgrade, bad body', {
        body: badBodyOf(op),
        headers: { Connection: 'Upgrade', Upgrade: 'websocket' },
      }),
    );
    return cases;
  }

  // ---- assemble --------------------------------------------------------------------------------

  const methodsDone = new Set<string>();
  for (const op of operations) {
    for (const param of op.pathParams) pathCases(op, param).forEach(add);
    for (const param of op.queryParams) queryCases(op, param).forEach(add);
    unknownQueryCases(op).forEach(add);
    if (!methodsDone.has(op.template)) methodCases(op).forEach(add);
    methodsDone.add(op.template);
    if (op.body) {
      routeSpellingCases(op).forEach(add);
      httpCases(op).forEach(add);
      const bases = validBodiesOf(op);
      let firstBad: Record<string, unknown> | undefined;
      for (const [i, base] of bases.entries()) {
        const name = `${String(base.txn_type ?? op.body.name)}#${i}`;
        for (const slot of slotsOf(op.body.schema, base)) {
          const mutations = slotMutations(op, base, name, slot);
          mutations.forEach(add);
          if (!firstBad && mutations[0]?.body)
            firstBad = JSON.parse(String(mutations[0].body)) as Record<string, unknown>;
        }
        for (const key of ODD_KEYS) {
          const mutated = setAt(base, [key], 'x');
          if (certainlyBad(doc, op.body.schema, roundTrip(mutated)) === null) continue;
          add(
            makeCase(op, 'body unknown key', `${name}: + ${preview(key)}`, {
              body: Buffer.from(JSON.stringify(mutated)),
            }),
          );
        }
      }
      const bad = firstBad ?? { ...bases[0], unexpected: '\u0000' };
      const base = bases[0] as Record<string, unknown>;
      rawBodyCases(op, base, bad).forEach(add);
      for (let i = 0; i < 60; i++) add(randomBodyCase(op));
    }
    for (const semantic of input.semantic[op.operationId] ?? []) {
      add(
        makeCase(op, `semantic ${semantic.name}`, preview(semantic.body, 120), {
          path: buildPath(op, semantic.path),
          body: Buffer.from(JSON.stringify(semantic.body)),
        }),
      );
    }
  }

  const bodyOps = operations.filter((op) => op.body);
  const queryOps = operations.filter((op) => op.queryParams.length > 0);
  return {
    groups,
    randomCase: () => {
      if (bodyOps.length > 0 && (queryOps.length === 0 || rng.chance(0.6))) return randomBodyCase(rng.pick(bodyOps));
      return queryOps.length > 0 ? randomQueryCase(rng.pick(queryOps)) : undefined;
    },
  };
}

const REQUEST_IDS = ['', ' ', 'x'.repeat(129), '<script>', 'é', 'a b', '../../x', '%00', 'req-1\\', 'req-1,req-2'];
const ACCEPTS = ['application/xml', 'text/html', 'application/json;q=0', 'image/png', '*/*;q=0', 'application/*'];

/**
 * Some cases carry no token, the read token, or a wrong one instead of the admin token; some an
 * odd X-Request-Id or Accept. (Raw-socket cases are left as they are.)
 */
export function varyHeaders(c: FuzzCase, rng: Rng, ledgerToken: string): FuzzCase {
  if (c.raw) return c;
  let varied = c;
  if (rng.chance(0.04)) {
    const id = rng.pick(REQUEST_IDS);
    varied = {
      ...varied,
      headers: { ...varied.headers, 'X-Request-Id': id },
      detail: `${varied.detail} [X-Request-Id ${JSON.stringify(id)}]`,
    };
  }
  if (rng.chance(0.03)) {
    const accept = rng.pick(ACCEPTS);
    varied = {
      ...varied,
      headers: { ...varied.headers, Accept: accept },
      detail: `${varied.detail} [Accept ${accept}]`,
    };
  }
  return varyCredentials(varied, rng, ledgerToken);
}

function varyCredentials(c: FuzzCase, rng: Rng, ledgerToken: string): FuzzCase {
  const roll = rng.next();
  if (roll > 0.08) return c;
  const headers = { ...c.headers };
  delete headers['X-Ledger-Admin-Token'];
  let credential = 'no token';
  if (roll < 0.03) {
    headers['X-Ledger-Token'] = ledgerToken;
    credential = 'ledger token';
  } else if (roll < 0.05) {
    headers['X-Ledger-Admin-Token'] = 'wrong-admin-token-0000000000000';
    credential = 'wrong admin token';
  }
  return { ...c, headers, detail: `${c.detail} [${credential}]` };
}
