import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/client.js';
import { members } from '../../db/schema.js';
import { SESSION_TTL_MS } from '../../identity/session.service.js';
import {
  CookieJar,
  createTestApp,
  send,
  signInThroughDevProvider,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/app.js';
import {
  listeningUrl,
  openStream,
  type OpenedStream,
  type StreamEvent,
  within,
} from '../../test/event-stream.js';
import { addMember, createOrg, signIn } from '../../test/factories.js';
import { usePostgres } from '../../test/postgres.js';
import type { Db } from '../../db/client.js';
import { MAX_STREAMS_PER_USER, STREAM_RECHECK_MS } from './live-streams.js';
import { announceInbox, insertNotificationsFor } from './notifications.repository.js';

// Generous bounds for what the server does at once (or within one recheck): a busy machine is
// slow, but a stream that is never closed is what these tests catch.
const CLOSES_WITHIN_MS = 20_000;
const ARRIVES_WITHIN_MS = 20_000;

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listeningUrl(t.app);
});
afterAll(() => t.close());

let n = 0;
const unique = (name: string) => `${name}.${++n}@streams.test`;

/** Records a notification for `userId` in `organizationId` (as a producer would). */
function notify(db: Db, organizationId: string, userId: string, message: string) {
  return insertNotificationsFor(
    db,
    organizationId,
    { admins: false, userIds: [userId] },
    { type: 'SUBSCRIPTION_UPDATE', priority: 'LOW', message },
  );
}

/** Announces an inbox change of `organizationId` (as ingestion would). */
function inboxChange(db: Db, organizationId: string) {
  return announceInbox(db, {
    event: 'inbox',
    data: { organizationId, conversationId: randomUUID(), change: 'conversation' },
  });
}

const notification = (message: string) => (e: StreamEvent) =>
  e.event === 'notification' && (JSON.parse(e.data) as { message: string }).message === message;

const open = (actor: { jar: CookieJar }, orgId: string, url = baseUrl) =>
  openStream(url, actor.jar.header(), orgId);

/** Proves `stream` is live: a notification recorded now reaches it. */
async function expectLive(stream: OpenedStream, orgId: string, userId: string, db = t.database.db) {
  const message = `Still live ${randomUUID()}`;
  await notify(db, orgId, userId, message);
  expect(await within(stream.next(notification(message)), ARRIVES_WITHIN_MS)).not.toBe('timeout');
}

/** Waits for the server to end `stream`; then shows that a later notification does not arrive. */
async function expectEnded(
  stream: OpenedStream,
  orgId: string,
  userId: string,
  db = t.database.db,
) {
  expect(await within(stream.ended, CLOSES_WITHIN_MS)).not.toBe('timeout');
  const before = stream.events.length;
  await notify(db, orgId, userId, 'After the end');
  expect(stream.events.slice(before)).toEqual([]);
}

const logout = (app: TestApp['app'], jar: CookieJar) =>
  send(app, jar, { method: 'POST', url: '/api/auth/logout', headers: { origin: TEST_PUBLIC_URL } });

