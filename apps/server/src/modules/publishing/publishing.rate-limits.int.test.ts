import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postTargets } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { mp4 } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import type { PublishQueue } from './publish-queue.js';
import { Publisher } from './publisher.js';
const MAX_RATE_LIMITED_ATTEMPTS = 8;

/**
 * The publishing engine under rate limits and refusals that need waiting, against the
 * in-process sandboxes: a throttle that names no wait backs off and stops; Meta's Business Use
 * Case header and TikTok's daily cap are waited out; Meta's policy block (368) is not retried.
 */

let t: TestApp;
let owner: Actor;
let orgId: string;
const platformId: Record<string, string> = {};
const accountOf: Record<string, string> = {};
/** The times the publisher asked to run each target again. */
const retries: Array<{ targetId: string; at: Date; askedAt: number }> = [];
let publisher: Publisher;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'limits@engine.test', 'Limits Co'));
  const connections: Array<[string, string, Record<string, string>]> = [
    ['threads', 'Limit Threader', {}],
    ['facebook', 'Limit Ada', { pages: 'Limit Cafe' }],
    ['tiktok', 'Limit Creator', {}],
  ];
  for (const [slug, account, fields] of connections) {
    const done = await connectThroughSandbox(t.app, owner, slug, orgId, { account, fields });
    expect(done, slug).toContain('connected');
  }
  const supported = await owner.call('GET', '/api/platforms/supported');
  for (const p of supported.body.data.platforms as Array<{ id: string; name: string }>)
    platformId[p.name] = p.id;
  const list = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
  for (const i of list.body.data.platforms as Array<{
    platform: { name: string };
    metadata: { username: string | null; name: string | null };
  }>)
    accountOf[i.platform.name] = i.metadata.username ?? i.metadata.name ?? '';
  const queue = {
    async retryAt(targetId: string, at: Date) {
      retries.push({ targetId, at, askedAt: Date.now() });
    },
  } as unknown as PublishQueue;
  publisher = new Publisher({
    db: t.database.db,
    networks: t.networks,
    media: t.runtime.media,
    cipher: t.cipher,
    queue,
    log: t.app.log,
    checkBudgetMs: 5_000,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A post to one network, due now, with its target id. */
async function duePost(
  network: string,
  content: string,
  files: FilePart[] = [],
  extra: Record<string, string> = {},
) {
  const body = await multipart(
    { platformIds: JSON.stringify([platformId[network]]), content, action: 'draft', ...extra },
    files,
  );
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  const post = res.json().data.post as { id: string; platformPosts: Array<{ id: string }> };
  await t.database.db.execute(sql`update posts set status = 'publishing' where id = ${post.id}`);
  return post.platformPosts[0]!.id;
}

async function knob(slug: string, account: string, name: string, value: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/sandbox/${slug}/_emu/scenario`,
    headers: { cookie: owner.jar.header() },
    payload: { account, knob: name, on: true, value },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const targetRow = async (id: string) =>
  (await t.database.db.select().from(postTargets).where(eq(postTargets.id, id)))[0]!;
const retriesOf = (id: string) => retries.filter((r) => r.targetId === id);
/** Seconds between asking and the time asked for, of the latest retry of a target. */
const lastWaitSeconds = (id: string) => {
  const last = retriesOf(id).at(-1)!;
  return (last.at.getTime() - last.askedAt) / 1000;
};

describe('a throttle that names no wait', () => {
  it('backs off exponentially with jitter, then fails after a bounded number of tries, saying why', async () => {
    const id = await duePost('Threads', 'Throttled without a wait');
    // Threads answers code 4 with no Retry-After and no usage header.
    await knob('threads', accountOf.Threads!, 'rate_limit_next', 1_000);
    const outcomes: string[] = [];
    for (let run = 0; run < MAX_RATE_LIMITED_ATTEMPTS + 2; run++) {
      outcomes.push(await publisher.run(id));
      if (outcomes.at(-1) === 'FAILED') break;
    }
    expect(outcomes).toEqual([
      ...Array(MAX_RATE_LIMITED_ATTEMPTS - 1).fill('RETRY_LATER'),
      'FAILED',
    ]);
    const waits = retriesOf(id).map((r) => (r.at.getTime() - r.askedAt) / 60_000);
    expect(waits).toHaveLength(MAX_RATE_LIMITED_ATTEMPTS - 1);
    waits.forEach((minutes, i) => {
      const ceiling = Math.min(60, 2 ** i);
      // Half to all of 1, 2, 4… minutes (a little slack for the time between the two clocks).
      expect(minutes, `try ${i + 1}`).toBeGreaterThanOrEqual(ceiling / 2 - 0.01);
      expect(minutes, `try ${i + 1}`).toBeLessThanOrEqual(ceiling + 0.01);
    });
    const row = await targetRow(id);
    expect(row.status).toBe('FAILED');
    expect(row.error).toMatch(
      /^Threads kept refusing this post for its rate limit after 8 tries over about two hours, without saying how long to wait \(Threads said: \(#4\) Application request limit reached\)\. Publish it again later\.$/,
    );
  }, 60_000);
});

describe("Meta's Business Use Case limit", () => {
  it('waits the minutes Meta announces in X-Business-Use-Case-Usage, then publishes', async () => {
    const id = await duePost('Facebook', 'After the usage window');
    await knob('facebook', 'Limit Ada', 'buc_throttle_minutes', 17);
    expect(await publisher.run(id)).toBe('RETRY_LATER');
    expect(lastWaitSeconds(id)).toBeGreaterThanOrEqual(17 * 60 - 1);
    expect(lastWaitSeconds(id)).toBeLessThanOrEqual(17 * 60 + 1);
    expect((await targetRow(id)).error).toMatch(/too many calls to this Page account/);
    expect(await publisher.run(id)).toBe('PUBLISHED');
  }, 30_000);
});

describe("Meta's policy block (code 368)", () => {
  it('fails at once with a sentence saying what happened and what to do, without retrying', async () => {
    const id = await duePost('Facebook', 'Blocked by policy');
    await knob('facebook', 'Limit Ada', 'policy_block_next', 5);
    expect(await publisher.run(id)).toBe('FAILED');
    expect(retriesOf(id)).toEqual([]);
    const row = await targetRow(id);
    expect(row.error).toMatch(
      /^Meta has temporarily blocked this account from this action because it judged it abusive or against its rules \(code 368\)\. Herald does not retry it: .*Meta said: You're temporarily blocked from posting/,
    );
  }, 30_000);
});

describe("TikTok's daily cap of API posts", () => {
  it('spam_risk_too_many_posts waits a day instead of failing or knocking again soon', async () => {
    const video: FilePart = {
      name: 'clip.mp4',
      type: 'video/mp4',
      data: await mp4({ seconds: 3 }),
    };
    // TikTok posts only with the privacy the user chose (content-sharing guidelines).
    const list = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
    const tiktokId = (
      list.body.data.platforms as Array<{ id: string; platform: { name: string } }>
    ).find((i) => i.platform.name === 'TikTok')!.id;
    const id = await duePost('TikTok', 'Tomorrow then', [video], {
      tiktok: JSON.stringify({ [tiktokId]: { privacyLevel: 'SELF_ONLY' } }),
    });
    await knob('tiktok', accountOf.TikTok!, 'spam_risk_next', 1);
    expect(await publisher.run(id)).toBe('RETRY_LATER');
    expect(lastWaitSeconds(id)).toBeGreaterThanOrEqual(24 * 3600 - 1);
    expect(lastWaitSeconds(id)).toBeLessThanOrEqual(24 * 3600 + 1);
    const row = await targetRow(id);
    expect(row.status).toBe('READY');
    expect(row.error).toMatch(/TikTok's daily limit of posts through apps is reached/);
    expect(row.error).toMatch(/Herald will publish it in 24 hours/);
  }, 60_000);
});
