import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';

/**
 * Bulk reschedule, Add to queue, approve, reject and duplicate (docs/product.md#bulk-actions).
 * The clock is Friday 2026-03-06 12:00 UTC in an organization on New York time, whose clocks
 * spring forward on Sunday 2026-03-08: 09:00 is 14:00 UTC before it and 13:00 UTC after. The
 * process sends publish jobs but runs none (the API role), so each job's time can be read.
 */
const NOW = new Date('2026-03-06T12:00:00Z');
let now = NOW;
let t: TestApp;
let owner: Actor;
let creator: Actor;
let manager: Actor;
let orgId: string;
let other: { owner: Actor; orgId: string };
let xId: string;
let threadsId: string;

interface PostDto {
  id: string;
  status: string;
  scheduledAt: string | null;
  content: string;
  title: string | null;
}

async function create(
  fields: Record<string, string>,
  actor = owner,
  org = orgId,
  accounts = [xId],
): Promise<PostDto> {
  const body = await multipart({ integrationIds: JSON.stringify(accounts), ...fields });
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post;
}

const scheduled = (content: string, at: string, actor = owner, accounts = [xId]) =>
  create({ content, scheduledAt: at, action: 'schedule' }, actor, orgId, accounts);
const draft = (content: string, actor = owner, accounts = [xId]) =>
  create({ content, action: 'draft' }, actor, orgId, accounts);

const getPost = async (id: string, org = orgId, actor = owner): Promise<PostDto> =>
  (await actor.call('GET', `/api/organizations/${org}/posts/${id}`)).body.data.post;

const bulk = (action: string, body: Record<string, unknown>, actor = owner, org = orgId) =>
  actor.call('POST', `/api/organizations/${org}/posts/bulk/${action}`, body);

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** The post's publish jobs still waiting, each with the time it starts. */
const waitingJobs = async (postId: string) =>
  (
    await rows<{ start_after: Date | string }>(
      sql`select j.start_after from pgboss.job j join post_targets pt on pt.job_id = j.id
          where pt.post_id = ${postId} and j.state = 'created' order by j.start_after`,
    )
  ).map((row) => new Date(row.start_after).toISOString());

const setStatus = (postId: string, status: string) =>
  t.database.db.execute(sql`update posts set status = ${status} where id = ${postId}`);

const setApproval = (on: boolean) =>
  owner.call('PATCH', `/api/organizations/${orgId}`, { requirePostApproval: on });

