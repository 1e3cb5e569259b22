import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CLIENT_FEATURES = readdirSync(new URL('./client/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Server layers, lowest first; each imports only from its own layer and those below it. The
// bus and the turn feed are transport (any layer publishes); the /ws hub sits on top of the
// workspace it checks rooms against. config.ts is read by all. Tests assemble the whole app and
// are exempt. The analyst is pure besides (ANALYST_ZONE).
const SERVER_LAYERS = [
  ['./server/lib', './server/db', './server/config.ts'],
  [
    './server/realtime/bus.ts',
    './server/realtime/turn-feed.ts',
    './server/realtime/text-batcher.ts',
  ],
  ['./server/mail'],
  ['./server/audit'],
  ['./server/accounts'],
  ['./server/analyst'],
  ['./server/workspace'],
  ['./server/realtime/ws.ts'],
  [
    './server/app.ts',
    './server/client-app.ts',
    './server/main.ts',
    './server/admin',
    './server/seed',
  ],
];
const LAYER_NAMES = SERVER_LAYERS.map((layer) =>
  layer.map((p) => p.replace('./server/', '')).join(', '),
).join(' <- ');
const SERVER_ZONES = SERVER_LAYERS.slice(0, -1).map((layer, i) => ({
  target: layer,
  from: SERVER_LAYERS.slice(i + 1).flat(),
  message: `Server code imports downwards only: ${LAYER_NAMES} (eslint.config.js).`,
}));

// The analyst: history and files in, events and a report out. It stores nothing and publishes
// nothing; the turn runtime in the workspace does (docs/decisions/0003-the-analyst-apart-from-chat-storage.md).
const ANALYST_ZONE = {
  target: './server/analyst',
  from: ['./server/db', './server/realtime', './server/mail', './server/accounts'],
  message:
    'The analyst imports no database, bus, mail or accounts code: the turn runtime in server/workspace/turns stores and publishes (docs/decisions/0003-the-analyst-apart-from-chat-storage.md).',
};

// The analyst's tests run on one database only (vitest.config.ts, docs/decisions/0017), which
// holds because they cannot reach one: no storage, bus, workspace or app, not even through test
// support. A test of the whole turn lives with the turn runtime in server/workspace/turns.
const ANALYST_TEST_ZONE = {
  target: './server/analyst',
  from: [
    './server/db',
    './server/realtime',
    './server/mail',
    './server/accounts',
    './server/workspace',
    './server/admin',
    './server/library',
    './server/app.ts',
    './test-support/app.ts',
    './test-support/factories.ts',
    './test-support/accounts.ts',
    './test-support/conversation.ts',
    './test-support/postgres.ts',
    './test-support/redis-server.ts',
    './test-support/server-process.ts',
  ],
  message:
    'An analyst test reaches no database, bus or app: it runs on the embedded suite only (docs/decisions/0017). Test the whole turn in server/workspace/turns.',
};

// The production tree carries no test code and reaches none (docs/decisions/0004-one-home-for-test-support.md).
const NO_TEST_SUPPORT_ZONE = {
  target: './server',
  from: './test-support',
  message:
    'Server code imports nothing from test-support: test support lives there for tests only (docs/decisions/0004-one-home-for-test-support.md).',
};

const LAYOUT_ZONES = [
  {
    target: './contract',
    from: ['./server', './client'],
    message: 'The contract imports nothing of ours (ARCHITECTURE.md section 2).',
  },
  { target: './server', from: './client', message: 'The server never imports the client.' },
  { target: './client', from: './server', message: 'The client never imports the server.' },
  ...CLIENT_FEATURES.map((feature) => ({
    target: `./client/features/${feature}`,
    from: './client/features',
    except: [`./${feature}`],
    message:
      'A client feature imports no other feature: a page showing parts of several features is composed in client/app (passed in as props), and a piece two features share moves into client/lib, client/components or client/hooks.',
  })),
];

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'coverage', 'server/db/migrations', '.scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Only the server reads the environment, and only in server/config.ts.
    files: ['server/**/*.ts', 'contract/**/*.ts', 'client/**/*.{ts,tsx}'],
    ignores: ['server/config.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration in server/config.ts only.',
        },
      ],
    },
  },
  {
    // Command-line tools and benchmarks print their results.
    files: ['bench/**/*.ts', 'server/admin/**/*.ts', 'scripts/**/*.{ts,mjs,js}'],
    rules: { 'no-console': 'off' },
  },
  {
    // The layout of ARCHITECTURE.md section 2, enforced: no import cycles anywhere, the contract
    // imports nothing of ours, the client and server never import each other, a client feature
    // imports no other feature (client/app composes them), server code imports downwards only.
    files: ['contract/**/*.ts', 'server/**/*.ts', 'client/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript parser for the files an import leads to: without it no-cycle cannot follow
      // imports into .ts/.tsx files and finds nothing.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: LAYOUT_ZONES }],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...LAYOUT_ZONES, ...SERVER_ZONES, ANALYST_ZONE, NO_TEST_SUPPORT_ZONE] },
      ],
    },
  },
  {
    files: ['server/analyst/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...LAYOUT_ZONES, ANALYST_TEST_ZONE] }],
    },
  },
  {
    // One way to the API: client/api/http.ts, whose http() parses every answer with its contract
    // schema (docs/decisions/0023-one-client-api-per-resource.md).
    files: ['client/**/*.{ts,tsx}'],
    ignores: ['client/api/http.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through a resource module in client/api.' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'window',
          property: 'fetch',
          message: 'Call the API through a resource module in client/api.',
        },
        {
          object: 'globalThis',
          property: 'fetch',
          message: 'Call the API through a resource module in client/api.',
        },
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration in server/config.ts only.',
        },
      ],
    },
  },
);
