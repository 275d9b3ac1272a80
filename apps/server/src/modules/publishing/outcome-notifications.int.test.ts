import { and, eq } from 'drizzle-orm';
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
import { countUnread, resolvePostFailures } from '../notifications/notifications.service.js';
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

  it('names each account, when the post goes to two accounts of one network', async () => {
    const id = await postTo({ title: 'Two Pages' }, 'Facebook', {
      username: null,
      name: 'First Page',
    });
    await database.db
      .update(postTargets)
      .set({ status: 'FAILED', error: 'The Page token has expired.' })
      .where(eq(postTargets.postId, id));
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
        status: 'PUBLISHED',
      })
      .returning();
    targetOf.set(id, target!.id);
    const note = await messageAfter(id, 'Facebook', 'PUBLISHED');
    expect(note.message).toBe(
      "'Two Pages' was published to 1 of 2 accounts; Facebook (First Page) failed: The Page token has expired.",
    );
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

describe('one notification per outcome of a post to several accounts', () => {
  /** A post with one target per network named, each through an account named after it. */
  async function postToMany(title: string, networks: string[]) {
    const db = database.db;
    const [post] = await db
      .insert(posts)
      .values({ organizationId: orgId, createdByUserId: authorId, status: 'publishing', title })
      .returning();
    const targets: { id: string; network: string }[] = [];
    for (const network of networks) {
      const [integration] = await db
        .insert(integrations)
        .values({
          organizationId: orgId,
          platformId: platformIds[network]!,
          platformAccountId: `acct-${Math.random()}`,
          status: 'CONNECTED',
          username: `acme_${network.toLowerCase()}`,
          name: null,
        })
        .returning();
      const [target] = await db
        .insert(postTargets)
        .values({
          postId: post!.id,
          organizationId: orgId,
          platformId: platformIds[network]!,
          integrationId: integration!.id,
          status: 'PUBLISHING',
        })
        .returning();
      targets.push({ id: target!.id, network });
    }
    return { postId: post!.id, targets };
  }

  /** The target settles as a run would, then the run announces it. */
  async function settle(
    postId: string,
    target: { id: string; network: string },
    outcome: 'PUBLISHED' | 'FAILED' | 'UNCERTAIN',
    error: string | null = null,
  ) {
    await database.db
      .update(postTargets)
      .set({ status: outcome, error, updatedAt: new Date() })
      .where(eq(postTargets.id, target.id));
    return announceOutcome(database.db, {
      organizationId: orgId,
      postId,
      targetId: target.id,
      authorId,
      platformName: target.network,
      outcome,
      error,
      targetCount: 7,
    });
  }

  const notesOf = (postId: string) =>
    database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.postId, postId), eq(notifications.userId, authorId)))
      .orderBy(notifications.createdAt);

  /** Every network, and a second account of the first one: seven accounts. */
  const seven = () => {
    const networks = Object.keys(platformIds).sort();
    return [...networks, networks[0]!].slice(0, 7);
  };

  it('records nothing while accounts are still publishing, then one sentence for all seven', async () => {
    expect(seven()).toHaveLength(7);
    const { postId, targets } = await postToMany('Spring menu', seven());
    for (const target of targets.slice(0, 6)) {
      await settle(postId, target, 'PUBLISHED');
      if (target !== targets[5]) expect(await notesOf(postId)).toHaveLength(0);
    }
    const last = targets[6]!;
    await settle(postId, last, 'FAILED', 'The image is too small.');
    const notes = await notesOf(postId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      type: 'POST_FAILED',
      priority: 'HIGH',
      message: `'Spring menu' was published to 6 of 7 accounts; ${last.network} (@acme_${last.network.toLowerCase()}) failed: The image is too small.`,
      resolvedAt: null,
    });
  });

  it('records the outcome once when two runs settle the last accounts together', async () => {
    const { postId, targets } = await postToMany('Together', seven().slice(0, 2));
    await database.db
      .update(postTargets)
      .set({ status: 'PUBLISHED', updatedAt: new Date() })
      .where(eq(postTargets.postId, postId));
    await Promise.all(
      targets.map((t) =>
        announceOutcome(database.db, {
          organizationId: orgId,
          postId,
          targetId: t.id,
          authorId,
          platformName: t.network,
          outcome: 'PUBLISHED',
          error: null,
        }),
      ),
    );
    const notes = await notesOf(postId);
    expect(notes.map((n) => n.message)).toEqual(["'Together' was published to all 2 accounts."]);
  });

  it('says when nothing went out, and a retry that went out is a notice of its own that resolves the failure', async () => {
    const [a, b] = seven();
    const { postId, targets } = await postToMany('Retry me', [a!, b!]);
    await settle(postId, targets[0]!, 'FAILED', 'Token expired.');
    await settle(postId, targets[1]!, 'UNCERTAIN', 'Check it.');
    let notes = await notesOf(postId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toBe(
      `'Retry me' could not be published to any of its 2 accounts; ${a} (@acme_${a!.toLowerCase()}) failed: Token expired.; ${b} (@acme_${b!.toLowerCase()}) may not have it: Check it.`,
    );
    const unreadBefore = await countUnread(database.db, authorId, orgId);
    // Retried: both are due again, and only their new outcome is told.
    await database.db
      .update(postTargets)
      .set({ status: 'QUEUED', dueAt: new Date(Date.now() - 1000) })
      .where(eq(postTargets.postId, postId));

    await settle(postId, targets[0]!, 'PUBLISHED');
    await settle(postId, targets[1]!, 'PUBLISHED');
    notes = await notesOf(postId);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatchObject({
      type: 'POST_PUBLISHED',
      message: "'Retry me' was published to all 2 accounts.",
    });
    expect(notes[0]!.resolvedAt).toBeInstanceOf(Date);
    // The resolved failure asks for nothing: the unread count drops by it, and the success adds one.
    expect(await countUnread(database.db, authorId, orgId)).toBe(unreadBefore);
  });

  it('marks a failure notice resolved when the post is rescheduled', async () => {
    const { postId, targets } = await postToMany('Fix me', seven().slice(0, 2));
    await settle(postId, targets[0]!, 'FAILED', 'Too long.');
    await settle(postId, targets[1]!, 'PUBLISHED');
    expect((await notesOf(postId))[0]!.resolvedAt).toBeNull();
    expect(await resolvePostFailures(database.db, orgId, postId, new Date())).toBe(1);
    expect((await notesOf(postId))[0]!.resolvedAt).toBeInstanceOf(Date);
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
