import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, signIn, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { advanceRepeats, fillOrganization, type EvergreenDeps } from './evergreen.service.js';

/**
 * Evergreen collections and repeating posts, on a clock the test moves. Monday 2026-03-02
 * 08:00 UTC; the organization is on UTC and its X account has slots at 09:00 and 17:00 every day.
 */
const DAY = 86_400_000;
const MONDAY = Date.parse('2026-03-02T08:00:00Z');
let clock = MONDAY;
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let outsider: Actor;
let orgId: string;
let xId: string;

const base = () => `/api/organizations/${orgId}`;
const at = (iso: string) => new Date(iso).toISOString();

async function createPost(text: string, fields: Record<string, string> = {}) {
  const body = await multipart({
    integrationIds: JSON.stringify([xId]),
    content: text,
    action: 'draft',
    ...fields,
  });
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `${base()}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post as { id: string; scheduledAt: string | null };
}

/** Moves the clock; a session does not outlive its days, so the owner signs in again. */
async function moveTo(time: number) {
  clock = time;
  owner = await signIn(t.app, 'owner@evergreen.test');
}

const deps = (): EvergreenDeps => ({
  db: t.database.db,
  media: t.runtime.media,
  lifecycle: { scheduled: async () => {}, unscheduled: async () => {} },
  now: () => new Date(clock),
  log: t.app.log,
});

/** The copies of a kind the organization holds, by time: [time, the post copied]. */
async function copies(kind: 'evergreen' | 'repeat') {
  const rows = await t.database.db
    .select({
      id: posts.id,
      scheduledAt: posts.scheduledAt,
      source: posts.source,
      content: posts.content,
    })
    .from(posts)
    .where(eq(posts.organizationId, orgId));
  return rows
    .filter((r) => r.source?.kind === kind)
    .sort((a, b) => a.scheduledAt!.getTime() - b.scheduledAt!.getTime());
}

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-evergreen-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { now: () => new Date(clock) },
  );
  ({ owner, orgId } = await createOrg(t.app, 'owner@evergreen.test', 'Evergreen Co'));
  outsider = (await createOrg(t.app, 'outsider@evergreen.test', 'Other Co')).owner;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `${base()}/integrations`)).body.data.platforms as Array<{
    id: string;
  }>;
  xId = list[0]!.id;
  expect((await owner.call('PATCH', base(), { defaultTimeZone: 'UTC' })).status).toBe(200);
  const week = [0, 1, 2, 3, 4, 5, 6].flatMap((weekday) => [
    { weekday, time: '09:00' },
    { weekday, time: '17:00' },
  ]);
  expect((await owner.call('PUT', `${base()}/queue/${xId}`, { slots: week })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('evergreen collections', () => {
  let collectionId: string;
  let ids: { a: string; b: string; c: string };

  it('refuses what cannot be a collection, in words, and hides one from other organizations', async () => {
    const bad = await owner.call('POST', `${base()}/evergreen-collections`, {
      name: ' ',
      integrationIds: [xId],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Give the collection a name.');
    const zero = await owner.call('POST', `${base()}/evergreen-collections`, {
      name: 'X',
      integrationIds: [xId],
      minDaysBetween: 0,
    });
    expect(zero.status).toBe(400);
    const past = await owner.call('POST', `${base()}/evergreen-collections`, {
      name: 'X',
      integrationIds: [xId],
      endAt: '2026-03-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('endAt has already passed');
    const foreign = await outsider.call('GET', `${base()}/evergreen-collections`);
    expect(foreign.status).toBe(403);
  });

  it('fills a week of slots exactly as planned: in turn, N days apart, up to its end, once per slot across two workers', async () => {
    ids = {
      a: (await createPost('Post A: our guide to spring', { title: 'Guide' })).id,
      b: (await createPost('Post B: the tools we use')).id,
      c: (await createPost('Post C: ask us anything')).id,
    };
    // A post scheduled by hand takes Tuesday 09:00: the collection leaves it alone.
    const manual = await createPost('By hand', {
      action: 'schedule',
      scheduledAt: '2026-03-03T09:00:00Z',
    });
    expect(manual.scheduledAt).toBe(at('2026-03-03T09:00:00Z'));

    const created = await owner.call('POST', `${base()}/evergreen-collections`, {
      name: 'Best of',
      integrationIds: [xId],
      minDaysBetween: 2,
      endAfterCycles: 2,
      postIds: [ids.a, ids.b, ids.c],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    collectionId = created.body.data.collection.id;
    expect(created.body.data.posts.map((p: { postId: string }) => p.postId)).toEqual([
      ids.a,
      ids.b,
      ids.c,
    ]);
    expect(created.body.data.posts[0].label).toBe('Guide');

    const projected = await owner.call(
      'GET',
      `${base()}/evergreen-collections/projection?from=2026-03-02T00:00:00Z&to=2026-03-09T00:00:00Z`,
    );
    expect(projected.status).toBe(200);
    const plan = (
      projected.body.data.fills as Array<{ at: string; postId: string; collectionName: string }>
    ).map((f) => [f.at, f.postId]);
    // Round robin, oldest used first; A comes back 48 h after its first slot (N = 2 days), and
    // Thursday 09:00 stays empty because C went out 40 h before; each post twice, then the end.
    expect(plan).toEqual([
      [at('2026-03-02T09:00:00Z'), ids.a],
      [at('2026-03-02T17:00:00Z'), ids.b],
      [at('2026-03-03T17:00:00Z'), ids.c],
      [at('2026-03-04T09:00:00Z'), ids.a],
      [at('2026-03-04T17:00:00Z'), ids.b],
      [at('2026-03-05T17:00:00Z'), ids.c],
    ]);
    expect(projected.body.data.fills[0].collectionName).toBe('Best of');

    // The job, day by day, twice at once each time (two workers on the same database).
    for (let day = 0; day < 7; day++) {
      clock = MONDAY + day * DAY;
      const until = new Date(clock + DAY);
      const made = await Promise.all([
        fillOrganization(deps(), orgId, until),
        fillOrganization(deps(), orgId, until),
      ]);
      expect(made[0] + made[1]).toBe(day === 0 || day === 2 ? 2 : day === 1 || day === 3 ? 1 : 0);
      // A second run the same day finds nothing more to do.
      expect(await fillOrganization(deps(), orgId, until)).toBe(0);
    }
    const made = await copies('evergreen');
    expect(
      made.map((p) => [
        p.scheduledAt!.toISOString(),
        p.source?.kind === 'evergreen' && p.source.postId,
      ]),
    ).toEqual(plan);
    // No slot holds two posts of the account.
    const times = made.map((p) => p.scheduledAt!.getTime());
    expect(new Set(times).size).toBe(times.length);
    expect(times).not.toContain(Date.parse('2026-03-03T09:00:00Z'));
    // Each copy keeps the post's text, and copies of one post are at least 2 days apart.
    for (const [key, id] of Object.entries(ids)) {
      const own = made.filter((p) => p.source?.kind === 'evergreen' && p.source.postId === id);
      expect(own).toHaveLength(2);
      expect(own[0]!.content).toContain(`Post ${key.toUpperCase()}`);
      expect(
        own[1]!.scheduledAt!.getTime() - own[0]!.scheduledAt!.getTime(),
      ).toBeGreaterThanOrEqual(2 * DAY);
    }

    await moveTo(clock);
    const read = await owner.call('GET', `${base()}/evergreen-collections/${collectionId}`);
    expect(read.body.data.collection).toMatchObject({ ended: true, fillCount: 6, postCount: 3 });
    expect(read.body.data.posts.map((p: { useCount: number }) => p.useCount)).toEqual([2, 2, 2]);
  });

  it('is a normal scheduled post with its source, and a paused collection plans nothing', async () => {
    const [first] = await copies('evergreen');
    const post = await owner.call('GET', `${base()}/posts/${first!.id}`);
    expect(post.body.data.post.status).toBe('scheduled');
    expect(post.body.data.post.source).toMatchObject({ kind: 'evergreen', name: 'Best of' });

    await moveTo(MONDAY + 7 * DAY);
    const more = await createPost('Post D: new and evergreen');
    const second = await owner.call('POST', `${base()}/evergreen-collections`, {
      name: 'Second',
      integrationIds: [xId],
      minDaysBetween: 7,
      paused: true,
      postIds: [more.id],
    });
    expect(second.status).toBe(201);
    const range = `from=${new Date(clock).toISOString()}&to=${new Date(clock + 7 * DAY).toISOString()}`;
    const paused = await owner.call('GET', `${base()}/evergreen-collections/projection?${range}`);
    expect(paused.body.data.fills).toEqual([]);
    const id = second.body.data.collection.id;
    expect(
      (await owner.call('PATCH', `${base()}/evergreen-collections/${id}`, { paused: false }))
        .status,
    ).toBe(200);
    const resumed = await owner.call('GET', `${base()}/evergreen-collections/projection?${range}`);
    // Once a week at most: one fill in the week, in the first empty slot.
    expect(
      resumed.body.data.fills.map((f: { at: string; postId: string }) => [f.at, f.postId]),
    ).toEqual([[at('2026-03-09T09:00:00Z'), more.id]]);
    const removed = await owner.call(
      'DELETE',
      `${base()}/evergreen-collections/${id}/posts/${more.id}`,
    );
    expect(removed.status).toBe(200);
    expect(removed.body.data.posts).toEqual([]);
    expect((await owner.call('DELETE', `${base()}/evergreen-collections/${id}`)).status).toBe(200);
    expect((await owner.call('GET', `${base()}/evergreen-collections/${id}`)).status).toBe(404);
  });
});

describe('repeat every N days until a date', () => {
  const publish = (postId: string) =>
    t.database.db
      .update(posts)
      .set({ status: 'published', publishedAt: new Date(clock) })
      .where(and(eq(posts.organizationId, orgId), eq(posts.id, postId)));

  it('makes the next occurrence when one goes out, from the latest (edits carry), until the date', async () => {
    await moveTo(Date.parse('2026-03-16T08:00:00Z'));
    const first = await createPost('Weekly tip', {
      action: 'schedule',
      scheduledAt: '2026-03-16T12:00:00Z',
    });
    const early = await owner.call('PUT', `${base()}/posts/${first.id}/repeat`, {
      every: 2,
      unit: 'week',
      until: '2026-03-20T23:59:00Z',
    });
    expect(early.status).toBe(400);
    expect(JSON.stringify(early.body)).toContain('until comes before the first repeat');
    const set = await owner.call('PUT', `${base()}/posts/${first.id}/repeat`, {
      every: 2,
      unit: 'day',
      until: '2026-03-20T23:59:00Z',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.repeat).toMatchObject({
      every: 2,
      unit: 'day',
      occurrences: 1,
      nextAt: at('2026-03-18T12:00:00Z'),
    });

    // Not gone out yet: nothing to make.
    expect(await advanceRepeats(deps())).toBe(0);
    await publish(first.id);
    await moveTo(Date.parse('2026-03-16T12:05:00Z'));
    const [one, two] = await Promise.all([advanceRepeats(deps()), advanceRepeats(deps())]);
    expect(one + two).toBe(1);
    let made = await copies('repeat');
    expect(made.map((p) => p.scheduledAt!.toISOString())).toEqual([at('2026-03-18T12:00:00Z')]);
    const second = made[0]!.id;
    expect(
      (await owner.call('GET', `${base()}/posts/${first.id}/repeat`)).body.data.repeat,
    ).toBeNull();
    expect(
      (await owner.call('GET', `${base()}/posts/${second}/repeat`)).body.data.repeat,
    ).toMatchObject({ occurrences: 2, nextAt: at('2026-03-20T12:00:00Z') });

    // An edit of the next occurrence carries to the ones after it.
    expect(
      (await owner.call('PUT', `${base()}/posts/${second}`, { content: 'Weekly tip, revised' }))
        .status,
    ).toBe(200);
    await publish(second);
    await moveTo(Date.parse('2026-03-18T12:05:00Z'));
    expect(await advanceRepeats(deps())).toBe(1);
    made = await copies('repeat');
    expect(made.map((p) => [p.scheduledAt!.toISOString(), p.content])).toEqual([
      [at('2026-03-18T12:00:00Z'), 'Weekly tip, revised'],
      [at('2026-03-20T12:00:00Z'), 'Weekly tip, revised'],
    ]);

    // The one after would be on the 22nd, past the date: the repeat ends.
    await publish(made[1]!.id);
    await moveTo(Date.parse('2026-03-20T12:05:00Z'));
    expect(await advanceRepeats(deps())).toBe(0);
    expect(await copies('repeat')).toHaveLength(2);
    expect(
      (await owner.call('GET', `${base()}/posts/${made[1]!.id}/repeat`)).body.data.repeat,
    ).toBeNull();
  });

  it('stops when asked', async () => {
    await moveTo(Date.parse('2026-03-23T08:00:00Z'));
    const post = await createPost('Daily', {
      action: 'schedule',
      scheduledAt: '2026-03-23T12:00:00Z',
    });
    const path = `${base()}/posts/${post.id}/repeat`;
    expect(
      (await owner.call('PUT', path, { every: 1, unit: 'day', until: '2026-04-01T00:00:00Z' }))
        .status,
    ).toBe(200);
    expect((await owner.call('DELETE', path)).status).toBe(200);
    expect((await owner.call('DELETE', path)).status).toBe(404);
    await publish(post.id);
    await moveTo(Date.parse('2026-03-23T12:05:00Z'));
    const before = (await copies('repeat')).length;
    expect(await advanceRepeats(deps())).toBe(0);
    expect(await copies('repeat')).toHaveLength(before);
  });
});
