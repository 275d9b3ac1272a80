import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/graph-harness.js';
import { createGraphApi } from '../meta/api.js';
import type { StoredAccount } from '../types.js';
import { FACEBOOK_SCOPES } from './adapter.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const graph = () => createGraphApi(h.settings, 'Facebook');
const stored = (a: Awaited<ReturnType<typeof connectAs>>[number]): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: a.secrets ?? {},
});

async function connectAs(account: string, pages: string, businessPages = '') {
  const { code } = await h.authorize({
    fields: { account, pages, business_pages: businessPages },
  });
  return h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: 'unused' });
}

describe('Facebook adapter against its sandbox', () => {
  it('asks the Login dialog for the Page permissions', () => {
    const url = new URL(
      h.adapter.authorizeUrl({ redirectUri: h.redirectUri, state: 's1', codeChallenge: 'x' }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${h.base}/v24.0/dialog/oauth`);
    expect(url.searchParams.get('client_id')).toBe('herald-sandbox');
    expect(url.searchParams.get('state')).toBe('s1');
    expect(url.searchParams.get('scope')!.split(',')).toEqual(FACEBOOK_SCOPES);
    // Only what Herald uses: Page lists (business portfolios too), posts, comments, videos,
    // insights (analytics), the inbox.
    expect(FACEBOOK_SCOPES).toContain('business_management');
    expect(FACEBOOK_SCOPES).toContain('read_insights');
    // The inbox: Messenger and the Page's webhook subscription.
    expect(FACEBOOK_SCOPES).toContain('pages_messaging');
    expect(FACEBOOK_SCOPES).toContain('pages_manage_metadata');
  });

  it('lists the Pages reached through business portfolios too, each once', async () => {
    const accounts = await connectAs(
      'Portfolio Person',
      'Own Page, Shared Page',
      'Shared Page @ Acme Group, Acme Store @ Acme Group, Client Cafe @ Agency Co [client]',
    );
    expect(accounts.map((a) => a.name)).toEqual([
      'Own Page',
      'Shared Page',
      'Acme Store',
      'Client Cafe',
    ]);
    for (const a of accounts) {
      expect(a.unavailable).toBeUndefined();
      const me = await graph().getNode<{ id: string }>('me', a.tokens.accessToken, 'id');
      expect(me.id).toBe(a.externalId);
    }
    // /me/accounts alone does not list them.
    const personal = await graph().listPages<{ name: string }>(
      accounts[0]!.secrets!.userToken!,
      'name',
      100,
    );
    expect(personal.map((p) => p.name)).toEqual(['Own Page', 'Shared Page']);
  });

  it('shows a Page without CREATE_CONTENT as not connectable, saying why', async () => {
    const accounts = await connectAs('Task Person', 'Full Page, Analyst Page (ANALYZE, MODERATE)');
    expect(accounts.map((a) => a.name)).toEqual(['Full Page', 'Analyst Page']);
    expect(accounts[0]!.unavailable).toBeUndefined();
    expect(accounts[1]!.unavailable).toMatch(
      /^Your role on Analyst Page does not let you create content \(Facebook's CREATE_CONTENT task\)/,
    );
    expect(accounts[1]!.tokens.accessToken).toBe('');
    // The sandbox refuses a post from that role, as Facebook does (code 200).
    const [listed] = (
      await graph().listPages<{ id: string; name: string; access_token: string }>(
        accounts[0]!.secrets!.userToken!,
        'id,name,access_token',
        100,
      )
    ).filter((p) => p.name === 'Analyst Page');
    const posted = await fetch(`${h.base}/v24.0/${listed!.id}/feed`, {
      method: 'POST',
      headers: {
        authorization: `OAuth ${listed!.access_token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ message: 'Not allowed' }),
    });
    expect(posted.status).toBe(403);
    expect(((await posted.json()) as { error: { code: number } }).error.code).toBe(200);
    const { code } = await h.authorize({
      fields: { account: 'Task Person', pages: 'Analyst Page (ANALYZE)' },
    });
    const err = await expectPlatformError(
      h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(err.message).toMatch(/no Pages Herald can use\. Your role on Analyst Page/);
  });

  it('offers one account per Page, each with its own non-expiring Page token', async () => {
    const { code, state, sentState, html } = await h.authorize({
      fields: { account: 'Ada', pages: 'Ada Coffee, Ada Books, Ada Bikes' },
    });
    expect(html).toContain('Pages this account manages');
    expect(state).toBe(sentState);
    const accounts = await h.adapter.connect({
      code: code!,
      redirectUri: h.redirectUri,
      codeVerifier: '',
    });
    expect(accounts.map((a) => a.name)).toEqual(['Ada Coffee', 'Ada Books', 'Ada Bikes']);
    expect(new Set(accounts.map((a) => a.externalId)).size).toBe(3);
    for (const a of accounts) {
      expect(a.externalId).toMatch(/^\d{15}$/);
      expect(a.extra).toMatchObject({
        pageId: a.externalId,
        facebookUserId: accounts[0]!.extra!.facebookUserId,
      });
      expect(a.extra?.facebookUserId).toMatch(/^\d{15}$/);
      expect(a.extra?.tasks).toContain('CREATE_CONTENT');
      expect(a.pictureUrl).toContain('/_emu/picture/');
      expect(a.tokens.accessTokenExpiresAt).toBeNull();
      expect(a.tokens.refreshToken).toBeNull();
      expect(a.tokens.scopes).toEqual(expect.arrayContaining(FACEBOOK_SCOPES));
      expect(a.secrets?.userToken).toBeTruthy();
      expect(a.tokens.accessToken).not.toBe(a.secrets?.userToken);
      // The Page token acts as its Page.
      const me = await graph().getNode<{ id: string; name: string }>(
        'me',
        a.tokens.accessToken,
        'id,name',
      );
      expect(me).toEqual({ id: a.externalId, name: a.name });
    }
    const avatar = await fetch(accounts[0]!.pictureUrl!);
    expect(avatar.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('keeps the same Page ids when the same person connects again', async () => {
    const first = await connectAs('Grace', 'Grace Labs');
    const again = await connectAs('Grace', 'Grace Labs, Grace Press');
    expect(again[0]!.externalId).toBe(first[0]!.externalId);
    expect(again).toHaveLength(2);
  });

  it('follows the /me/accounts cursors to the last Page', async () => {
    const [page] = await connectAs('Paged', 'P1, P2, P3');
    const pages = await graph().listPages<{ id: string; name: string }>(
      page!.secrets!.userToken!,
      'id,name',
      1,
    );
    expect(pages.map((p) => p.name)).toEqual(['P1', 'P2', 'P3']);
  });

  it('refuses a login that manages no Pages', async () => {
    const err = await expectPlatformError(connectAs('Nobody', ''));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/manages no Pages/);
  });

  it('reports a denied authorization on the redirect', async () => {
    const { location, code, state, sentState } = await h.authorize({ decision: 'deny' });
    expect(`${location.origin}${location.pathname}`).toBe(h.redirectUri);
    expect(code).toBeNull();
    expect(state).toBe(sentState);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_reason')).toBe('user_denied');
  });

  it('refuses a code used twice, a wrong redirect_uri and a wrong app secret', async () => {
    const { code } = await h.authorize({ fields: { account: 'Ada', pages: 'Ada Coffee' } });
    await h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' });
    const reused = await expectPlatformError(
      h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '' }),
    );
    expect(reused.message).toContain('This authorization code has been used.');
    expect(reused.kind).toBe('bad_request');

    const second = await h.authorize({ fields: { account: 'Ada', pages: 'Ada Coffee' } });
    const wrongRedirect = await expectPlatformError(
      h.adapter.connect({
        code: second.code!,
        redirectUri: `${h.origin}/elsewhere`,
        codeVerifier: '',
      }),
    );
    expect(wrongRedirect.message).toMatch(/redirect_uri is identical/);

    const third = await h.authorize({ fields: { account: 'Ada', pages: 'Ada Coffee' } });
    const wrongSecret = await expectPlatformError(
      h.adapterWith({ clientSecret: 'not-the-secret' }).connect({
        code: third.code!,
        redirectUri: h.redirectUri,
        codeVerifier: '',
      }),
    );
    expect(wrongSecret.message).toContain('Error validating client secret.');
  });

  it('has no refresh: a Page token does not expire', () => {
    expect(h.adapter.refresh).toBeUndefined();
  });

  it('answers 190 (reauth) while the token_revoked knob is on', async () => {
    const [page] = await connectAs('Knobby', 'Knob Page');
    await h.setKnob('Knobby', 'token_revoked');
    const err = await expectPlatformError(graph().getNode('me', page!.tokens.accessToken, 'id'));
    expect(err.kind).toBe('reauth');
    expect(err.details.code).toBe(190);
    await h.setKnob('Knobby', 'token_revoked', false);
    await expect(graph().getNode('me', page!.tokens.accessToken, 'id')).resolves.toMatchObject({
      id: page!.externalId,
    });
  });

  it('revoke removes the app: the Page and user tokens stop working', async () => {
    const [page, other] = await connectAs('Revoker', 'R1, R2');
    await h.adapter.revoke!(stored(page!));
    for (const token of [
      page!.tokens.accessToken,
      other!.tokens.accessToken,
      page!.secrets!.userToken!,
    ]) {
      const err = await expectPlatformError(graph().getNode('me', token, 'id'));
      expect(err.kind).toBe('reauth');
    }
    // Revoking again finds nothing left to revoke.
    await expect(h.adapter.revoke!(stored(page!))).resolves.toBeUndefined();
    // A new login works again.
    const [fresh] = await connectAs('Revoker', 'R1');
    await expect(graph().getNode('me', fresh!.tokens.accessToken, 'id')).resolves.toBeTruthy();
  });

  it('keeps its state across a restart and never logs a token', async () => {
    const [page] = await connectAs('Durable', 'Durable Page');
    await h.restart();
    const me = await graph().getNode<{ id: string }>('me', page!.tokens.accessToken, 'id');
    expect(me.id).toBe(page!.externalId);
    const calls = await h.calls();
    expect(calls.some((c) => c.path === '/v24.0/oauth/access_token')).toBe(true);
    const log = JSON.stringify(calls);
    expect(log).not.toContain(page!.tokens.accessToken);
    expect(log).not.toContain(page!.secrets!.userToken);
    expect(log).not.toContain('sandbox-secret-for-tests');
  });

  it('answers an unknown field with Graph error 100', async () => {
    const [page] = await connectAs('Fields', 'Field Page');
    const err = await expectPlatformError(
      graph().getNode('me', page!.tokens.accessToken, 'id,no_such_field'),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.details.code).toBe(100);
  });
});
