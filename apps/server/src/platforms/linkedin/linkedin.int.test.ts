import { describe, expect, it } from 'vitest';
import { LINKEDIN_API_VERSIONS, recommendedApiVersion } from '../../lib/api-versions.js';
import { startSandboxHarness } from '../../test/graph-harness.js';
import type { ConnectableAccount, StoredAccount } from '../types.js';
import { LINKEDIN_PAGE_SCOPES, LINKEDIN_PERSON_SCOPES } from './adapter.js';
import { createLinkedInApi } from './api.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const DAY = 24 * 60 * 60 * 1000;
const api = () => createLinkedInApi(h.settings);
const stored = (a: ConnectableAccount): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: a.secrets ?? {},
});

async function connectAs(
  account: string,
  organizations?: string,
  kind: 'person' | 'organization' = 'person',
) {
  const fields: Record<string, string> = { account };
  if (organizations !== undefined) fields.organizations = organizations;
  const { code } = await h.authorize({ fields, kind });
  return h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '', kind });
}

describe('LinkedIn adapter against its sandbox', () => {
  it('asks each kind for the scopes of its own LinkedIn product', () => {
    const scopesOf = (kind: string) => {
      const url = new URL(
        h.adapter.authorizeUrl({
          redirectUri: h.redirectUri,
          state: 's',
          codeChallenge: 'x',
          kind,
        }),
      );
      expect(`${url.origin}${url.pathname}`).toBe(`${h.base}/oauth/v2/authorization`);
      expect(url.searchParams.get('response_type')).toBe('code');
      return url.searchParams.get('scope')!.split(' ');
    };
    expect(scopesOf('person')).toEqual(['openid', 'profile', 'email', 'w_member_social']);
    expect(scopesOf('organization')).toEqual([
      'r_organization_social',
      'w_organization_social',
      'rw_organization_admin',
    ]);
  });

  it('is refused, as LinkedIn refuses it, when one sign-in asks for member and organization scopes', async () => {
    const url = new URL(
      h.adapter.authorizeUrl({ redirectUri: h.redirectUri, state: 's', codeChallenge: 'x' }),
    );
    url.searchParams.set('scope', [...LINKEDIN_PERSON_SCOPES, ...LINKEDIN_PAGE_SCOPES].join(' '));
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(h.redirectUri);
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('error')).toBe('unauthorized_scope_error');
    expect(back.searchParams.get('error_description')).toBe(
      'Scope "r_organization_social" is not authorized for your application',
    );
  });

  it('offers a personal profile sign-in only the member', async () => {
    const accounts = await connectAs('Ada Lovelace', 'Analytical Engines');
    expect(accounts).toHaveLength(1);
    const [person] = accounts;
    expect(person!.externalId).toMatch(/^urn:li:person:[A-Za-z0-9]{10}$/);
    expect(person).toMatchObject({ name: 'Ada Lovelace', username: null });
    expect(person!.pictureUrl).toContain('/_emu/picture/');
    expect(person!.extra).toMatchObject({
      kind: 'person',
      personUrn: person!.externalId,
      linkedinVersion: '202610',
    });
    const t = person!.tokens;
    expect(t.accessTokenExpiresAt!.getTime() - Date.now()).toBeGreaterThan(59 * DAY);
    expect(t.refreshToken).toBeTruthy();
    expect(t.refreshTokenExpiresAt!.getTime() - Date.now()).toBeGreaterThan(364 * DAY);
    expect(t.scopes).toEqual(LINKEDIN_PERSON_SCOPES);
  });

  it('offers a Page sign-in the Pages where the member is ADMINISTRATOR or CONTENT_ADMINISTRATOR', async () => {
    const pages = await connectAs(
      'Grace Hopper',
      'Analytical Engines, Difference Ltd (CONTENT_ADMINISTRATOR), Numbers Only (ANALYST)',
      'organization',
    );
    expect(pages.map((o) => o.name)).toEqual(['Analytical Engines', 'Difference Ltd']);
    expect(pages.map((o) => o.username)).toEqual(['analytical-engines', 'difference-ltd']);
    const [person] = await connectAs('Grace Hopper', '');
    for (const org of pages) {
      expect(org.externalId).toMatch(/^urn:li:organization:\d{8}$/);
      expect(org.extra).toMatchObject({
        kind: 'organization',
        organizationUrn: org.externalId,
        personUrn: person!.externalId,
      });
      expect(org.pictureUrl).toContain('/_emu/picture/');
      expect(org.tokens.scopes).toEqual(LINKEDIN_PAGE_SCOPES);
    }
    expect(pages.map((o) => o.extra!.role)).toEqual(['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR']);
    expect(pages[0]!.tokens.accessToken).toBe(pages[1]!.tokens.accessToken);
    expect(pages[0]!.grantKey).not.toBe(`linkedin:person:${person!.externalId}`);
  });

  it('says so when a Page sign-in finds no Page the member may post to', async () => {
    const err = await expectPlatformError(
      connectAs('Reader Member', 'Some Org (ANALYST)', 'organization'),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/administers no LinkedIn Page/);
  });

  it('refreshes with the refresh token, which keeps its fixed expiry', async () => {
    const [person] = await connectAs('Refresh Member', '');
    const tokens = await h.adapter.refresh!(stored(person!));
    expect(tokens.accessToken).not.toBe(person!.tokens.accessToken);
    expect(tokens.refreshToken).toBe(person!.tokens.refreshToken);
    expect(
      Math.abs(
        tokens.refreshTokenExpiresAt!.getTime() - person!.tokens.refreshTokenExpiresAt!.getTime(),
      ),
    ).toBeLessThan(5_000);
    await expect(api().userInfo(tokens.accessToken)).resolves.toMatchObject({
      name: 'Refresh Member',
    });
  });

  it('turns refresh_fails, a missing refresh token and token_revoked into reauth', async () => {
    const [person] = await connectAs('Fragile Member', '');
    await h.setKnob('Fragile Member', 'refresh_fails');
    expect((await expectPlatformError(h.adapter.refresh!(stored(person!)))).kind).toBe('reauth');
    await h.setKnob('Fragile Member', 'refresh_fails', false);

    await h.setKnob('Fragile Member', 'token_revoked');
    const revoked = await expectPlatformError(api().userInfo(person!.tokens.accessToken));
    expect(revoked).toMatchObject({ kind: 'reauth', details: { status: 401, code: 65601 } });
    await h.setKnob('Fragile Member', 'token_revoked', false);

    await h.setKnob('No Partner', 'no_refresh_token');
    const [plain] = await connectAs('No Partner', '');
    expect(plain!.tokens.refreshToken).toBeNull();
    const err = await expectPlatformError(h.adapter.refresh!(stored(plain!)));
    expect(err.kind).toBe('reauth');
    expect(err.message).toMatch(/reconnect every 60 days/);
  });

  it('reports a denial and refuses a reused code', async () => {
    const denied = await h.authorize({ decision: 'deny' });
    expect(denied.location.searchParams.get('error')).toBe('access_denied');
    expect(denied.state).toBe(denied.sentState);
    expect(denied.code).toBeNull();

    const { code } = await h.authorize({ fields: { account: 'Twice', organizations: '' } });
    await h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' });
    const err = await expectPlatformError(
      h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(err).toMatchObject({
      kind: 'bad_request',
      details: { status: 400, code: 'invalid_request' },
    });

    const other = await h.authorize({ fields: { account: 'Twice', organizations: '' } });
    const badSecret = await expectPlatformError(
      h
        .adapterWith({ clientSecret: 'wrong' })
        .connect({ code: other.code!, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(badSecret.details).toMatchObject({ status: 401, code: 'invalid_client' });
  });

  it('revoke makes the access and refresh tokens unusable', async () => {
    const [person] = await connectAs('Leaving Member', 'Leaving Org');
    await h.adapter.revoke!(stored(person!));
    const read = await expectPlatformError(api().userInfo(person!.tokens.accessToken));
    expect(read.kind).toBe('reauth');
    expect((await expectPlatformError(h.adapter.refresh!(stored(person!)))).kind).toBe('reauth');
  });

  it('sends LinkedIn-Version: a sunset version is refused with 426', async () => {
    const { code } = await h.authorize({
      fields: { account: 'Old Version', organizations: 'Old Org' },
      kind: 'organization',
    });
    const stale = h.adapterWith({ urls: { ...h.settings.urls, linkedinVersion: '202401' } });
    const err = await expectPlatformError(
      stale.connect({
        code: code!,
        redirectUri: h.redirectUri,
        codeVerifier: '',
        kind: 'organization',
      }),
    );
    expect(err).toMatchObject({
      kind: 'bad_request',
      details: { status: 426, code: 'NONEXISTENT_VERSION' },
    });
  });

  it('says which setting to change when LinkedIn no longer serves the version it sends', async () => {
    const { code } = await h.authorize({
      fields: { account: 'Sunset Member', organizations: 'Sunset Org' },
      kind: 'organization',
    });
    // 202510 was sunset on 2026-10-15.
    const stale = h.adapterWith({ urls: { ...h.settings.urls, linkedinVersion: '202510' } });
    const err = await expectPlatformError(
      stale.connect({
        code: code!,
        redirectUri: h.redirectUri,
        codeVerifier: '',
        kind: 'organization',
      }),
    );
    expect(err).toMatchObject({
      kind: 'bad_request',
      details: { status: 426, code: 'NONEXISTENT_VERSION' },
    });
    expect(err.message).toBe(
      `LinkedIn no longer serves API version 202510. Set LINKEDIN_API_VERSION to ${recommendedApiVersion(LINKEDIN_API_VERSIONS, new Date())} and restart Herald (LinkedIn said: Requested version 20251001 is not active).`,
    );
  });

  it('refuses a /rest call without LinkedIn-Version or X-Restli-Protocol-Version, in LinkedIn’s error shape', async () => {
    const [page] = await connectAs('Header Member', 'Header Org', 'organization');
    const url = `${h.base}/rest/organizations/${page!.externalId.split(':').pop()}`;
    const bearer = { authorization: `Bearer ${page!.tokens.accessToken}` };
    const noVersion = await fetch(url, {
      headers: { ...bearer, 'x-restli-protocol-version': '2.0.0' },
    });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toEqual({
      status: 400,
      code: 'VERSION_MISSING',
      message:
        'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    });
    const noRestli = await fetch(url, { headers: { ...bearer, 'linkedin-version': '202610' } });
    expect(noRestli.status).toBe(400);
    expect(await noRestli.json()).toMatchObject({ status: 400, code: 'ILLEGAL_ARGUMENT' });
    const both = await fetch(url, {
      headers: { ...bearer, 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' },
    });
    expect(both.status).toBe(200);
  });

  it('never logs a token or the client secret in its calls', async () => {
    const [person] = await connectAs('Quiet Member', 'Quiet Org');
    await h.adapter.refresh!(stored(person!));
    const calls = await h.calls();
    expect(calls.some((c) => c.path === '/oauth/v2/accessToken')).toBe(true);
    const log = JSON.stringify(calls);
    expect(log).not.toContain(person!.tokens.accessToken);
    expect(log).not.toContain(person!.tokens.refreshToken!);
    expect(log).not.toContain('sandbox-secret-for-tests');
  });
});

describe('LinkedIn sandbox API versions', () => {
  // Its own emulator: the test moves the clock past a sunset.
  const own = useHarness(() => startSandboxHarness(network));

  it('refuses, in LinkedIn’s shape, versions outside Herald’s table and the sent one once its sunset passes on the emulator’s clock', async () => {
    const { code } = await own.authorize({
      fields: { account: 'Clock Member', organizations: 'Clock Org' },
      kind: 'organization',
    });
    const [page] = await own.adapter.connect({
      code: code!,
      redirectUri: own.redirectUri,
      codeVerifier: '',
      kind: 'organization',
    });
    const url = `${own.base}/rest/organizations/${page!.externalId.split(':').pop()}`;
    const call = (version: string) =>
      fetch(url, {
        headers: {
          authorization: `Bearer ${page!.tokens.accessToken}`,
          'linkedin-version': version,
          'x-restli-protocol-version': '2.0.0',
        },
      });
    for (const [version, day] of [
      ['202511', '20251101'], // sunset 2026-11-16
      ['202512', '20251201'], // LinkedIn released no December 2025 version
      ['209901', '20990101'],
    ]) {
      const res = await call(version!);
      expect(res.status).toBe(426);
      expect(await res.json()).toEqual({
        status: 426,
        code: 'NONEXISTENT_VERSION',
        message: `Requested version ${day} is not active`,
      });
    }
    const sent = own.settings.urls.linkedinVersion;
    expect((await call(sent)).status).toBe(200);
    const sunset = LINKEDIN_API_VERSIONS.versions.find((v) => v.version === sent)!.sunset!;
    await own.advanceClock(Math.ceil((Date.parse(`${sunset}T00:00:00Z`) - Date.now()) / 1000) + 60);
    expect((await call(sent)).status).toBe(426);
  });
});
