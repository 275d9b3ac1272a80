import { beforeAll, describe, expect, it } from 'vitest';
import { publishMediaOf } from '../../test/publish-media.js';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { jpeg } from '../../test/media-fixtures.js';
import { readForm } from '../../test/networks.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, StoredAccount } from '../types.js';
import { emuInject, useHarness } from '../../test/network-tests.js';

/**
 * The LinkedIn adapter as the server builds it: the sandbox (upload URLs included) answered
 * in-process, as the publishing engine and the benchmark use it.
 */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 8).toString('base64') }),
);
let adapter: PlatformAdapter;
beforeAll(async () => {
  adapter = t.networks.get('linkedin')!.adapter;
});

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'linkedin', method, path, payload)).json();

/** The organization page of a member who signs in (the consent page, answered by hand). */
async function connectPage(member: string, organization: string): Promise<StoredAccount> {
  const redirectUri = `${TEST_PUBLIC_URL}/api/auth/linkedin/callback`;
  const kind = 'organization';
  const url = new URL(adapter.authorizeUrl({ redirectUri, state: 's', codeChallenge: '', kind }));
  const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  const form = readForm(page.body);
  const answer = await t.app.inject({
    method: 'POST',
    url: form.action,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      ...form.fields,
      account: member,
      organizations: organization,
      decision: 'approve',
    }).toString(),
  });
  const code = new URL(answer.headers.location as string).searchParams.get('code')!;
  const accounts = await adapter.connect({ code, redirectUri, codeVerifier: '', kind });
  const org = accounts.find((a) => a.externalId.startsWith('urn:li:organization:'))!;
  return { externalId: org.externalId, tokens: org.tokens, extra: org.extra ?? {}, secrets: {} };
}

describe('LinkedIn publishing inside the server', () => {
  it('uploads through the sandbox’s upload URLs and reconciles a dropped answer', async () => {
    const page = await connectPage('In App Admin', 'In App Co');
    const photo = publishMediaOf(await jpeg(320, 240), { kind: 'image', mimeType: 'image/jpeg' });
    const done = await publishInOneGo(adapter.publishing!, page, {
      text: 'From inside',
      media: [photo],
      idempotencyKey: 'a',
    });
    expect(done.externalId).toMatch(/^urn:li:share:/);

    await emu('POST', 'scenario', { account: 'In App Admin', knob: 'finalize_timeout', value: 5 });
    const request = { text: 'Answer dropped', media: [], idempotencyKey: 'b' };
    const err = await publishInOneGo(adapter.publishing!, page, request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).kind).toBe('unknown_outcome');
    const { posts } = (await emu('GET', `posts?author=${encodeURIComponent(page.externalId)}`)) as {
      posts: Array<{ id: string; text: string; mediaCount: number }>;
    };
    expect(posts.map((p) => [p.text, p.mediaCount])).toEqual([
      ['From inside', 1],
      ['Answer dropped', 0],
    ]);
    expect((await adapter.publishing!.reconcile!(page, request, {}))?.externalId).toBe(
      posts[1]!.id,
    );
  });
});
