import type { RequestHandler } from 'express';
import { ApiError } from './errors.js';

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
  path: string;
  depth: number;
}

/**
 * Finds what JSON Schema cannot express but the database would refuse (with a 500 rather than
 * a 400): NUL characters and unpaired surrogates in any string or key, numbers JSON.parse turned
 * into Infinity, and nesting deeper than BODY_DEPTH_MAX. Iterative, so depth cannot overflow it.
 */
export function findUnstorable(body: unknown): { path: string; message: string } | null {
  const stack: Pending[] = [{ value: body, path: '/body', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as Pending;
    if (typeof value === 'string') {
      const problem = unstorable(value);
      if (problem) return { path, message: problem };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, message: 'is a number out of range' };
    } else if (value !== null && typeof value === 'object') {
      if (depth >= BODY_DEPTH_MAX) return { path, message: `nests deeper than ${BODY_DEPTH_MAX} levels` };
      for (const [key, child] of Object.entries(value)) {
        const keyProblem = unstorable(key);
        const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (keyProblem) return { path: childPath, message: `has a key that ${keyProblem}` };
        stack.push({ value: child, path: childPath, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** 400 `validation_error` for a body the database could not store as given. */
export const bodyGuard: RequestHandler = (req, _res, next) => {
  const problem = findUnstorable(req.body);
  if (problem) return next(new ApiError('validation_error', 'the request body cannot be stored as given', [problem]));
  next();
};
