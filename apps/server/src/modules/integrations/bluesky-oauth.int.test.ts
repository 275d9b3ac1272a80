import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema.js';
import { PlatformError } from '../../platforms/errors.js';
import { publishInOneGo } from '../../platforms/publish-steps.js';
import { createTestApp, send, type TestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { type Actor, createOrg } from '../../test/factories.js';
import { readForm } from '../../test/networks.js';
import { refreshAccount, toStoredAccount } from './integrations.service.js';

/**
 * Signing in on Bluesky (docs/networks.md#bluesky-oauth) through Herald's own routes, as a
 * browser does: the connect URL finds the account's server and pushes the request there, the
 * emulator's sign-in page answers Allow or Deny, and Herald's callback connects the account with
 * its DPoP key. Herald's API has a public https address here (as OAuth needs), answered in-process
 * like the sandbox it runs beside.
 */
// The test's requests arrive for localhost, as the web app's do: the API's https address keeps
// that host name, so the sign-in start is not sent to another host.
const API = 'https://localhost/api';
const SANDBOX = `${API}/sandbox/bluesky`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ API_PUBLIC_URL: API });
}, 60_000);
afterAll(() => t?.close());

const pathOf = (location: string) => {
  const u = new URL(location, TEST_PUBLIC_URL);
  return `${u.pathname}${u.search}`;
};
/** Where Herald sent the browser back, as the settings page reads it. */
const backAt = (location: string) => Object.fromEntries(new URL(location).searchParams);

/** Herald's connect URL for what the person typed: the redirect to the sign-in page. */
async function start(actor: Actor, orgId: string, typed: string) {
  const res = await send(t.app, actor.jar, {
    method: 'GET',
    url: `/api/auth/bluesky?orgId=${orgId}&instance=${encodeURIComponent(typed)}`,
  });
  return res;
}

/** The person on the sign-in page: the account (as typed there) and Allow or Deny. */
async function answer(
  actor: Actor,
  authorizeUrl: string,
  decision: 'allow' | 'deny',
  handle?: string,
) {
  expect(authorizeUrl.startsWith(`${SANDBOX}/oauth/authorize?`)).toBe(true);
  const page = await send(t.app, actor.jar, { method: 'GET', url: pathOf(authorizeUrl) });
  expect(page.statusCode).toBe(200);
  const form = readForm(page.body);
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: form.action,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      ...form.fields,
      ...(handle ? { handle } : {}),
      decision,
    }).toString(),
  });
  expect(res.statusCode).toBe(302);
  const callback = res.headers.location as string;
  expect(callback.startsWith(`${API}/auth/bluesky/callback?`)).toBe(true);
  return callback;
}

/** Herald's callback, with the person's session: where it sends the browser. */
async function callback(actor: Actor, url: string) {
  const res = await send(t.app, actor.jar, { method: 'GET', url: pathOf(url) });
  expect(res.statusCode).toBe(302);
  return backAt(res.headers.location as string);
}

const rowOf = async (orgId: string, did: string) => {
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.organizationId, orgId), eq(integrations.platformAccountId, did)));
  return row!;
};

