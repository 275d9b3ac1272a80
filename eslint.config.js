import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { existsSync, readdirSync } from 'node:fs';

const featuresDir = new URL('./apps/web/src/features/', import.meta.url);
const featureNames = existsSync(featuresDir) ? readdirSync(featuresDir) : [];

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
          patterns: [
            {
              group: ['@herald/web', '**/apps/web/**'],
              message: 'The server never imports the web app.',
            },
          ],
        },
      ],
    },
  },
  ...serverLayerBlocks(),
);
