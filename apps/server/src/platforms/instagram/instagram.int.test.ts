import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/graph-harness.js';
import { createGraphApi } from '../meta/api.js';
import type { ConnectableAccount, StoredAccount } from '../types.js';
import { INSTAGRAM_SCOPES } from './adapter.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const DAY = 24 * 60 * 60 * 1000;
const graph = () => createGraphApi(h.settings, 'Instagram');
const stored = (a: ConnectableAccount): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: a.secrets ?? {},
});

async function connectAs(account: string, pages: string, instagram?: string) {
  const fields: Record<string, string> = { account, pages };
  if (instagram !== undefined) fields.instagram = instagram;
  const { code } = await h.authorize({ fields });
  return h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' });
}

describe('Instagram (Facebook Login) adapter against its sandbox', () => {
  it('asks the Login dialog for the Instagram permissions', async () => {
    const url = new URL(
      h.adapter.authorizeUrl({ redirectUri: h.redirectUri, state: 's', codeChallenge: 'x' }),
    );
    expect(url.pathname).toBe('/api/sandbox/instagram/v24.0/dialog/oauth');
    expect(url.searchParams.get('scope')!.split(',')).toEqual(INSTAGRAM_SCOPES);
    const { html } = await h.authorize({ decision: 'deny' });
    expect(html).toContain('Instagram professional accounts');
  });

  it('offers the business account linked to a Page, with its username and picture', async () => {
    const accounts = await connectAs('Ada', 'Ada Coffee, Ada Books', 'ada.coffee, -');
    expect(accounts).toHaveLength(1);
    const [ig] = accounts;
    expect(ig).toMatchObject({ username: 'ada.coffee', name: 'Ada Coffee' });
    expect(ig!.externalId).toMatch(/^\d{17}$/);
    expect(ig!.pictureUrl).toContain('/_emu/picture/');
    expect(ig!.extra).toMatchObject({ igUserId: ig!.externalId, pageName: 'Ada Coffee' });
    expect(ig!.extra?.pageId).toMatch(/^\d{15}$/);
    expect(ig!.secrets?.pageToken).toBeTruthy();
    // The long-lived user token: ~60 days, no refresh token.
    const expires = ig!.tokens.accessTokenExpiresAt!.getTime() - Date.now();
    expect(expires).toBeGreaterThan(59 * DAY);
    expect(expires).toBeLessThan(61 * DAY);
    expect(ig!.tokens.refreshToken).toBeNull();
    expect(ig!.tokens.scopes).toEqual(expect.arrayContaining(INSTAGRAM_SCOPES));
    const node = await graph().getNode<{ username: string }>(
      ig!.externalId,
      ig!.tokens.accessToken,
      'username',
    );
    expect(node.username).toBe('ada.coffee');
  });

  it('offers every linked account, and one named after the login by default', async () => {
    const both = await connectAs('Two Brands', 'Brand A, Brand B', 'brand_a, brand_b');
    expect(both.map((a) => a.username)).toEqual(['brand_a', 'brand_b']);
    const byDefault = await connectAs('Grace Hopper', 'Grace Labs, Grace Press');
    expect(byDefault.map((a) => a.username)).toEqual(['grace_hopper']);
  });

  it('refuses a login whose Pages have no Instagram account linked', async () => {
    const err = await expectPlatformError(connectAs('No IG', 'Plain Page', '-'));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/Instagram professional account/);
  });

  it('refreshes by exchanging the token again, before it expires', async () => {
    const [ig] = await connectAs('Refresher', 'Refresh Page', 'refresher');
    const tokens = await h.adapter.refresh!(stored(ig!));
    expect(tokens.accessToken).not.toBe(ig!.tokens.accessToken);
    expect(tokens.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 59 * DAY);
    expect(tokens.scopes).toEqual(ig!.tokens.scopes);
    await expect(graph().getNode(ig!.externalId, tokens.accessToken, 'id')).resolves.toEqual({
      id: ig!.externalId,
    });
  });

  it('turns refresh_fails and token_revoked into reauth', async () => {
    const [ig] = await connectAs('Failing', 'Failing Page', 'failing');
    await h.setKnob('Failing', 'refresh_fails');
    const failed = await expectPlatformError(h.adapter.refresh!(stored(ig!)));
    expect(failed.kind).toBe('reauth');
    await h.setKnob('Failing', 'refresh_fails', false);
    await expect(h.adapter.refresh!(stored(ig!))).resolves.toBeTruthy();

    await h.setKnob('Failing', 'token_revoked');
    const revoked = await expectPlatformError(h.adapter.refresh!(stored(ig!)));
    expect(revoked.kind).toBe('reauth');
    expect(revoked.details.code).toBe(190);
  });

  it('reports a denial and refuses a reused code', async () => {
    const denied = await h.authorize({ decision: 'deny' });
    expect(denied.location.searchParams.get('error')).toBe('access_denied');
    expect(denied.code).toBeNull();

    const { code } = await h.authorize({ fields: { account: 'Ada', pages: 'Ada Coffee' } });
    await h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' });
    const err = await expectPlatformError(
      h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(err.message).toContain('has been used');
  });

  it('revoke makes the token unusable, so refresh asks to reconnect', async () => {
    const [ig] = await connectAs('Leaving', 'Leaving Page', 'leaving');
    await h.adapter.revoke!(stored(ig!));
    const err = await expectPlatformError(h.adapter.refresh!(stored(ig!)));
    expect(err.kind).toBe('reauth');
    const read = await expectPlatformError(
      graph().getNode(ig!.externalId, ig!.tokens.accessToken, 'id'),
    );
    expect(read.details.code).toBe(190);
  });
});