describe('signing in on Bluesky through Herald', () => {
  it('offers the sign-in beside app passwords when Herald has a public https address', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/platforms/supported' });
    const bluesky = res.json().data.platforms.find((p: { name: string }) => p.name === 'Bluesky');
    expect(bluesky).toMatchObject({ offersSignInPage: true });
    // Only the networks that connect with app passwords say so at all.
    const x = res.json().data.platforms.find((p: { name: string }) => p.name === 'X');
    expect(x.offersSignInPage).toBeUndefined();
  });

  it('connects with the DPoP key, publishes, rotates the refresh token once for two refreshers, and revokes on disconnect', async () => {
    const { owner, orgId } = await createOrg(t.app, 'olive.oauth@example.com', 'Olive OAuth');
    const started = await start(owner, orgId, '@olive-oauth.bsky.sandbox');
    expect(started.statusCode).toBe(302);
    const authorizeUrl = started.headers.location as string;
    // The browser carries only the client and the pushed request.
    expect([...new URL(authorizeUrl).searchParams.keys()].sort()).toEqual([
      'client_id',
      'request_uri',
    ]);
    expect(new URL(authorizeUrl).searchParams.get('client_id')).toBe(
      `${API}/oauth/bluesky/client-metadata.json`,
    );
    const back = await answer(owner, authorizeUrl, 'allow');
    expect(new URL(back).searchParams.get('iss')).toBe(SANDBOX);
    expect(await callback(owner, back)).toEqual({ connected: 'Bluesky' });

    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      status: 'CONNECTED',
      metadata: { username: 'olive-oauth.bsky.sandbox' },
    });
    const did = list[0].platformAccountId as string;
    expect(did).toMatch(/^did:plc:/);

    // At rest: tokens and the DPoP key encrypted; the issuer kept for renewals.
    const row = await rowOf(orgId, did);
    expect(row.accessTokenEnc).toMatch(/^v1\./);
    expect(row.refreshTokenEnc).toMatch(/^v1\./);
    expect(row.secretsEnc).toMatch(/^v1\./);
    expect(row.secretsEnc).not.toContain('privateJwk');
    expect(row.extra).toMatchObject({ did, pds: SANDBOX, issuer: SANDBOX, dmAccess: true });
    expect(row.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    const stored = toStoredAccount(t.cipher, row);
    const dpopKey = JSON.parse(stored.secrets.dpopKey!) as { privateJwk: { d: string } };
    expect(dpopKey.privateJwk.d).toBeTruthy();

    // The DPoP-bound token publishes.
    const network = t.networks.get('bluesky')!;
    const post = await publishInOneGo(network.adapter.publishing!, stored, {
      text: 'Signed in on Bluesky through Herald',
      media: [],
      idempotencyKey: 'oauth-route-post',
    });
    expect(post.externalId).toMatch(new RegExp(`^at://${did}/app.bsky.feed.post/`));

    // Two refreshers with the same row (the job and the publisher): the refresh token is spent
    // once, the second takes the tokens the first stored, and the account stays connected.
    const deps = { db: t.database.db, cipher: t.cipher };
    const [first, second] = await Promise.all([
      refreshAccount(deps, network, row),
      refreshAccount(deps, network, row),
    ]);
    expect(first.refreshTokenEnc).toBe(second.refreshTokenEnc);
    expect(first.status).toBe('CONNECTED');
    const renewed = toStoredAccount(t.cipher, first);
    expect(renewed.tokens.refreshToken).not.toBe(stored.tokens.refreshToken);
    expect(renewed.secrets.dpopKey).toBe(stored.secrets.dpopKey);
    // The old refresh token is spent: asking with it is a reauth, as a replay would be.
    const replay = await network.adapter.refresh!(stored).catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(PlatformError);
    expect((replay as PlatformError).kind).toBe('reauth');

    // The Refresh action goes through the same path and rotates again.
    const refreshed = await owner.call('GET', `/api/auth/bluesky/refresh?orgId=${orgId}`);
    expect(refreshed.status).toBe(200);
    const after = toStoredAccount(t.cipher, await rowOf(orgId, did));
    expect(after.tokens.refreshToken).not.toBe(renewed.tokens.refreshToken);
    const again = await publishInOneGo(network.adapter.publishing!, after, {
      text: 'Still signed in after two renewals',
      media: [],
      idempotencyKey: 'oauth-route-post-2',
    });
    expect(again.externalId).toMatch(/^at:\/\//);

    // Disconnecting revokes the session at the server: its refresh token renews nothing.
    const gone = await owner.call('POST', `/api/bluesky/disconnect/${orgId}`, {});
    expect(gone.status).toBe(200);
    const revoked = await network.adapter.refresh!(after).catch((e: unknown) => e);
    expect((revoked as PlatformError).kind).toBe('reauth');
  });

  it('signs in from a server address, the account chosen on its page', async () => {
    const { owner, orgId } = await createOrg(t.app, 'pat.oauth@example.com', 'Pat OAuth');
    const started = await start(owner, orgId, SANDBOX);
    expect(started.statusCode).toBe(302);
    const back = await answer(
      owner,
      started.headers.location as string,
      'allow',
      'pat-oauth.bsky.sandbox',
    );
    expect(await callback(owner, back)).toEqual({ connected: 'Bluesky' });
    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms;
    expect(list[0].metadata.username).toBe('pat-oauth.bsky.sandbox');

    // Reconnected with an app password, the account drops the OAuth session's key and server:
    // its session is sent as Bearer again, and still publishes.
    const withPassword = await owner.call(
      'POST',
      `/api/organizations/${orgId}/integrations/bluesky/app-password`,
      { identifier: 'pat-oauth.bsky.sandbox', appPassword: 'abcd-efgh-ijkl-mnop' },
    );
    expect(withPassword.status).toBe(200);
    const row = await rowOf(orgId, list[0].platformAccountId);
    expect(row.extra.issuer).toBeNull();
    const stored = toStoredAccount(t.cipher, row);
    expect(stored.secrets.dpopKey).toBeUndefined();
    const post = await publishInOneGo(t.networks.get('bluesky')!.adapter.publishing!, stored, {
      text: 'Back on an app password',
      media: [],
      idempotencyKey: 'app-password-after-oauth',
    });
    expect(post.externalId).toMatch(/^at:\/\//);
  });

  it('comes back to the connect screen with a sentence after Deny, a wrong account, a wrong state or a wrong server', async () => {
    const { owner, orgId } = await createOrg(t.app, 'dee.oauth@example.com', 'Dee OAuth');

    const denied = await answer(
      owner,
      (await start(owner, orgId, 'dee-oauth.bsky.sandbox')).headers.location as string,
      'deny',
    );
    expect(await callback(owner, denied)).toEqual({
      platform: 'Bluesky',
      connectError:
        'You did not allow Herald to use your Bluesky account. Connect again and approve access to continue.',
    });

    // Another account signed in on the page than the one named: refused, nothing stored.
    const other = await answer(
      owner,
      (await start(owner, orgId, 'dee-oauth.bsky.sandbox')).headers.location as string,
      'allow',
      'someone-else.bsky.sandbox',
    );
    const refused = await callback(owner, other);
    expect(refused.connectError).toMatch(
      /^Bluesky signed in did:plc:\w+, not did:plc:\w+, the account you named\./,
    );

    // A state that was altered, or an answer naming another server, is refused before its code.
    const allowed = await answer(
      owner,
      (await start(owner, orgId, 'dee-oauth.bsky.sandbox')).headers.location as string,
      'allow',
    );
    const altered = new URL(allowed);
    altered.searchParams.set('state', `${altered.searchParams.get('state')}x`);
    expect((await callback(owner, altered.toString())).connectError).toBe(
      'This connection link has expired or was altered. Please connect again.',
    );
    const elsewhere = new URL(allowed);
    elsewhere.searchParams.set('iss', 'https://pds.example');
    expect((await callback(owner, elsewhere.toString())).connectError).toBe(
      'This answer did not come from the Bluesky server the sign-in was sent to. Please connect again.',
    );
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data.platforms,
    ).toEqual([]);

    // What is not a handle, a DID or a server comes back as a sentence too.
    const bad = await start(owner, orgId, 'not a handle');
    expect(bad.statusCode).toBe(302);
    expect(backAt(bad.headers.location as string).connectError).toMatch(
      /is not a Bluesky handle, DID or server address/,
    );
    // A server that does not answer (a closed port on this machine) is a sentence, not a 500.
    const silent = await start(owner, orgId, 'https://127.0.0.1:1');
    expect(silent.statusCode, silent.body).toBe(302);
    expect(backAt(silent.headers.location as string).connectError).toBe(
      'That server could not be reached. Check the address, or try again in a moment.',
    );
  });
});

describe('without a public https address', () => {
  it('offers app passwords only, and the sign-in says why', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/api/platforms/supported' });
      const bluesky = res.json().data.platforms.find((p: { name: string }) => p.name === 'Bluesky');
      expect(bluesky.offersSignInPage).toBe(false);
      const { owner, orgId } = await createOrg(plain.app, 'plain.oauth@example.com', 'Plain');
      const started = await send(plain.app, owner.jar, {
        method: 'GET',
        url: `/api/auth/bluesky?orgId=${orgId}&instance=olive.bsky.sandbox`,
      });
      expect(started.statusCode).toBe(302);
      expect(backAt(started.headers.location as string).connectError).toMatch(
        /connect with a handle and an app password here.*public https address/,
      );
    } finally {
      await plain.close();
    }
  });
});