describe('a live stream ends with its session', () => {
  it('closes the streams of a session that logs out, and only those', async () => {
    const { owner, orgId } = await createOrg(t.app, unique('logout'), 'Logout Co', { trial: null });
    // The same person signed in on a second device: another session.
    const otherDevice = await signIn(t.app, owner.email);
    const stream = await open(owner, orgId);
    const elsewhere = await open(otherDevice, orgId);
    expect([stream.status, elsewhere.status]).toEqual([200, 200]);
    await expectLive(stream, orgId, owner.userId);

    expect((await logout(t.app, owner.jar)).statusCode).toBe(200);

    await expectEnded(stream, orgId, owner.userId);
    await expectLive(elsewhere, orgId, owner.userId);
    elsewhere.abort();
  });

  it('closes the streams of a refresh family revoked for the reuse of a spent token', async () => {
    let clock = Date.now();
    const own = await createTestApp({}, { database: t.database, now: () => new Date(clock) });
    try {
      const url = await listeningUrl(own.app);
      const refresh = (jar: CookieJar) =>
        send(own.app, jar, {
          method: 'POST',
          url: '/api/auth/refreshToken',
          headers: { origin: TEST_PUBLIC_URL },
        });
      const { jar } = await signInThroughDevProvider(own.app, unique('reuse'));
      const created = await send(own.app, jar, {
        method: 'POST',
        url: '/api/organizations',
        headers: { origin: TEST_PUBLIC_URL, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Reuse Co' }),
      });
      const orgId = created.json().data.organization.id as string;
      const userId = (await send(own.app, jar, { method: 'GET', url: '/api/auth/me' })).json().data
        .user.id as string;
      const stolen = jar.get('herald_rt')!;
      expect((await refresh(jar)).statusCode).toBe(200);
      const stream = await openStream(url, jar.header(), orgId);
      expect(stream.status).toBe(200);
      await expectLive(stream, orgId, userId);

      clock += 31_000;
      const thief = new CookieJar();
      thief.set('herald_rt', stolen);
      expect((await refresh(thief)).statusCode).toBe(401);

      await expectEnded(stream, orgId, userId);
    } finally {
      await own.close();
    }
  });

  it('closes a stream once its session has expired, without anything announced', async () => {
    let clock = Date.now();
    const own = await createTestApp({}, { database: t.database, now: () => new Date(clock) });
    try {
      const url = await listeningUrl(own.app);
      const owner = await signIn(own.app, unique('expiry'));
      const orgId = (await owner.call('POST', '/api/organizations', { name: 'Expiry Co' })).body
        .data.organization.id as string;
      const stream = await openStream(url, owner.jar.header(), orgId);
      expect(stream.status).toBe(200);
      await expectLive(stream, orgId, owner.userId);

      clock += SESSION_TTL_MS + 60_000;

      // The next recheck (every STREAM_RECHECK_MS) finds the session expired.
      expect(CLOSES_WITHIN_MS).toBeGreaterThan(STREAM_RECHECK_MS * 2);
      await expectEnded(stream, orgId, owner.userId);
    } finally {
      await own.close();
    }
  });
});

describe('a live stream ends with the membership it needs', () => {
  it("closes a removed member's stream of that organization, not their others", async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, unique('remover'), 'Remover Co');
    const { actor: member, memberId } = await addMember(t.app, owner, orgId, unique('removed'), {
      roleId: roleId('CustomerSupport'),
    });
    const ownOrg = (await member.call('POST', '/api/organizations', { name: 'Own Co' })).body.data
      .organization.id as string;
    const stream = await open(member, orgId);
    const ownStream = await open(member, ownOrg);
    const ownerStream = await open(owner, orgId);
    expect([stream.status, ownStream.status, ownerStream.status]).toEqual([200, 200, 200]);
    await expectLive(stream, orgId, member.userId);

    const removed = await owner.call('DELETE', `/api/organizations/${orgId}/members/${memberId}`);
    expect(removed.status).toBe(200);

    await expectEnded(stream, orgId, member.userId);
    await expectLive(ownStream, ownOrg, member.userId);
    await expectLive(ownerStream, orgId, owner.userId);
    ownStream.abort();
    ownerStream.abort();
  });

  it('closes the stream of a member whose new role lacks dm:view; the next one carries no inbox', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, unique('roles'), 'Roles Co');
    const { actor: member, memberId } = await addMember(t.app, owner, orgId, unique('support'), {
      roleId: roleId('CustomerSupport'),
    });
    const stream = await open(member, orgId);
    expect(stream.status).toBe(200);
    await inboxChange(t.database.db, orgId);
    expect(
      await within(
        stream.next((e) => e.event === 'inbox'),
        ARRIVES_WITHIN_MS,
      ),
    ).not.toBe('timeout');

    const put = await owner.call('PUT', `/api/organizations/${orgId}/members/${memberId}`, {
      roleId: roleId('ContentCreator'),
    });
    expect(put.status).toBe(200);

    await expectEnded(stream, orgId, member.userId);
    expect(stream.events.filter((e) => e.event === 'inbox')).toHaveLength(1);
    // The page's next stream carries the member's notifications and no inbox events.
    const next = await open(member, orgId);
    expect(next.status).toBe(200);
    await inboxChange(t.database.db, orgId);
    await expectLive(next, orgId, member.userId);
    expect(next.events.filter((e) => e.event === 'inbox')).toEqual([]);
    next.abort();
  });

  it('closes the streams of members whose role is edited to drop dm:view', async () => {
    const { owner, orgId } = await createOrg(t.app, unique('editor'), 'Editor Co');
    const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Inbox Reader',
      permissionIds: ['dm:view', 'post:create'],
    });
    const roleId = role.body.data.role.id as string;
    const { actor: member } = await addMember(t.app, owner, orgId, unique('reader'), { roleId });
    const stream = await open(member, orgId);
    const ownerStream = await open(owner, orgId);
    expect([stream.status, ownerStream.status]).toEqual([200, 200]);

    const edited = await owner.call('PUT', `/api/organizations/${orgId}/roles/${roleId}`, {
      name: 'Inbox Reader',
      permissionIds: ['post:create'],
    });
    expect(edited.status).toBe(200);

    await expectEnded(stream, orgId, member.userId);
    await expectLive(ownerStream, orgId, owner.userId);
    ownerStream.abort();
  });

  it('sends nothing for an organization the member has left, even before any announcement', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, unique('quiet'), 'Quiet Co');
    const { actor: member, memberId } = await addMember(t.app, owner, orgId, unique('gone'), {
      roleId: roleId('CustomerSupport'),
    });
    const stream = await open(member, orgId);
    expect(stream.status).toBe(200);
    await expectLive(stream, orgId, member.userId);

    // Removed by a path that announces nothing (a script, the database by hand).
    await t.database.db.delete(members).where(eq(members.id, memberId));
    await inboxChange(t.database.db, orgId);
    await notify(t.database.db, orgId, member.userId, 'Not for a former member');

    expect(await within(stream.ended, CLOSES_WITHIN_MS)).not.toBe('timeout');
    expect(stream.events.map((e) => e.event)).toEqual(['notification']);
  });
});

