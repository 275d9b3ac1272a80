import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import {
  integrations,
  notifications,
  organizations,
  platforms,
  posts,
  postTargets,
  users,
} from '../../db/schema.js';
import { createTestDatabase } from '../../test/database.js';
import { announceOutcome, postLabel } from './outcome-notifications.js';

let database: Database;
let drop: () => Promise<void>;
let orgId: string;
let authorId: string;
const platformIds: Record<string, string> = {};

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  const db = database.db;
  const [author] = await db.insert(users).values({ email: 'author@cafe.test' }).returning();
  authorId = author!.id;
  const [org] = await db.insert(organizations).values({ name: 'Acme Cafe' }).returning();
  orgId = org!.id;
  for (const p of await db.select().from(platforms)) platformIds[p.name] = p.id;
});
afterAll(() => drop());

/** A post with one target on `platform`, sent through `account` (or no known account). */
async function postTo(
  post: { title?: string | null; content?: string },
  platform: string,
  account: { username: string | null; name: string | null } | null,
) {
  const db = database.db;
  const [row] = await db
    .insert(posts)
    .values({ organizationId: orgId, createdByUserId: authorId, status: 'publishing', ...post })
    .returning();
  let integrationId: string | null = null;
  if (account) {
    const [integration] = await db
      .insert(integrations)
      .values({
        organizationId: orgId,
        platformId: platformIds[platform]!,
        platformAccountId: `acct-${Math.random()}`,
        status: 'CONNECTED',
        ...account,
      })
      .returning();
    integrationId = integration!.id;
  }
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: row!.id,
      organizationId: orgId,
      platformId: platformIds[platform]!,
      integrationId,
    })
    .returning();
  targetOf.set(row!.id, target!.id);
  return row!.id;
}

/** Post id → the target its outcome is about. */
const targetOf = new Map<string, string>();

async function messageAfter(
  postId: string,
  platformName: string,
  outcome: 'PUBLISHED' | 'FAILED' | 'UNCERTAIN',
  error: string | null = null,
) {
  await announceOutcome(database.db, {
    organizationId: orgId,
    postId,
    targetId: targetOf.get(postId)!,
    authorId,
    platformName,
    outcome,
    error,
  });
  const rows = await database.db
    .select()
    .from(notifications)
    .where(eq(notifications.postId, postId));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('publishing notifications name the post and the account', () => {
  it('names the post by its title and the X account by its handle', async () => {
    const id = await postTo(
      { title: 'Winter latte launch', content: 'Our winter latte is here' },
      'X',
      {
        username: 'acme_x',
        name: 'Acme on X',
      },
    );
    const note = await messageAfter(id, 'X', 'PUBLISHED');
    expect(note).toMatchObject({
      type: 'POST_PUBLISHED',
      priority: 'LOW',
      postId: id,
      userId: authorId,
      message: "'Winter latte launch' was published to X (@acme_x).",
    });
  });

  it('names a Facebook Page by its name in a failure, with the reason', async () => {
    const id = await postTo({ title: 'Winter latte launch' }, 'Facebook', {
      username: null,
      name: 'Acme Page',
    });
    const note = await messageAfter(id, 'Facebook', 'FAILED', 'The Page token has expired.');
    expect(note).toMatchObject({
      type: 'POST_FAILED',
      priority: 'HIGH',
      message:
        "'Winter latte launch' could not be published to Facebook (Acme Page): The Page token has expired.",
    });
  });

  it('names the account of the target, when the post goes to two accounts of one network', async () => {
    const id = await postTo({ title: 'Two Pages' }, 'Facebook', {
      username: null,
      name: 'First Page',
    });
    const [second] = await database.db
      .insert(integrations)
      .values({
        organizationId: orgId,
        platformId: platformIds.Facebook!,
        platformAccountId: `acct-${Math.random()}`,
        status: 'CONNECTED',
        username: null,
        name: 'Second Page',
      })
      .returning();
    const [target] = await database.db
      .insert(postTargets)
      .values({
        postId: id,
        organizationId: orgId,
        platformId: platformIds.Facebook!,
        integrationId: second!.id,
      })
      .returning();
    targetOf.set(id, target!.id);
    const note = await messageAfter(id, 'Facebook', 'PUBLISHED');
    expect(note.message).toBe("'Two Pages' was published to Facebook (Second Page).");
  });

  it('uses the start of the text when the post has no title', async () => {
    const id = await postTo(
      { content: 'Fresh pastries every morning from seven, and coffee all day long' },
      'Instagram',
      { username: 'acme.cafe', name: 'Acme Cafe Page' },
    );
    const note = await messageAfter(id, 'Instagram', 'PUBLISHED');
    expect(note.message).toBe(
      "'Fresh pastries every morning from seven,…' was published to Instagram (@acme.cafe).",
    );
  });

  it('names only the network when the target has no known account', async () => {
    const id = await postTo({ content: 'Short note' }, 'LinkedIn', null);
    const note = await messageAfter(id, 'LinkedIn', 'UNCERTAIN', 'Check LinkedIn.');
    expect(note.message).toBe(
      "'Short note' may not have been published to LinkedIn: Check LinkedIn.",
    );
  });
});

describe('postLabel', () => {
  it('falls back to per-network text, then to "Your post"', () => {
    expect(postLabel({ title: '  ', content: '', contentByPlatform: { x: 'Only on X' } })).toBe(
      "'Only on X'",
    );
    expect(postLabel({ title: null, content: '  ' })).toBe('Your post');
  });
});
