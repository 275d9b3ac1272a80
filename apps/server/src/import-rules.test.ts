import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The module rules of docs/architecture.md#import-rules are held by ESLint; these sources, linted
 * as if they sat at the given paths, show each rule refusing what it must and letting through
 * what it must (a rule that matched nothing would pass the lint of the whole tree silently).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function refusals(path: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: `${root}${path}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('module import rules', () => {
  it('keeps drizzle, the schema and the raw query helpers in repositories', async () => {
    const source = [
      "import { eq } from 'drizzle-orm';",
      "import { posts } from '../../db/schema.js';",
      "import { rowsOf, type Db } from '../../db/client.js';",
      'export const used = [eq, posts, rowsOf] as unknown as Db;',
      '',
    ].join('\n');
    const inService = await refusals('apps/server/src/modules/queue/queue.service.ts', source);
    expect(inService).toHaveLength(3);
    expect(inService.join('\n')).toMatch(/repositories build queries/);
    expect(await refusals('apps/server/src/modules/queue/queue.repository.ts', source)).toEqual([]);
  });

  it('reaches another module through its service, never its repository', async () => {
    const source = [
      "import { findPost } from '../posts/posts.repository.js';",
      "import { queueZoneOf } from './queue.repository.js';",
      "import { lockOrganization } from '../organizations/organization-lock.js';",
      'export const used = [findPost, queueZoneOf, lockOrganization];',
      '',
    ].join('\n');
    for (const path of [
      'apps/server/src/modules/queue/queue.service.ts',
      'apps/server/src/modules/queue/queue.repository.ts',
    ]) {
      const found = await refusals(path, source);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/'\.\.\/posts\/posts\.repository\.js'.*through its service/);
    }
  });

  it('sends the jobs and the composition root through services too', async () => {
    const job =
      "import { findPost } from '../modules/posts/posts.repository.js';\nexport const used = findPost;\n";
    expect(await refusals('apps/server/src/jobs/probe.job.ts', job)).toHaveLength(1);
    const root =
      "import { findPost } from './modules/posts/posts.lookups.js';\nexport const used = findPost;\n";
    expect(await refusals('apps/server/src/app.ts', root)).toEqual([]);
  });
});
