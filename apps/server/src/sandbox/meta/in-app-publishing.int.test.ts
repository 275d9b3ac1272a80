import { describe, expect, it } from 'vitest';
import { selfFetch } from '../../http/self-fetch.js';
import { createFacebookAdapter } from '../../platforms/facebook/adapter.js';
import { network as facebook } from '../../platforms/facebook/index.js';
import { publishInOneGo } from '../../platforms/publish-steps.js';
import { sandboxBase, SANDBOX_CLIENT_ID } from '../../platforms/runtime.js';
import { createTestApp } from '../../test/app.js';
import { connectStoredAccount } from '../../test/networks.js';
import { imageMedia, publishRequest } from '../../test/publish-media.js';
import { emuInject, expectPlatformError, useHarness } from '../../test/network-tests.js';

/**
 * The adapters as the server runs them: connected through Herald's own flow, tokens stored
 * encrypted, and the sandbox answered by the app itself (selfFetch; injected, since this app does
 * not listen).
 */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 8).toString('base64') }),
);

async function emu(slug: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await emuInject(t, slug, method, path, body as object | undefined);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

async function connected(slug: string, email: string, fields: Record<string, string>) {
  const { account, ...rest } = fields;
  return connectStoredAccount(t, slug, email, account!, rest);
}

describe('publishing through the server’s own sandbox', () => {
  it('publishes to Instagram and reconciles a dropped media_publish', async () => {
    const account = await connected('instagram', 'ig.publisher@example.com', {
      account: 'Eve',
      pages: 'Eve Studio',
      instagram: 'eve.studio',
    });
    const ig = t.networks.get('instagram')!.adapter.publishing!;
    const first = await publishInOneGo(ig, account, publishRequest('Hello', [await imageMedia()]));
    expect(first.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\//);

    const request = publishRequest('Lost answer', [await imageMedia()]);
    const state = await ig.prepare(account, request);
    await emu('instagram', 'POST', 'scenario', {
      account: 'Eve',
      knob: 'finalize_timeout',
      value: 0,
    });
    const err = await expectPlatformError(ig.finalize(account, request, state));
    expect(err.kind).toBe('unknown_outcome');
    const { posts } = await emu('instagram', 'GET', 'posts?account=eve.studio');
    expect(posts.map((p: { text: string }) => p.text)).toEqual(['Hello', 'Lost answer']);
    expect(await ig.reconcile!(account, request, state)).toMatchObject({ externalId: posts[1].id });
  });

  it('gives up on a Facebook call past its deadline even in-process', async () => {
    const page = await connected('facebook', 'fb.publisher@example.com', {
      account: 'Finn',
      pages: 'Finn Bakery',
    });
    const base = sandboxBase(t.config, 'facebook');
    const fb = createFacebookAdapter(
      {
        clientId: SANDBOX_CLIENT_ID,
        clientSecret: 'unused-for-publishing',
        urls: facebook.sandboxUrls(base),
        http: selfFetch(
          t.app,
          `${t.config.apiPublicUrl}/sandbox`,
          `${t.config.apiBasePath}/sandbox`,
        ),
      },
      { finalizeTimeoutMs: 200 },
    ).publishing!;
    const request = publishRequest('Slow oven');
    const state = await fb.prepare(page, request);
    // The emulator posts, then holds the answer 800 ms: past the adapter's 200 ms deadline.
    await emu('facebook', 'POST', 'scenario', {
      account: 'Finn',
      knob: 'finalize_timeout',
      value: 800,
    });
    const started = Date.now();
    const err = await expectPlatformError(fb.finalize(page, request, state));
    expect(err.kind).toBe('unknown_outcome');
    expect(Date.now() - started).toBeLessThan(700);
    // Let the emulator finish holding the dropped answer before the app closes.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await fb.reconcile!(page, request, state)).toMatchObject({
      externalId: expect.stringMatching(new RegExp(`^${page.externalId}_`)),
    });
    const { posts } = await emu('facebook', 'GET', `posts?account=${page.externalId}`);
    expect(posts).toHaveLength(1);
  });
});
