import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMedia, posts } from '../../db/schema.js';
import type { MailMessage } from '../../lib/mailer.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { png } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/** Client approval links: sending, the guest's page and files, decisions, expiry and revocation. */
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let manager: Actor;
let creator: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let accountId: string;
/** A pending post of the other organization with a file, written straight to the database. */
let foreign: { postId: string; mediaId: string };
const mail: MailMessage[] = [];
let mailOn = false;

interface PostDto {
  id: string;
  status: string;
  scheduledAt: string | null;
  media: Array<{ id: string }>;
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function create(
  actor: Actor,
  fields: Record<string, string>,
  files: FilePart[] = [],
  org = orgId,
  account = accountId,
) {
  const body = await multipart({ integrationIds: JSON.stringify([account]), ...fields }, files);
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.post as PostDto;
}

/** A post the Content Creator submits: it waits for approval. */
async function submit(text: string, extra: Record<string, string> = {}, files: FilePart[] = []) {
  const post = await create(
    creator,
    { content: text, scheduledAt: inHours(3), action: 'schedule', ...extra },
    files,
  );
  expect(post.status).toBe('pending_approval');
  return post;
}

const all = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

const waitingJobs = (postId: string) =>
  all<{ start_after: Date }>(
    sql`select j.start_after from pgboss.job j join post_targets pt on pt.job_id = j.id
        where pt.post_id = ${postId} and j.state = 'created'`,
  );

async function sendLink(actor: Actor, body: Record<string, unknown>) {
  return actor.call('POST', `/api/organizations/${orgId}/approval-links`, body);
}

/** A link for `postIds` made by the manager; its token and id. */
async function linkFor(postIds: string[], extra: Record<string, unknown> = {}) {
  const res = await sendLink(manager, { postIds, approverName: 'Dana Client', ...extra });
  expect(res.status).toBe(201);
  const url = res.body.data.url as string;
  return { token: url.split('/approve/')[1]!, id: res.body.data.link.id as string, url };
}

/** A visitor with no session at all (the client's browser). */
const guest = (method: 'GET' | 'POST', url: string, body?: unknown, ip = '198.51.100.20') =>
  t.app.inject({
    method,
    url,
    headers: {
      'x-forwarded-for': ip,
      ...(body !== undefined
        ? { origin: TEST_PUBLIC_URL, 'content-type': 'application/json' }
        : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });

const view = (token: string) => guest('GET', `/api/guest/approvals/${token}`);
const decide = (token: string, body: Record<string, unknown>) =>
  guest('POST', `/api/guest/approvals/${token}/decisions`, body);

const notificationsOf = async (actor: Actor) =>
  (await actor.call('GET', `/api/notifications?organizationId=${orgId}`)).body as Array<{
    type: string;
    message: string;
    postId: string | null;
  }>;

const history = async (postId: string) =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${postId}/approvals`)).body.data
    .events as Array<{
    action: string;
    reason: string | null;
    user: { id: string } | null;
    guest: { name: string | null; email: string | null } | null;
  }>;

const auditOf = (linkId: string) =>
  all<{ action: string; actor_email: string | null; actor_user_id: string | null; after: any }>(
    sql`select action, actor_email, actor_user_id, after from audit_log
        where target_type = 'approval_link' and target_id = ${linkId} order by created_at`,
  );

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-approval-links-'));
  t = await createTestApp(
    {
      MEDIA_DIR: join(mediaDir, 'store'),
      MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
      RATE_LIMIT_GUEST_PER_MINUTE: '1000',
    },
    {
      jobs: 'all',
      queues: [PUBLISH_QUEUE],
      // Refused while the team is set up, so invitations answer their links to the test.
      mailer: {
        send: async (message) => {
          if (!mailOn) throw new Error('No mail while the team is set up.');
          mail.push(message);
        },
      },
    },
  );
  const org = await createOrg(t.app, 'owner@links.test', 'Linking Co');
  ({ owner, orgId } = org);
  manager = (
    await addMember(t.app, owner, orgId, 'manager@links.test', {
      roleId: org.roleId('SocialMediaManager'),
    })
  ).actor;
  creator = (
    await addMember(t.app, owner, orgId, 'creator@links.test', {
      roleId: org.roleId('ContentCreator'),
    })
  ).actor;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string }>;
  accountId = list[0]!.id;
  expect(
    (await owner.call('PATCH', `/api/organizations/${orgId}`, { requirePostApproval: true }))
      .status,
  ).toBe(200);
  const other = await createOrg(t.app, 'outsider@links.test', 'Elsewhere Ltd');
  outsider = other.owner;
  otherOrgId = other.orgId;
  const [theirPost] = await t.database.db
    .insert(posts)
    .values({ organizationId: otherOrgId, status: 'pending_approval', content: 'Theirs' })
    .returning();
  const [theirFile] = await t.database.db
    .insert(postMedia)
    .values({
      postId: theirPost!.id,
      organizationId: otherOrgId,
      position: 0,
      storageKey: `${otherOrgId}/theirs.png`,
      fileName: 'theirs.png',
      mimeType: 'image/png',
      kind: 'image',
      size: 10,
      sha256: 'x',
    })
    .returning();
  foreign = { postId: theirPost!.id, mediaId: theirFile!.id };
  mailOn = true;
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('sending a link', () => {
  it('needs post:approve, and only takes posts waiting for approval', async () => {
    const post = await submit('For the client');
    const refused = await sendLink(creator, { postIds: [post.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('Approve Posts');
    const byOutsider = await sendLink(outsider, { postIds: [post.id] });
    expect(byOutsider.status).toBe(403);

    const draft = await create(creator, { content: 'Only a draft', action: 'draft' });
    const notWaiting = await sendLink(manager, { postIds: [post.id, draft.id] });
    expect(notWaiting.status).toBe(409);
    expect(notWaiting.body.message).toContain('“Only a draft”');
    expect(notWaiting.body.details).toEqual({ postIds: [draft.id] });

    const mixed = await sendLink(manager, { postIds: [post.id, foreign.postId] });
    expect(mixed.status).toBe(404);
    // …and the other organization cannot send ours through its own path either.
    const theirs = await outsider.call('POST', `/api/organizations/${otherOrgId}/approval-links`, {
      postIds: [post.id],
    });
    expect(theirs.status).toBe(404);
    const unknown = await sendLink(manager, {
      postIds: [post.id, '00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(404);

    for (const [body, sentence] of [
      [{ postIds: [] }, 'Choose at least one post to send.'],
      [{ postIds: [post.id], expiresInDays: 31 }, 'A link works for at most 30 days.'],
      [{ postIds: [post.id, post.id] }, 'Each post can be in the link only once.'],
      [{ postIds: [post.id], approverEmail: 'not an email' }, 'Please enter a valid email address'],
    ] as const) {
      const bad = await sendLink(manager, body);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain(sentence);
    }
    expect(await all(sql`select id from approval_links`)).toHaveLength(0);
  });

  it('shows the token once in the URL and keeps only its hash; expires in 7 days by default', async () => {
    const post = await submit('Hash me');
    const before = Date.now();
    const res = await sendLink(manager, { postIds: [post.id] });
    expect(res.status).toBe(201);
    const { url, link, emailSent } = res.body.data;
    expect(url).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/approve/[A-Za-z0-9_-]{43}$`));
    expect(emailSent).toBe(false);
    const token = url.split('/approve/')[1];
    const rows = await all<Record<string, unknown>>(
      sql`select * from approval_links where id = ${link.id}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token).digest('base64url'));
    expect(JSON.stringify(rows)).not.toContain(token);
    const expires = new Date(link.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    expect(link).toMatchObject({
      state: 'open',
      createdBy: { id: manager.userId },
      posts: [{ postId: post.id, label: 'Hash me', decision: null }],
    });
    // The list never carries a token or URL again.
    const listed = await manager.call('GET', `/api/organizations/${orgId}/approval-links`);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect((listed.body.data.links as Array<{ id: string }>).map((l) => l.id)).toContain(link.id);
  });

  it('emails the link to the client when an address is given', async () => {
    const post = await submit('Email me');
    mail.length = 0;
    const res = await sendLink(manager, {
      postIds: [post.id],
      approverName: 'Erin',
      approverEmail: 'Erin@Client.test',
      expiresInDays: 3,
      message: 'Our launch week posts',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.emailSent).toBe(true);
    expect(res.body.data.link.approverEmail).toBe('erin@client.test');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to).toBe('erin@client.test');
    expect(mail[0]!.text).toContain(res.body.data.url);
    expect(mail[0]!.text).toContain('Our launch week posts');
    expect(mail[0]!.subject).toContain('Linking Co');
    const audit = await auditOf(res.body.data.link.id);
    expect(audit.map((a) => a.action)).toEqual(['approval_link.create']);
    expect(audit[0]).toMatchObject({ actor_email: 'manager@links.test' });
  });
});

describe('the client’s page', () => {
  let token: string;
  let threaded: PostDto;
  let pictured: PostDto;
  let elsewhereInOrg: PostDto;

  beforeAll(async () => {
    threaded = await submit('Part one of our thread https://example.com/launch', {
      followUps: JSON.stringify({
        [accountId]: { parts: ['Part two', 'Part three'], firstComment: 'More on our site' },
      }),
      linkTracking: JSON.stringify({ campaign: 'launch', medium: 'social' }),
    });
    pictured = await submit('With a picture', {}, [
      { name: 'photo.png', type: 'image/png', data: await png() },
    ]);
    elsewhereInOrg = await submit('Not sent', {}, [
      { name: 'secret.png', type: 'image/png', data: await png(320, 240) },
    ]);
    ({ token } = await linkFor([threaded.id, pictured.id]));
  });

  it('shows each account’s post as it will go out, with no session', async () => {
    const res = await view(token);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.organization).toEqual({
      name: 'Linking Co',
      branding: { logoUrl: null, color: null },
    });
    expect(data.approverName).toBe('Dana Client');
    expect(data.sentBy).toBe('manager');
    expect(data.posts.map((p: { id: string }) => p.id)).toEqual([threaded.id, pictured.id]);
    const [first, second] = data.posts;
    expect(first).toMatchObject({ state: 'waiting', unavailableReason: null });
    expect(first.accounts).toHaveLength(1);
    expect(first.accounts[0]).toMatchObject({
      network: 'X',
      parts: ['Part two', 'Part three'],
      firstComment: 'More on our site',
      media: [],
    });
    // The link as X will get it: with the post's tracking parameters.
    expect(first.accounts[0].text).toContain(
      'https://example.com/launch?utm_source=x&utm_medium=social&utm_campaign=launch',
    );
    expect(second.accounts[0].media).toHaveLength(1);
    const file = second.accounts[0].media[0];
    expect(file).toMatchObject({ id: pictured.media[0]!.id, kind: 'image', fileName: 'photo.png' });
    expect(file.url).toBe(
      `${t.config.apiPublicUrl}/guest/approvals/${token}/media/${pictured.media[0]!.id}`,
    );
    // Nothing of the organization beyond its name, and no signed media URL.
    const text = res.body;
    expect(text).not.toContain('sig=');
    expect(text).not.toContain(orgId);
    expect(text).not.toContain('creator@links.test');
    expect(text).not.toContain(elsewhereInOrg.id);
  });

  it('shows the organization’s logo and colour, the logo through the link while it is open', async () => {
    const logo = await multipart({}, [
      { name: 'logo.png', type: 'image/png', data: await png(200, 80), field: 'logo' },
    ]);
    const uploaded = await send(t.app, owner.jar, {
      method: 'PUT',
      url: `/api/organizations/${orgId}/branding/logo`,
      headers: { ...logo.headers, origin: TEST_PUBLIC_URL },
      payload: logo.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    await owner.call('PUT', `/api/organizations/${orgId}/branding`, { color: '#0f766e' });
    const post = await submit('Branded');
    const link = await linkFor([post.id]);
    try {
      const res = await view(link.token);
      expect(res.json().data.organization).toEqual({
        name: 'Linking Co',
        branding: {
          logoUrl: `${t.config.apiPublicUrl}/guest/approvals/${link.token}/logo`,
          color: '#0f766e',
        },
      });
      // Still no signed URL naming the organization.
      expect(res.body).not.toContain('sig=');
      expect(res.body).not.toContain(orgId);
      const served = await guest('GET', `/api/guest/approvals/${link.token}/logo`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['cache-control']).toBe('private, no-store');
      // A withdrawn link shows it no more.
      await owner.call('DELETE', `/api/organizations/${orgId}/approval-links/${link.id}`);
      expect((await guest('GET', `/api/guest/approvals/${link.token}/logo`)).statusCode).toBe(410);
    } finally {
      await owner.call('DELETE', `/api/organizations/${orgId}/branding/logo`);
      await owner.call('PUT', `/api/organizations/${orgId}/branding`, { color: null });
    }
  });

  it('serves the link’s files through the token, and no other file', async () => {
    const own = pictured.media[0]!.id;
    const file = await guest('GET', `/api/guest/approvals/${token}/media/${own}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const thumb = await guest('GET', `/api/guest/approvals/${token}/media/${own}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    const range = await t.app.inject({
      method: 'GET',
      url: `/api/guest/approvals/${token}/media/${own}`,
      headers: { range: 'bytes=0-9' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload).toHaveLength(10);

    // Another post of the same organization, another organization's file, a made-up id.
    const notLinked = await guest(
      'GET',
      `/api/guest/approvals/${token}/media/${elsewhereInOrg.media[0]!.id}`,
    );
    expect(notLinked.statusCode).toBe(404);
    expect(notLinked.json().message).toBe('This file is not part of this approval link.');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'photo.png', '..%2f..%2fsecret']) {
      expect((await guest('GET', `/api/guest/approvals/${token}/media/${id}`)).statusCode).toBe(
        404,
      );
    }
  });

  it('grants nothing else: no organization route, no other post, no other organization', async () => {
    // The token is no session, whatever way it is presented.
    for (const headers of [
      { cookie: `herald_at=${token}` },
      { authorization: `Bearer ${token}` },
      { 'x-approval-token': token },
    ]) {
      for (const url of [
        `/api/organizations/${orgId}/posts`,
        `/api/organizations/${orgId}/posts/${elsewhereInOrg.id}`,
        `/api/organizations/${orgId}/approvals`,
        `/api/organizations/${orgId}/approval-links`,
        `/api/organizations/${otherOrgId}/posts`,
        '/api/auth/me',
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode).toBe(401);
      }
    }
    // Deciding on a post that is not in the link, of this organization or another.
    const other = await decide(token, { postId: elsewhereInOrg.id, decision: 'approve' });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('This post is not part of this approval link.');
    const theirs = await decide(token, { postId: foreign.postId, decision: 'approve' });
    expect(theirs.statusCode).toBe(404);
    const theirFile = await guest('GET', `/api/guest/approvals/${token}/media/${foreign.mediaId}`);
    expect(theirFile.statusCode).toBe(404);
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/posts/${elsewhereInOrg.id}`)).body.data
        .post.status,
    ).toBe('pending_approval');
  });

  it('never reads the session: a signed-in member’s browser is a guest there too', async () => {
    const res = await send(t.app, owner.jar, {
      method: 'GET',
      url: `/api/guest/approvals/${token}`,
    });
    expect(res.statusCode).toBe(200);
    const unknown = await send(t.app, owner.jar, {
      method: 'GET',
      url: `/api/guest/approvals/${'A'.repeat(43)}`,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a cross-site decision and a body that is not JSON', async () => {
    const crossSite = await t.app.inject({
      method: 'POST',
      url: `/api/guest/approvals/${token}/decisions`,
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ postId: threaded.id, decision: 'approve' }),
    });
    expect(crossSite.statusCode).toBe(403);
    const form = await t.app.inject({
      method: 'POST',
      url: `/api/guest/approvals/${token}/decisions`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `postId=${threaded.id}&decision=approve`,
    });
    expect(form.statusCode).toBeGreaterThanOrEqual(400);
    expect(form.statusCode).toBeLessThan(500);
    expect((await view(token)).json().data.posts[0].state).toBe('waiting');
  });
});

