import express, { type Request, type RequestHandler, type Response } from 'express';
import { bodySignedSchemeOf, checkBodySignature } from './body-signature.js';
import { ApiError } from './errors.js';
import { operationOf } from './request-context.js';

/** Deeper JSON than this is refused: nothing in the contract nests so far, and recursion has a stack. */
export const BODY_DEPTH_MAX = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Postgres would refuse a string (as text or jsonb), or null when it would not. */
function unstorable(value: string): string | null {
  if (value.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(value)) return 'contains an unpaired UTF-16 surrogate';
  return null;
}

interface Pending {
  value: unknown;
  depth: number;
  /** Where it sits: its parent and its key there (none for the body itself). */
  parent: Pending | null;
  key: string;
}

/** The JSON pointer to `at` under /body: spelled out only for what is refused, not for every key read. */
function pointerOf(at: Pending): string {
  const keys: string[] = [];
  for (let p: Pending | null = at; p?.parent; p = p.parent) keys.push(p.key.replace(/~/g, '~0').replace(/\//g, '~1'));
  return ['/body', ...keys.reverse()].join('/');
}

/**
 * Finds what JSON Schema cannot express but the database would refuse (with a 500 rather than
 * a 400): NUL characters and unpaired surrogates in any string or key, numbers JSON.parse turned
 * into Infinity, and nesting deeper than BODY_DEPTH_MAX. Iterative, so depth cannot overflow it.
 */
export function findUnstorable(body: unknown): { path: string; message: string } | null {
  const stack: Pending[] = [{ value: body, depth: 0, parent: null, key: '' }];
  while (stack.length > 0) {
    const at = stack.pop() as Pending;
    const { value, depth } = at;
    if (typeof value === 'string') {
      const problem = unstorable(value);
      if (problem) return { path: pointerOf(at), message: problem };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path: pointerOf(at), message: 'is a number out of range' };
    } else if (value !== null && typeof value === 'object') {
      if (depth >= BODY_DEPTH_MAX)
        return { path: pointerOf(at), message: `nests deeper than ${BODY_DEPTH_MAX} levels` };
      for (const [key, child] of Object.entries(value)) {
        const next = { value: child, depth: depth + 1, parent: at, key };
        const keyProblem = unstorable(key);
        if (keyProblem) return { path: pointerOf(next), message: `has a key that ${keyProblem}` };
        stack.push(next);
      }
    }
  }
  return null;
}

/** The body the JSON parser read, kept on `res.locals` (undefined: it read none). */
interface BodyLocals {
  bodyBytes?: number;
  rawBody?: Buffer;
}

const bodyBytesOf = (res: Response) => (res.locals as BodyLocals).bodyBytes ?? 0;

/**
 * express.json, with three things it does not do itself: it notes how many bytes of body it read
 * (an empty body parses to `{}`, which must not pass for a body that was sent); a body that
 * does not decode as its Content-Encoding says (zlib's own error, which body-parser passes on
 * untouched) becomes the caller's 400 rather than our 500; and for a body-signed operation (the
 * remit webhook) it refuses an encoded body (415) and checks the signature over the raw bytes
 * before the JSON is judged.
 */
export function jsonBody(limitBytes: number, webhookSecret: string | undefined): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: true,
    verify: (req, res, buffer) => {
      const locals = (res as Response).locals as BodyLocals;
      locals.bodyBytes = buffer.length;
      if (bodySignedSchemeOf(req as Request)) locals.rawBody = buffer;
    },
  });
  return (req, res, next) => {
    // A body-signed operation takes its body as sent: the signature is over those bytes, and an
    // encoded body would be inflated before anyone knows who sent it.
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (bodySignedSchemeOf(req) && encoding !== undefined && encoding !== '' && encoding !== 'identity') {
      return next(
        new ApiError(
          'unsupported_media_type',
          `Content-Encoding ${encoding} is refused here: send the body uncompressed, as signed`,
        ),
      );
    }
    parse(req, res, (error?: unknown) => {
      // A body-signed operation: the signature over the raw bytes is checked before the body is
      // judged as JSON (authenticate has made sure the secret is set). A body too large or in an
      // unknown encoding was never read: that refusal stands.
      const parseFailed =
        error === undefined ||
        (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'entity.parse.failed');
      if (parseFailed && bodySignedSchemeOf(req)) {
        const refusal = checkBodySignature(
          req,
          webhookSecret ?? '',
          (res.locals as BodyLocals).rawBody ?? Buffer.alloc(0),
        );
        if (refusal) return next(refusal);
      }
      const fromParser = typeof error === 'object' && error !== null && 'status' in error && 'type' in error;
      if (error !== undefined && !fromParser) {
        return next(
          new ApiError('undecodable_body', 'the request body cannot be decoded as its Content-Encoding says'),
        );
      }
      next(error);
    });
  };
}

/**
 * 400 `validation_error` for a body the database could not store as given, or for no body at
 * all (no bytes, whatever Content-Length or Content-Type say) where the operation requires one.
 */
export const bodyGuard: RequestHandler = (req, res, next) => {
  const requestBody = (operationOf(req)?.schema as { requestBody?: { required?: boolean } } | undefined)?.requestBody;
  const required = requestBody?.required;
  // A body sent that is not JSON, where the body is optional: the validator lets it pass and the
  // handler would ignore it. Refused as for a required body, rather than acting on nothing.
  const sentContent = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  // Asked once: each asking parses the Content-Type header again.
  const json = req.is('application/json');
  if (requestBody !== undefined && sentContent && json === false) {
    return next(new ApiError('unsupported_media_type', 'the request body must be application/json'));
  }
  // Only a JSON body could have been read: the validator answers any other content type (415).
  if (required === true && json !== false && bodyBytesOf(res) === 0) {
    const detail = { path: '/body', message: 'is required: send a JSON object' };
    return next(new ApiError('validation_error', 'this endpoint needs a JSON request body', [detail]));
  }
  const problem = findUnstorable(req.body);
  if (problem) return next(new ApiError('validation_error', 'the request body cannot be stored as given', [problem]));
  canonicalContentType(req, json);
  next();
};

/**
 * The validator compiles, and keeps, a request validator for each distinct Content-Type header
 * it is shown (its cache key, parameters included): left as sent, a caller could grow that cache
 * without bound with new spellings (`application/json; x=1`, `; x=2`, …), each costing a compile.
 * The body is read by now, and only a JSON one gets this far (else no body, or an operation that
 * takes none), so one spelling per case is all the validator needs: `application/json`, or none.
 */
function canonicalContentType(req: Request, json: string | false | null): void {
  if (typeof json === 'string') req.headers['content-type'] = 'application/json';
  else delete req.headers['content-type'];
}
