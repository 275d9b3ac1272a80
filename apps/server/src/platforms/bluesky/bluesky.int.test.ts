import { randomBytes } from 'node:crypto';
import { startTestnet, type Testnet } from '@herald/atproto-testnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { jpeg } from '../../test/media-fixtures.js';
import { publishMediaOf } from '../../test/publish-media.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, PlatformHttp, PublishRequest, StoredAccount } from '../types.js';
import { createBlueskyAdapter } from './adapter.js';
import { type BlueskyUrls, createBlueskyApi } from './api.js';

/**
 * The same tests against the AT Protocol reference PDS (`@atproto/dev-env`, with its PLC
 * directory) and against Herald's Bluesky sandbox: what Herald asks of a PDS must be answered
 * alike by both, so the sandbox speaks the real server's paths, shapes and refusals.
 */
interface Target {
  name: string;
  urls: BlueskyUrls;
  http: PlatformHttp;
  /** A new account, and the identifier and app password a person would type. */
  account(name: string): Promise<{ identifier: string; appPassword: string }>;
  close(): Promise<void>;
}

async function reference(): Promise<Target> {
  const net: Testnet = await startTestnet();
  return {
    name: 'reference PDS',
    urls: {
      handleResolver: net.pdsUrl,
      plcDirectory: net.plcUrl,
      appView: net.pdsUrl,
      videoService: net.pdsUrl,
      web: 'https://bsky.app',
    },
    http: (url, init) => fetch(url, init),
    async account(name) {
      const a = await net.createAccount(name);
      return { identifier: a.handle, appPassword: a.appPassword };
    },
    close: () => net.close(),
  };
}

async function sandbox(): Promise<Target> {
  const t: TestApp = await createTestApp();
  const network = t.networks.get('bluesky')!;
  // Requests to the sandbox are answered in-process, as the runtime's adapters send them.
  const base = new URL(network.urls.handleResolver as string);
  const http: PlatformHttp = async (url, init) => {
    const u = new URL(url);
    if (u.origin !== base.origin) throw new Error(`not the sandbox: ${url}`);
    const body = init?.body;
    const res = await t.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${u.pathname}${u.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(body !== undefined && body !== null
        ? { payload: typeof body === 'string' ? body : Buffer.from(body as Uint8Array) }
        : {}),
    });
    return new Response(res.rawPayload, {
      status: res.statusCode,
      headers: res.headers as Record<string, string>,
    });
  };
  return {
    name: 'sandbox',
    urls: network.urls as unknown as BlueskyUrls,
    http,
    async account(name) {
      return {
        identifier: `${name}-${randomBytes(3).toString('hex')}.bsky.sandbox`,
        appPassword: 'abcd-efgh-ijkl-mnop',
      };
    },
    close: () => t.close(),
  };
}