const eventsOf = async (postId: string) =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${postId}/approvals`)).body.data
    .events as Array<{ action: string; reason: string | null; user: { id: string } | null }>;

const notificationsOf = async (actor: Actor) =>
  (await actor.call('GET', `/api/notifications?organizationId=${orgId}`)).body as Array<{
    type: string;
    message: string;
    postId: string | null;
  }>;

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'api', queues: [PUBLISH_QUEUE], now: () => now });
  const org = await createOrg(t.app, 'owner@bulk-actions.test', 'Bulk Actions Co');
  ({ owner, orgId } = org);
  creator = (
    await addMember(t.app, owner, orgId, 'creator@bulk-actions.test', {
      roleId: org.roleId('ContentCreator'),
    })
  ).actor;
  manager = (
    await addMember(t.app, owner, orgId, 'manager@bulk-actions.test', {
      roleId: org.roleId('SocialMediaManager'),
    })
  ).actor;
  other = await createOrg(t.app, 'other@bulk-actions.test', 'Elsewhere Co');
  for (const slug of ['x', 'threads']) {
    expect(await connectThroughSandbox(t.app, owner, slug, orgId)).toContain('connected=');
  }
  expect(await connectThroughSandbox(t.app, other.owner, 'x', other.orgId)).toContain('connected=');
  const accounts = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string; platform: { name: string } }>;
  xId = accounts.find((a) => a.platform.name === 'X')!.id;
  threadsId = accounts.find((a) => a.platform.name === 'Threads')!.id;
  const zone = await owner.call('PATCH', `/api/organizations/${orgId}`, {
    defaultTimeZone: 'America/New_York',
  });
  expect(zone.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('bulk reschedule', () => {
  it('shifts posts by days, keeping the time on the clocks across a daylight-saving change, and moves their jobs', async () => {
    // Saturday 09:00 EST and Monday 18:30 EDT.
    const a = await scheduled('Shift me a', '2026-03-07T14:00:00.000Z');
    const b = await scheduled('Shift me b', '2026-03-09T22:30:00.000Z');
    expect(await waitingJobs(a.id)).toEqual(['2026-03-07T14:00:00.000Z']);

    const res = await bulk('reschedule', { postIds: [b.id, a.id], shiftDays: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      postIds: [b.id, a.id],
      count: 2,
      posts: [
        { id: b.id, status: 'scheduled', scheduledAt: '2026-03-11T22:30:00.000Z' },
        // Monday 09:00 EDT: one hour less of UTC offset, the same 09:00.
        { id: a.id, status: 'scheduled', scheduledAt: '2026-03-09T13:00:00.000Z' },
      ],
    });
    expect((await getPost(a.id)).scheduledAt).toBe('2026-03-09T13:00:00.000Z');
    // The job moved with the post: one waiting job, at the new time (not a second one).
    expect(await waitingJobs(a.id)).toEqual(['2026-03-09T13:00:00.000Z']);
    expect(await waitingJobs(b.id)).toEqual(['2026-03-11T22:30:00.000Z']);

    const back = await bulk('reschedule', { postIds: [a.id], shiftDays: -2 });
    expect(back.status).toBe(200);
    expect(await waitingJobs(a.id)).toEqual(['2026-03-07T14:00:00.000Z']);
  });

  it('moves posts of different days to one day, each keeping its own time of day', async () => {
    const a = await scheduled('Same day a', '2026-03-07T14:00:00.000Z'); // 09:00 EST
    const b = await scheduled('Same day b', '2026-03-12T22:30:00.000Z'); // 18:30 EDT
    const res = await bulk('reschedule', { postIds: [a.id, b.id], date: '2026-03-10' });
    expect(res.status).toBe(200);
    expect(res.body.data.posts.map((p: PostDto) => p.scheduledAt)).toEqual([
      '2026-03-10T13:00:00.000Z',
      '2026-03-10T22:30:00.000Z',
    ]);
    expect(await waitingJobs(b.id)).toEqual(['2026-03-10T22:30:00.000Z']);

    // The days of the zone the screen shows, when it says which.
    const utc = await bulk('reschedule', {
      postIds: [a.id],
      date: '2026-03-20',
      timeZone: 'UTC',
    });
    expect(utc.body.data.posts[0].scheduledAt).toBe('2026-03-20T13:00:00.000Z');
  });

  it('reads days in the organization’s zone, whatever the member’s own', async () => {
    // 09:00 in New York (the organization's zone), 15:00 in Paris (the member's).
    const a = await scheduled('New York time', '2026-03-07T14:00:00.000Z');
    const me = await owner.call('PUT', `/api/users/${owner.userId}`, {
      displayName: 'Owner',
      timezone: 'Europe/Paris',
    });
    expect(me.status).toBe(200);
    try {
      const res = await bulk('reschedule', { postIds: [a.id], date: '2026-03-16' });
      // Still 09:00 in New York, now on daylight time.
      expect(res.body.data.posts[0].scheduledAt).toBe('2026-03-16T13:00:00.000Z');
    } finally {
      await t.database.db.execute(sql`update users set timezone = null where id = ${owner.userId}`);
      await owner.call('PUT', `/api/users/${owner.userId}`, { displayName: 'Owner' });
    }
  });

  it('refuses posts that cannot move, naming each, and changes nothing', async () => {
    const fine = await scheduled('Fine to move', '2026-03-07T14:00:00.000Z');
    const idea = await draft('Only an idea');
    const out = await scheduled('Went out', '2026-03-08T14:00:00.000Z');
    const busy = await create({
      title: 'Going out now',
      content: 'Busy',
      scheduledAt: '2026-03-08T15:00:00.000Z',
      action: 'schedule',
    });
    await setStatus(out.id, 'published');
    await setStatus(busy.id, 'publishing');
    const res = await bulk('reschedule', {
      postIds: [fine.id, idea.id, out.id, busy.id],
      shiftDays: 1,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      "'Going out now' is being published right now and cannot be rescheduled. 'Went out' is already published and cannot be rescheduled. 'Only an idea' is a draft, so it has no time to move: add it to the queue or give it a time first. Nothing was changed: unselect them and try again.",
    );
    expect(res.body.details.postIds).toEqual([busy.id, out.id, idea.id]);
    expect((await getPost(fine.id)).scheduledAt).toBe('2026-03-07T14:00:00.000Z');
    expect(await waitingJobs(fine.id)).toEqual(['2026-03-07T14:00:00.000Z']);
    await setStatus(busy.id, 'scheduled');
  });

  it('refuses a move into the past with a sentence', async () => {
    const early = await scheduled('Early bird', '2026-03-07T12:00:00.000Z'); // Sat 07:00 EST
    const late = await scheduled('Night owl', '2026-03-07T02:00:00.000Z'); // Fri 21:00 EST
    // Today (Friday) in New York: 07:00 has just passed, 21:00 has not.
    const res = await bulk('reschedule', { postIds: [early.id, late.id], date: '2026-03-06' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      "'Early bird' would move to a time that has already passed (its time of day on that day is over): pick a later day. Nothing was changed: unselect them and try again.",
    );
    const back = await bulk('reschedule', { postIds: [late.id, early.id], shiftDays: -3 });
    expect(back.status).toBe(409);
    expect(back.body.message).toContain(
      "'Night owl', 'Early bird' would move to a time that has already passed (their time of day on that day is over)",
    );
    expect((await getPost(early.id)).scheduledAt).toBe('2026-03-07T12:00:00.000Z');
  });

  it('takes a day or a number of days, not both, and says so', async () => {
    const a = await scheduled('Validated', '2026-03-07T14:00:00.000Z');
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { postIds: [a.id] },
        'Send either date (move to a day) or shiftDays (move by days), not both.',
      ],
      [
        { postIds: [a.id], date: '2026-03-10', shiftDays: 1 },
        'Send either date (move to a day) or shiftDays (move by days), not both.',
      ],
      [{ postIds: [a.id], date: '2026-02-30' }, 'date must be a day, like 2030-01-31.'],
      [{ postIds: [a.id], shiftDays: 0 }, 'Shift by at least one day.'],
      [{ postIds: [a.id], shiftDays: 1.5 }, 'shiftDays must be a whole number of days.'],
      [{ postIds: [a.id], shiftDays: 400 }, 'Shift by at most 365 days.'],
      [
        { postIds: [a.id], shiftDays: 1, timeZone: 'Mars/Olympus' },
        'timeZone must be an IANA time zone name, such as Europe/Paris.',
      ],
      [{ postIds: [], shiftDays: 1 }, 'Choose at least one post.'],
    ];
    for (const [body, sentence] of cases) {
      const res = await bulk('reschedule', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(sentence);
    }
  });

  it('keeps other organizations’ posts out: 404, and nothing moves', async () => {
    const mine = await scheduled('Mine stays', '2026-03-07T14:00:00.000Z');
    const theirs = await create(
      { content: 'Theirs stays', scheduledAt: '2026-03-07T14:00:00.000Z', action: 'schedule' },
      other.owner,
      other.orgId,
      [
        (
          (await other.owner.call('GET', `/api/organizations/${other.orgId}/integrations`)).body
            .data.platforms as Array<{ id: string }>
        )[0]!.id,
      ],
    );
    const res = await bulk('reschedule', { postIds: [mine.id, theirs.id], shiftDays: 1 });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/One of the chosen posts does not exist in this organization/);
    expect(res.body.details.postIds).toEqual([theirs.id]);
    expect((await getPost(mine.id)).scheduledAt).toBe('2026-03-07T14:00:00.000Z');
    expect((await getPost(theirs.id, other.orgId, other.owner)).scheduledAt).toBe(
      '2026-03-07T14:00:00.000Z',
    );
    for (const action of ['queue', 'approve', 'reject', 'duplicate']) {
      const foreign = await bulk(action, { postIds: [theirs.id] });
      expect(foreign.status, action).toBe(404);
    }
  });

  it('sends posts moved by a member who must submit back for approval, and keeps waiting posts waiting', async () => {
    await setApproval(true);
    try {
      const approved = await scheduled('Approved earlier', '2026-03-07T14:00:00.000Z');
      const res = await bulk('reschedule', { postIds: [approved.id], shiftDays: 1 }, creator);
      expect(res.status).toBe(200);
      expect(res.body.data.posts[0]).toMatchObject({
        status: 'pending_approval',
        // Sunday 09:00: the clocks sprang forward at 02:00 that night.
        scheduledAt: '2026-03-08T13:00:00.000Z',
      });
      expect(await waitingJobs(approved.id)).toEqual([]);
      expect((await eventsOf(approved.id)).map((e) => e.action)).toEqual(['submitted']);

      // An approver moving a waiting post only moves it: approving is a decision of its own.
      const moved = await bulk('reschedule', { postIds: [approved.id], shiftDays: 1 }, manager);
      expect(moved.body.data.posts[0]).toMatchObject({
        status: 'pending_approval',
        scheduledAt: '2026-03-09T13:00:00.000Z',
      });
      expect(await waitingJobs(approved.id)).toEqual([]);
      expect((await eventsOf(approved.id)).map((e) => e.action)).toEqual(['submitted']);
    } finally {
      await setApproval(false);
    }
  });
});

describe('bulk add to queue', () => {
  beforeAll(async () => {
    // X: weekdays at 09:00 and 15:00; Threads: Mondays at 09:00 only.
    const week = [0, 1, 2, 3, 4].flatMap((weekday) => [
      { weekday, time: '09:00' },
      { weekday, time: '15:00' },
    ]);
    expect(
      (await owner.call('PUT', `/api/organizations/${orgId}/queue/${xId}`, { slots: week })).status,
    ).toBe(200);
    expect(
      (
        await owner.call('PUT', `/api/organizations/${orgId}/queue/${threadsId}`, {
          slots: [{ weekday: 0, time: '09:00' }],
        })
      ).status,
    ).toBe(200);
    // Earlier tests' posts must not hold X's slots: they are moved out of the way.
    await t.database.db.execute(
      sql`update posts set status = 'draft', scheduled_at = null where organization_id = ${orgId}`,
    );
  });

  it('gives drafts and scheduled posts the next free slots, in the order chosen, with their jobs', async () => {
    // Friday 15:00 EST is taken by a post that is not chosen.
    const taken = await scheduled('Holds Friday 15:00', '2026-03-06T20:00:00.000Z');
    const first = await draft('Queue first');
    const second = await scheduled('Queue second', '2026-04-01T16:00:00.000Z');
    const third = await draft('Queue third');
    const res = await bulk('queue', { postIds: [first.id, second.id, third.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.posts).toEqual([
      // Friday 09:00 EST, then (Friday 15:00 being taken) Monday 09:00 and 15:00 EDT.
      { id: first.id, status: 'scheduled', scheduledAt: '2026-03-06T14:00:00.000Z' },
      { id: second.id, status: 'scheduled', scheduledAt: '2026-03-09T13:00:00.000Z' },
      { id: third.id, status: 'scheduled', scheduledAt: '2026-03-09T19:00:00.000Z' },
    ]);
    // The scheduled post's job moved to its slot; the drafts got theirs.
    expect(await waitingJobs(second.id)).toEqual(['2026-03-09T13:00:00.000Z']);
    expect(await waitingJobs(first.id)).toEqual(['2026-03-06T14:00:00.000Z']);
    const slots = await rows<{ post_id: string }>(
      sql`select post_id from queued_posts where post_id in (${first.id}, ${second.id}, ${third.id})`,
    );
    expect(slots).toHaveLength(3);
    expect((await getPost(taken.id)).scheduledAt).toBe('2026-03-06T20:00:00.000Z');

    // Queued again in the other order, they swap their slots (the second post keeps its own).
    const again = await bulk('queue', { postIds: [third.id, first.id] });
    expect(again.body.data.posts.map((p: PostDto) => p.scheduledAt)).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-09T19:00:00.000Z',
    ]);
    await bulk('draft', { postIds: [first.id, second.id, third.id, taken.id] });
  });

  it('puts one post in the queue through its own route', async () => {
    const one = await draft('Queue just me');
    const res = await owner.call('POST', `/api/organizations/${orgId}/posts/${one.id}/queue`);
    expect(res.status).toBe(200);
    expect(res.body.data.post).toMatchObject({
      id: one.id,
      status: 'scheduled',
      scheduledAt: '2026-03-06T14:00:00.000Z',
    });
    const out = await draft('Queue refused');
    await setStatus(out.id, 'published');
    const refused = await owner.call('POST', `/api/organizations/${orgId}/posts/${out.id}/queue`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This post is already published (to at least one account) and cannot be added to the queue.',
    );
    await bulk('draft', { postIds: [one.id] });
  });

  it('refuses published posts and posts no slot fits, naming them, and changes nothing', async () => {
    const a = await draft('Queue fine');
    const out = await draft('Queue out');
    await setStatus(out.id, 'partially_published');
    const refused = await bulk('queue', { postIds: [a.id, out.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "'Queue out' is already published (to at least one account) and cannot be added to the queue. Nothing was changed: unselect them and try again.",
    );
    await setStatus(out.id, 'draft');

    // A post to X and Threads takes a slot both have: Mondays at 09:00; the next one a week on.
    const both = await draft('Queue both', owner, [xId, threadsId]);
    const both2 = await draft('Queue both again', owner, [xId, threadsId]);
    const full = await bulk('queue', { postIds: [a.id, both.id, both2.id] });
    expect(full.status).toBe(200);
    expect(full.body.data.posts.map((p: PostDto) => p.scheduledAt)).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-16T13:00:00.000Z',
    ]);
    await bulk('draft', { postIds: [a.id, both.id, both2.id] });

    await owner.call('PUT', `/api/organizations/${orgId}/queue/${threadsId}`, { slots: [] });
    const none = await bulk('queue', { postIds: [a.id, both.id] });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(
      /^'Queue both': .* \(Threads\) has no queue slots yet\. Add time slots in Settings, Posting queue, or pick a time instead\. Nothing was changed: fix or unselect it and try again\.$/,
    );
    expect(none.body.details.postIds).toEqual([both.id]);
    expect((await getPost(a.id)).status).toBe('draft');
  });

  it('submits the posts of a member who must submit, in their slots', async () => {
    await setApproval(true);
    try {
      const mine = await draft('Creator queues', creator);
      const res = await bulk('queue', { postIds: [mine.id] }, creator);
      expect(res.status).toBe(200);
      expect(res.body.data.posts[0]).toMatchObject({
        status: 'pending_approval',
        scheduledAt: '2026-03-06T14:00:00.000Z',
      });
      expect(await waitingJobs(mine.id)).toEqual([]);
      expect((await eventsOf(mine.id)).map((e) => e.action)).toEqual(['submitted']);
      await bulk('draft', { postIds: [mine.id] });
    } finally {
      await setApproval(false);
    }
  });
});

describe('bulk approve and reject', () => {
  const submitted = async (text: string, at = '2026-03-10T14:00:00.000Z') => {
    const post = await scheduled(text, at, creator);
    expect(post.status).toBe('pending_approval');
    return post;
  };

  beforeAll(async () => {
    await setApproval(true);
  });
  afterAll(async () => {
    await setApproval(false);
  });

  it('approves waiting posts: scheduled with their jobs, kept in their history, their author told', async () => {
    const a = await submitted('Approve me a');
    const b = await submitted('Approve me b', '2026-03-11T14:00:00.000Z');
    const res = await bulk('approve', { postIds: [a.id, b.id] }, manager);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.posts).toEqual([
      { id: a.id, status: 'scheduled', scheduledAt: '2026-03-10T14:00:00.000Z' },
      { id: b.id, status: 'scheduled', scheduledAt: '2026-03-11T14:00:00.000Z' },
    ]);
    expect(await waitingJobs(a.id)).toEqual(['2026-03-10T14:00:00.000Z']);
    const events = await eventsOf(b.id);
    expect(events.map((e) => e.action)).toEqual(['submitted', 'approved']);
    expect(events[1]!.user?.id).toBe(manager.userId);
    const told = (await notificationsOf(creator)).filter((n) => n.type === 'POST_APPROVED');
    expect(told.map((n) => n.postId)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('refuses posts that are not waiting, naming them, and decides nothing', async () => {
    const waiting = await submitted('Still waiting');
    const idea = await draft('Never submitted');
    const res = await bulk('approve', { postIds: [waiting.id, idea.id] }, manager);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      "'Never submitted' is not waiting for approval and cannot be approved (reload the list to see its status). Nothing was changed: unselect them and try again.",
    );
    const rejected = await bulk('reject', { postIds: [idea.id, waiting.id] }, manager);
    expect(rejected.status).toBe(409);
    expect(rejected.body.message).toContain(
      "'Never submitted' is not waiting for approval and cannot be rejected",
    );
    expect((await getPost(waiting.id)).status).toBe('pending_approval');
    expect(await waitingJobs(waiting.id)).toEqual([]);
  });

  it('asks before publishing posts whose time has passed, then publishes them now', async () => {
    const late = await submitted('Late one', '2026-03-06T12:05:00.000Z');
    const onTime = await submitted('On time', '2026-03-12T14:00:00.000Z');
    // Ten minutes on (the sign-ins' access tokens last fifteen).
    now = new Date('2026-03-06T12:10:00Z');
    try {
      const res = await bulk('approve', { postIds: [onTime.id, late.id] }, manager);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        "The time of 'Late one' has passed. Approve it to publish it now, or edit its time first. Nothing was changed.",
      );
      expect(res.body.details).toEqual({ timePassed: true, postIds: [late.id] });
      expect((await getPost(onTime.id)).status).toBe('pending_approval');

      const go = await bulk(
        'approve',
        { postIds: [onTime.id, late.id], publishNow: true },
        manager,
      );
      expect(go.status).toBe(200);
      expect(go.body.data.posts[1]).toMatchObject({ id: late.id });
      expect(await waitingJobs(late.id)).toEqual(['2026-03-06T12:10:00.000Z']);
      expect(await waitingJobs(onTime.id)).toEqual(['2026-03-12T14:00:00.000Z']);
    } finally {
      now = NOW;
    }
  });

  it('rejects waiting posts back to drafts, with the comment in their history and their author’s notification', async () => {
    const a = await submitted('Reject me a');
    const b = await submitted('Reject me b');
    const res = await bulk(
      'reject',
      { postIds: [a.id, b.id], reason: '  Off brand this week.  ' },
      manager,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.posts).toEqual([
      { id: a.id, status: 'draft', scheduledAt: null },
      { id: b.id, status: 'draft', scheduledAt: null },
    ]);
    expect((await eventsOf(a.id)).at(-1)).toMatchObject({
      action: 'rejected',
      reason: 'Off brand this week.',
    });
    const told = (await notificationsOf(creator)).filter(
      (n) => n.type === 'POST_REJECTED' && n.postId === b.id,
    );
    expect(told.map((n) => n.message)).toEqual([
      "'Reject me b' was rejected by manager and is back in drafts. Reason: Off brand this week.",
    ]);

    // Without a comment: the authors are told the posts are back in drafts.
    const c = await submitted('Reject me c');
    const plain = await bulk('reject', { postIds: [c.id] }, manager);
    expect(plain.status).toBe(200);
    expect((await eventsOf(c.id)).at(-1)).toMatchObject({ action: 'rejected', reason: null });
    const quiet = (await notificationsOf(creator)).find(
      (n) => n.type === 'POST_REJECTED' && n.postId === c.id,
    );
    expect(quiet?.message).toBe("'Reject me c' was rejected by manager and is back in drafts.");
    const long = await bulk('reject', { postIds: [c.id], reason: 'x'.repeat(1001) }, manager);
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('Keep the comment under 1000 characters.');
  });

  it('leaves deciding to members who may approve', async () => {
    const mine = await submitted('Self approval');
    const res = await bulk('approve', { postIds: [mine.id] }, creator);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/Your role does not allow this/);
    expect((await bulk('reject', { postIds: [mine.id] }, creator)).status).toBe(403);
    expect((await getPost(mine.id)).status).toBe('pending_approval');
  });
});

describe('bulk duplicate', () => {
  it('copies posts as drafts, in the order chosen, without their times', async () => {
    const a = await scheduled('Copy me a', '2026-03-10T14:00:00.000Z');
    const b = await create({ title: 'Titled', content: 'Copy me b', action: 'draft' });
    const res = await bulk('duplicate', { postIds: [b.id, a.id, b.id] }, creator);
    expect(res.status).toBe(200);
    expect(res.body.data.postIds).toEqual([b.id, a.id]);
    expect(res.body.data.count).toBe(2);
    const copies = await Promise.all((res.body.data.copyIds as string[]).map((id) => getPost(id)));
    expect(copies.map((c) => [c.title, c.content, c.status, c.scheduledAt])).toEqual([
      ['Titled', 'Copy me b', 'draft', null],
      [null, 'Copy me a', 'draft', null],
    ]);
    expect((await getPost(a.id)).status).toBe('scheduled');
  });

  it('makes no copy when they would not all fit in the day’s allowance', async () => {
    const a = await draft('Allowance a');
    const b = await draft('Allowance b');
    const made = (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from posts where organization_id = ${orgId}`,
      )
    )[0]!.n;
    await t.database.db.execute(
      sql`update plans set features = jsonb_set(features, '{postsPerDay}', ${String(made + 1)}::jsonb) where name = 'Pro'`,
    );
    try {
      const res = await bulk('duplicate', { postIds: [a.id, b.id] });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        `Your Pro plan allows ${made + 1} posts per day and 1 is left today, so 2 copies cannot be made. Choose fewer posts, try again tomorrow or upgrade your plan.`,
      );
      const after = (
        await rows<{ n: number }>(
          sql`select count(*)::int as n from posts where organization_id = ${orgId}`,
        )
      )[0]!.n;
      expect(after).toBe(made);
    } finally {
      await t.database.db.execute(
        sql`update plans set features = jsonb_set(features, '{postsPerDay}', '250'::jsonb) where name = 'Pro'`,
      );
    }
  });
});
