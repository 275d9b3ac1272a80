import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, posts } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg, mp4 } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/*
 * Every way a post enters the schedule or goes out refuses, with a 400 naming the account and
 * the rule, a post a network would refuse at publish time (docs/product.md#media-rules): the
 * shared rule set's publishProblems, never a failure found unattended later.
 */

let t: TestApp;
let mediaDir: string;
let owner: Actor;
let orgId: string;
const platform: Record<string, string> = {};
const base = () => `/api/organizations/${orgId}`;
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

async function createPost(fields: Record<string, string | undefined>, files: FilePart[] = []) {
  const body = await multipart(fields, files);
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `${base()}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const toX = () => ({ platformIds: JSON.stringify([platform.X]) });
const toThreads = () => ({ platformIds: JSON.stringify([platform.Threads]) });
const sixLinks = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' ');

/** A post stored as a draft, then given text a rule now refuses, as if stored before the rule. */
async function storedWithTwoCashtags(status: 'draft' | 'pending_approval' = 'draft') {
  const made = await createPost({ ...toX(), content: 'Earnings week', action: 'draft' });
  expect(made.status).toBe(201);
  const id = made.body.data.post.id as string;
  await t.database.db
    .update(posts)
    .set({ content: '$TSLA and $AAPL report this week', status, scheduledAt: new Date(inADay()) })
    .where(eq(posts.id, id));
  return id;
}

const xCashtagRefusal = {
  platformName: 'X',
  message:
    'X takes one cashtag per post from apps like Herald; this post has 2 ($TSLA, $AAPL). Keep one in the X version of this post.',
};

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-publish-rules-'));
  t = await createTestApp({
    MEDIA_DIR: join(mediaDir, 'store'),
    MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
  });
  ({ owner, orgId } = await createOrg(t.app, 'owner@rules.test', 'Rules Co'));
  for (const slug of ['x', 'threads'])
    expect(await connectThroughSandbox(t.app, owner, slug, orgId)).toContain('connected=');
  const supported = await owner.call('GET', '/api/platforms/supported');
  for (const p of supported.body.data.platforms as Array<{ id: string; name: string }>)
    platform[p.name] = p.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('creating a post', () => {
  it('refuses an image beside a video for X, naming the account and the rule', async () => {
    const res = await createPost(
      { ...toX(), content: 'Launch', action: 'schedule', scheduledAt: inADay() },
      [
        { name: 'cover.jpg', type: 'image/jpeg', data: await jpeg(640, 480) },
        { name: 'teaser.mp4', type: 'video/mp4', data: await mp4({ seconds: 1 }) },
      ],
    );
    expect(res.status).toBe(400);
    expect(res.body.details.platformValidationErrors).toEqual([
      {
        platformName: 'X',
        message:
          'X takes one video or one GIF per post, on its own. Keep only that file in the X version of this post.',
      },
    ]);
  });

  it('refuses two cashtags for X before reading any file', async () => {
    const res = await createPost({
      ...toX(),
      content: '$TSLA and $AAPL',
      action: 'schedule',
      scheduledAt: inADay(),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The text breaks the rules of X.');
    expect(res.body.details.platformValidationErrors).toEqual([xCashtagRefusal]);
  });

  it('refuses six links for Threads, also when adding to the queue', async () => {
    for (const action of ['schedule', 'queue']) {
      const res = await createPost({
        ...toThreads(),
        content: sixLinks,
        action,
        ...(action === 'schedule' ? { scheduledAt: inADay() } : {}),
      });
      expect(res.status).toBe(400);
      expect(res.body.details.platformValidationErrors[0]).toMatchObject({
        platformName: 'Threads',
        message: expect.stringContaining('Threads refuses a post with more than 5 links'),
      });
    }
  });

  it('refuses a thread part with two cashtags for X', async () => {
    const [xAccount] = await t.database.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(and(eq(integrations.organizationId, orgId), eq(integrations.platformId, platform.X!)));
    const res = await createPost({
      integrationIds: JSON.stringify([xAccount!.id]),
      content: 'A thread',
      action: 'schedule',
      scheduledAt: inADay(),
      followUps: JSON.stringify({ [xAccount!.id]: { parts: ['$TSLA then $AAPL'] } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(
      'X: X takes one cashtag per post from apps like Herald; part 2 of 2 has 2 ($TSLA, $AAPL).',
    );
  });
});

describe('a stored post a network would now refuse', () => {
  it('cannot be scheduled, nor its time changed', async () => {
    const id = await storedWithTwoCashtags();
    const res = await owner.call('PUT', `${base()}/posts/${id}`, { scheduledAt: inADay() });
    expect(res.status).toBe(400);
    expect(res.body.details.platformValidationErrors).toEqual([xCashtagRefusal]);
    const after = (await owner.call('GET', `${base()}/posts/${id}`)).body.data.post;
    expect(after.status).toBe('draft');
  });

  it('cannot have its text edited into a refusal while scheduled', async () => {
    const made = await createPost({
      ...toX(),
      content: 'Fine',
      action: 'schedule',
      scheduledAt: inADay(),
    });
    expect(made.status).toBe(201);
    const res = await owner.call('PUT', `${base()}/posts/${made.body.data.post.id}`, {
      content: '$TSLA and $AAPL report this week',
    });
    expect(res.status).toBe(400);
    expect(res.body.details.platformValidationErrors).toEqual([xCashtagRefusal]);
  });

  it('cannot be approved', async () => {
    const id = await storedWithTwoCashtags('pending_approval');
    const res = await owner.call('POST', `${base()}/approvals/${id}/approve`, {});
    expect(res.status).toBe(400);
    expect(res.body.details.platformValidationErrors).toEqual([xCashtagRefusal]);
    const after = (await owner.call('GET', `${base()}/posts/${id}`)).body.data.post;
    expect(after.status).toBe('pending_approval');
  });

  it('cannot be published now, and nothing is sent', async () => {
    const id = await storedWithTwoCashtags();
    const res = await owner.call('PATCH', `${base()}/post/${id}/publish`, { platforms: ['X'] });
    expect(res.status).toBe(400);
    expect(res.body.details.platformValidationErrors).toEqual([xCashtagRefusal]);
    const after = (await owner.call('GET', `${base()}/posts/${id}`)).body.data.post;
    expect(after.platformPosts[0]).toMatchObject({ status: 'QUEUED', externalId: null });
  });
});

describe('importing posts from CSV', () => {
  it('refuses a row a network would refuse, naming the rule', async () => {
    const csv = [
      'text,accounts,time',
      `Fine,x,${inADay()}`,
      `"$TSLA and $AAPL",x,${inADay()}`,
      `"${sixLinks}",threads,${inADay()}`,
    ].join('\r\n');
    const res = await owner.call('POST', `${base()}/posts/import/dry-run`, {
      csv,
      mode: 'schedule',
    });
    expect(res.status).toBe(200);
    const rows = res.body.data.rows as Array<{ ok: boolean; messages: string[] }>;
    expect(rows.map((r) => r.ok)).toEqual([true, false, false]);
    expect(rows[1]!.messages.join(' ')).toContain('text: X takes one cashtag per post');
    expect(rows[2]!.messages.join(' ')).toContain(
      'text: Threads refuses a post with more than 5 links',
    );
  });
});