const request = (text: string, media: PublishRequest['media'] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${randomBytes(6).toString('hex')}`,
});

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

describe.each([
  ['reference PDS', reference],
  ['sandbox', sandbox],
] as const)('Bluesky against the %s', (_name, start) => {
  let target: Target;
  let adapter: PlatformAdapter;
  let api: ReturnType<typeof createBlueskyApi>;
  let ada: StoredAccount;
  let bobHandle: string;
  let bobDid: string;

  beforeAll(async () => {
    target = await start();
    api = createBlueskyApi({ urls: target.urls, http: target.http }, async () => []);
    adapter = createBlueskyAdapter(api, async () => new Response('', { status: 404 }));
  }, 60_000);
  afterAll(async () => {
    await target?.close();
  });

  const record = async (uri: string) => {
    const [, , did, collection, rkey] = uri.split('/');
    return api.getRecord<Record<string, unknown>>(String(ada.extra.pds), did!, collection!, rkey!);
  };

  it('connects with a handle and an app password: DID and PDS from the DID document, one session', async () => {
    const login = await target.account('ada');
    const [account] = await adapter.connectWithPassword!({
      identifier: `@${login.identifier.toUpperCase()}`,
      password: login.appPassword,
    });
    expect(account!.externalId).toMatch(/^did:plc:[a-z2-7]{24}$/);
    expect(account!.username).toBe(login.identifier);
    expect(account!.extra).toMatchObject({ did: account!.externalId, handle: login.identifier });
    expect(String(account!.extra!.pds)).toMatch(/^http:\/\/(localhost|127\.0\.0\.1)/);
    // Access for about two hours, renewable for about ninety days.
    const accessHours = (account!.tokens.accessTokenExpiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(accessHours).toBeGreaterThan(1);
    expect(accessHours).toBeLessThanOrEqual(2.01);
    expect(account!.tokens.refreshToken).toBeTruthy();
    expect(account!.tokens.refreshTokenExpiresAt!.getTime()).toBeGreaterThan(
      Date.now() + 80 * 24 * 3_600_000,
    );
    expect(account!.tokens.scopes).toEqual(['com.atproto.appPass']);
    ada = {
      externalId: account!.externalId,
      tokens: account!.tokens,
      extra: account!.extra!,
      secrets: {},
    };
    const bob = await target.account('bob');
    const [bobAccount] = await adapter.connectWithPassword!({
      identifier: bob.identifier,
      password: bob.appPassword,
    });
    bobHandle = bob.identifier;
    bobDid = bobAccount!.externalId;
  });

  it('refuses a wrong app password and what is not a handle, in Bluesky’s words', async () => {
    const carol = await target.account('carol');
    await adapter.connectWithPassword!({
      identifier: carol.identifier,
      password: carol.appPassword,
    });
    const wrong = await adapter.connectWithPassword!({
      identifier: carol.identifier,
      password: 'wxyz-wxyz-wxyz-wxyz',
    }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(PlatformError);
    expect((wrong as PlatformError).message).toMatch(
      /^Bluesky refused the sign-in \(Invalid identifier or password\)/,
    );
    const notHandle = await adapter.connectWithPassword!({
      identifier: 'not a handle',
      password: 'x',
    }).catch((e: unknown) => e);
    expect((notHandle as PlatformError).kind).toBe('bad_request');
    expect((notHandle as PlatformError).message).toMatch(/is not a Bluesky handle/);
  });

  it('publishes text with link, mention and tag facets at UTF-8 byte offsets', async () => {
    const text = `Café ☕ with @${bobHandle} at https://example.com/menu. #coffee`;
    const published = await publishInOneGo(adapter.publishing!, ada, request(text));
    expect(published.externalId).toMatch(
      new RegExp(`^at://${ada.externalId}/app\\.bsky\\.feed\\.post/[2-7a-z]{13}$`),
    );
    expect(published.permalink).toMatch(/\/profile\/did:plc:[a-z2-7]+\/post\/[2-7a-z]{13}$/);
    const { value } = await record(published.externalId);
    expect(value.text).toBe(text);
    const mentionAt = text.indexOf('@');
    const linkAt = text.indexOf('https://');
    const tagAt = text.indexOf('#coffee');
    expect(value.facets).toEqual([
      {
        index: {
          byteStart: utf8(text.slice(0, mentionAt)),
          byteEnd: utf8(text.slice(0, mentionAt)) + 1 + utf8(bobHandle),
        },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: bobDid }],
      },
      {
        index: {
          byteStart: utf8(text.slice(0, linkAt)),
          byteEnd: utf8(text.slice(0, linkAt)) + utf8('https://example.com/menu'),
        },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/menu' }],
      },
      {
        index: { byteStart: utf8(text.slice(0, tagAt)), byteEnd: utf8(text) },
        features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'coffee' }],
      },
    ]);
  });

  it('writes a post once: a retry after a lost answer finds the record the first call made', async () => {
    const req = request('Exactly once, even when the answer is lost');
    const state = await adapter.publishing!.prepare(ada, req);
    // The PDS writes the record, then the connection drops: no answer, and no look-up either.
    let down = false;
    const lossy = createBlueskyAdapter(
      createBlueskyApi(
        {
          urls: target.urls,
          http: async (url, init) => {
            if (down) throw new TypeError('fetch failed');
            const res = await target.http(url, init);
            if (url.includes('com.atproto.repo.createRecord')) {
              down = true;
              throw new TypeError('socket hang up');
            }
            return res;
          },
        },
        async () => [],
      ),
      async () => new Response('', { status: 404 }),
    );
    const lost = await lossy.publishing!.finalize(ada, req, state).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PlatformError);
    expect((lost as PlatformError).kind).toBe('unknown_outcome');
    // Once it is back, the look-up finds the post under the key fixed before the call…
    const found = await adapter.publishing!.reconcile!(ada, req, state);
    expect(found?.externalId).toMatch(/^at:\/\//);
    expect((await record(found!.externalId)).value.text).toBe(req.text);
    // …and writing again makes no second post: the key is taken, the same post answers.
    const again = await adapter.publishing!.finalize(ada, req, state);
    expect(again.externalId).toBe(found!.externalId);
    // A write whose answer is lost while the PDS stays up answers the post at once.
    const req2 = request('Lost answer, server up');
    const state2 = await adapter.publishing!.prepare(ada, req2);
    let loseOnce = true;
    const flaky = createBlueskyAdapter(
      createBlueskyApi(
        {
          urls: target.urls,
          http: async (url, init) => {
            const res = await target.http(url, init);
            if (loseOnce && url.includes('com.atproto.repo.createRecord')) {
              loseOnce = false;
              throw new TypeError('socket hang up');
            }
            return res;
          },
        },
        async () => [],
      ),
      async () => new Response('', { status: 404 }),
    );
    const first = await flaky.publishing!.finalize(ada, req2, state2);
    expect((await adapter.publishing!.finalize(ada, req2, state2)).externalId).toBe(
      first.externalId,
    );
    // A post never written is found nowhere.
    const other = request('Never sent');
    expect(
      await adapter.publishing!.reconcile!(
        ada,
        other,
        await adapter.publishing!.prepare(ada, other),
      ),
    ).toBeNull();
  });

  it('refuses 301 graphemes before sending, and the PDS refuses them too', async () => {
    const long = 'é'.repeat(301);
    const refused = await publishInOneGo(adapter.publishing!, ada, request(long)).catch(
      (e: unknown) => e,
    );
    expect((refused as PlatformError).kind).toBe('bad_request');
    expect((refused as PlatformError).message).toMatch(/301 of 300 characters/);
    // 201 graphemes of 15 bytes each pass the count but not the 3,000 bytes.
    const heavy = '👩🏽‍💻'.repeat(201);
    const bytes = await publishInOneGo(adapter.publishing!, ada, request(heavy)).catch(
      (e: unknown) => e,
    );
    expect((bytes as PlatformError).message).toMatch(/more than 3,000 bytes/);
    const server = await api
      .createRecord(String(ada.extra.pds), ada.tokens.accessToken, {
        repo: ada.externalId,
        collection: 'app.bsky.feed.post',
        rkey: '3kabcdefghij2',
        record: { $type: 'app.bsky.feed.post', text: long, createdAt: new Date().toISOString() },
      })
      .catch((e: unknown) => e);
    expect(server).toBeInstanceOf(PlatformError);
    expect((server as PlatformError).kind).toBe('bad_request');
    expect((server as PlatformError).message).toMatch(
      /^Bluesky said: InvalidRequest: Invalid app\.bsky\.feed\.post record: grapheme too big \(maximum 300, got 301\)/,
    );
  });

  it('uploads images with their alt text and aspect ratio', async () => {
    const one = publishMediaOf(await jpeg(320, 240), {
      kind: 'image',
      mimeType: 'image/jpeg',
      width: 320,
      height: 240,
    });
    one.altText = 'A grey test card';
    const two = publishMediaOf(await jpeg(200, 400), {
      kind: 'image',
      mimeType: 'image/jpeg',
      width: 200,
      height: 400,
    });
    const published = await publishInOneGo(
      adapter.publishing!,
      ada,
      request('Two pictures', [one, two]),
    );
    const { value } = await record(published.externalId);
    const embed = value.embed as { $type: string; images: Array<Record<string, unknown>> };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((i) => [i.alt, i.aspectRatio])).toEqual([
      ['A grey test card', { width: 320, height: 240 }],
      ['', { width: 200, height: 400 }],
    ]);
    expect(embed.images[0]!.image).toMatchObject({ $type: 'blob', mimeType: 'image/jpeg' });
  });

  it('shows a link card read from the linked page, with its picture uploaded as the thumbnail', async () => {
    const picture = await jpeg(120, 63);
    const asked: string[] = [];
    const withCards = createBlueskyAdapter(api, async (url) => {
      asked.push(url);
      if (url === 'https://news.example/story')
        return new Response(
          '<html><head><meta property="og:title" content="Big news"><meta property="og:description" content="What happened"><meta property="og:image" content="/card.jpg"></head></html>',
          { headers: { 'content-type': 'text/html; charset=utf-8' } },
        );
      return new Response(new Uint8Array(picture), { headers: { 'content-type': 'image/jpeg' } });
    });
    const published = await publishInOneGo(
      withCards.publishing!,
      ada,
      request('Read this: https://news.example/story'),
    );
    expect(asked).toEqual(['https://news.example/story', 'https://news.example/card.jpg']);
    const { value } = await record(published.externalId);
    expect(value.embed).toMatchObject({
      $type: 'app.bsky.embed.external',
      external: {
        uri: 'https://news.example/story',
        title: 'Big news',
        description: 'What happened',
        thumb: { $type: 'blob', mimeType: 'image/jpeg', size: picture.length },
      },
    });
  });

  it('publishes a thread as a reply chain and a first comment as a reply, each once', async () => {
    const root = await publishInOneGo(adapter.publishing!, ada, request('A thread, 1/3'));
    const part2 = await adapter.publishing!.followUp!(ada, {
      kind: 'part',
      postId: root.externalId,
      replyTo: root.externalId,
      text: '2/3',
    });
    const part3 = await adapter.publishing!.followUp!(ada, {
      kind: 'part',
      postId: root.externalId,
      replyTo: part2.externalId,
      text: '3/3',
    });
    const again = await adapter.publishing!.followUp!(ada, {
      kind: 'part',
      postId: root.externalId,
      replyTo: part2.externalId,
      text: '3/3',
    });
    expect(again.externalId).toBe(part3.externalId);
    const comment = await adapter.publishing!.followUp!(ada, {
      kind: 'first_comment',
      postId: root.externalId,
      replyTo: part3.externalId,
      text: 'First comment',
    });
    const rootRef = { uri: root.externalId, cid: (await record(root.externalId)).cid };
    const part2Ref = { uri: part2.externalId, cid: (await record(part2.externalId)).cid };
    expect((await record(part2.externalId)).value.reply).toEqual({
      root: rootRef,
      parent: rootRef,
    });
    expect((await record(part3.externalId)).value.reply).toEqual({
      root: rootRef,
      parent: part2Ref,
    });
    expect((await record(comment.externalId)).value.reply).toEqual({
      root: rootRef,
      parent: rootRef,
    });
  });

  it('renews the session with the refresh token, and a refused token asks for a renewal', async () => {
    const refreshed = await adapter.refresh!(ada);
    expect(refreshed.accessToken).not.toBe(ada.tokens.accessToken);
    expect(refreshed.refreshToken).toBeTruthy();
    ada = { ...ada, tokens: refreshed };
    const published = await publishInOneGo(adapter.publishing!, ada, request('After a refresh'));
    expect(published.externalId).toMatch(/^at:\/\//);
    // A token the PDS does not accept is a `reauth`: the publisher renews the session once.
    const stale = { ...ada, tokens: { ...ada.tokens, accessToken: `${ada.tokens.accessToken}x` } };
    const refused = await publishInOneGo(adapter.publishing!, stale, request('Refused')).catch(
      (e: unknown) => e,
    );
    expect((refused as PlatformError).kind).toBe('reauth');
    // A refresh token the PDS does not know means reconnecting.
    const gone = { ...ada, tokens: { ...ada.tokens, refreshToken: 'not-a-token' } };
    const lost = await adapter.refresh!(gone).catch((e: unknown) => e);
    expect((lost as PlatformError).kind).toBe('reauth');
  });
});
