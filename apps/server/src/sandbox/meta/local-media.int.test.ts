import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { network } from '../../platforms/facebook/index.js';
import { startSandboxHarness, type SandboxHarness } from '../../test/graph-harness.js';
import type { MetaUrls } from '../../platforms/meta/urls.js';

/**
 * Meta fetches a post's media from the internet: the sandbox accepts loopback or plain-http media
 * URLs only when it was told it runs on Herald's machine (SANDBOX_LOCAL_MEDIA), never silently.
 */
let strict: SandboxHarness<MetaUrls>;
let local: SandboxHarness<MetaUrls>;
beforeAll(async () => {
  [strict, local] = await Promise.all([
    startSandboxHarness(network, { runsLocally: false }),
    startSandboxHarness(network),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([strict?.close(), local?.close()]);
});

async function postPhoto(h: SandboxHarness<MetaUrls>, url: string) {
  const { code } = await h.authorize({ fields: { account: 'Media Person', pages: 'Media Page' } });
  const [page] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  const res = await fetch(`${h.base}/v24.0/${page!.externalId}/photos`, {
    method: 'POST',
    headers: {
      authorization: `OAuth ${page!.tokens.accessToken}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ url, published: 'false' }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { id?: string; error?: { code: number } },
  };
}

describe('media URLs in the Meta sandbox', () => {
  it('refuses a loopback or plain-http media URL unless told it runs locally', async () => {
    for (const url of ['http://127.0.0.1:3000/api/media/a.jpg', 'http://media.example.com/a.jpg']) {
      const refused = await postPhoto(strict, url);
      expect(refused.status).toBe(400);
      expect(refused.body.error?.code).toBe(324);
    }
    expect((await postPhoto(strict, 'https://media.example.com/a.jpg')).body.id).toBeTruthy();
    expect((await postPhoto(local, 'http://127.0.0.1:3000/api/media/a.jpg')).body.id).toBeTruthy();
  });
});
