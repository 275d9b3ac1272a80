import { beforeAll, describe, expect, it } from 'vitest';
import { pkcePair } from '../../test/sandbox-harness.js';
import { publishMediaOf } from '../../test/publish-media.js';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { jpeg } from '../../test/media-fixtures.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, StoredAccount } from '../types.js';
import { emuInject, useHarness } from '../../test/network-tests.js';

/**
 * The X adapter as the server builds it: the sandbox answered in-process (inject), as the
 * publishing engine and the benchmark use it.
 */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64') }),
);
let adapter: PlatformAdapter;
beforeAll(async () => {
  adapter = t.networks.get('x')!.adapter;
});

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'x', method, path, payload)).json();

async function connect(name: string): Promise<StoredAccount> {
  const { verifier, challenge } = pkcePair();
  const redirectUri = `${TEST_PUBLIC_URL}/api/auth/x/callback`;
  const url = new URL(adapter.authorizeUrl({ redirectUri, state: 's', codeChallenge: challenge }));
  url.searchParams.set('emu_auto', '1');
  url.searchParams.set('emu_account', name);
  const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  const code = new URL(res.headers.location as string).searchParams.get('code')!;
  const [account] = await adapter.connect({ code, redirectUri, codeVerifier: verifier });
  return {
    externalId: account!.externalId,
    tokens: account!.tokens,
    extra: account!.extra ?? {},
    secrets: {},
  };
}

describe('X publishing inside the server', () => {
  it('publishes an image post and reconciles a post whose answer was dropped', async () => {
    const ada = await connect('In App');
    const photo = publishMediaOf(await jpeg(320, 240), { kind: 'image', mimeType: 'image/jpeg' });
    const done = await publishInOneGo(adapter.publishing!, ada, {
      text: 'From inside',
      media: [photo],
      idempotencyKey: 'a',
    });
    expect(done.permalink).toBe(`https://x.com/in_app/status/${done.externalId}`);

    await emu('POST', 'scenario', { account: 'in_app', knob: 'finalize_timeout', value: 0 });
    const request = { text: 'Answer dropped', media: [], idempotencyKey: 'b' };
    const err = await publishInOneGo(adapter.publishing!, ada, request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).kind).toBe('unknown_outcome');
    const { posts } = (await emu('GET', 'posts?account=in_app')) as {
      posts: Array<{ id: string; text: string; mediaCount: number }>;
    };
    expect(posts.map((p) => [p.text, p.mediaCount])).toEqual([
      ['From inside', 1],
      ['Answer dropped', 0],
    ]);
    expect((await adapter.publishing!.reconcile!(ada, request, {}))?.externalId).toBe(posts[1]!.id);
  });
});
