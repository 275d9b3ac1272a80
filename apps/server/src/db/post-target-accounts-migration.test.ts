import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Migration post_target_accounts (0015): targets become per account, and existing ones get theirs. */
const folder = fileURLToPath(new URL('../../drizzle/', import.meta.url));

async function run(db: PGlite, file: string) {
  const sql = await readFile(`${folder}${file}`, 'utf8');
  for (const statement of sql.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
}

let db: PGlite;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [org, platform, older, newer, post, queued, published, gone] = [1, 2, 3, 4, 5, 6, 7, 8].map(
  id,
);

beforeAll(async () => {
  db = new PGlite();
  const files = (await readdir(folder)).filter((f) => f.endsWith('.sql')).sort();
  // Found by name, whatever number it gets when branches are merged.
  const name = files.find((f) => f.endsWith('_post_target_accounts.sql'))!;
  for (const file of files.slice(0, files.indexOf(name))) await run(db, file);
  await db.exec(`
    insert into organizations (id, name) values ('${org}', 'Backfill Co');
    insert into platforms (id, name) values ('${platform}', 'Backfillnet');
    insert into integrations (id, organization_id, platform_id, platform_account_id, status, name, username, connected_at)
      values ('${older}', '${org}', '${platform}', 'ext-older', 'CONNECTED', 'Older Page', null, now() - interval '2 days'),
             ('${newer}', '${org}', '${platform}', 'ext-newer', 'CONNECTED', 'Newer Page', 'newer', now() - interval '1 day');
    insert into posts (id, organization_id, status) values ('${post}', '${org}', 'scheduled');
  `);
  // Before 0013 a post had one target per network; these stand for three posts' targets.
  await db.exec(`
    insert into posts (id, organization_id, status) values ('${id(9)}', '${org}', 'published'), ('${id(10)}', '${org}', 'scheduled');
    insert into post_targets (id, post_id, organization_id, platform_id, integration_id, status)
      values ('${queued}', '${post}', '${org}', '${platform}', '${older}', 'QUEUED'),
             ('${published}', '${id(9)}', '${org}', '${platform}', null, 'PUBLISHED'),
             ('${gone}', '${id(10)}', '${org}', '${platform}', null, 'QUEUED');
  `);
  await run(db, name);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('migration post_target_accounts (post targets per account)', () => {
  it('keeps each target on its account and records who the account was', async () => {
    const { rows } = await db.query<{
      integration_id: string | null;
      account_name: string | null;
      account_external_id: string | null;
    }>(`select integration_id, account_name, account_external_id from post_targets where id = $1`, [
      queued,
    ]);
    expect(rows[0]).toEqual({
      integration_id: older,
      account_name: 'Older Page',
      account_external_id: 'ext-older',
    });
  });

  it('gives a waiting target without an account the one that would have published it (the newest)', async () => {
    const { rows } = await db.query<{ integration_id: string | null; account_username: string }>(
      `select integration_id, account_username from post_targets where id = $1`,
      [gone],
    );
    expect(rows[0]).toEqual({ integration_id: newer, account_username: 'newer' });
  });

  it('leaves a published target without an account as history, unattributed', async () => {
    const { rows } = await db.query<{ integration_id: string | null }>(
      `select integration_id from post_targets where id = $1`,
      [published],
    );
    expect(rows[0]?.integration_id).toBeNull();
  });

  it('allows a second account of the same network on one post, but not the same account twice', async () => {
    await db.query(
      `insert into post_targets (post_id, organization_id, platform_id, integration_id) values ($1, $2, $3, $4)`,
      [post, org, platform, newer],
    );
    await expect(
      db.query(
        `insert into post_targets (post_id, organization_id, platform_id, integration_id) values ($1, $2, $3, $4)`,
        [post, org, platform, newer],
      ),
    ).rejects.toThrow(/post_targets_post_integration_key/);
  });
});
