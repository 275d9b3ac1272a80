import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_GRAPH_VERSIONS, oldestServedVersion } from '../../lib/api-versions.js';
import type { MetaUrls } from '../../platforms/meta/urls.js';
import { network as facebook } from '../../platforms/facebook/index.js';
import { startSandboxHarness, type SandboxHarness } from '../../test/graph-harness.js';

/** Graph API versions as the emulator serves them: Herald's one table, on the emulator's clock. */
let fb: SandboxHarness<MetaUrls>;
let token: string;
beforeAll(async () => {
  fb = await startSandboxHarness(facebook);
  const { code } = await fb.authorize({ fields: { account: 'Vera Version', pages: 'Vera Page' } });
  const [page] = await fb.adapter.connect({
    code: code!,
    redirectUri: fb.redirectUri,
    codeVerifier: '',
  });
  token = page!.secrets!.userToken as string;
});
afterAll(async () => {
  await fb?.close();
});

const accounts = (version: string) =>
  fetch(`${fb.base}/${version}/me/accounts`, { headers: { authorization: `OAuth ${token}` } });

describe('Graph emulator: API versions', () => {
  it('names the version that served each answer', async () => {
    const res = await accounts('v24.0');
    expect(res.status).toBe(200);
    expect(res.headers.get('facebook-api-version')).toBe('v24.0');
  });

  it('reads a version Graph does not have as an unknown path, as Graph does', async () => {
    for (const version of ['v99.0', 'v2.80']) {
      const res = await accounts(version);
      expect(res.status).toBe(400);
      expect(res.headers.get('facebook-api-version')).toBeNull();
      expect(await res.json()).toEqual({
        error: {
          message: 'Unknown path components: /me/accounts',
          type: 'OAuthException',
          code: 2500,
          fbtrace_id: expect.any(String),
        },
      });
    }
  });

  it('answers an ended version as the oldest one still served, without refusing it', async () => {
    const res = await accounts('v20.0'); // ended 2026-09-24
    expect(res.status).toBe(200);
    expect(res.headers.get('facebook-api-version')).toBe(
      oldestServedVersion(META_GRAPH_VERSIONS, new Date()),
    );
  });

  it('ends Herald’s default on the emulator’s clock', async () => {
    const sunset = META_GRAPH_VERSIONS.versions.find(
      (v) => v.version === META_GRAPH_VERSIONS.defaultVersion,
    )!.sunset!;
    await fb.advanceClock(Math.ceil((Date.parse(`${sunset}T00:00:00Z`) - Date.now()) / 1000) + 60);
    const later = new Date(Date.parse(`${sunset}T00:01:00Z`));
    const res = await accounts(META_GRAPH_VERSIONS.defaultVersion);
    expect(res.headers.get('facebook-api-version')).toBe(
      oldestServedVersion(META_GRAPH_VERSIONS, later),
    );
    expect(res.headers.get('facebook-api-version')).not.toBe(META_GRAPH_VERSIONS.defaultVersion);
  });
});