describe('streams per person', () => {
  it('gives back the place of a stream whose client left while it was being opened', async () => {
    const { owner, orgId } = await createOrg(t.app, unique('gone'), 'Gone Co', { trial: null });
    const { port } = new URL(baseUrl);
    // The roles' permissions are held locked, so each stream's first read of its access waits;
    // meanwhile its client hangs up.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table role_permissions in access exclusive mode`);
      const sockets = await Promise.all(
        Array.from(
          { length: MAX_STREAMS_PER_USER + 2 },
          () =>
            new Promise<Socket>((resolve, reject) => {
              const socket = connect(Number(port), '127.0.0.1', () => {
                socket.write(
                  `GET /api/notifications/stream?organizationId=${orgId} HTTP/1.1\r\n` +
                    `Host: 127.0.0.1:${port}\r\nCookie: ${owner.jar.header()}\r\n\r\n`,
                  () => resolve(socket),
                );
              });
              socket.on('error', reject);
            }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    let again: OpenedStream | null = null;
    for (const deadline = Date.now() + CLOSES_WITHIN_MS; Date.now() < deadline;) {
      again = await open(owner, orgId);
      if (again.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.status).toBe(200);
    again?.abort();
  });

  it(`refuses a ${MAX_STREAMS_PER_USER + 1}th open stream with 429 and takes one after another closes`, async () => {
    const { owner, orgId } = await createOrg(t.app, unique('many'), 'Many Co', { trial: null });
    const streams: OpenedStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open(owner, orgId));
    expect(streams.map((s) => s.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200));

    const refused = await open(owner, orgId);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body).toMatchObject({
      status: 'error',
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/10 live update streams open already/),
    });
    // Someone else is not held back by it.
    const other = await signIn(t.app, unique('other'));
    const otherOrg = (await other.call('POST', '/api/organizations', { name: 'Other Co' })).body
      .data.organization.id as string;
    const theirs = await open(other, otherOrg);
    expect(theirs.status).toBe(200);
    theirs.abort();

    // A closed tab gives its place back once the server sees the connection go.
    streams.pop()!.abort();
    let again: OpenedStream | null = null;
    for (const deadline = Date.now() + CLOSES_WITHIN_MS; Date.now() < deadline;) {
      again = await open(owner, orgId);
      if (again.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.status).toBe(200);
    again?.abort();
    for (const s of streams) s.abort();
  });
});

describe('two API processes on one PostgreSQL database', () => {
  usePostgres();
  it('closes a stream open on one process when the session ends or the member is removed on the other', async () => {
    const a = await createTestApp();
    try {
      if (a.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const second = await openPostgres(a.database.url, 2);
      const b = await createTestApp({}, { database: second });
      try {
        const urlA = await listeningUrl(a.app);
        const { owner, orgId, roleId } = await createOrg(a.app, unique('twin'), 'Twin Co');
        const { actor: member, memberId } = await addMember(a.app, owner, orgId, unique('twin'), {
          roleId: roleId('CustomerSupport'),
        });
        const memberStream = await open(member, orgId, urlA);
        const ownerStream = await open(owner, orgId, urlA);
        expect([memberStream.status, ownerStream.status]).toEqual([200, 200]);
        await expectLive(memberStream, orgId, member.userId, a.database.db);

        // The removal and the logout are handled by the other process.
        const removed = await send(b.app, owner.jar, {
          method: 'DELETE',
          url: `/api/organizations/${orgId}/members/${memberId}`,
          headers: { origin: TEST_PUBLIC_URL },
        });
        expect(removed.statusCode).toBe(200);
        await expectEnded(memberStream, orgId, member.userId, a.database.db);

        await expectLive(ownerStream, orgId, owner.userId, a.database.db);
        expect((await logout(b.app, owner.jar)).statusCode).toBe(200);
        await expectEnded(ownerStream, orgId, owner.userId, a.database.db);
      } finally {
        await b.close();
        await second.close();
      }
    } finally {
      await a.close();
    }
  }, 120_000);
});
