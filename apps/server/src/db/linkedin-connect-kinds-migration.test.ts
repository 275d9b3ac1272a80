import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Migration linkedin_connect_kinds: LinkedIn accounts connected before name their kind. */
const folder = fileURLToPath(new URL('../../drizzle/', import.meta.url));

async function run(db: PGlite, file: string) {
  const sql = await readFile(`${folder}${file}`, 'utf8');
  for (const statement of sql.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
}

let db: PGlite;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [org, person, page, known, other] = [1, 2, 3, 4, 5].map(id);

beforeAll(async () => {
  db = new PGlite();
  const files = (await readdir(folder)).filter((f) => f.endsWith('.sql')).sort();
  // Found by name, whatever number it gets when branches are merged.
  const name = files.find((f) => f.endsWith('_linkedin_connect_kinds.sql'))!;
  for (const file of files.slice(0, files.indexOf(name))) await run(db, file);
  await db.exec(`
    insert into organizations (id, name) values ('${org}', 'Kinds Co');
    insert into integrations (id, organization_id, platform_id, platform_account_id, status, extra)
      select '${person}'::uuid, '${org}'::uuid, id, 'urn:li:person:AbC', 'CONNECTED', '{"grantKey":"linkedin:urn:li:person:AbC"}'::jsonb
        from platforms where name = 'LinkedIn'
      union all
      select '${page}'::uuid, '${org}'::uuid, id, 'urn:li:organization:123', 'CONNECTED', '{"grantKey":"linkedin:urn:li:person:AbC"}'::jsonb
        from platforms where name = 'LinkedIn'
      union all
      select '${known}'::uuid, '${org}'::uuid, id, 'urn:li:organization:456', 'CONNECTED', '{"kind":"organization","role":"ADMINISTRATOR"}'::jsonb
        from platforms where name = 'LinkedIn'
      union all
      select '${other}'::uuid, '${org}'::uuid, id, 'urn:li:organization:789', 'CONNECTED', '{}'::jsonb
        from platforms where name = 'X';
  `);
  await run(db, name);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('migration linkedin_connect_kinds', () => {
  it('names each LinkedIn account’s kind by its URN and keeps the shared grant key', async () => {
    const { rows } = await db.query<{ id: string; extra: Record<string, unknown> }>(
      'select id, extra from integrations order by id',
    );
    expect(rows).toEqual([
      { id: person, extra: { grantKey: 'linkedin:urn:li:person:AbC', kind: 'person' } },
      { id: page, extra: { grantKey: 'linkedin:urn:li:person:AbC', kind: 'organization' } },
      { id: known, extra: { kind: 'organization', role: 'ADMINISTRATOR' } },
      { id: other, extra: {} },
    ]);
  });
});
