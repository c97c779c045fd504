import { expect } from 'chai';
import { loadConfig } from '../src/config.js';
import type { Feature } from '../src/features/feature.js';
import { FEATURES } from '../src/features/index.js';
import { operationRouter } from '../src/http/operations.js';
import { apiDocument } from '../src/openapi/index.js';
import type { ApiDocument } from '../src/openapi/types.js';

// Handlers are only built here, never called: a config and stand-ins for the database and the logger do.
const context = {
  config: loadConfig({ ENTITY_ID: 'ENTITY_UAE', LEDGER_DB_URL: 'postgres://postgres@127.0.0.1:5432/unused' }),
  db: {},
  logger: {},
  jobs: {},
} as Parameters<typeof operationRouter>[2];
const ok = () => undefined;

/** The features with `operationId`'s handler removed, or a stray one added. */
function withHandlers(change: (handlers: Record<string, unknown>) => void): Feature[] {
  return FEATURES.map((feature) =>
    feature.handlers && feature.tag.name === 'firm'
      ? {
          ...feature,
          handlers: () => {
            const handlers: Record<string, () => undefined> = {
              getFirmAccounts: ok,
              getTrialBalance: ok,
              getFirmSummary: ok,
              getFirmEarnings: ok,
            };
            change(handlers);
            return handlers;
          },
        }
      : {
          ...feature,
          handlers:
            feature.handlers &&
            (() => Object.fromEntries(Object.keys(feature.handlers!(context)).map((id) => [id, ok]))),
        },
  );
}

describe('the operation table', () => {
  it('serves every operation of the document from the features, as built at start', () => {
    expect(() =>
      operationRouter(
        apiDocument,
        withHandlers(() => undefined),
        context,
      ),
    ).not.to.throw();
  });

  it('refuses to start when an operation of the document has no handler', () => {
    expect(() =>
      operationRouter(
        apiDocument,
        withHandlers((h) => delete h.getTrialBalance),
        context,
      ),
    ).to.throw(/operation getTrialBalance \(GET \/v1\/firm\/trial_balance\) has no handler/);
  });

  it('refuses to start when a handler serves no operation of the document', () => {
    expect(() =>
      operationRouter(
        apiDocument,
        withHandlers((h) => (h.getFirmForecast = ok)),
        context,
      ),
    ).to.throw(/handler getFirmForecast serves no operation of the document/);
  });

  it('refuses a document that uses one operationId twice', () => {
    const paths = { ...apiDocument.paths, '/v1/firm/accounts2': apiDocument.paths['/v1/firm/accounts']! };
    const twice: ApiDocument = { ...apiDocument, paths };
    expect(() =>
      operationRouter(
        twice,
        withHandlers(() => undefined),
        context,
      ),
    ).to.throw(/operationId getFirmAccounts is used twice/);
  });

  it('takes each path once, from its feature: the document is the features’ paths and nothing else', () => {
    const featurePaths = FEATURES.flatMap((feature) => Object.keys(feature.paths)).sort();
    expect(Object.keys(apiDocument.paths).sort()).to.deep.equal(featurePaths);
  });
});
