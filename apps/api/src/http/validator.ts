import { assert } from '@ledger/core/posting';
import type { RequestHandler } from 'express';
import OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import type { ApiDocument } from '../openapi/types.js';

/** The stages express-openapi-validator installs, by function name, in its order. */
const KNOWN_STAGES = new Set([
  'pathParamsMiddleware',
  'metadataMiddleware',
  'securityMiddleware',
  'multipartMiddleware',
  'requestMiddleware',
  'responseMiddleware',
]);

export interface ValidatorStages {
  /** Matches the request to its operation (`req.openapi`) and, when on, hooks response validation. */
  match: RequestHandler[];
  /** Validates query, path and body against the matched operation. */
  validate: RequestHandler[];
}

/** The stages built for each document, by whether responses are checked. */
const built = new WeakMap<ApiDocument, Map<boolean, ValidatorStages>>();

/**
 * The validator, split in two so that authentication can run between matching and validation:
 * credentials are decided from the matched operation's `security` before the body is parsed or
 * validated. (Its own security stage cannot tell a 403 from a 401, so it is off and dropped.)
 * Stages are picked by name; an upgrade that renames or adds one fails here, at start.
 *
 * Built once per document and mode, and shared by every app of the process: the validator
 * prepares its copy of the document and compiles each operation's schemas on the operation's
 * first request (about 0.2 s each when responses are checked), and holds nothing of a request.
 * Of an app it touches only the first one's `app.param`, for routes declared on the app itself
 * with path parameters: there are none (operationRouter dispatches the operations and sets
 * their parameters). A server builds one app; the tests build hundreds, which compiled it all
 * again each.
 */
export function validatorStages(document: ApiDocument, validateResponses: boolean): ValidatorStages {
  let byMode = built.get(document);
  if (byMode === undefined) built.set(document, (byMode = new Map()));
  let stages = byMode.get(validateResponses);
  if (stages === undefined) byMode.set(validateResponses, (stages = buildStages(document, validateResponses)));
  return stages;
}

function buildStages(document: ApiDocument, validateResponses: boolean): ValidatorStages {
  const stages = OpenApiValidator.middleware({
    // The document's schema types are a typed subset of OpenAPI 3.1; the validator's own types predate 3.1 schemas.
    apiSpec: document as unknown as OpenApiValidatorOpts['apiSpec'],
    validateApiSpec: true,
    // allErrors: a caller is told every broken rule at once. Safe here because every body is
    // bounded (size, depth, items) before it is validated, and the answer lists at most DETAILS_MAX.
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    // 'full': calendar-checked dates (2026-02-30 is a 400 here, not a database error).
    ajvFormats: { mode: 'full' },
    fileUploader: false,
  }) as unknown as RequestHandler[];
  const byName = new Map(stages.map((stage) => [stage.name, stage]));
  for (const name of byName.keys())
    assert(KNOWN_STAGES.has(name), `express-openapi-validator has an unknown stage ${name}`);
  const stage = (name: string): RequestHandler => {
    const found = byName.get(name);
    assert(found, `express-openapi-validator has a ${name} stage`);
    return found;
  };
  return {
    match: [
      stage('pathParamsMiddleware'),
      stage('metadataMiddleware'),
      // Installed before authentication so that every answer of a matched operation, errors included, is checked.
      ...(validateResponses ? [stage('responseMiddleware')] : []),
    ],
    validate: [stage('requestMiddleware')],
  };
}