describe('a decision', () => {
  it('approves through the approvers’ own code: scheduled with its job, kept as the client’s, the team told, audited', async () => {
    const at = inHours(5);
    const post = await create(creator, {
      content: 'Approve me, client',
      scheduledAt: at,
      action: 'schedule',
    });
    const { token, id } = await linkFor([post.id], { approverEmail: 'dana@client.test' });
    expect(await waitingJobs(post.id)).toHaveLength(0);

    const res = await decide(token, { postId: post.id, decision: 'approve', comment: 'Lovely' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.post).toMatchObject({
      id: post.id,
      state: 'approved',
      comment: 'Lovely',
      accounts: [],
    });
    // As an approver's approval leaves it: scheduled for its time, one job at that time.
    const after = (await owner.call('GET', `/api/organizations/${orgId}/posts/${post.id}`)).body
      .data.post;
    expect(after).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const jobs = await waitingJobs(post.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0]!.start_after).toISOString()).toBe(at);

    const events = await history(post.id);
    expect(events.map((e) => e.action)).toEqual(['submitted', 'approved']);
    expect(events[1]).toMatchObject({
      user: null,
      guest: { name: 'Dana Client', email: 'dana@client.test' },
    });

    const authorNote = (await notificationsOf(creator)).find(
      (n) => n.type === 'POST_APPROVED' && n.postId === post.id,
    );
    expect(authorNote?.message).toContain('approved by Dana Client (client)');
    for (const teammate of [manager, owner]) {
      const note = (await notificationsOf(teammate)).find(
        (n) => n.type === 'POST_APPROVED' && n.postId === post.id,
      );
      expect(note?.message).toContain('Dana Client (client) approved');
      expect(note?.message).toContain('“Lovely”');
    }

    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['approval_link.create', 'approval_link.decide']);
    expect(audit[1]).toMatchObject({
      actor_user_id: null,
      actor_email: 'Dana Client <dana@client.test> (client link)',
    });
    expect(audit[1]!.after).toMatchObject({
      postId: post.id,
      decision: 'approve',
      comment: 'Lovely',
      status: 'scheduled',
      ip: '198.51.100.20',
    });

    // Once per post: the second decision is refused and changes nothing.
    const again = await decide(token, {
      postId: post.id,
      decision: 'request_changes',
      comment: 'Wait',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^You already approved this post on \d{4}-\d{2}-\d{2}\./);
    expect((await history(post.id)).map((e) => e.action)).toEqual(['submitted', 'approved']);
    const page = (await view(token)).json().data;
    expect(page.posts[0]).toMatchObject({ state: 'approved', comment: 'Lovely' });
    const listed = (
      await manager.call('GET', `/api/organizations/${orgId}/approval-links?postId=${post.id}`)
    ).body.data.links;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id,
      state: 'decided',
      posts: [{ postId: post.id, decision: 'approve', comment: 'Lovely' }],
    });
  });

  it('asks for changes as a rejection does: back to draft, no job, the comment as its reason', async () => {
    const post = await submit('Change me');
    const { token } = await linkFor([post.id]);
    const bare = await decide(token, { postId: post.id, decision: 'request_changes' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toContain('Say what should change');

    const res = await decide(token, {
      postId: post.id,
      decision: 'request_changes',
      comment: 'Use the spring photo',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.post.state).toBe('changes_requested');
    const after = (await owner.call('GET', `/api/organizations/${orgId}/posts/${post.id}`)).body
      .data.post;
    expect(after).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(await waitingJobs(post.id)).toHaveLength(0);
    expect((await history(post.id)).at(-1)).toMatchObject({
      action: 'rejected',
      reason: 'Use the spring photo',
      user: null,
      guest: { name: 'Dana Client', email: null },
    });
    const note = (await notificationsOf(creator)).find(
      (n) => n.type === 'POST_REJECTED' && n.postId === post.id,
    );
    expect(note?.message).toContain('rejected by Dana Client (client)');
    expect(note?.message).toContain('Use the spring photo');
    const managerNote = (await notificationsOf(manager)).find(
      (n) => n.type === 'POST_REJECTED' && n.postId === post.id,
    );
    expect(managerNote?.message).toContain('asked for changes');
  });

  it('asks before publishing a post whose time has passed, as the approvers’ code does', async () => {
    const post = await submit('Late for the client');
    await t.database.db.execute(
      sql`update posts set scheduled_at = now() - interval '1 hour' where id = ${post.id}`,
    );
    // The time was moved behind the link's back here (not by an edit): its version is unchanged.
    const { token } = await linkFor([post.id]);
    const asked = await decide(token, { postId: post.id, decision: 'approve' });
    expect(asked.statusCode).toBe(409);
    expect(asked.json().details).toMatchObject({ timePassed: true });
    expect((await view(token)).json().data.posts[0].state).toBe('waiting');
    const now = await decide(token, { postId: post.id, decision: 'approve', publishNow: true });
    expect(now.statusCode).toBe(200);
    const jobs = await all<{ id: string }>(
      sql`select j.id from pgboss.job j join post_targets pt on pt.job_id = j.id
          where pt.post_id = ${post.id}`,
    );
    expect(jobs).toHaveLength(1);
  });

  it('says plainly when a post no longer waits: approved in the app, edited, deleted', async () => {
    const approved = await submit('Approved in the app');
    const edited = await submit('Edited meanwhile');
    const deleted = await submit('Deleted meanwhile');
    const { token } = await linkFor([approved.id, edited.id, deleted.id]);
    expect(
      (
        await manager.call(
          'POST',
          `/api/organizations/${orgId}/approvals/${approved.id}/approve`,
          {},
        )
      ).status,
    ).toBe(200);
    const change = await creator.call('PUT', `/api/organizations/${orgId}/posts/${edited.id}`, {
      content: 'Edited meanwhile, new words',
    });
    expect(change.status).toBe(200);
    expect(change.body.data.post.status).toBe('pending_approval');
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/posts/${deleted.id}`)).status,
    ).toBe(200);

    const page = (await view(token)).json().data;
    expect(page.posts.map((p: { state: string }) => p.state)).toEqual([
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
    expect(page.posts[0].unavailableReason).toContain('already approved');
    expect(page.posts[1].unavailableReason).toContain('changed this post');
    expect(page.posts[2].unavailableReason).toContain('deleted this post');
    expect(JSON.stringify(page)).not.toContain('new words');
    for (const [post, words] of [
      [approved, 'already approved'],
      [edited, 'changed this post'],
    ] as const) {
      const res = await decide(token, { postId: post.id, decision: 'approve' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain(words);
    }
    expect((await history(edited.id)).map((e) => e.action)).toEqual(['submitted']);
  });
});

describe('expiry and revocation', () => {
  it('an expired link answers 410 with a sentence, and reveals nothing', async () => {
    const post = await submit('Expiring', {}, [
      { name: 'late.png', type: 'image/png', data: await png() },
    ]);
    const { token, id } = await linkFor([post.id], { expiresInDays: 1 });
    expect((await view(token)).statusCode).toBe(200);
    await t.database.db.execute(
      sql`update approval_links set expires_at = now() - interval '1 second' where id = ${id}`,
    );
    for (const res of [
      await view(token),
      await decide(token, { postId: post.id, decision: 'approve' }),
      await guest('GET', `/api/guest/approvals/${token}/media/${post.media[0]!.id}`),
    ]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({
        code: 'EXPIRED',
        message: 'This approval link has expired. Ask the team that sent it for a new one.',
        details: { state: 'expired' },
      });
      expect(res.body).not.toContain('Linking Co');
      expect(res.body).not.toContain('Expiring');
    }
    const listed = (
      await manager.call('GET', `/api/organizations/${orgId}/approval-links?postId=${post.id}`)
    ).body.data.links;
    expect(listed[0].state).toBe('expired');
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/posts/${post.id}`)).body.data.post
        .status,
    ).toBe('pending_approval');
  });

  it('revoking stops the link at once; only approvers of the organization revoke', async () => {
    const post = await submit('Revoke me');
    const { token, id } = await linkFor([post.id]);
    const path = `/api/organizations/${orgId}/approval-links/${id}`;
    expect((await creator.call('DELETE', path)).status).toBe(403);
    expect((await outsider.call('DELETE', path)).status).toBe(403);
    expect(
      (await outsider.call('DELETE', `/api/organizations/${otherOrgId}/approval-links/${id}`))
        .status,
    ).toBe(404);
    expect((await view(token)).statusCode).toBe(200);

    const res = await owner.call('DELETE', path);
    expect(res.status).toBe(200);
    expect(res.body.data.link).toMatchObject({ id, state: 'revoked' });
    expect(res.body.data.link.revokedAt).not.toBeNull();
    const gone = await view(token);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().details).toEqual({ state: 'revoked' });
    expect(gone.json().message).toContain('withdrawn');
    const late = await decide(token, { postId: post.id, decision: 'approve' });
    expect(late.statusCode).toBe(410);
    expect((await owner.call('DELETE', path)).status).toBe(409);
    expect((await auditOf(id)).map((a) => a.action)).toEqual([
      'approval_link.create',
      'approval_link.revoke',
    ]);
    expect((await history(post.id)).map((e) => e.action)).toEqual(['submitted']);
  });

  it('an unknown token is 404 with the same sentence, whatever its shape', async () => {
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(99)]) {
      const res = await view(token);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(
        'This approval link does not exist. Check that you opened the whole link, or ask the team that sent it for a new one.',
      );
    }
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  afterAll(() => limited?.close());

  it('answers 429 with Retry-After per IP and per link', async () => {
    limited = await createTestApp({ RATE_LIMIT_GUEST_PER_MINUTE: '3' });
    const ask = (token: string, ip: string) =>
      limited.app.inject({
        method: 'GET',
        url: `/api/guest/approvals/${token}`,
        headers: { 'x-forwarded-for': ip },
      });
    const first = 'B'.repeat(43);
    const second = 'C'.repeat(43);
    for (let i = 0; i < 3; i++) expect((await ask(first, '203.0.113.1')).statusCode).toBe(404);
    const refused = await ask(first, '203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.json().message).toMatch(/^Too many requests for this approval link\. Try again/);
    // The same link from elsewhere: its own count is spent.
    expect((await ask(first, '203.0.113.2')).statusCode).toBe(429);
    // Another link from the first address: that address's count is spent.
    expect((await ask(second, '203.0.113.1')).statusCode).toBe(429);
    // Another link from another address goes on.
    expect((await ask(second, '203.0.113.3')).statusCode).toBe(404);
  }, 60_000);
});
