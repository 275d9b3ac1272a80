import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Packages a server without S3, SMTP, Stripe or metrics settings never needs, and sharp, needed
 * only once a file arrives: each costs start time (docs/performance.md#where-api-time-goes),
 * so they load by `import()` where they are used, never by a static import on the way from the
 * CLI. The bundle (scripts/build.mjs) keeps npm packages external and hoists every static import
 * of them to its top, so one static import anywhere would load the package at every start.
 */
const LAZY = [/^stripe$/, /^nodemailer$/, /^@aws-sdk\//, /^sharp$/, /^prom-client$/];

const srcDir = dirname(fileURLToPath(import.meta.url));

/** Value imports and re-exports of a module (`import type` and `export type` load nothing). */
function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    if (match[2]) continue;
    if (match[1] === 'export' && !match[3]) continue;
    specifiers.push(match[4]!);
  }
  return specifiers;
}

/** Every source module the CLI reaches through static imports, with the packages each names. */
function reachableFrom(entry: string) {
  const packagesOf = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop()!;
    if (packagesOf.has(file)) continue;
    const specifiers = staticImports(readFileSync(file, 'utf8'));
    packagesOf.set(
      file,
      specifiers.filter((s) => !s.startsWith('.')),
    );
    for (const s of specifiers.filter((s) => s.startsWith('.'))) {
      const target = resolve(dirname(file), s.replace(/\.js$/, '.ts'));
      const candidates = [target, join(target.replace(/\.ts$/, ''), 'index.ts')];
      const found = candidates.find((c) => existsSync(c));
      if (!found) throw new Error(`${file}: cannot resolve ${s}`);
      pending.push(found);
    }
  }
  return packagesOf;
}

describe('what a start loads', () => {
  it('reads imports the way the check relies on', () => {
    const source = [
      "import sharp from 'sharp';",
      "import type Stripe from 'stripe';",
      'import {\n  S3Client,\n  GetObjectCommand,\n} from "@aws-sdk/client-s3";',
      "export { a } from './a.js';",
      "export type { B } from './b.js';",
      "import './side-effect.js';",
      "const later = () => import('nodemailer');",
    ].join('\n');
    expect(staticImports(source)).toEqual([
      'sharp',
      '@aws-sdk/client-s3',
      './a.js',
      './side-effect.js',
    ]);
  });

  it('reaches no optional heavy package through a static import from the CLI', () => {
    const reached = reachableFrom(join(srcDir, 'cli.ts'));
    // The walk saw the app: the composition root and the modules that load these lazily.
    for (const file of [
      'app.ts',
      'lib/mailer.ts',
      'media/storage/s3-storage.ts',
      'media/measure.ts',
      'lib/sharp.ts',
      'modules/billing/billing-provider.ts',
      'lib/metrics.ts',
    ])
      expect([...reached.keys()]).toContain(join(srcDir, file));
    const eager = [...reached].flatMap(([file, packages]) =>
      packages
        .filter((p) => LAZY.some((pattern) => pattern.test(p)))
        .map((p) => `${file.slice(srcDir.length + 1)} imports ${p}`),
    );
    expect(eager).toEqual([]);
  });
});
