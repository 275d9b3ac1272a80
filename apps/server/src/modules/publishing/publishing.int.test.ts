import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { recordStatements } from '../../test/statements.js';
import { PUBLISH_QUEUE } from './publish-queue.js';
import { postTargets } from '../../db/schema.js';
import {
  claimDue,
  claimPublishing,
  markTargetPublished,
  settleOnlyTarget,
} from './targets.repository.js';
import { runWatchdog } from './watchdog.js';

let t: TestApp;
let owner: Actor;
let orgId: string;
let xId: string;

async function createPost(fields: Record<string, string | undefined>, files: FilePart[] = []) {
  const body = await multipart(fields, files);
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post as { id: string; platformPosts: Array<{ id: string }> };
}

/** A draft to the X account, as the composer saves one. */
const draftToX = (content: string, files: FilePart[] = []) =>
  createPost({ platformIds: JSON.stringify([xId]), content, action: 'draft' }, files);

/** The post as the engine leaves it when one of its targets starts going out. */
const markPublishing = (postId: string) =>
  t.database.db.execute(sql`update posts set status = 'publishing' where id = ${postId}`);

const getPost = async (id: string) =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${id}`)).body.data.post;

/** Publications the X sandbox actually made. */
async function publishedOnX(): Promise<Array<{ text: string }>> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/sandbox/x/_emu/posts',
    headers: { cookie: owner.jar.header() },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return Array.isArray(body) ? body : (body.posts ?? body.data);
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  // The worker's part runs here too: pg-boss in the `all` role, serving the publish queue only.
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'pub@engine.test', 'Engine Co'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const supported = await owner.call('GET', '/api/platforms/supported');
  xId = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('publish now', () => {
  it('publishes a draft with an image to X and says so per network', async () => {
    const post = await draftToX('Now with a picture', [
      { name: 'now.jpg', type: 'image/jpeg', data: await jpeg(640, 480) },
    ]);
    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      results: { X: { status: 'success', error: null } },
      message: 'Published to: X.',
    });
    const after = await getPost(post.id);
    expect(after.status).toBe('published');
    expect(after.platformPosts[0]).toMatchObject({ status: 'PUBLISHED' });
    expect(after.platformPosts[0].externalId).toBeTruthy();
    expect(after.platformPosts[0].permalink).toMatch(/^https:\/\/x\.com\//);
    expect((await publishedOnX()).filter((p) => p.text === 'Now with a picture')).toHaveLength(1);

    const notes = await owner.call('GET', `/api/notifications?organizationId=${orgId}`);
    expect(
      notes.body.some(
        (n: { type: string; postId: string }) =>
          n.type === 'POST_PUBLISHED' && n.postId === post.id,
      ),
    ).toBe(true);

    // Publishing again is refused by the post's state, not repeated at the network.
    const again = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(again.body.results.X.status).toBe('success');
    expect((await publishedOnX()).filter((p) => p.text === 'Now with a picture')).toHaveLength(1);
  });

  it('refuses an empty list and networks the post does not go to', async () => {
    const post = await draftToX('x');
    const empty = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: [],
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Please select at least one platform to publish.');
    const other = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['Instagram'],
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/does not go to Instagram/);
  });

  it('two runs racing for one target publish it once', async () => {
    const post = await draftToX('Race me');
    await markPublishing(post.id);
    const targetId = post.platformPosts[0]!.id;
    const outcomes = await Promise.all([t.publisher.run(targetId), t.publisher.run(targetId)]);
    expect(outcomes.filter((o) => o === 'PUBLISHED')).toHaveLength(1);
    expect((await publishedOnX()).filter((p) => p.text === 'Race me')).toHaveLength(1);
  });
});

describe('a batch of targets', () => {
  it('reads a job fetch in one statement and publishes each once, files included', async () => {
    const text = await draftToX('Batch text');
    const withImage = await draftToX('Batch image', [
      { name: 'b.jpg', type: 'image/jpeg', data: await jpeg(320, 240) },
    ]);
    for (const post of [text, withImage]) await markPublishing(post.id);
    const textTarget = text.platformPosts[0]!.id;
    const imageTarget = withImage.platformPosts[0]!.id;
    const missing = '00000000-0000-4000-8000-000000000000';

    const recorded = recordStatements(t.database.db);
    let outcomes: string[];
    try {
      outcomes = await t.publisher.runMany([textTarget, imageTarget, missing, textTarget]);
    } finally {
      recorded.stop();
    }
    const reads = recorded.statements.filter(
      (q) => /^select/i.test(q) && q.includes('"platforms"'),
    );
    // Both runs of the doubled target met one claim between them.
    expect(outcomes[2]).toBe('SKIPPED');
    expect([outcomes[0], outcomes[3]].sort()).toEqual(['BUSY', 'PUBLISHED']);
    expect(outcomes[1]).toBe('PUBLISHED');
    // One read of the four (the targets, their posts, networks and accounts).
    expect(reads.filter((q) => q.includes('"post_targets"'))).toHaveLength(1);
    const onX = await publishedOnX();
    expect(onX.filter((p) => p.text === 'Batch text')).toHaveLength(1);
    expect(onX.filter((p) => p.text === 'Batch image')).toHaveLength(1);
    expect((await getPost(withImage.id)).status).toBe('published');
  });
});

describe('a post to one account', () => {
  it('goes out in a few statements and no transaction, and the post is published at its time', async () => {
    const post = await draftToX('Just the one');
    await markPublishing(post.id);
    const recorded = recordStatements(t.database.db);
    let outcome: string;
    try {
      outcome = await t.publisher.run(post.platformPosts[0]!.id);
    } finally {
      recorded.stop();
    }
    expect(outcome).toBe('PUBLISHED');
    // Read, claim, mark the post, published, the post settled, the author told, the
    // organization's webhooks told (one insert into webhook_deliveries, of nothing here, that
    // nudges the deliverers only when it inserted any: `with inserted … select pg_notify`). The X
    // sandbox keeps its records in the same database, and on PGlite pg-boss shares its client.
    const own = recorded.statements.filter((q) => !/"sandbox_records"|pgboss\./.test(q));
    const kind = (q: string) => /^\s*(\w+) "?(\w+)/.exec(q)?.slice(1).join(' ') ?? q.slice(0, 40);
    expect(own.map(kind)).toEqual([
      'select post_targets',
      'update post_targets',
      'update posts',
      'update post_targets',
      'update posts',
      'with recipients',
      'with inserted',
    ]);
    expect(recorded.transactions).toBe(0);
    const result = await t.database.db.execute(
      sql`select p.status, p.published_at = t.published_at as same_time,
                 t.embed is null as no_embed, t.external_id is not null as has_id
            from posts p join post_targets t on t.post_id = p.id where p.id = ${post.id}`,
    );
    // X gives no embed data: none is stored (SQL null, not JSON's null).
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { status: 'published', same_time: true, no_embed: true, has_id: true },
    ]);
  });
});

describe('settling a post from its one target', () => {
  it('applies only to a publication, while the post is publishing and its target is as the run left it', async () => {
    const post = await draftToX('Settle me');
    const [target] = await t.database.db
      .select()
      .from(postTargets)
      .where(eq(postTargets.postId, post.id));
    const publishedAt = new Date();
    const published = { ...target!, status: 'PUBLISHED' as const, publishedAt };
    // A draft is never settled from its targets.
    expect(await settleOnlyTarget(t.database.db, published, new Date())).toBe(false);
    await markPublishing(post.id);
    // The run's row says PUBLISHED, the database still QUEUED (another run moved it on): left alone.
    expect(await settleOnlyTarget(t.database.db, published, new Date())).toBe(false);
    // A failure could be retried in the same moment: always left to the settling that locks first.
    await t.database.db.execute(
      sql`update post_targets set status = 'FAILED' where id = ${target!.id}`,
    );
    expect(
      await settleOnlyTarget(t.database.db, { ...target!, status: 'FAILED' }, new Date()),
    ).toBe(false);
    expect((await getPost(post.id)).status).toBe('publishing');
    await t.database.db.execute(
      sql`update post_targets set status = 'PUBLISHED', published_at = ${publishedAt.toISOString()} where id = ${target!.id}`,
    );
    expect(await settleOnlyTarget(t.database.db, published, new Date())).toBe(true);
    const after = await getPost(post.id);
    expect(after.status).toBe('published');
  });
});

describe('the prepared steps of a run', () => {
  it('claim only a due QUEUED target, and publish only for the attempt that holds it', async () => {
    const post = await draftToX('Prepared steps');
    const targetId = post.platformPosts[0]!.id;
    const attempt = { attempts: 1, attemptId: randomUUID(), publishState: { ready: true } };
    const soon = new Date(Date.now() + 1000);
    // A draft's target is not claimed: its post does not want it out.
    expect(await claimPublishing(t.database.db, targetId, attempt, soon)).toBeNull();
    await markPublishing(post.id);
    const claimed = await claimPublishing(t.database.db, targetId, attempt, soon);
    expect(claimed).toMatchObject({
      status: 'PUBLISHING',
      attempts: 1,
      publishState: { ready: true },
    });
    expect(await claimPublishing(t.database.db, targetId, attempt, soon)).toBeNull();

    const out = {
      externalId: 'x-1',
      permalink: null,
      embed: { shortcode: 'Ab1' },
      publishedAt: new Date(),
      latenessMs: 5,
    };
    expect(await markTargetPublished(t.database.db, targetId, randomUUID(), out)).toBeNull();
    const published = await markTargetPublished(t.database.db, targetId, attempt.attemptId, out);
    expect(published).toMatchObject({
      status: 'PUBLISHED',
      externalId: 'x-1',
      permalink: null,
      embed: { shortcode: 'Ab1' },
      latenessMs: 5,
      error: null,
    });
    expect(published!.publishedAt!.getTime()).toBe(out.publishedAt.getTime());
  });
});

describe('scheduled publishing', () => {
  it('publishes a post when its time comes, without anyone touching it', async () => {
    const scheduledAt = new Date(Date.now() + 2500).toISOString();
    const post = await createPost({
      platformIds: JSON.stringify([xId]),
      content: 'On time',
      scheduledAt,
    });
    const after = await until(
      () => getPost(post.id),
      (p) => p.status === 'published',
    );
    expect(after.status).toBe('published');
    const lateness = await t.database.db.execute(
      sql`select lateness_ms from post_targets where post_id = ${post.id}`,
    );
    const rows = (lateness as unknown as { rows: Array<{ lateness_ms: number }> }).rows;
    expect(rows[0]!.lateness_ms).toBeGreaterThanOrEqual(0);
    expect(rows[0]!.lateness_ms).toBeLessThan(15_000);
  }, 30_000);

  it('moves the job when the post is rescheduled, and cancels it when it returns to draft', async () => {
    const soon = new Date(Date.now() + 2000).toISOString();
    const moved = await createPost({
      platformIds: JSON.stringify([xId]),
      content: 'Moved later',
      scheduledAt: soon,
    });
    const drafted = await createPost({
      platformIds: JSON.stringify([xId]),
      content: 'Back to draft',
      scheduledAt: soon,
    });
    const later = new Date(Date.now() + 3600_000).toISOString();
    expect(
      (
        await owner.call('PUT', `/api/organizations/${orgId}/posts/${moved.id}`, {
          scheduledAt: later,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await owner.call('PUT', `/api/organizations/${orgId}/posts/${drafted.id}`, {
          scheduledAt: null,
        })
      ).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 5000));
    expect((await getPost(moved.id)).status).toBe('scheduled');
    expect((await getPost(drafted.id)).status).toBe('draft');
    const texts = (await publishedOnX()).map((p) => p.text);
    expect(texts).not.toContain('Moved later');
    expect(texts).not.toContain('Back to draft');
  }, 30_000);
});

describe('when X misbehaves', () => {
  let username: string;
  const knob = async (name: string, value?: number, on = true) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/_emu/scenario',
      headers: { cookie: owner.jar.header() },
      payload: { account: username, knob: name, on, ...(value !== undefined ? { value } : {}) },
    });
    expect(res.statusCode).toBe(200);
  };
  const publishNow = (id: string) =>
    owner.call('PATCH', `/api/organizations/${orgId}/post/${id}/publish`, { platforms: ['X'] });
  const countOnX = async (text: string) =>
    (await publishedOnX()).filter((p) => p.text === text).length;

  beforeAll(async () => {
    const integrations = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
    username = integrations.body.data.platforms[0].metadata.username;
  });

  it('a 500 on the visible call is looked up, not repeated, and the post still goes out once', async () => {
    const post = await draftToX('Through a 500');
    await knob('fail_next', 1);
    const res = await publishNow(post.id);
    expect(res.status).toBe(200);
    expect(['success', 'pending']).toContain(res.body.results.X.status);
    const after = await until(
      () => getPost(post.id),
      (p) => p.status === 'published',
      30_000,
    );
    expect(after.platformPosts[0].status).toBe('PUBLISHED');
    expect(await countOnX('Through a 500')).toBe(1);
  }, 40_000);

  it('a visible call that times out after X made the post is reconciled to PUBLISHED, once', async () => {
    const post = await draftToX('Slow X answer');
    await knob('finalize_timeout', 300);
    const res = await publishNow(post.id);
    expect(res.body.results.X.status).toBe('success');
    expect(await countOnX('Slow X answer')).toBe(1);
  }, 40_000);

  it('a rate limit waits for the time X gives, publishing nothing meanwhile', async () => {
    const post = await draftToX('Slow down');
    await knob('rate_limit_next', 5);
    const res = await publishNow(post.id);
    expect(res.body.results.X.status).toBe('pending');
    const after = await getPost(post.id);
    expect(['QUEUED', 'READY']).toContain(after.platformPosts[0].status);
    expect(after.platformPosts[0].error).toBeTruthy();
    expect(await countOnX('Slow down')).toBe(0);
    await knob('rate_limit_next', undefined, false);
  }, 40_000);

  it('a revoked token fails the publication with what to do, and tells the author', async () => {
    const post = await draftToX('Revoked');
    await knob('token_revoked');
    try {
      const res = await publishNow(post.id);
      expect(res.body.status).toBe('failed');
      expect(res.body.results.X.error).toMatch(/Reconnect/);
      const notes = await owner.call('GET', `/api/notifications?organizationId=${orgId}`);
      expect(
        notes.body.some(
          (n: { type: string; postId: string }) => n.type === 'POST_FAILED' && n.postId === post.id,
        ),
      ).toBe(true);
      expect(await countOnX('Revoked')).toBe(0);
      // The one refresh tried was refused too: the account is marked for reconnecting.
      const listed = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
      expect(listed.body.data.platforms[0].status).toBe('REFRESH_FAILED');
    } finally {
      await knob('token_revoked', undefined, false);
      await connectThroughSandbox(t.app, owner, 'x', orgId);
    }
  }, 40_000);
});

describe('claiming a target', () => {
  it('leaves a target alone once its post went back to draft or was moved later', async () => {
    const post = await draftToX('Claim me');
    const targetId = post.platformPosts[0]!.id;
    const soon = new Date(Date.now() + 1000);
    const past = new Date(Date.now() - 1000);
    const setState = (status: string, due: Date) =>
      Promise.all([
        t.database.db.execute(sql`update posts set status = ${status} where id = ${post.id}`),
        t.database.db.execute(sql`update post_targets set due_at = ${due} where id = ${targetId}`),
      ]);
    const claim = () => claimDue(t.database.db, targetId, 'QUEUED', { status: 'PREPARING' }, soon);
    await setState('draft', past);
    expect(await claim()).toBeNull();
    await setState('scheduled', new Date(Date.now() + 3600_000));
    expect(await claim()).toBeNull();
    await setState('scheduled', past);
    expect((await claim())?.status).toBe('PREPARING');
  });
});

describe('the watchdog', () => {
  const old = () => new Date(Date.now() - 3600_000);
  const watchdog = () => runWatchdog({ ...t.runtime.watchdog, stuckAfterMs: 60_000 });
  /** Puts a post's target back where a dead worker would leave it: PUBLISHING, long ago. */
  const strandPublishing = async (postId: string) => {
    await t.database.db.execute(
      sql`update post_targets set status = 'PUBLISHING', attempt_id = gen_random_uuid(), external_id = null, permalink = null, published_at = null, updated_at = ${old()} where post_id = ${postId}`,
    );
    await markPublishing(postId);
  };
  const xKnob = async (name: string, value: number) => {
    const integrations = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/_emu/scenario',
      headers: { cookie: owner.jar.header() },
      payload: {
        account: integrations.body.data.platforms[0].metadata.username,
        knob: name,
        value,
      },
    });
    expect(res.statusCode).toBe(200);
  };

  it('requeues a target stuck before the visible call; one after it that X does not list stays for a person', async () => {
    const a = await draftToX('Stuck preparing');
    const b = await draftToX('Stuck publishing, not on X');
    await t.database.db.execute(
      sql`update post_targets set status = 'PREPARING', updated_at = ${old()} where post_id = ${a.id}`,
    );
    await markPublishing(a.id);
    await strandPublishing(b.id);
    const result = await watchdog();
    expect(result.requeued).toBeGreaterThanOrEqual(1);
    expect(result.uncertain).toBe(1);
    // A dead worker's call may still land at X after the look-up: never sent again blindly.
    const stuck = await getPost(b.id);
    expect(stuck.platformPosts[0].status).toBe('UNCERTAIN');
    expect(stuck.platformPosts[0].error).toMatch(
      /X could not confirm whether it went out\. Check X, then mark it as published or retry/,
    );
    const requeued = await until(
      () => getPost(a.id),
      (p) => p.status === 'published',
    );
    expect(requeued.platformPosts[0].status).toBe('PUBLISHED');
    expect(
      (await publishedOnX()).filter((p) => p.text === 'Stuck publishing, not on X'),
    ).toHaveLength(0);
  }, 30_000);

  it('marks a stuck target PUBLISHED with its id and link when X shows the post went out', async () => {
    const post = await draftToX('Went out before the worker died');
    await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    const sent = (await getPost(post.id)).platformPosts[0];
    expect(sent.status).toBe('PUBLISHED');
    await strandPublishing(post.id);
    const result = await watchdog();
    expect(result).toMatchObject({ reconciled: 1, uncertain: 0 });
    const after = await getPost(post.id);
    expect(after.status).toBe('published');
    expect(after.platformPosts[0]).toMatchObject({
      status: 'PUBLISHED',
      externalId: sent.externalId,
      permalink: sent.permalink,
    });
    expect(
      (await publishedOnX()).filter((p) => p.text === 'Went out before the worker died'),
    ).toHaveLength(1);
  }, 30_000);

  it('flags a stuck target UNCERTAIN when X cannot answer, and lets a person resolve it', async () => {
    const b = await draftToX('Stuck publishing');
    await strandPublishing(b.id);
    // X is down for the look-up.
    await xKnob('fail_next', 1);
    const result = await watchdog();
    expect(result.uncertain).toBe(1);
    const stuck = await getPost(b.id);
    expect(stuck.platformPosts[0].status).toBe('UNCERTAIN');
    expect(stuck.platformPosts[0].error).toMatch(
      /X could not confirm whether it went out\. Check X, then mark it as published or retry/,
    );
    expect((await publishedOnX()).filter((p) => p.text === 'Stuck publishing')).toHaveLength(0);

    const resolved = await owner.call(
      'POST',
      `/api/organizations/${orgId}/posts/${b.id}/targets/${stuck.platformPosts[0].id}/resolve`,
      { outcome: 'published' },
    );
    expect(resolved.status).toBe(200);
    expect((await getPost(b.id)).status).toBe('published');
  }, 30_000);
});
