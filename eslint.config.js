import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { existsSync, readdirSync } from 'node:fs';

const featuresDir = new URL('./apps/web/src/features/', import.meta.url);
const featureNames = existsSync(featuresDir) ? readdirSync(featuresDir) : [];
const serverModulesDir = new URL('./apps/server/src/modules/', import.meta.url);
const serverModuleNames = existsSync(serverModulesDir) ? readdirSync(serverModulesDir) : [];

/**
 * The server's layers, bottom to top: each folder of apps/server/src may import only the ones
 * listed for it (and itself, the contract and npm packages). `config` is the top-level
 * config.ts; the composition root (runtime.ts), app.ts, server.ts and cli.ts wire everything
 * and nothing imports them; no production file imports src/test/ (tests may import anything).
 * `http` may import types (only) from `modules`: the membership it puts on each request is the
 * team module's type, while its value comes from the composition root.
 */
const SERVER_LAYERS = {
  lib: [],
  db: ['lib', 'config'],
  platforms: ['lib', 'config'],
  sandbox: ['lib', 'config', 'db'],
  media: ['lib', 'config', 'db'],
  identity: ['lib', 'config', 'db'],
  http: ['lib', 'config', 'db', 'identity'],
  modules: ['lib', 'config', 'db', 'platforms', 'media', 'identity', 'http'],
  jobs: ['lib', 'config', 'db', 'platforms', 'media', 'identity', 'modules'],
};
const SERVER_TYPE_ONLY = { http: ['modules'] };
const SERVER_PARTS = [
  ...Object.keys(SERVER_LAYERS),
  'config',
  'test',
  'app',
  'runtime',
  'server',
  'cli',
];
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One block per layer and folder depth, so `../` × depth is exactly "leaving the layer". */
function serverLayerBlocks() {
  const blocks = [];
  for (const [layer, allowed] of Object.entries(SERVER_LAYERS)) {
    const typeOnly = SERVER_TYPE_ONLY[layer] ?? [];
    const banned = SERVER_PARTS.filter(
      (p) => p !== layer && !allowed.includes(p) && !typeOnly.includes(p),
    );
    for (let depth = 1; depth <= 4; depth++) {
      const up = `^(\\.\\./){${depth}}`;
      const part = (names) => `${up}(${names.map(escapeRe).join('|')})(/|\\.js$)`;
      const patterns = [
        {
          regex: part(banned),
          message: `${layer}/ may import only ${allowed.join(', ') || 'nothing of the server'} (server layer order in eslint.config.js).`,
        },
      ];
      if (typeOnly.length)
        patterns.push({
          regex: part(typeOnly),
          allowTypeImports: true,
          message: `${layer}/ may import only types from ${typeOnly.join(', ')}.`,
        });
      blocks.push({
        files: [`apps/server/src/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
        ignores: ['**/*.test.ts'],
        rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
      });
    }
  }
  // The composition root and the entry points wire everything, but never test helpers.
  blocks.push({
    files: ['apps/server/src/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^\\./test/', message: 'Production code never imports src/test/.' }],
        },
      ],
    },
  });
  return blocks;
}

const SERVER_NEVER_WEB = {
  group: ['@herald/web', '**/apps/web/**'],
  message: 'The server never imports the web app.',
};

/**
 * Inside `modules/`, only a module's `*.repository.ts` files talk to the database (drizzle, the
 * schema, the raw query helpers of db/client), and a module reaches another through that module's
 * service or other non-repository files, never its repository. Outside `modules/`, the jobs, the
 * HTTP layer and the composition root go through the services too. Tests may import anything.
 */
function serverModuleBlocks() {
  const otherRepository = (name) => ({
    regex: `^\\.\\./(?!${escapeRe(name)}/)[^/]+/[^/]+\\.repository(\\.js)?$`,
    message:
      'A module reaches another module through its service, never its repository (docs/architecture.md#import-rules).',
  });
  const database = [
    {
      group: ['drizzle-orm', 'drizzle-orm/*'],
      message: "Only a module's repositories build queries (docs/architecture.md#import-rules).",
    },
    {
      regex: '^(\\.\\./)+db/schema(/|\\.js$|$)',
      message:
        "Only a module's repositories read the schema; export row types from the repository.",
    },
    {
      regex: '^(\\.\\./)+db/client(\\.js)?$',
      importNames: ['rowsOf', 'runNamed', 'queryRowArrays'],
      message: "Only a module's repositories run queries.",
    },
  ];
  const blocks = serverModuleNames.flatMap((name) => [
    {
      files: [`apps/server/src/modules/${name}/**/*.ts`],
      ignores: ['**/*.test.ts', '**/*.repository.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [SERVER_NEVER_WEB, otherRepository(name), ...database] },
        ],
      },
    },
    {
      files: [`apps/server/src/modules/${name}/**/*.repository.ts`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [SERVER_NEVER_WEB, otherRepository(name)] }],
      },
    },
  ]);
  blocks.push({
    files: [
      'apps/server/src/*.ts',
      'apps/server/src/{jobs,http,identity,lib,db,platforms,sandbox,media}/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER_NEVER_WEB,
            {
              regex: '(^|/)modules/[^/]+/[^/]+\\.repository(\\.js)?$',
              message:
                'Outside modules/, a module is reached through its service, never its repository.',
            },
          ],
        },
      ],
    },
  });
  return blocks;
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.herald/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests read arbitrary JSON answers; typing each one would only restate the assertions.
    files: ['**/*.test.ts', '**/*.test.tsx', 'apps/server/src/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@herald/server', '@herald/server/*', '**/apps/server/**'],
              message: 'The web app never imports the server; share through @herald/contract.',
            },
            {
              group: ['@herald/client', '@herald/client/*', '**/packages/client/**'],
              message:
                'The API client is for other programs; the web app calls the API through its own api layer.',
            },
          ],
        },
      ],
    },
  },
  // Features never import each other: each feature may only import itself, shared code and the contract.
  ...featureNames.map((name) => ({
    files: [`apps/web/src/features/${name}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@herald/server', '@herald/server/*', '**/apps/server/**'],
              message: 'The web app never imports the server.',
            },
            {
              group: featureNames
                .filter((n) => n !== name)
                .flatMap((n) => [
                  `**/features/${n}`,
                  `**/features/${n}/**`,
                  `@/features/${n}`,
                  `@/features/${n}/**`,
                ]),
              message:
                'Features never import each other; move shared code to components/, lib/ or hooks/.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@herald/server', '@herald/web', '**/apps/**'],
              message: 'The contract depends on nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [SERVER_NEVER_WEB],
        },
      ],
    },
  },
  ...serverLayerBlocks(),
  ...serverModuleBlocks(),
);
