import { describe, expect, it } from 'vitest';
import { network } from '../../platforms/x/index.js';
import { pkcePair, startSandboxHarness } from '../../test/sandbox-harness.js';
import { useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const basic = () =>
  `Basic ${Buffer.from(`herald-sandbox:${h.settings.clientSecret}`).toString('base64')}`;

async function token(fields: Record<string, string>, authorization = basic()) {
  const res = await fetch(`${h.base}/2/oauth2/token`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('X sandbox', () => {
  it('shows an error page, not a redirect, for an unknown client', async () => {
    const res = await fetch(
      `${h.base}/i/oauth2/authorize?${new URLSearchParams({ client_id: 'someone-else', redirect_uri: h.redirectUri })}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('You weren’t able to give access to the App');
  });

  it('redirects with invalid_request when PKCE is missing', async () => {
    const landed = await h.authorize({
      alter: (url) => url.searchParams.delete('code_challenge'),
      state: 'p',
    });
    expect(landed.searchParams.get('error')).toBe('invalid_request');
    expect(landed.searchParams.get('state')).toBe('p');
  });

  it('lists the accounts signed in before on the consent page', async () => {
    await h.connectAs('Grace Hopper');
    const url = h.adapter.authorizeUrl({
      redirectUri: h.redirectUri,
      state: 's',
      codeChallenge: 'c',
    });
    const html = await (await fetch(url)).text();
    expect(html).toContain('<option value="grace_hopper">');
  });

  it('answers the token in X’s shape and /2/users/me with the requested fields', async () => {
    const { verifier, challenge } = pkcePair();
    const code = (
      await h.authorize({ account: 'shape', codeChallenge: challenge })
    ).searchParams.get('code')!;
    const { status, body } = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: h.redirectUri,
      code_verifier: verifier,
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      token_type: 'bearer',
      expires_in: 7200,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      scope:
        'tweet.read tweet.write users.read media.write offline.access dm.read dm.write tweet.moderate.write',
    });
    const me = await fetch(`${h.base}/2/users/me?user.fields=profile_image_url,verified_type`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(((await me.json()) as any).data).toEqual({
      id: expect.stringMatching(/^\d{19}$/),
      name: 'shape',
      username: 'shape',
      profile_image_url: expect.stringMatching(/^data:image\/svg\+xml/),
      verified_type: 'none',
    });
  });

  it('issues no refresh token without offline.access', async () => {
    const { verifier, challenge } = pkcePair();
    const landed = await h.authorize({
      codeChallenge: challenge,
      alter: (url) => url.searchParams.set('scope', 'tweet.read users.read'),
    });
    const { body } = await token({
      grant_type: 'authorization_code',
      code: landed.searchParams.get('code')!,
      redirect_uri: h.redirectUri,
      code_verifier: verifier,
    });
    expect(body.refresh_token).toBeUndefined();
    expect(body.scope).toBe('tweet.read users.read');
  });

  it('wants the client in a Basic header', async () => {
    const { status, body } = await token(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      'Bearer nope',
    );
    expect(status).toBe(401);
    expect(body.error).toBe('unauthorized_client');
  });

  it('approves at once with emu_auto=1', async () => {
    const landed = await h.authorize({
      alter: (url) => {
        url.searchParams.set('emu_auto', '1');
        url.searchParams.set('emu_account', 'auto_user');
      },
      state: 'auto',
    });
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
    expect(landed.searchParams.get('state')).toBe('auto');
  });

  it('refuses unknown knobs and accounts', async () => {
    const post = (body: unknown) =>
      fetch(`${h.base}/_emu/scenario`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ account: 'shape', knob: 'explode' })).status).toBe(400);
    expect((await post({ account: 'nobody_here', knob: 'token_revoked' })).status).toBe(404);
    expect(await (await post({ account: 'shape', knob: 'token_revoked' })).json()).toMatchObject({
      account: 'shape',
      knobs: { token_revoked: expect.any(Number) },
    });
  });
});

describe('X sandbox publishing endpoints', () => {
  async function api(token: string, method: string, path: string, body?: unknown) {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${h.base}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }
  const chunk = (index: number, bytes: Buffer) => {
    const form = new FormData();
    form.set('segment_index', String(index));
    form.set('media', new Blob([new Uint8Array(bytes)]), 'blob');
    return form;
  };

  it('checks chunk order and size, and reports video processing in X’s shape', async () => {
    const token = (await h.connectAs('media_shapes')).account.tokens.accessToken;
    await h.setKnob('media_shapes', 'processing_ms', true, 60_000);
    const init = await api(token, 'POST', '/2/media/upload/initialize', {
      media_type: 'video/mp4',
      total_bytes: 10,
      media_category: 'tweet_video',
    });
    expect(init).toMatchObject({
      status: 200,
      body: {
        data: {
          id: expect.stringMatching(/^\d{19}$/),
          media_key: expect.stringMatching(/^7_/),
          expires_after_secs: 86400,
        },
      },
    });
    const id = init.body.data.id as string;
    const skipped = await api(
      token,
      'POST',
      `/2/media/upload/${id}/append`,
      chunk(1, Buffer.alloc(4)),
    );
    expect(skipped.status).toBe(400);
    expect(skipped.body.errors[0].message).toMatch(/segment_index/);
    await api(token, 'POST', `/2/media/upload/${id}/append`, chunk(0, Buffer.alloc(4)));
    const short = await api(token, 'POST', `/2/media/upload/${id}/finalize`);
    expect(short.body.errors[0].message).toMatch(/do not add up/);
    await api(token, 'POST', `/2/media/upload/${id}/append`, chunk(1, Buffer.alloc(6)));
    const done = await api(token, 'POST', `/2/media/upload/${id}/finalize`);
    expect(done.body.data).toMatchObject({
      size: 10,
      processing_info: { state: 'pending', check_after_secs: 60 },
    });
    const status = await api(token, 'GET', `/2/media/upload?command=STATUS&media_id=${id}`);
    expect(status.body.data.processing_info.state).toBe('pending');
    await h.advanceClock(30);
    const later = await api(token, 'GET', `/2/media/upload?command=STATUS&media_id=${id}`);
    expect(later.body.data.processing_info).toMatchObject({
      state: 'in_progress',
      progress_percent: 50,
    });
    const early = await api(token, 'POST', '/2/tweets', {
      text: 'too early',
      media: { media_ids: [id] },
    });
    expect(early.status).toBe(400);
    await h.advanceClock(31);
    const ready = await api(token, 'GET', `/2/media/upload?command=STATUS&media_id=${id}`);
    expect(ready.body.data.processing_info).toEqual({ state: 'succeeded', progress_percent: 100 });
  });

  it('takes the older one-shot upload and INIT/APPEND/FINALIZE commands', async () => {
    const token = (await h.connectAs('legacy_uploader')).account.tokens.accessToken;
    const simple = new FormData();
    simple.set('media', new Blob([new Uint8Array(Buffer.alloc(100, 1))]), 'photo.jpg');
    const one = await api(token, 'POST', '/2/media/upload', simple);
    expect(one.body.data).toMatchObject({ size: 100, media_key: expect.stringMatching(/^3_/) });
    expect(one.body.data.processing_info).toBeUndefined();

    const initForm = new FormData();
    for (const [k, v] of Object.entries({
      command: 'INIT',
      total_bytes: '3',
      media_type: 'image/png',
    }))
      initForm.set(k, v);
    const started = await api(token, 'POST', '/2/media/upload', initForm);
    const append = chunk(0, Buffer.alloc(3));
    append.set('command', 'APPEND');
    append.set('media_id', started.body.data.id);
    expect((await api(token, 'POST', '/2/media/upload', append)).status).toBe(204);
    const fin = new FormData();
    fin.set('command', 'FINALIZE');
    fin.set('media_id', started.body.data.id);
    expect((await api(token, 'POST', '/2/media/upload', fin)).body.data.size).toBe(3);
  });

  it('answers posts, timelines and conversation search in X’s shapes', async () => {
    const { account } = await h.connectAs('shapes_poster');
    const token = account.tokens.accessToken;
    const created = await api(token, 'POST', '/2/tweets', { text: 'a < b & c' });
    expect(created).toMatchObject({
      status: 201,
      body: { data: { text: 'a &lt; b &amp; c', edit_history_tweet_ids: [created.body.data.id] } },
    });
    const id = created.body.data.id as string;
    const reply = await api(token, 'POST', '/2/tweets', {
      text: 'self reply',
      reply: { in_reply_to_tweet_id: id },
    });
    expect(reply.status).toBe(201);

    const one = await api(
      token,
      'GET',
      `/2/tweets/${id}?tweet.fields=public_metrics,conversation_id`,
    );
    expect(one.body.data).toMatchObject({
      conversation_id: id,
      public_metrics: { reply_count: 1 },
    });
    const missing = await api(token, 'GET', '/2/tweets/1234567890123456789');
    expect(missing).toMatchObject({
      status: 200,
      body: { errors: [{ title: 'Not Found Error' }] },
    });

    const timeline = await api(
      token,
      'GET',
      `/2/users/${account.externalId}/tweets?max_results=5&exclude=replies`,
    );
    expect(timeline.body).toMatchObject({
      data: [{ id }],
      meta: { result_count: 1, newest_id: id },
    });
    expect(
      (await api(token, 'GET', `/2/users/${account.externalId}/tweets?max_results=3`)).status,
    ).toBe(400);

    const search = await api(
      token,
      'GET',
      `/2/tweets/search/recent?query=conversation_id:${id}&tweet.fields=author_id,referenced_tweets&expansions=author_id&user.fields=username`,
    );
    expect(search.body).toMatchObject({
      data: [
        {
          text: 'self reply',
          author_id: account.externalId,
          referenced_tweets: [{ type: 'replied_to', id }],
        },
      ],
      includes: { users: [{ id: account.externalId, username: 'shapes_poster' }] },
      meta: { result_count: 1 },
    });
    const wrong = await api(
      token,
      'GET',
      `/2/tweets/search/recent?query=conversation_id:${id}&max_results=5`,
    );
    expect(wrong.status).toBe(400);
    expect((await api(token, 'GET', '/2/tweets/search/recent?query=from:someone')).status).toBe(
      400,
    );

    const denied = await api(token, 'DELETE', '/2/tweets/1234567890123456789');
    expect(denied.status).toBe(404);
  });

  it('validates knob values and lists publications at /_emu/posts', async () => {
    await h.connectAs('knob_values');
    const post = (body: unknown) =>
      fetch(`${h.base}/_emu/scenario`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ account: 'knob_values', knob: 'latency_ms' })).status).toBe(400);
    expect((await post({ account: 'knob_values', knob: 'fail_next', value: -1 })).status).toBe(400);
    expect(
      await (await post({ account: 'knob_values', knob: 'fail_next', value: 2 })).json(),
    ).toMatchObject({
      knobs: { fail_next: 2 },
    });
    expect((await post({ account: 'knob_values', knob: 'latency_ms', on: false })).status).toBe(
      200,
    );
    expect(await h.emu('GET', 'posts?account=nobody_at_all')).toEqual({ posts: [] });
  });
});

describe('X sandbox: what a self-serve app no longer gets (2026-04-20)', () => {
  it('refuses likes, follows and quote posts with X’s 403 client-forbidden problem', async () => {
    const { account } = await h.connectAs('self_serve_app');
    const auth = { authorization: `Bearer ${account.tokens.accessToken}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const me = account.externalId;
    const post = await fetch(`${h.base}/2/tweets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ text: 'A post to like' }),
    });
    const { data } = (await post.json()) as { data: { id: string } };
    const calls = [
      fetch(`${h.base}/2/users/${me}/likes`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ tweet_id: data.id }),
      }),
      fetch(`${h.base}/2/users/${me}/likes/${data.id}`, { method: 'DELETE', headers: auth }),
      fetch(`${h.base}/2/users/${me}/following`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ target_user_id: '12' }),
      }),
      fetch(`${h.base}/2/users/${me}/following/12`, { method: 'DELETE', headers: auth }),
      fetch(`${h.base}/2/tweets`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ text: 'Quoting', quote_tweet_id: data.id }),
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        title: 'Client Forbidden',
        reason: 'client-not-enrolled',
        type: 'https://api.x.com/2/problems/client-forbidden',
        status: 403,
      });
    }
    // Without a valid token it is still X's 401 first.
    const anonymous = await fetch(`${h.base}/2/users/${me}/likes`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  });
});
