import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetaUrls } from '../../platforms/meta/urls.js';
import { network as facebook } from '../../platforms/facebook/index.js';
import { network as instagram } from '../../platforms/instagram/index.js';
import { startSandboxHarness, type SandboxHarness } from '../../test/graph-harness.js';

/**
 * The Graph emulator's publishing side seen as raw HTTP: Meta's shapes and error envelopes,
 * and the knobs tests rely on. Adapter behaviour is tested beside each adapter.
 */
let ig: SandboxHarness<MetaUrls>;
let fb: SandboxHarness<MetaUrls>;
beforeAll(async () => {
  [ig, fb] = await Promise.all([startSandboxHarness(instagram), startSandboxHarness(facebook)]);
});
afterAll(async () => {
  await Promise.all([ig?.close(), fb?.close()]);
});

const IMAGE = 'http://localhost:3000/api/media/a.jpg?exp=4102444800&sig=x';
const VIDEO = 'http://localhost:3000/api/media/a.mp4?exp=4102444800&sig=x';

async function graph(
  h: SandboxHarness<MetaUrls>,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  token: string,
  params: Record<string, string> = {},
) {
  const query = method === 'POST' ? '' : `?${new URLSearchParams(params)}`;
  const res = await fetch(`${h.base}/v24.0/${path}${query}`, {
    method,
    headers: { authorization: `OAuth ${token}` },
    ...(method === 'POST' ? { body: new URLSearchParams(params) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function connect(h: SandboxHarness<MetaUrls>, name: string) {
  const fields: Record<string, string> = { account: name, pages: `${name} Page` };
  if (h === ig) fields.instagram = name.toLowerCase().replace(/\W+/g, '_');
  const { code } = await h.authorize({ fields });
  const [account] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  return account!;
}

describe('Graph emulator: Instagram publishing', () => {
  it('keeps a container IN_PROGRESS for processing_ms, then FINISHED', async () => {
    const { externalId: igId, tokens } = await connect(ig, 'Cy Slow');
    await ig.setKnob('Cy Slow', 'processing_ms', 60_000);
    const created = await graph(ig, 'POST', `${igId}/media`, tokens.accessToken, {
      image_url: IMAGE,
      caption: 'Patience',
    });
    expect(created.body.id).toMatch(/^\d{17}$/);
    const id = created.body.id as string;
    const early = await graph(ig, 'GET', id, tokens.accessToken, { fields: 'status_code,status' });
    expect(early.body).toEqual({ id, status_code: 'IN_PROGRESS', status: expect.any(String) });

    const tooSoon = await graph(ig, 'POST', `${igId}/media_publish`, tokens.accessToken, {
      creation_id: id,
    });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.error).toMatchObject({
      code: 9007,
      error_subcode: 2207027,
      error_user_msg: 'The media is not ready for publishing, please wait for a moment',
      fbtrace_id: expect.any(String),
    });

    await ig.advanceClock(61);
    const later = await graph(ig, 'GET', id, tokens.accessToken, { fields: 'status_code' });
    expect(later.body).toEqual({ id, status_code: 'FINISHED' });
    const published = await graph(ig, 'POST', `${igId}/media_publish`, tokens.accessToken, {
      creation_id: id,
    });
    expect(published.body).toEqual({ id: expect.stringMatching(/^\d{18}$/) });
    const after = await graph(ig, 'GET', id, tokens.accessToken, { fields: 'status_code' });
    expect(after.body.status_code).toBe('PUBLISHED');
    const again = await graph(ig, 'POST', `${igId}/media_publish`, tokens.accessToken, {
      creation_id: id,
    });
    expect(again.body.error).toMatchObject({ code: 9007 });

    const media = await graph(ig, 'GET', published.body.id, tokens.accessToken, {
      fields: 'id,caption,media_type,media_product_type,permalink,shortcode,timestamp,username',
    });
    expect(media.body).toMatchObject({
      caption: 'Patience',
      media_type: 'IMAGE',
      media_product_type: 'FEED',
      username: 'cy_slow',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/),
    });
    expect(media.body.permalink).toBe(`https://www.instagram.com/p/${media.body.shortcode}/`);
  });

  it('counts publications in content_publishing_limit', async () => {
    const { externalId: igId, tokens } = await connect(ig, 'Cy Counted');
    const read = () =>
      graph(ig, 'GET', `${igId}/content_publishing_limit`, tokens.accessToken, {
        fields: 'quota_usage,config',
      });
    expect((await read()).body).toEqual({
      data: [{ quota_usage: 0, config: { quota_total: 50, quota_duration: 86400 } }],
    });
    const { body } = await graph(ig, 'POST', `${igId}/media`, tokens.accessToken, {
      image_url: IMAGE,
    });
    await graph(ig, 'POST', `${igId}/media_publish`, tokens.accessToken, { creation_id: body.id });
    expect((await read()).body.data[0].quota_usage).toBe(1);
  });

  it('validates containers like Instagram', async () => {
    const { externalId: igId, tokens } = await connect(ig, 'Cy Strict');
    const post = (params: Record<string, string>) =>
      graph(ig, 'POST', `${igId}/media`, tokens.accessToken, params);
    expect((await post({ caption: 'no media' })).body.error).toMatchObject({ code: 100 });
    expect((await post({ media_type: 'VIDEO', video_url: VIDEO })).body.error).toMatchObject({
      code: 100,
      error_subcode: 2207067,
    });
    expect((await post({ image_url: 'not a url' })).body.error.code).toBe(100);
    const expired = await post({ image_url: 'http://localhost:3000/m.jpg?exp=1000&sig=x' });
    expect(expired.body.error).toMatchObject({ code: 9004, error_subcode: 2207052 });
    const child = await post({ image_url: IMAGE, is_carousel_item: 'true' });
    const alone = await post({ media_type: 'CAROUSEL', children: child.body.id });
    expect(alone.body.error).toMatchObject({ code: 100, error_subcode: 2207028 });
    const solo = await graph(ig, 'POST', `${igId}/media_publish`, tokens.accessToken, {
      creation_id: child.body.id,
    });
    expect(solo.body.error.code).toBe(100);
  });

  it('answers the failure knobs with Graph envelopes, counting them down', async () => {
    const { externalId: igId, tokens } = await connect(ig, 'Cy Knobs');
    await ig.setKnob('Cy Knobs', 'fail_next', 2);
    const failed = await graph(ig, 'GET', igId, tokens.accessToken, { fields: 'id' });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ code: 2, is_transient: true });
    const scenario = (await fetch(`${ig.base}/_emu/scenario?account=Cy%20Knobs`).then((r) =>
      r.json(),
    )) as { knobs: Record<string, unknown> };
    expect(scenario.knobs).toEqual({ fail_next: 1 });
    await graph(ig, 'GET', igId, tokens.accessToken);
    expect((await graph(ig, 'GET', igId, tokens.accessToken)).status).toBe(200);

    await ig.setKnob('Cy Knobs', 'rate_limit_next', 1);
    const limited = await graph(ig, 'GET', igId, tokens.accessToken);
    expect(limited.body.error).toMatchObject({ code: 4 });

    await ig.setKnob('Cy Knobs', 'processing_fails', 1);
    const container = async () => {
      const { body } = await graph(ig, 'POST', `${igId}/media`, tokens.accessToken, {
        image_url: IMAGE,
      });
      return (await graph(ig, 'GET', body.id, tokens.accessToken, { fields: 'status_code' })).body
        .status_code;
    };
    expect(await container()).toBe('ERROR');
    expect(await container()).toBe('FINISHED');

    await ig.setKnob('Cy Knobs', 'latency_ms', 300);
    const started = Date.now();
    await graph(ig, 'GET', igId, tokens.accessToken);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await ig.setKnob('Cy Knobs', 'latency_ms', false);

    // finalize_timeout is one-shot: the next visible call posts and never answers, then it is off.
    await ig.setKnob('Cy Knobs', 'finalize_timeout', 0);
    const { body } = await graph(ig, 'POST', `${igId}/media`, tokens.accessToken, {
      image_url: IMAGE,
    });
    const dropped = await graph(ig, 'POST', `${igId}/media_publish`, tokens.accessToken, {
      creation_id: body.id,
    }).catch((err: Error) => err);
    expect(dropped).toBeInstanceOf(Error);
    const after = await fetch(`${ig.base}/_emu/scenario?account=Cy%20Knobs`).then((r) => r.json());
    expect(after).toEqual({ account: 'Cy Knobs', knobs: {} });
    expect(await ig.posts('cy_knobs')).toHaveLength(1);
  });

  it('keeps containers and posts across a restart', async () => {
    const { externalId: igId, tokens } = await connect(ig, 'Cy Durable');
    const { body } = await graph(ig, 'POST', `${igId}/media`, tokens.accessToken, {
      image_url: IMAGE,
    });
    await ig.restart();
    const status = await graph(ig, 'GET', body.id, tokens.accessToken, { fields: 'status_code' });
    expect(status.body.status_code).toBe('FINISHED');
  });
});

describe('Graph emulator: Page posts and the test API', () => {
  it('wants the Page token to post, and hides other Pages’ posts', async () => {
    const page = await connect(fb, 'Di Owner');
    const other = await connect(fb, 'Di Other');
    const asUser = await graph(fb, 'POST', `${page.externalId}/feed`, page.secrets!.userToken!, {
      message: 'as the person',
    });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error.code).toBe(200);

    const made = await graph(fb, 'POST', `${page.externalId}/feed`, page.tokens.accessToken, {
      message: 'as the Page',
      fields: 'id,permalink_url',
    });
    expect(made.body).toEqual({
      id: expect.stringMatching(new RegExp(`^${page.externalId}_\\d+$`)),
      permalink_url: expect.stringMatching(/^https:\/\/www\.facebook\.com\//),
    });
    const hidden = await graph(fb, 'GET', made.body.id, other.tokens.accessToken);
    expect(hidden.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const published = await graph(
      fb,
      'GET',
      `${page.externalId}/published_posts`,
      page.tokens.accessToken,
      { fields: 'id,message,created_time' },
    );
    expect(published.body.data).toEqual([
      { id: made.body.id, message: 'as the Page', created_time: expect.any(String) },
    ]);
  });

  it('lists publications and adds visitors’ comments', async () => {
    const page = await connect(fb, 'Di Lists');
    const made = await graph(fb, 'POST', `${page.externalId}/photos`, page.tokens.accessToken, {
      url: IMAGE,
      caption: 'A photo',
    });
    expect(made.body).toEqual({ id: expect.any(String), post_id: expect.any(String) });
    expect(await fb.posts('Di Lists Page')).toEqual([
      {
        id: made.body.post_id,
        network: 'facebook',
        account: page.externalId,
        accountName: 'Di Lists Page',
        kind: 'photo',
        text: 'A photo',
        mediaCount: 1,
        altTexts: [null],
        permalink: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    const bad = await fetch(`${fb.base}/_emu/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ postId: made.body.post_id }),
    });
    expect(bad.status).toBe(400);
    const comment = await fb.comment(made.body.post_id, 'Ann', 'Nice');
    const thread = await graph(
      fb,
      'GET',
      `${made.body.post_id}/comments`,
      page.tokens.accessToken,
      {
        summary: 'true',
        filter: 'stream',
      },
    );
    expect(thread.body).toMatchObject({
      data: [{ id: comment.id, message: 'Nice', from: { name: 'Ann' } }],
      summary: { total_count: 1 },
    });
  });
});
