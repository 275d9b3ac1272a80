import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/**
 * Posting queue. The clock is Friday 2026-03-06 12:00 UTC in an organization on New
 * York time: clocks spring forward on Sunday 2026-03-08, so Monday 09:00 is 13:00 UTC (not 14:00).
 */
const NOW = new Date('2026-03-06T12:00:00Z');
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let creator: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let xId: string;
let threadsId: string;

const base = () => `/api/organizations/${orgId}`;

async function addToQueue(actor: Actor, ids: string[], text: string) {
  const body = await multipart({
    integrationIds: JSON.stringify(ids),
    content: text,
    action: 'queue',
  });
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `${base()}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const queued = async (ids: string[], text: string) => {
  const res = await addToQueue(owner, ids, text);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.post as { id: string; scheduledAt: string; status: string };
};

const scheduledAt = async (postId: string) =>
  (await owner.call('GET', `${base()}/posts/${postId}`)).body.data.post.scheduledAt as string;

const putSlots = (actor: Actor, id: string, slots: Array<{ weekday: number; time: string }>) =>
  actor.call('PUT', `${base()}/queue/${id}`, { slots });

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-queue-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { now: () => NOW },
  );
  const org = await createOrg(t.app, 'owner@queue.test', 'Queue Co');
  ({ owner, orgId } = org);
  creator = (
    await addMember(t.app, owner, orgId, 'creator@queue.test', {
      roleId: org.roleId('ContentCreator'),
    })
  ).actor;
  const other = await createOrg(t.app, 'outsider@queue.test', 'Other Co');
  outsider = other.owner;
  otherOrgId = other.orgId;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  expect(await connectThroughSandbox(t.app, owner, 'threads', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `${base()}/integrations`)).body.data.platforms as Array<{
    id: string;
    platform: { name: string };
  }>;
  xId = list.find((a) => a.platform.name.toLowerCase() === 'x')!.id;
  threadsId = list.find((a) => a.platform.name.toLowerCase() === 'threads')!.id;
  const zone = await owner.call('PATCH', base(), { defaultTimeZone: 'America/New_York' });
  expect(zone.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('slots', () => {
  it('are saved per account in the organization time zone; only org:manage edits them', async () => {
    expect((await putSlots(creator, xId, [{ weekday: 0, time: '09:00' }])).status).toBe(403);
    const bad = await putSlots(owner, xId, [{ weekday: 0, time: '25:00' }]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('HH:mm');
    const saved = await putSlots(owner, xId, [
      { weekday: 0, time: '12:30' },
      { weekday: 0, time: '09:00' },
      { weekday: 1, time: '09:00' },
      { weekday: 1, time: '09:00' },
    ]);
    expect(saved.status).toBe(200);
    expect(saved.body.data.account.slots).toEqual([
      { weekday: 0, time: '09:00' },
      { weekday: 0, time: '12:30' },
      { weekday: 1, time: '09:00' },
    ]);
    expect((await putSlots(owner, threadsId, [{ weekday: 0, time: '12:30' }])).status).toBe(200);
    const queue = await creator.call('GET', `${base()}/queue`);
    expect(queue.body.data.timeZone).toBe('America/New_York');
    expect(queue.body.data.accounts).toHaveLength(2);
  });

  it('belong to the organization: another organization can neither read nor set them', async () => {
    expect((await outsider.call('GET', `${base()}/queue`)).status).toBe(403);
    const foreign = await outsider.call('PUT', `/api/organizations/${otherOrgId}/queue/${xId}`, {
      slots: [{ weekday: 2, time: '10:00' }],
    });
    expect(foreign.status).toBe(404);
    const slots = (await owner.call('GET', `${base()}/queue`)).body.data.accounts.find(
      (a: { integrationId: string }) => a.integrationId === xId,
    ).slots;
    expect(slots).toHaveLength(3);
  });

  it("copy to other accounts, replacing their week; only org:manage, only the organization's accounts", async () => {
    const copy = (actor: Actor, from: string, ids: string[], org = orgId) =>
      actor.call('POST', `/api/organizations/${org}/queue/${from}/copy`, { integrationIds: ids });
    expect((await copy(creator, xId, [threadsId])).status).toBe(403);
    const foreign = await copy(outsider, xId, [threadsId], otherOrgId);
    expect(foreign.status).toBe(404);
    const stranger = await copy(owner, xId, ['00000000-0000-4000-8000-000000000000']);
    expect(stranger.status).toBe(400);
    expect(JSON.stringify(stranger.body)).toContain('not connected to this organization');
    expect((await copy(owner, xId, [xId])).status).toBe(400);

    const copied = await copy(owner, xId, [threadsId]);
    expect(copied.status).toBe(200);
    expect(copied.body.data.accounts).toEqual([
      expect.objectContaining({
        integrationId: threadsId,
        slots: [
          { weekday: 0, time: '09:00' },
          { weekday: 0, time: '12:30' },
          { weekday: 1, time: '09:00' },
        ],
      }),
    ]);
    // Back to the week the tests below expect.
    expect((await putSlots(owner, threadsId, [{ weekday: 0, time: '12:30' }])).status).toBe(200);
  });

  it("a first connection brings a week: the newest account's times, else the suggested week; a reconnect keeps an emptied one", async () => {
    const week = async (id: string) =>
      (await owner.call('GET', `${base()}/queue`)).body.data.accounts.find(
        (a: { integrationId: string }) => a.integrationId === id,
      )?.slots;
    const fresh = await createOrg(t.app, 'fresh@queue.test', 'Fresh Co');
    expect(await connectThroughSandbox(t.app, fresh.owner, 'x', fresh.orgId)).toContain(
      'connected=',
    );
    const freshQueue = await fresh.owner.call('GET', `/api/organizations/${fresh.orgId}/queue`);
    expect(freshQueue.body.data.accounts[0].slots).toEqual(
      [0, 1, 2, 3, 4].flatMap((weekday) =>
        ['09:00', '12:00', '17:00'].map((time) => ({ weekday, time })),
      ),
    );

    // Threads was connected after X, so LinkedIn starts on Threads' week, not X's.
    expect(await connectThroughSandbox(t.app, owner, 'linkedin', orgId)).toContain('connected=');
    const accounts = (await owner.call('GET', `${base()}/queue`)).body.data.accounts as Array<{
      integrationId: string;
      platformName: string;
    }>;
    const linkedinId = accounts.find(
      (a) => a.platformName.toLowerCase() === 'linkedin',
    )!.integrationId;
    expect(await week(linkedinId)).toEqual([{ weekday: 0, time: '12:30' }]);

    // Signing in again to an account still connected (a reconnect) keeps its emptied week.
    expect((await putSlots(owner, linkedinId, [])).status).toBe(200);
    expect(await connectThroughSandbox(t.app, owner, 'linkedin', orgId)).toContain('connected=');
    expect(await week(linkedinId)).toEqual([]);
    const after = (await owner.call('GET', `${base()}/queue`)).body.data.accounts as Array<{
      platformName: string;
    }>;
    expect(after.filter((a) => a.platformName.toLowerCase() === 'linkedin')).toHaveLength(1);
    const off = await owner.call('POST', `/api/linkedin/disconnect/${orgId}`, {
      integrationId: linkedinId,
    });
    expect(off.status).toBe(200);
    expect(await week(linkedinId)).toBeUndefined();
  });
});

describe('Add to queue', () => {
  const ids: Record<string, string> = {};

  it('takes the next free slot, daylight-saving correct', async () => {
    expect(
      (await owner.call('GET', `${base()}/queue/next?integrationIds=${xId}`)).body.data.at,
    ).toBe('2026-03-09T13:00:00.000Z');
    const first = await queued([xId], 'First in line');
    expect(first.status).toBe('scheduled');
    expect(first.scheduledAt).toBe('2026-03-09T13:00:00.000Z');
    const second = await queued([xId], 'Second in line');
    expect(second.scheduledAt).toBe('2026-03-09T16:30:00.000Z');
    const third = await queued([xId], 'Third in line');
    expect(third.scheduledAt).toBe('2026-03-10T13:00:00.000Z');
    Object.assign(ids, { first: first.id, second: second.id, third: third.id });
    // A week later the clocks still say 09:00, and before the change it was 14:00 UTC.
    expect(
      (await owner.call('GET', `${base()}/queue/next?integrationIds=${xId}`)).body.data.at,
    ).toBe('2026-03-16T13:00:00.000Z');
  });

  it('deleting a queued post frees its slot for the next one', async () => {
    expect((await owner.call('DELETE', `${base()}/posts/${ids.second}`)).status).toBe(200);
    const again = await queued([xId], 'Takes the freed slot');
    expect(again.scheduledAt).toBe('2026-03-09T16:30:00.000Z');
    ids.second = again.id;
  });

  it('for several accounts: the earliest time that is a free slot of each of them', async () => {
    // Monday 12:30 is a slot of both but taken on X this week: the next Monday.
    const both = await queued([xId, threadsId], 'To both accounts');
    expect(both.scheduledAt).toBe('2026-03-16T16:30:00.000Z');
    ids.both = both.id;
  });

  it('refuses clearly when an account has no slots, creating nothing', async () => {
    await putSlots(owner, threadsId, []);
    const before = (await owner.call('GET', `${base()}/posts`)).body.meta.totalCount;
    const res = await addToQueue(owner, [threadsId], 'Nowhere to go');
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('has no queue slots yet');
    expect((await owner.call('GET', `${base()}/posts`)).body.meta.totalCount).toBe(before);
    await putSlots(owner, threadsId, [{ weekday: 0, time: '12:30' }]);
  });

  it('the calendar sees the empty slots of a range, not the taken ones', async () => {
    const res = await owner.call(
      'GET',
      `${base()}/queue/slots?from=2026-03-09T00:00:00Z&to=2026-03-17T00:00:00Z`,
    );
    expect(res.status).toBe(200);
    const slots = res.body.data.slots as Array<{ at: string; integrationIds: string[] }>;
    const at = (iso: string) => slots.find((s) => s.at === iso)?.integrationIds ?? [];
    expect(at('2026-03-09T13:00:00.000Z')).toEqual([]);
    expect(at('2026-03-09T16:30:00.000Z')).toEqual([threadsId]);
    expect(at('2026-03-16T13:00:00.000Z')).toEqual([xId]);
    expect(at('2026-03-16T16:30:00.000Z')).toEqual([]);
  });

  it('moving a queued post by hand frees its slot', async () => {
    const moved = await owner.call('PUT', `${base()}/posts/${ids.third}`, {
      scheduledAt: '2026-04-01T10:00:00.000Z',
    });
    expect(moved.status).toBe(200);
    const next = await owner.call('GET', `${base()}/queue/next?integrationIds=${xId}`);
    expect(next.body.data.at).toBe('2026-03-10T13:00:00.000Z');
    const queue = await owner.call('GET', `${base()}/queue`);
    const x = queue.body.data.accounts.find(
      (a: { integrationId: string }) => a.integrationId === xId,
    );
    expect(x.queuedCount).toBe(3);
  });

  it('editing slots moves nothing; re-shuffle places the queued posts in order, all or none', async () => {
    expect((await putSlots(owner, xId, [{ weekday: 2, time: '10:00' }])).status).toBe(200);
    expect(await scheduledAt(ids.first!)).toBe('2026-03-09T13:00:00.000Z');
    // The post to both accounts needs a common slot: X has none with Threads now.
    const refused = await owner.call('POST', `${base()}/queue/${xId}/reshuffle`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('nothing was moved');
    expect(await scheduledAt(ids.first!)).toBe('2026-03-09T13:00:00.000Z');

    expect((await creator.call('POST', `${base()}/queue/${xId}/reshuffle`)).status).toBe(403);
    await putSlots(owner, xId, [
      { weekday: 2, time: '10:00' },
      { weekday: 0, time: '12:30' },
    ]);
    const res = await owner.call('POST', `${base()}/queue/${xId}/reshuffle`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ moved: 2, queued: 3 });
    expect(await scheduledAt(ids.first!)).toBe('2026-03-09T16:30:00.000Z');
    expect(await scheduledAt(ids.second!)).toBe('2026-03-11T14:00:00.000Z');
    // Mon 16 12:30 is the next X slot, and the post to both keeps to common slots.
    expect(await scheduledAt(ids.both!)).toBe('2026-03-16T16:30:00.000Z');
    // The post moved by hand left the queue and stays.
    expect(await scheduledAt(ids.third!)).toBe('2026-04-01T10:00:00.000Z');
  });
});
