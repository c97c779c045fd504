import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Packages that do I/O (database, HTTP, queues, logs): kept out of the core's pure layers. */
const IO_PACKAGES = '^(knex|pg|pg-.+|express|ioredis|bullmq|got|winston)(/.*)?$';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'Money is bignumber.js, never a float.' }],
    },
  },
  {
    // No import circles: a circle makes load order decide what a module sees (undefined at import
    // time) and hides which module owns a fact. Imports of types only are erased and not counted.
    // Each package is checked on its own (imports of other packages are external): pnpm's
    // dependency graph already keeps packages from importing in a circle.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Functions stay short: at most 70 lines of code (blank lines and comments not counted), so
    // each says one thing and reads on a screen. Tests are not held to it: a mocha describe
    // callback is a suite of cases, not a function to split.
    files: ['**/src/**/*.{ts,tsx}', 'apps/console/scripts/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 70, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The domain is pure: money, rules, drafts. It does no I/O and knows nothing of the layers
    // around it (use cases, store, runtime), so it can be tested and reused without them.
    files: ['packages/ledger-core/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // node:crypto is allowed: the entry fingerprint is a sha256, a pure computation.
          paths: builtinModules
            .filter((name) => name !== 'crypto' && !name.startsWith('_'))
            .map((name) => ({
              name,
              message: 'The domain does no I/O: Node built-ins stay out of it (only node:crypto, for hashing).',
            })),
          patterns: [
            {
              regex: '^node:(?!crypto$)',
              message: 'The domain does no I/O: Node built-ins stay out of it (only node:crypto, for hashing).',
            },
            { regex: IO_PACKAGES, message: 'The domain does no I/O: the store (SQL) and runtime do.' },
            {
              regex: '^\\.\\.?/(.*/)?(store|runtime|use-cases|testing)(/|$)',
              message: 'The domain depends on nothing outside it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Use cases reach the database only through the LedgerStore port they declare
    // (use-cases/ports.ts); the column tables (store/columns/) are shapes, not I/O.
    files: ['packages/ledger-core/src/use-cases/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: IO_PACKAGES, message: 'Use cases do no I/O of their own: they call the LedgerStore port.' },
            { regex: '^(\\.\\./)+(runtime|testing)(/|$)', message: 'Use cases do not depend on the runtime.' },
            {
              regex: '^(\\.\\./)+store/(?!columns/)',
              message: 'Use cases reach the store through LedgerStore (ports.ts); only the column tables are shared.',
            },
          ],
        },
      ],
    },
  },
);
