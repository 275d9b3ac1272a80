import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { organizations, posts } from '../../db/schema.js';
import { useMigratedPglite } from '../../test/database.js';
import { forgetPostTotals, listPosts } from './posts.repository.js';

// PostgreSQL cannot estimate a LIMIT or OFFSET given as a parameter: it plans for a tenth of the
// organization's posts, and when one organization holds most posts that plan looks dearer than
// one made for the values given, so the page was planned again at every request.
const database = useMigratedPglite();

it('plans the library’s first pages once, not at every request, when one organization holds most posts', async () => {
  const { db } = database();
  const [big, small] = await db
    .insert(organizations)
    .values([{ name: 'Most posts' }, { name: 'Few posts' }])
    .returning({ id: organizations.id });
  await db.execute(sql`insert into ${posts} (organization_id, status, content, created_at)
    select ${big!.id}::uuid, 'draft', 'Post ' || n, now() - n * interval '1 minute'
      from generate_series(1, 1000) n`);
  await db.insert(posts).values({ organizationId: small!.id, status: 'draft', content: 'Alone' });
  await db.execute(sql`analyze ${posts}`);

  const pages = [];
  for (let i = 0; i < 12; i++) {
    forgetPostTotals(); // each time the page with its total: one statement, run twelve times
    pages.push(await listPosts(db, big!.id, {}, { limit: 10, offset: 10 }));
  }
  expect(pages.every((p) => p.totalCount === 1000 && p.rows.length === 10)).toBe(true);
  expect(pages[0]!.rows.map((r) => r.post.content)).toEqual(
    Array.from({ length: 10 }, (_, i) => `Post ${i + 11}`),
  );

  type Plans = { name: string; generic: number; custom: number };
  const statements = await db.execute(sql`
    select name, generic_plans::int as generic, custom_plans::int as custom
      from pg_prepared_statements where name like 'posts_page%'`);
  const rows = (statements as unknown as { rows: Plans[] }).rows;
  const run = rows.filter((r) => r.generic + r.custom >= 12);
  expect(run.length).toBe(1);
  // Planned once and kept (PostgreSQL tries five custom plans before settling on a generic one).
  expect(run[0]!.generic).toBeGreaterThanOrEqual(7);
});
